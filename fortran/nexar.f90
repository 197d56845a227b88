! nexar: Fortran interface to the C API (include/nexar.h) through iso_c_binding.
!
!   use nexar
!   integer(c_int) :: ierr, rank
!   ierr = nexar_init(c_null_ptr, c_null_ptr)
!   ierr = nexar_comm_rank(nexar_comm_world(), rank)
!   ierr = nexar_allreduce(x, y, size(x, kind=c_size_t), NEXAR_DTYPE_DOUBLE, NEXAR_OP_SUM, &
!                          nexar_comm_world())
!   ierr = nexar_finalize()
!
! The module holds interfaces and constants only (no code), so a program needs this module's
! .mod file and libnexar, nothing else. Every function returns the C status (an integer(c_int),
! NEXAR_SUCCESS = 0); see nexar.h for the full contract of each call.
!
! Mapping: handles (nexar_comm_t, nexar_request_t) are type(c_ptr), passed by value. The C macros
! NEXAR_COMM_WORLD / NEXAR_COMM_SELF are the functions nexar_comm_world() / nexar_comm_self().
! Datatype and op codes are integer(c_int32_t); counts are integer(c_size_t) in elements; ranks,
! roots and tags are integer(c_int). Buffers are arrays of any type (assumed type, assumed size):
! integer(c_int32_t) <-> NEXAR_DTYPE_INT32, integer(c_int64_t) <-> NEXAR_DTYPE_INT64,
! real(c_float) <-> NEXAR_DTYPE_FLOAT, real(c_double) <-> NEXAR_DTYPE_DOUBLE.
! nexar_error_string and nexar_last_error_message return a C string as type(c_ptr).
!
! The constants mirror nexar.h (a CTest test compares them).
module nexar
  use, intrinsic :: iso_c_binding, only: c_int, c_int32_t, c_size_t, c_double, c_ptr, &
                                         c_null_ptr, c_loc, c_associated, c_f_pointer
  implicit none
  private
  public :: c_int, c_int32_t, c_size_t, c_double, c_ptr, c_null_ptr, c_loc, c_associated, &
            c_f_pointer

  ! Status codes.
  integer(c_int), parameter, public :: NEXAR_SUCCESS = 0
  integer(c_int), parameter, public :: NEXAR_ERR_ARG = 1
  integer(c_int), parameter, public :: NEXAR_ERR_RANK = 2
  integer(c_int), parameter, public :: NEXAR_ERR_ROOT = 3
  integer(c_int), parameter, public :: NEXAR_ERR_COUNT = 4
  integer(c_int), parameter, public :: NEXAR_ERR_DATATYPE = 5
  integer(c_int), parameter, public :: NEXAR_ERR_OP = 6
  integer(c_int), parameter, public :: NEXAR_ERR_COMM = 7
  integer(c_int), parameter, public :: NEXAR_ERR_TAG = 8
  integer(c_int), parameter, public :: NEXAR_ERR_TRUNCATED = 9
  integer(c_int), parameter, public :: NEXAR_ERR_PROC_FAILED = 10
  integer(c_int), parameter, public :: NEXAR_ERR_MISMATCH = 11
  integer(c_int), parameter, public :: NEXAR_ERR_TRANSPORT = 12
  integer(c_int), parameter, public :: NEXAR_ERR_SECURITY = 13
  integer(c_int), parameter, public :: NEXAR_ERR_BOOTSTRAP = 14
  integer(c_int), parameter, public :: NEXAR_ERR_TIMEOUT = 15
  integer(c_int), parameter, public :: NEXAR_ERR_FINALIZED = 16
  integer(c_int), parameter, public :: NEXAR_ERR_NOT_INITIALIZED = 17
  integer(c_int), parameter, public :: NEXAR_ERR_PENDING = 18
  integer(c_int), parameter, public :: NEXAR_ERR_UNSUPPORTED = 19
  integer(c_int), parameter, public :: NEXAR_ERR_RESOURCE = 20
  integer(c_int), parameter, public :: NEXAR_ERR_REVOKED = 21
  integer(c_int), parameter, public :: NEXAR_ERR_INTERNAL = 22
  integer(c_int), parameter, public :: NEXAR_ERR_REQUEST = 23
  integer(c_int), parameter, public :: NEXAR_ERR_RMA_SYNC = 24
  integer(c_int), parameter, public :: NEXAR_ERR_RMA_RANGE = 25

  ! Error modes (nexar_set_error_mode).
  integer(c_int), parameter, public :: NEXAR_ERRORS_RETURN = 0
  integer(c_int), parameter, public :: NEXAR_ERRORS_ABORT = 1

  ! Datatype codes.
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_INT8 = 1
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_UINT8 = 2
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_INT16 = 3
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_UINT16 = 4
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_INT32 = 5
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_UINT32 = 6
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_INT64 = 7
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_UINT64 = 8
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_FLOAT16 = 9
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_BFLOAT16 = 10
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_FLOAT = 11
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_DOUBLE = 12
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_FLOAT_INT = 13
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_DOUBLE_INT = 14
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_2INT = 15
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_LONG_INT = 16
  integer(c_int32_t), parameter, public :: NEXAR_DTYPE_SHORT_INT = 17

  ! Reduction operators.
  integer(c_int32_t), parameter, public :: NEXAR_OP_SUM = 1
  integer(c_int32_t), parameter, public :: NEXAR_OP_PROD = 2
  integer(c_int32_t), parameter, public :: NEXAR_OP_MIN = 3
  integer(c_int32_t), parameter, public :: NEXAR_OP_MAX = 4
  integer(c_int32_t), parameter, public :: NEXAR_OP_LAND = 5
  integer(c_int32_t), parameter, public :: NEXAR_OP_LOR = 6
  integer(c_int32_t), parameter, public :: NEXAR_OP_LXOR = 7
  integer(c_int32_t), parameter, public :: NEXAR_OP_BAND = 8
  integer(c_int32_t), parameter, public :: NEXAR_OP_BOR = 9
  integer(c_int32_t), parameter, public :: NEXAR_OP_BXOR = 10
  integer(c_int32_t), parameter, public :: NEXAR_OP_MINLOC = 11
  integer(c_int32_t), parameter, public :: NEXAR_OP_MAXLOC = 12

  ! Wildcards and special values.
  integer(c_int), parameter, public :: NEXAR_ANY_SOURCE = -1
  integer(c_int), parameter, public :: NEXAR_ANY_TAG = -1
  integer(c_int), parameter, public :: NEXAR_TAG_UB = huge(0_c_int32_t)
  integer(c_int), parameter, public :: NEXAR_UNDEFINED = -32766
  integer(c_int), parameter, public :: NEXAR_COMM_TYPE_SHARED = 1

  ! What a receive reports (struct nexar_status_t).
  type, bind(C), public :: nexar_status_t
    integer(c_int32_t) :: source
    integer(c_int32_t) :: tag
    integer(c_int32_t) :: error
    integer(c_size_t) :: count
  end type nexar_status_t

  public :: nexar_init, nexar_finalize, nexar_initialized, nexar_finalized, nexar_abort
  public :: nexar_wtime, nexar_version, nexar_version_string
  public :: nexar_error_string, nexar_last_error_message, nexar_set_error_mode
  public :: nexar_comm_world, nexar_comm_self, nexar_comm_rank, nexar_comm_size
  public :: nexar_comm_split, nexar_comm_dup, nexar_comm_free
  public :: nexar_barrier, nexar_bcast, nexar_reduce, nexar_allreduce
  public :: nexar_send, nexar_recv, nexar_sendrecv

  interface
    ! ---- lifecycle ---------------------------------------------------------------------------
    ! argc and argv may be (and from Fortran are) c_null_ptr.
    integer(c_int) function nexar_init(argc, argv) bind(C, name="nexar_init")
      import :: c_int, c_ptr
      type(c_ptr), value :: argc
      type(c_ptr), value :: argv
    end function nexar_init

    integer(c_int) function nexar_finalize() bind(C, name="nexar_finalize")
      import :: c_int
    end function nexar_finalize

    integer(c_int) function nexar_initialized(flag) bind(C, name="nexar_initialized")
      import :: c_int
      integer(c_int), intent(out) :: flag
    end function nexar_initialized

    integer(c_int) function nexar_finalized(flag) bind(C, name="nexar_finalized")
      import :: c_int
      integer(c_int), intent(out) :: flag
    end function nexar_finalized

    integer(c_int) function nexar_abort(code) bind(C, name="nexar_abort")
      import :: c_int
      integer(c_int), value :: code
    end function nexar_abort

    real(c_double) function nexar_wtime() bind(C, name="nexar_wtime")
      import :: c_double
    end function nexar_wtime

    integer(c_int) function nexar_version(major, minor, patch) bind(C, name="nexar_version")
      import :: c_int
      integer(c_int), intent(out) :: major, minor, patch
    end function nexar_version

    type(c_ptr) function nexar_version_string() bind(C, name="nexar_version_string")
      import :: c_ptr
    end function nexar_version_string

    type(c_ptr) function nexar_error_string(code) bind(C, name="nexar_error_string")
      import :: c_int, c_ptr
      integer(c_int), value :: code
    end function nexar_error_string

    type(c_ptr) function nexar_last_error_message() bind(C, name="nexar_last_error_message")
      import :: c_ptr
    end function nexar_last_error_message

    integer(c_int) function nexar_set_error_mode(mode) bind(C, name="nexar_set_error_mode")
      import :: c_int
      integer(c_int), value :: mode
    end function nexar_set_error_mode

    ! ---- communicators -----------------------------------------------------------------------
    type(c_ptr) function nexar_comm_world() bind(C, name="nexar_comm_world")
      import :: c_ptr
    end function nexar_comm_world

    type(c_ptr) function nexar_comm_self() bind(C, name="nexar_comm_self")
      import :: c_ptr
    end function nexar_comm_self

    integer(c_int) function nexar_comm_rank(comm, rank) bind(C, name="nexar_comm_rank")
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int), intent(out) :: rank
    end function nexar_comm_rank

    integer(c_int) function nexar_comm_size(comm, size) bind(C, name="nexar_comm_size")
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int), intent(out) :: size
    end function nexar_comm_size

    ! newcomm is c_null_ptr on ranks that passed color = NEXAR_UNDEFINED.
    integer(c_int) function nexar_comm_split(comm, color, key, newcomm) &
        bind(C, name="nexar_comm_split")
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int), value :: color, key
      type(c_ptr), intent(out) :: newcomm
    end function nexar_comm_split

    integer(c_int) function nexar_comm_dup(comm, newcomm) bind(C, name="nexar_comm_dup")
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      type(c_ptr), intent(out) :: newcomm
    end function nexar_comm_dup

    ! Sets comm to c_null_ptr.
    integer(c_int) function nexar_comm_free(comm) bind(C, name="nexar_comm_free")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: comm
    end function nexar_comm_free

    ! ---- collectives -------------------------------------------------------------------------
    integer(c_int) function nexar_barrier(comm) bind(C, name="nexar_barrier")
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
    end function nexar_barrier

    integer(c_int) function nexar_bcast(buf, count, datatype, root, comm) &
        bind(C, name="nexar_bcast")
      import :: c_int, c_int32_t, c_size_t, c_ptr
      type(*), dimension(*), intent(inout) :: buf
      integer(c_size_t), value :: count
      integer(c_int32_t), value :: datatype
      integer(c_int), value :: root
      type(c_ptr), value :: comm
    end function nexar_bcast

    ! recvbuf is written at the root only.
    integer(c_int) function nexar_reduce(sendbuf, recvbuf, count, datatype, op, root, comm) &
        bind(C, name="nexar_reduce")
      import :: c_int, c_int32_t, c_size_t, c_ptr
      type(*), dimension(*), intent(in) :: sendbuf
      type(*), dimension(*), intent(inout) :: recvbuf
      integer(c_size_t), value :: count
      integer(c_int32_t), value :: datatype, op
      integer(c_int), value :: root
      type(c_ptr), value :: comm
    end function nexar_reduce

    integer(c_int) function nexar_allreduce(sendbuf, recvbuf, count, datatype, op, comm) &
        bind(C, name="nexar_allreduce")
      import :: c_int, c_int32_t, c_size_t, c_ptr
      type(*), dimension(*), intent(in) :: sendbuf
      type(*), dimension(*), intent(inout) :: recvbuf
      integer(c_size_t), value :: count
      integer(c_int32_t), value :: datatype, op
      type(c_ptr), value :: comm
    end function nexar_allreduce

    ! ---- point to point ----------------------------------------------------------------------
    integer(c_int) function nexar_send(buf, count, datatype, dest, tag, comm) &
        bind(C, name="nexar_send")
      import :: c_int, c_int32_t, c_size_t, c_ptr
      type(*), dimension(*), intent(in) :: buf
      integer(c_size_t), value :: count
      integer(c_int32_t), value :: datatype
      integer(c_int), value :: dest, tag
      type(c_ptr), value :: comm
    end function nexar_send

    integer(c_int) function nexar_recv(buf, count, datatype, source, tag, comm, status) &
        bind(C, name="nexar_recv")
      import :: c_int, c_int32_t, c_size_t, c_ptr, nexar_status_t
      type(*), dimension(*), intent(inout) :: buf
      integer(c_size_t), value :: count
      integer(c_int32_t), value :: datatype
      integer(c_int), value :: source, tag
      type(c_ptr), value :: comm
      type(nexar_status_t), intent(out) :: status
    end function nexar_recv

    integer(c_int) function nexar_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, &
        recvbuf, recvcount, recvtype, source, recvtag, comm, status) &
        bind(C, name="nexar_sendrecv")
      import :: c_int, c_int32_t, c_size_t, c_ptr, nexar_status_t
      type(*), dimension(*), intent(in) :: sendbuf
      integer(c_size_t), value :: sendcount
      integer(c_int32_t), value :: sendtype
      integer(c_int), value :: dest, sendtag
      type(*), dimension(*), intent(inout) :: recvbuf
      integer(c_size_t), value :: recvcount
      integer(c_int32_t), value :: recvtype
      integer(c_int), value :: source, recvtag
      type(c_ptr), value :: comm
      type(nexar_status_t), intent(out) :: status
    end function nexar_sendrecv
  end interface
end module nexar
