//! Errors and error handlers (MPI 4.1 §9.3 to §9.5):
//!
//! * [`report`]: the MPI error classes, how nexar's errors map onto them, the path every
//!   function reports through (`call`, the communicator's error handler) and
//!   `MPI_Error_string` / `MPI_Error_class`;
//! * [`codes`]: user error classes, codes and strings (`MPI_Add_error_class`, ...) and user
//!   error handlers (`MPI_Comm_create_errhandler`, `MPI_Errhandler_free`,
//!   `MPI_Comm_call_errhandler`).

pub mod codes;
pub mod report;
