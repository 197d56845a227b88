//! Point-to-point communication (MPI 4.1 chapter 3):
//!
//! * [`blocking`]: `MPI_Send`, `MPI_Recv`, `MPI_Sendrecv`, `MPI_Probe`, ...;
//! * [`nonblocking`]: `MPI_Isend`, `MPI_Irecv`, `MPI_Isendrecv`, ...;
//! * [`send_modes`]: synchronous and ready sends, the start every send mode shares, and
//!   `MPI_Sendrecv_replace`;
//! * [`buffered`]: buffered sends (`MPI_Bsend`, `MPI_Buffer_attach`, ...);
//! * [`matched_probe`]: `MPI_Mprobe`, `MPI_Improbe`, `MPI_Mrecv`, `MPI_Imrecv`;
//! * [`cancel`]: `MPI_Cancel`, `MPI_Status_set_cancelled`;
//! * [`persistent`]: persistent point-to-point requests (`MPI_Send_init`, ... `MPI_Start`).
//!
//! Requests and their completion are in [`crate::request`].

pub mod blocking;
pub mod buffered;
pub mod cancel;
pub mod matched_probe;
pub mod nonblocking;
pub mod partitioned;
pub mod persistent;
pub mod send_modes;
