//! Stubs of the MPI functions nexar does not implement yet (IMPL `no` in
//! `mpi/spec/functions.txt`): each raises `MPI_ERR_UNSUPPORTED_OPERATION` naming the
//! function. Generated from mpi/spec by `cargo xtask gen`; do not edit.

stub!(MPI_Close_port, PMPI_Close_port);
stub!(MPI_Comm_accept, PMPI_Comm_accept);
stub!(MPI_Comm_connect, PMPI_Comm_connect);
stub!(MPI_Comm_join, PMPI_Comm_join);
stub!(MPI_Comm_spawn, PMPI_Comm_spawn);
stub!(MPI_Comm_spawn_multiple, PMPI_Comm_spawn_multiple);
stub!(MPI_Lookup_name, PMPI_Lookup_name);
stub!(MPI_Open_port, PMPI_Open_port);
stub!(MPI_Publish_name, PMPI_Publish_name);
stub!(MPI_Unpublish_name, PMPI_Unpublish_name);
