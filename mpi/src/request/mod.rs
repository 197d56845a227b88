//! Requests and statuses (MPI 4.1 §3.7 and §13.2):
//!
//! * [`table`]: `MPI_Request`, the request table, starting and freeing requests;
//! * [`complete`]: `MPI_Wait`, `MPI_Test` and their all / any / some forms;
//! * [`get_status`]: `MPI_Request_get_status` (and its forms) and `MPI_Test_cancelled`;
//! * [`generalized`]: generalized requests (`MPI_Grequest_start`, `MPI_Grequest_complete`);
//! * [`status`]: the `MPI_Status` layout and `MPI_Get_count`;
//! * [`status_fields`]: `MPI_Status_get_*` / `MPI_Status_set_*`.

pub mod complete;
pub mod generalized;
pub mod get_status;
pub mod status;
pub mod status_fields;
pub mod table;
