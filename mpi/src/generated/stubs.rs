//! Stubs of the MPI functions nexar does not implement yet (IMPL `no` in
//! `mpi/spec/functions.txt`): each raises `MPI_ERR_UNSUPPORTED_OPERATION` naming the
//! function. Generated from mpi/spec by `cargo xtask gen`; do not edit.

