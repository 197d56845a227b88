//! Hand-written Fortran bindings (`mpif.h`, `use mpi`) of functions the generator cannot map
//! mechanically ([`crate::generated::fortran`] lists them): attribute values, base addresses,
//! Fortran procedures given to MPI, arrays of strings, and arguments Fortran does not have.
//!
//! * Attribute values are `INTEGER(KIND=MPI_ADDRESS_KIND)` in Fortran (a default INTEGER for
//!   the deprecated `MPI_ATTR_GET` / `PUT`). Setting one stores the integer itself as C's
//!   `void *` value (what a Fortran caller reads back). Reading a predefined attribute gives its
//!   value, not the address C gets: `MPI_TAG_UB` and the other `int` attributes of
//!   communicators, `MPI_WIN_SIZE`, `MPI_WIN_DISP_UNIT`, `MPI_WIN_CREATE_FLAVOR`,
//!   `MPI_WIN_MODEL`; `MPI_WIN_BASE` is the base address, as in C.
//! * Base addresses (`MPI_Alloc_mem`, `MPI_Win_allocate`, `_shared`, `MPI_Win_shared_query`)
//!   come back as `INTEGER(KIND=MPI_ADDRESS_KIND)` (Fortran programs turn them into pointers with
//!   `C_F_POINTER(TRANSFER(...))` or Cray pointers). The buffer detach functions give back only
//!   the size (the address means nothing to a Fortran program).
//! * `MPI_OP_CREATE` takes `SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE)`, which gets the
//!   INTEGER handle of the datatype (`coll::op::create_from_fortran`).
//! * Keyvals made from Fortran call Fortran copy and delete procedures (C trampolines carry them
//!   in the extra state); `MPI_*_NULL_COPY_FN`, `MPI_*_DUP_FN`, `MPI_*_NULL_DELETE_FN` are
//!   subroutines of the library. Error handlers made from Fortran get INTEGER handles.
//! * `MPI_COMM_SPAWN` / `_MULTIPLE` take Fortran argument lists (blank-terminated CHARACTER
//!   arrays, `MPI_ARGV_NULL` / `MPI_ARGVS_NULL`), read at the root only.
//! * `MPI_PCONTROL(LEVEL)` has no varargs; `MPI_INFO_CREATE_ENV(INFO)` has no `argc`/`argv`.
//!
//! * `MPI_COMM_IDUP` writes the new handle at once (nexar's duplication is complete when the C
//!   call returns); the neighbourhood `MPI_(I)NEIGHBOR_ALLTOALLW(_INIT)` size their datatype
//!   arrays by the topology's degrees.
//!
//! * Generalized requests started from Fortran call Fortran query, free and cancel procedures.
//!
//! * `MPI_REGISTER_DATAREP`'s extent procedure gets INTEGER datatype handles;
//!   `MPI_CONVERSION_FN_NULL` is a library subroutine recognised by its address.
//!
//! `use mpi_f08` declares the same entry points with its derived types (`TYPE(C_PTR)` base
//! addresses; `xtask/src/fortran_f08_manual.rs`), but for the deprecated `MPI_ATTR_*` /
//! `MPI_KEYVAL_CREATE`. The standard ABI's
//! `MPI_Abi_get/set_fortran_booleans` describe a Fortran binding to C and have no Fortran form.

mod datarep;
mod errhandlers;
mod grequest;
mod idup;
mod keyvals;
mod neighbour;
mod spawn;
mod values;
