//! Files written by `cargo xtask gen` from `mpi/spec`; do not edit them.

// Kept exactly as generated (one stub a line), so `cargo xtask check` compares them as written.
#[rustfmt::skip]
pub mod stubs;
#[rustfmt::skip]
pub mod fortran;
