//! Collective communication (MPI 4.1 chapter 6), reductions included:
//!
//! * [`blocking`]: the blocking collectives (`MPI_Barrier`, `MPI_Bcast`, ... `MPI_Reduce`) and the
//!   one start every form shares;
//! * [`inter`]: the same collectives on an intercommunicator (barrier, bcast, reduce,
//!   allreduce, gather, allgather, scatter, alltoall), which [`blocking`]'s starts hand over;
//! * [`nonblocking`]: `MPI_Ibarrier`, `MPI_Ibcast`, ...;
//! * [`vector`]: the vector and prefix collectives (`MPI_Gatherv`, ... `MPI_Exscan`), blocking
//!   and non-blocking;
//! * [`alltoallw`]: `MPI_Alltoallw` and `MPI_Ialltoallw`;
//! * [`persistent`]: the persistent collectives (`MPI_Bcast_init`, ...);
//! * [`op`]: reduction operations (`MPI_Op_create`, `MPI_Reduce_local`, ...), which the standard
//!   defines with the reduction collectives that use them;
//! * [`reducers`]: the reducer of a predefined operation on a datatype (engine kernels, plus
//!   complex products, `long double` through [`x87`], padded pair types);

pub mod alltoallw;
pub mod blocking;
pub mod inter;
pub mod neighbor;
pub mod neighbor_persistent;
pub mod nonblocking;
pub mod op;
pub mod persistent;
pub mod reducers;
pub mod vector;
#[cfg(target_arch = "x86_64")]
pub mod x87;
