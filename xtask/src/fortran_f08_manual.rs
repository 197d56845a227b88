//! The `use mpi_f08` interfaces of the routines bound by hand (`mpi/src/fortran_manual/`):
//! the same gfortran entry points as `use mpi`, declared with the derived handle types.
//! Procedure arguments are `external` (the user's procedures have the standard's abstract
//! interfaces; f08's `TYPE(C_PTR), VALUE` buffers and derived handles are passed exactly as the
//! `use mpi` ones). Base addresses are `TYPE(C_PTR)`.

/// The interface blocks before the neighbour alltoallw forms (module scope, two-space indent).
const BEFORE_NEIGHBOR_ALLTOALLW: &str = r#"  ! Routines bound by hand (mpi/src/fortran_manual/)
  external :: MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN
  external :: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN
  external :: MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN
  external :: MPI_CONVERSION_FN_NULL
  interface
    subroutine MPI_COMM_GET_ATTR(comm, comm_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_COMM_GET_ATTR
    subroutine MPI_COMM_SET_ATTR(comm, comm_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      integer, optional :: ierror
    end subroutine MPI_COMM_SET_ATTR
    subroutine MPI_TYPE_GET_ATTR(datatype, type_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: type_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_ATTR
    subroutine MPI_TYPE_SET_ATTR(datatype, type_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: type_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      integer, optional :: ierror
    end subroutine MPI_TYPE_SET_ATTR
    subroutine MPI_WIN_GET_ATTR(win, win_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: win_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_WIN_GET_ATTR
    subroutine MPI_WIN_SET_ATTR(win, win_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: win_keyval
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      integer, optional :: ierror
    end subroutine MPI_WIN_SET_ATTR
    subroutine MPI_COMM_CREATE_KEYVAL(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, &
        extra_state, ierror)
      import
      implicit none
      external :: comm_copy_attr_fn, comm_delete_attr_fn
      integer :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer, optional :: ierror
    end subroutine MPI_COMM_CREATE_KEYVAL
    subroutine MPI_TYPE_CREATE_KEYVAL(type_copy_attr_fn, type_delete_attr_fn, type_keyval, &
        extra_state, ierror)
      import
      implicit none
      external :: type_copy_attr_fn, type_delete_attr_fn
      integer :: type_keyval
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_KEYVAL
    subroutine MPI_WIN_CREATE_KEYVAL(win_copy_attr_fn, win_delete_attr_fn, win_keyval, &
        extra_state, ierror)
      import
      implicit none
      external :: win_copy_attr_fn, win_delete_attr_fn
      integer :: win_keyval
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer, optional :: ierror
    end subroutine MPI_WIN_CREATE_KEYVAL
    subroutine MPI_COMM_CREATE_ERRHANDLER(comm_errhandler_fn, errhandler, ierror)
      import
      implicit none
      external :: comm_errhandler_fn
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_COMM_CREATE_ERRHANDLER
    subroutine MPI_WIN_CREATE_ERRHANDLER(win_errhandler_fn, errhandler, ierror)
      import
      implicit none
      external :: win_errhandler_fn
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_WIN_CREATE_ERRHANDLER
    subroutine MPI_FILE_CREATE_ERRHANDLER(file_errhandler_fn, errhandler, ierror)
      import
      implicit none
      external :: file_errhandler_fn
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_FILE_CREATE_ERRHANDLER
    subroutine MPI_SESSION_CREATE_ERRHANDLER(session_errhandler_fn, errhandler, ierror)
      import
      implicit none
      external :: session_errhandler_fn
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_SESSION_CREATE_ERRHANDLER
    subroutine MPI_OP_CREATE(user_fn, commute, op, ierror)
      import
      implicit none
      external :: user_fn
      logical :: commute
      type(MPI_Op) :: op
      integer, optional :: ierror
    end subroutine MPI_OP_CREATE
    subroutine MPI_ALLOC_MEM(size, info, baseptr, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND) :: size
      type(MPI_Info) :: info
      type(c_ptr) :: baseptr
      integer, optional :: ierror
    end subroutine MPI_ALLOC_MEM
    subroutine MPI_WIN_ALLOCATE(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer :: disp_unit
      type(MPI_Info) :: info
      type(MPI_Comm) :: comm
      type(c_ptr) :: baseptr
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_ALLOCATE
    subroutine MPI_WIN_ALLOCATE_SHARED(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer :: disp_unit
      type(MPI_Info) :: info
      type(MPI_Comm) :: comm
      type(c_ptr) :: baseptr
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_ALLOCATE_SHARED
    subroutine MPI_WIN_SHARED_QUERY(win, rank, size, disp_unit, baseptr, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: rank
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer :: disp_unit
      type(c_ptr) :: baseptr
      integer, optional :: ierror
    end subroutine MPI_WIN_SHARED_QUERY
    subroutine MPI_BUFFER_DETACH(buffer_addr, size, ierror)
      import
      implicit none
      type(c_ptr) :: buffer_addr
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_BUFFER_DETACH
    subroutine MPI_PCONTROL(level, ierror)
      import
      implicit none
      integer :: level
      integer, optional :: ierror
    end subroutine MPI_PCONTROL
    subroutine MPI_INFO_CREATE_ENV(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_INFO_CREATE_ENV
    subroutine MPI_COMM_IDUP(comm, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Comm) :: newcomm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_COMM_IDUP
    subroutine MPI_COMM_SPAWN(command, argv, maxprocs, info, root, comm, intercomm, &
        array_of_errcodes, ierror)
      import
      implicit none
      character(len=*) :: command
      character(len=*) :: argv(*)
      integer :: maxprocs, root
      type(MPI_Info) :: info
      type(MPI_Comm) :: comm, intercomm
      integer :: array_of_errcodes(*)
      integer, optional :: ierror
    end subroutine MPI_COMM_SPAWN
    subroutine MPI_COMM_IDUP_WITH_INFO(comm, info, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Comm) :: newcomm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_COMM_IDUP_WITH_INFO
    subroutine MPI_COMM_SPAWN_MULTIPLE(count, array_of_commands, array_of_argv, &
        array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes, ierror)
      import
      implicit none
      integer :: count
      character(len=*) :: array_of_commands(*)
      character(len=*) :: array_of_argv(count, *)
      integer :: array_of_maxprocs(*)
      type(MPI_Info) :: array_of_info(*)
      integer :: root
      type(MPI_Comm) :: comm, intercomm
      integer :: array_of_errcodes(*)
      integer, optional :: ierror
    end subroutine MPI_COMM_SPAWN_MULTIPLE
"#;

/// The interface blocks after them.
const AFTER_NEIGHBOR_ALLTOALLW: &str = r#"    subroutine MPI_COMM_DETACH_BUFFER(comm, buffer_addr, size, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(c_ptr) :: buffer_addr
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_COMM_DETACH_BUFFER
    subroutine MPI_SESSION_DETACH_BUFFER(session, buffer_addr, size, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(c_ptr) :: buffer_addr
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_SESSION_DETACH_BUFFER
    subroutine MPI_REGISTER_DATAREP(datarep, read_conversion_fn, write_conversion_fn, &
        dtype_file_extent_fn, extra_state, ierror)
      import
      implicit none
      character(len=*) :: datarep
      external :: read_conversion_fn, write_conversion_fn, dtype_file_extent_fn
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer, optional :: ierror
    end subroutine MPI_REGISTER_DATAREP
    subroutine MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
      import
      implicit none
      external :: query_fn, free_fn, cancel_fn
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_GREQUEST_START
  end interface
"#;

/// The three neighbour alltoallw forms (blocking, non-blocking, persistent): the same
/// arguments, then each form's own trailing handles (name, f08 type).
const NEIGHBOR_ALLTOALLW_FORMS: [(&str, &[(&str, &str)]); 3] = [
    ("MPI_NEIGHBOR_ALLTOALLW", &[]),
    ("MPI_INEIGHBOR_ALLTOALLW", &[("request", "MPI_Request")]),
    (
        "MPI_NEIGHBOR_ALLTOALLW_INIT",
        &[("info", "MPI_Info"), ("request", "MPI_Request")],
    ),
];

/// The interface blocks (module scope, two-space indent).
pub fn interfaces() -> String {
    let mut out = String::from(BEFORE_NEIGHBOR_ALLTOALLW);
    for (name, extra) in NEIGHBOR_ALLTOALLW_FORMS {
        out.push_str(&neighbor_alltoallw(name, extra));
    }
    out.push_str(AFTER_NEIGHBOR_ALLTOALLW);
    out
}

/// One neighbour alltoallw interface: choice buffers, counts, address-sized displacements and
/// one datatype per neighbour, then `extra` handles before `ierror`.
fn neighbor_alltoallw(name: &str, extra: &[(&str, &str)]) -> String {
    let mut args = String::from("comm, ");
    let mut decls = String::new();
    for (arg, ty) in extra {
        args.push_str(&format!("{arg}, "));
        decls.push_str(&format!("      type({ty}) :: {arg}\n"));
    }
    let mut out = format!(
        "    subroutine {name}(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &\n        \
         recvcounts, rdispls, recvtypes, {args}ierror)\n      import\n      implicit none\n"
    );
    for side in ["send", "recv"] {
        let d = &side[..1];
        out.push_str(&format!(
            "      !GCC$ ATTRIBUTES NO_ARG_CHECK :: {side}buf\n      \
             type(*), dimension(*) :: {side}buf\n      integer :: {side}counts(*)\n      \
             integer(kind=MPI_ADDRESS_KIND) :: {d}displs(*)\n      \
             type(MPI_Datatype) :: {side}types(*)\n"
        ));
    }
    out.push_str(&format!(
        "      type(MPI_Comm) :: comm\n{decls}      integer, optional :: ierror\n    \
         end subroutine {name}\n"
    ));
    out
}
