//! The rendezvous: how the ranks of a job learn each other's QUIC endpoint addresses and host
//! names. It runs over QUIC with the job's certificates: the server presents
//! `rendezvous.<jobid>.nexar`, each client its rank certificate, so a process without the job
//! secret can neither join nor impersonate the server.
//!
//! Each rank opens a bidirectional stream and sends a [`Hello`] (rank, size, endpoint address,
//! host name); the server waits for all ranks (refusing duplicate ranks, size mismatches and
//! out-of-range ranks) and replies to every rank with the full table, or, after
//! `connect_timeout`, with an error naming the missing ranks. The connections then stay open
//! as a control channel ([`control`]): the launcher tells every rank at once when one dies,
//! and each rank tells it whether it returns errors (and should survive a peer's death).

pub mod bind_failure;
mod client;
pub mod control;
pub mod proto;
mod server;

pub use client::{RendezvousLink, join};
pub use control::{Control, ControlHub};
pub use proto::{Hello, Reply};
pub use server::{RendezvousAbort, RendezvousServer};

// Multi-host launches: the link between one nexarrun per host.
pub mod launcher_proto;
pub mod launchers;
