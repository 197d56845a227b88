//! Communicators and what is kept with them: groups, topologies, info and attributes (MPI 4.1
//! chapters 7, 8 and 10), and the ULFM fault-tolerance extension:
//!
//! * [`communicator`]: rank, size, dup, split, create, compare, names, free;
//! * [`group`]: groups (`MPI_Group_*`);
//! * [`intercomm`]: intercommunicators (`MPI_Intercomm_*`, remote size and group);
//! * [`ports`]: ports, accept / connect / join and the name service;
//! * [`spawn`]: dynamic processes (`MPI_Comm_spawn`, `_multiple`, `MPI_Comm_get_parent`);
//! * [`topo`]: Cartesian topologies (`MPI_Cart_*`, `MPI_Dims_create`) and the topology store;
//! * [`topo_graph`]: graph and distributed graph topologies;
//! * [`info`]: `MPI_Info` objects and the info hints kept with communicators;
//! * [`attr`]: attributes cached on communicators and `MPI_Pcontrol`;
//! * [`attr_store`]: the keyval and attribute model shared with datatypes;
//! * [`ulfm`]: `MPIX_Comm_revoke`, `MPIX_Comm_shrink`, `MPIX_Comm_agree`, ...

pub mod attr;
pub mod attr_store;
pub mod communicator;
pub mod group;
pub mod info;
pub mod intercomm;
pub mod ports;
pub mod spawn;
pub mod topo;
pub mod topo_graph;
pub mod ulfm;
