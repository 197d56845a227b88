//! Errors and error handlers (MPI 4.1 §9.3 to §9.5):
//!
//! * [`report`]: the MPI error classes, how nexar's errors map onto them, the path every
//!   function reports through (`call`, the communicator's error handler) and
//!   `MPI_Error_string` / `MPI_Error_class`;
//! * [`codes`]: user error classes, codes and strings (`MPI_Add_error_class`, ...);
//! * [`handlers`]: error handlers, predefined and user (`MPI_Comm_create_errhandler`,
//!   `MPI_Comm_set_errhandler`, `MPI_Comm_get_errhandler`, `MPI_Errhandler_free`,
//!   `MPI_Comm_call_errhandler`).

pub mod codes;
pub mod handlers;
pub mod mismatch_words;
pub mod report;
