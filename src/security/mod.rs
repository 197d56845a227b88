//! Job secret, job CA and per-rank certificates.
//!
//! Every job has a 32-byte [`JobSecret`]. From it every process derives, identically and without
//! talking to anyone, the job id and the job CA ([`JobCa`]). Each process then issues itself a
//! leaf certificate with a fresh key, signed by that CA, naming its role: `rank-<R>.<jobid>.nexar`
//! for world rank `R`, `rendezvous.<jobid>.nexar` for the launcher's rendezvous. TLS
//! ([`Credentials`]) trusts the job CA only and requires certificates on both sides, so a process
//! without the secret cannot connect, join, or inject a message; [`verify`] checks that a peer's
//! certificate names the rank it claims.

mod ca;
mod secret;
mod tls;
pub mod verify;

pub use ca::{Identity, JobCa, rank_name, rendezvous_name};
pub use secret::{JobSecret, SECRET_LEN};
pub use tls::{BULK_TLS_ALPN, Credentials, RENDEZVOUS_ALPN, TRANSPORT_ALPN};
