! mpi_f08.f90: the `use mpi_f08` module of nexar's MPI library (libmpi_abi).
! Handles are derived types holding the `use mpi` INTEGER (MPI_VAL); MPI_Status has
! MPI_SOURCE, MPI_TAG and MPI_ERROR; `ierror` is optional. The routines are the same
! gfortran entry points as `use mpi` (mpi_send_), declared with these types: the
! module has no code. Choice buffers take any type, kind and rank (NO_ARG_CHECK).
! Generated from mpi/spec by `cargo xtask gen`; do not edit.
module mpi_f08
  use, intrinsic :: iso_c_binding, only: c_int, c_ptr
  implicit none
  private :: c_int
  public
  type, bind(C) :: MPI_Comm
    integer(c_int) :: MPI_VAL
  end type MPI_Comm
  type, bind(C) :: MPI_Datatype
    integer(c_int) :: MPI_VAL
  end type MPI_Datatype
  type, bind(C) :: MPI_Group
    integer(c_int) :: MPI_VAL
  end type MPI_Group
  type, bind(C) :: MPI_Request
    integer(c_int) :: MPI_VAL
  end type MPI_Request
  type, bind(C) :: MPI_Op
    integer(c_int) :: MPI_VAL
  end type MPI_Op
  type, bind(C) :: MPI_Info
    integer(c_int) :: MPI_VAL
  end type MPI_Info
  type, bind(C) :: MPI_Errhandler
    integer(c_int) :: MPI_VAL
  end type MPI_Errhandler
  type, bind(C) :: MPI_Win
    integer(c_int) :: MPI_VAL
  end type MPI_Win
  type, bind(C) :: MPI_File
    integer(c_int) :: MPI_VAL
  end type MPI_File
  type, bind(C) :: MPI_Session
    integer(c_int) :: MPI_VAL
  end type MPI_Session
  type, bind(C) :: MPI_Message
    integer(c_int) :: MPI_VAL
  end type MPI_Message
  type, bind(C) :: MPI_Status
    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
    integer(c_int) :: nexar_internal(5)
  end type MPI_Status
  integer, parameter :: MPI_STATUS_SIZE = 8
  integer, parameter :: MPI_ADDRESS_KIND = 8
  integer, parameter :: MPI_OFFSET_KIND = 8
  integer, parameter :: MPI_COUNT_KIND = 8
  integer, parameter :: MPI_INTEGER_KIND = 4
  ! Version of the standard and of the ABI
  integer, parameter :: MPI_VERSION = 5
  integer, parameter :: MPI_SUBVERSION = 0
  integer, parameter :: MPI_ABI_VERSION = 1
  integer, parameter :: MPI_ABI_SUBVERSION = 0
  ! Predefined MPI_Op handles
  type(MPI_Op), parameter :: MPI_OP_NULL = MPI_Op(32)
  type(MPI_Op), parameter :: MPI_SUM = MPI_Op(33)
  type(MPI_Op), parameter :: MPI_MIN = MPI_Op(34)
  type(MPI_Op), parameter :: MPI_MAX = MPI_Op(35)
  type(MPI_Op), parameter :: MPI_PROD = MPI_Op(36)
  type(MPI_Op), parameter :: MPI_BAND = MPI_Op(40)
  type(MPI_Op), parameter :: MPI_BOR = MPI_Op(41)
  type(MPI_Op), parameter :: MPI_BXOR = MPI_Op(42)
  type(MPI_Op), parameter :: MPI_LAND = MPI_Op(48)
  type(MPI_Op), parameter :: MPI_LOR = MPI_Op(49)
  type(MPI_Op), parameter :: MPI_LXOR = MPI_Op(50)
  type(MPI_Op), parameter :: MPI_MINLOC = MPI_Op(56)
  type(MPI_Op), parameter :: MPI_MAXLOC = MPI_Op(57)
  type(MPI_Op), parameter :: MPI_REPLACE = MPI_Op(60)
  type(MPI_Op), parameter :: MPI_NO_OP = MPI_Op(61)
  ! Predefined MPI_Comm handles
  type(MPI_Comm), parameter :: MPI_COMM_NULL = MPI_Comm(256)
  type(MPI_Comm), parameter :: MPI_COMM_WORLD = MPI_Comm(257)
  type(MPI_Comm), parameter :: MPI_COMM_SELF = MPI_Comm(258)
  ! Predefined MPI_Group handles
  type(MPI_Group), parameter :: MPI_GROUP_NULL = MPI_Group(264)
  type(MPI_Group), parameter :: MPI_GROUP_EMPTY = MPI_Group(265)
  ! Predefined MPI_Win handles
  type(MPI_Win), parameter :: MPI_WIN_NULL = MPI_Win(272)
  ! Predefined MPI_File handles
  type(MPI_File), parameter :: MPI_FILE_NULL = MPI_File(280)
  ! Predefined MPI_Session handles
  type(MPI_Session), parameter :: MPI_SESSION_NULL = MPI_Session(288)
  ! Predefined MPI_Message handles
  type(MPI_Message), parameter :: MPI_MESSAGE_NULL = MPI_Message(296)
  type(MPI_Message), parameter :: MPI_MESSAGE_NO_PROC = MPI_Message(297)
  ! Predefined MPI_Info handles
  type(MPI_Info), parameter :: MPI_INFO_NULL = MPI_Info(304)
  type(MPI_Info), parameter :: MPI_INFO_ENV = MPI_Info(305)
  ! Predefined MPI_Errhandler handles
  type(MPI_Errhandler), parameter :: MPI_ERRHANDLER_NULL = MPI_Errhandler(320)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_ARE_FATAL = MPI_Errhandler(321)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_RETURN = MPI_Errhandler(322)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_ABORT = MPI_Errhandler(323)
  ! Predefined MPI_Request handles
  type(MPI_Request), parameter :: MPI_REQUEST_NULL = MPI_Request(384)
  ! Predefined MPI_Datatype handles
  type(MPI_Datatype), parameter :: MPI_DATATYPE_NULL = MPI_Datatype(512)
  type(MPI_Datatype), parameter :: MPI_AINT = MPI_Datatype(513)
  type(MPI_Datatype), parameter :: MPI_COUNT = MPI_Datatype(514)
  type(MPI_Datatype), parameter :: MPI_OFFSET = MPI_Datatype(515)
  type(MPI_Datatype), parameter :: MPI_PACKED = MPI_Datatype(519)
  type(MPI_Datatype), parameter :: MPI_SHORT = MPI_Datatype(520)
  type(MPI_Datatype), parameter :: MPI_INT = MPI_Datatype(521)
  type(MPI_Datatype), parameter :: MPI_LONG = MPI_Datatype(522)
  type(MPI_Datatype), parameter :: MPI_LONG_LONG = MPI_Datatype(523)
  type(MPI_Datatype), parameter :: MPI_LONG_LONG_INT = MPI_Datatype(523)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_SHORT = MPI_Datatype(524)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED = MPI_Datatype(525)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_LONG = MPI_Datatype(526)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_LONG_LONG = MPI_Datatype(527)
  type(MPI_Datatype), parameter :: MPI_FLOAT = MPI_Datatype(528)
  type(MPI_Datatype), parameter :: MPI_C_FLOAT_COMPLEX = MPI_Datatype(530)
  type(MPI_Datatype), parameter :: MPI_C_COMPLEX = MPI_Datatype(530)
  type(MPI_Datatype), parameter :: MPI_CXX_FLOAT_COMPLEX = MPI_Datatype(531)
  type(MPI_Datatype), parameter :: MPI_DOUBLE = MPI_Datatype(532)
  type(MPI_Datatype), parameter :: MPI_C_DOUBLE_COMPLEX = MPI_Datatype(534)
  type(MPI_Datatype), parameter :: MPI_CXX_DOUBLE_COMPLEX = MPI_Datatype(535)
  type(MPI_Datatype), parameter :: MPI_LOGICAL = MPI_Datatype(536)
  type(MPI_Datatype), parameter :: MPI_INTEGER = MPI_Datatype(537)
  type(MPI_Datatype), parameter :: MPI_REAL = MPI_Datatype(538)
  type(MPI_Datatype), parameter :: MPI_COMPLEX = MPI_Datatype(539)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_PRECISION = MPI_Datatype(540)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_COMPLEX = MPI_Datatype(541)
  type(MPI_Datatype), parameter :: MPI_CHARACTER = MPI_Datatype(542)
  type(MPI_Datatype), parameter :: MPI_LONG_DOUBLE = MPI_Datatype(544)
  type(MPI_Datatype), parameter :: MPI_C_LONG_DOUBLE_COMPLEX = MPI_Datatype(548)
  type(MPI_Datatype), parameter :: MPI_CXX_LONG_DOUBLE_COMPLEX = MPI_Datatype(549)
  type(MPI_Datatype), parameter :: MPI_FLOAT_INT = MPI_Datatype(552)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_INT = MPI_Datatype(553)
  type(MPI_Datatype), parameter :: MPI_LONG_INT = MPI_Datatype(554)
  type(MPI_Datatype), parameter :: MPI_2INT = MPI_Datatype(555)
  type(MPI_Datatype), parameter :: MPI_SHORT_INT = MPI_Datatype(556)
  type(MPI_Datatype), parameter :: MPI_LONG_DOUBLE_INT = MPI_Datatype(557)
  type(MPI_Datatype), parameter :: MPI_2REAL = MPI_Datatype(560)
  type(MPI_Datatype), parameter :: MPI_2DOUBLE_PRECISION = MPI_Datatype(561)
  type(MPI_Datatype), parameter :: MPI_2INTEGER = MPI_Datatype(562)
  type(MPI_Datatype), parameter :: MPI_C_BOOL = MPI_Datatype(568)
  type(MPI_Datatype), parameter :: MPI_CXX_BOOL = MPI_Datatype(569)
  type(MPI_Datatype), parameter :: MPI_WCHAR = MPI_Datatype(572)
  type(MPI_Datatype), parameter :: MPI_INT8_T = MPI_Datatype(576)
  type(MPI_Datatype), parameter :: MPI_UINT8_T = MPI_Datatype(577)
  type(MPI_Datatype), parameter :: MPI_CHAR = MPI_Datatype(579)
  type(MPI_Datatype), parameter :: MPI_SIGNED_CHAR = MPI_Datatype(580)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_CHAR = MPI_Datatype(581)
  type(MPI_Datatype), parameter :: MPI_BYTE = MPI_Datatype(583)
  type(MPI_Datatype), parameter :: MPI_INT16_T = MPI_Datatype(584)
  type(MPI_Datatype), parameter :: MPI_UINT16_T = MPI_Datatype(585)
  type(MPI_Datatype), parameter :: MPI_INT32_T = MPI_Datatype(592)
  type(MPI_Datatype), parameter :: MPI_UINT32_T = MPI_Datatype(593)
  type(MPI_Datatype), parameter :: MPI_INT64_T = MPI_Datatype(600)
  type(MPI_Datatype), parameter :: MPI_UINT64_T = MPI_Datatype(601)
  type(MPI_Datatype), parameter :: MPI_LOGICAL1 = MPI_Datatype(704)
  type(MPI_Datatype), parameter :: MPI_INTEGER1 = MPI_Datatype(705)
  type(MPI_Datatype), parameter :: MPI_LOGICAL2 = MPI_Datatype(712)
  type(MPI_Datatype), parameter :: MPI_INTEGER2 = MPI_Datatype(713)
  type(MPI_Datatype), parameter :: MPI_REAL2 = MPI_Datatype(714)
  type(MPI_Datatype), parameter :: MPI_LOGICAL4 = MPI_Datatype(720)
  type(MPI_Datatype), parameter :: MPI_INTEGER4 = MPI_Datatype(721)
  type(MPI_Datatype), parameter :: MPI_REAL4 = MPI_Datatype(722)
  type(MPI_Datatype), parameter :: MPI_COMPLEX4 = MPI_Datatype(723)
  type(MPI_Datatype), parameter :: MPI_LOGICAL8 = MPI_Datatype(728)
  type(MPI_Datatype), parameter :: MPI_INTEGER8 = MPI_Datatype(729)
  type(MPI_Datatype), parameter :: MPI_REAL8 = MPI_Datatype(730)
  type(MPI_Datatype), parameter :: MPI_COMPLEX8 = MPI_Datatype(731)
  type(MPI_Datatype), parameter :: MPI_LOGICAL16 = MPI_Datatype(736)
  type(MPI_Datatype), parameter :: MPI_INTEGER16 = MPI_Datatype(737)
  type(MPI_Datatype), parameter :: MPI_REAL16 = MPI_Datatype(738)
  type(MPI_Datatype), parameter :: MPI_COMPLEX16 = MPI_Datatype(739)
  type(MPI_Datatype), parameter :: MPI_COMPLEX32 = MPI_Datatype(747)
  ! Error Classes
  integer, parameter :: MPI_SUCCESS = 0
  integer, parameter :: MPI_ERR_BUFFER = 1
  integer, parameter :: MPI_ERR_COUNT = 2
  integer, parameter :: MPI_ERR_TYPE = 3
  integer, parameter :: MPI_ERR_TAG = 4
  integer, parameter :: MPI_ERR_COMM = 5
  integer, parameter :: MPI_ERR_RANK = 6
  integer, parameter :: MPI_ERR_REQUEST = 7
  integer, parameter :: MPI_ERR_ROOT = 8
  integer, parameter :: MPI_ERR_GROUP = 9
  integer, parameter :: MPI_ERR_OP = 10
  integer, parameter :: MPI_ERR_TOPOLOGY = 11
  integer, parameter :: MPI_ERR_DIMS = 12
  integer, parameter :: MPI_ERR_ARG = 13
  integer, parameter :: MPI_ERR_UNKNOWN = 14
  integer, parameter :: MPI_ERR_TRUNCATE = 15
  integer, parameter :: MPI_ERR_OTHER = 16
  integer, parameter :: MPI_ERR_INTERN = 17
  integer, parameter :: MPI_ERR_PENDING = 18
  integer, parameter :: MPI_ERR_IN_STATUS = 19
  integer, parameter :: MPI_ERR_ACCESS = 20
  integer, parameter :: MPI_ERR_AMODE = 21
  integer, parameter :: MPI_ERR_ASSERT = 22
  integer, parameter :: MPI_ERR_BAD_FILE = 23
  integer, parameter :: MPI_ERR_BASE = 24
  integer, parameter :: MPI_ERR_CONVERSION = 25
  integer, parameter :: MPI_ERR_DISP = 26
  integer, parameter :: MPI_ERR_DUP_DATAREP = 27
  integer, parameter :: MPI_ERR_FILE_EXISTS = 28
  integer, parameter :: MPI_ERR_FILE_IN_USE = 29
  integer, parameter :: MPI_ERR_FILE = 30
  integer, parameter :: MPI_ERR_INFO_KEY = 31
  integer, parameter :: MPI_ERR_INFO_NOKEY = 32
  integer, parameter :: MPI_ERR_INFO_VALUE = 33
  integer, parameter :: MPI_ERR_INFO = 34
  integer, parameter :: MPI_ERR_IO = 35
  integer, parameter :: MPI_ERR_KEYVAL = 36
  integer, parameter :: MPI_ERR_LOCKTYPE = 37
  integer, parameter :: MPI_ERR_NAME = 38
  integer, parameter :: MPI_ERR_NO_MEM = 39
  integer, parameter :: MPI_ERR_NOT_SAME = 40
  integer, parameter :: MPI_ERR_NO_SPACE = 41
  integer, parameter :: MPI_ERR_NO_SUCH_FILE = 42
  integer, parameter :: MPI_ERR_PORT = 43
  integer, parameter :: MPI_ERR_QUOTA = 44
  integer, parameter :: MPI_ERR_READ_ONLY = 45
  integer, parameter :: MPI_ERR_RMA_ATTACH = 46
  integer, parameter :: MPI_ERR_RMA_CONFLICT = 47
  integer, parameter :: MPI_ERR_RMA_RANGE = 48
  integer, parameter :: MPI_ERR_RMA_SHARED = 49
  integer, parameter :: MPI_ERR_RMA_SYNC = 50
  integer, parameter :: MPI_ERR_SERVICE = 51
  integer, parameter :: MPI_ERR_SIZE = 52
  integer, parameter :: MPI_ERR_SPAWN = 53
  integer, parameter :: MPI_ERR_UNSUPPORTED_DATAREP = 54
  integer, parameter :: MPI_ERR_UNSUPPORTED_OPERATION = 55
  integer, parameter :: MPI_ERR_WIN = 56
  integer, parameter :: MPI_ERR_RMA_FLAVOR = 57
  integer, parameter :: MPI_ERR_PROC_ABORTED = 58
  integer, parameter :: MPI_ERR_VALUE_TOO_LARGE = 59
  integer, parameter :: MPI_ERR_SESSION = 60
  integer, parameter :: MPI_ERR_ERRHANDLER = 61
  integer, parameter :: MPI_ERR_ABI = 62
  integer, parameter :: MPI_ERR_LASTCODE = 16383
  ! Maximum Sizes for Strings
  integer, parameter :: MPI_MAX_DATAREP_STRING = 128
  integer, parameter :: MPI_MAX_ERROR_STRING = 512
  integer, parameter :: MPI_MAX_INFO_KEY = 256
  integer, parameter :: MPI_MAX_INFO_VAL = 1024
  integer, parameter :: MPI_MAX_LIBRARY_VERSION_STRING = 8192
  integer, parameter :: MPI_MAX_OBJECT_NAME = 128
  integer, parameter :: MPI_MAX_PORT_NAME = 1024
  integer, parameter :: MPI_MAX_PROCESSOR_NAME = 256
  integer, parameter :: MPI_MAX_STRINGTAG_LEN = 1024
  integer, parameter :: MPI_MAX_PSET_NAME_LEN = 1024
  ! Assorted Constants
  integer, parameter :: MPI_BSEND_OVERHEAD = 512
  ! File Open Modes
  integer, parameter :: MPI_MODE_APPEND = 1
  integer, parameter :: MPI_MODE_CREATE = 2
  integer, parameter :: MPI_MODE_DELETE_ON_CLOSE = 4
  integer, parameter :: MPI_MODE_EXCL = 8
  integer, parameter :: MPI_MODE_RDONLY = 16
  integer, parameter :: MPI_MODE_RDWR = 32
  integer, parameter :: MPI_MODE_SEQUENTIAL = 64
  integer, parameter :: MPI_MODE_UNIQUE_OPEN = 128
  integer, parameter :: MPI_MODE_WRONLY = 256
  ! Window Assertion Modes
  integer, parameter :: MPI_MODE_NOCHECK = 1024
  integer, parameter :: MPI_MODE_NOPRECEDE = 2048
  integer, parameter :: MPI_MODE_NOPUT = 4096
  integer, parameter :: MPI_MODE_NOSTORE = 8192
  integer, parameter :: MPI_MODE_NOSUCCEED = 16384
  ! Wildcard values - must be negative
  integer, parameter :: MPI_ANY_SOURCE = -1
  integer, parameter :: MPI_ANY_TAG = -2
  ! Rank sentinels - must be negative
  integer, parameter :: MPI_PROC_NULL = -3
  integer, parameter :: MPI_ROOT = -4
  ! Multi-purpose sentinel - must be negative
  integer, parameter :: MPI_UNDEFINED = -32766
  ! Thread Support - monotonic values, SINGLE < FUNNELED < SERIALIZED < MULTIPLE
  integer, parameter :: MPI_THREAD_SINGLE = 0
  integer, parameter :: MPI_THREAD_FUNNELED = 1024
  integer, parameter :: MPI_THREAD_SERIALIZED = 2048
  integer, parameter :: MPI_THREAD_MULTIPLE = 4096
  ! Array Datatype Order
  integer, parameter :: MPI_ORDER_C = 12
  integer, parameter :: MPI_ORDER_FORTRAN = 15
  ! Array Datatype Distribution
  integer, parameter :: MPI_DISTRIBUTE_NONE = 16
  integer, parameter :: MPI_DISTRIBUTE_BLOCK = 17
  integer, parameter :: MPI_DISTRIBUTE_CYCLIC = 18
  integer, parameter :: MPI_DISTRIBUTE_DFLT_DARG = 19
  ! Datatype Decoding Combiners
  integer, parameter :: MPI_COMBINER_NAMED = 101
  integer, parameter :: MPI_COMBINER_DUP = 102
  integer, parameter :: MPI_COMBINER_CONTIGUOUS = 103
  integer, parameter :: MPI_COMBINER_VECTOR = 104
  integer, parameter :: MPI_COMBINER_HVECTOR = 105
  integer, parameter :: MPI_COMBINER_INDEXED = 106
  integer, parameter :: MPI_COMBINER_HINDEXED = 107
  integer, parameter :: MPI_COMBINER_INDEXED_BLOCK = 108
  integer, parameter :: MPI_COMBINER_HINDEXED_BLOCK = 109
  integer, parameter :: MPI_COMBINER_STRUCT = 110
  integer, parameter :: MPI_COMBINER_SUBARRAY = 111
  integer, parameter :: MPI_COMBINER_DARRAY = 112
  integer, parameter :: MPI_COMBINER_F90_INTEGER = 113
  integer, parameter :: MPI_COMBINER_F90_REAL = 114
  integer, parameter :: MPI_COMBINER_F90_COMPLEX = 115
  integer, parameter :: MPI_COMBINER_RESIZED = 116
  integer, parameter :: MPI_COMBINER_VALUE_INDEX = 117
  ! Fortran Datatype Matching
  integer, parameter :: MPIX_TYPECLASS_LOGICAL = 191
  integer, parameter :: MPI_TYPECLASS_INTEGER = 192
  integer, parameter :: MPI_TYPECLASS_REAL = 193
  integer, parameter :: MPI_TYPECLASS_COMPLEX = 194
  ! Communicator and Group Comparisons
  integer, parameter :: MPI_IDENT = 201
  integer, parameter :: MPI_CONGRUENT = 202
  integer, parameter :: MPI_SIMILAR = 203
  integer, parameter :: MPI_UNEQUAL = 204
  ! Communicator Virtual Topology Types
  integer, parameter :: MPI_CART = 211
  integer, parameter :: MPI_GRAPH = 212
  integer, parameter :: MPI_DIST_GRAPH = 213
  ! Communicator Split Types
  integer, parameter :: MPI_COMM_TYPE_SHARED = 221
  integer, parameter :: MPI_COMM_TYPE_HW_UNGUIDED = 222
  integer, parameter :: MPI_COMM_TYPE_HW_GUIDED = 223
  integer, parameter :: MPI_COMM_TYPE_RESOURCE_GUIDED = 224
  ! Window Lock Types
  integer, parameter :: MPI_LOCK_EXCLUSIVE = 301
  integer, parameter :: MPI_LOCK_SHARED = 302
  ! Window Create Flavors
  integer, parameter :: MPI_WIN_FLAVOR_CREATE = 311
  integer, parameter :: MPI_WIN_FLAVOR_ALLOCATE = 312
  integer, parameter :: MPI_WIN_FLAVOR_DYNAMIC = 313
  integer, parameter :: MPI_WIN_FLAVOR_SHARED = 314
  ! Window Memory Models
  integer, parameter :: MPI_WIN_UNIFIED = 321
  integer, parameter :: MPI_WIN_SEPARATE = 322
  ! File Positioning
  integer, parameter :: MPI_SEEK_SET = 401
  integer, parameter :: MPI_SEEK_CUR = 402
  integer, parameter :: MPI_SEEK_END = 403
  ! Invalid attribute key
  integer, parameter :: MPI_KEYVAL_INVALID = 0
  ! Predefined communicator attribute keys
  integer, parameter :: MPI_TAG_UB = 501
  integer, parameter :: MPI_IO = 502
  integer, parameter :: MPI_HOST = 503
  integer, parameter :: MPI_WTIME_IS_GLOBAL = 504
  integer, parameter :: MPI_UNIVERSE_SIZE = 505
  integer, parameter :: MPI_APPNUM = 506
  integer, parameter :: MPI_LASTUSEDCODE = 507
  ! Predefined window attribute keys
  integer, parameter :: MPI_WIN_BASE = 601
  integer, parameter :: MPI_WIN_DISP_UNIT = 602
  integer, parameter :: MPI_WIN_SIZE = 603
  integer, parameter :: MPI_WIN_CREATE_FLAVOR = 604
  integer, parameter :: MPI_WIN_MODEL = 605
  ! MPIX error classes (ULFM fault tolerance; MPICH's values)
  integer, parameter :: MPIX_ERR_PROC_FAILED = 101
  integer, parameter :: MPIX_ERR_PROC_FAILED_PENDING = 102
  integer, parameter :: MPIX_ERR_REVOKED = 103
  ! MPIX error classes of nexar (the timeout has MPICH's value; the mismatch is nexar's own)
  integer, parameter :: MPIX_ERR_TIMEOUT = 107
  integer, parameter :: MPIX_ERR_COLL_MISMATCH = 120
  ! Special addresses (the COMMON blocks of use mpi and mpif.h)
  integer :: MPI_BOTTOM
  common /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM
  integer :: MPI_IN_PLACE
  common /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE
  type(MPI_Status) :: MPI_STATUS_IGNORE
  common /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE
  type(MPI_Status) :: MPI_STATUSES_IGNORE(1)
  common /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE
  integer :: MPI_ERRCODES_IGNORE(1)
  common /MPI_FORTRAN_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE
  integer :: MPI_UNWEIGHTED(1)
  common /MPI_FORTRAN_UNWEIGHTED/ MPI_UNWEIGHTED
  integer :: MPI_WEIGHTS_EMPTY(1)
  common /MPI_FORTRAN_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY
  character(len=1) :: MPI_ARGV_NULL(1)
  common /MPI_FORTRAN_ARGV_NULL/ MPI_ARGV_NULL
  character(len=1) :: MPI_ARGVS_NULL(1,1)
  common /MPI_FORTRAN_ARGVS_NULL/ MPI_ARGVS_NULL
  interface operator(==)
    logical function nexar_f08_eq_comm(a, b)
      import
      type(MPI_Comm), intent(in) :: a, b
    end function nexar_f08_eq_comm
    logical function nexar_f08_eq_datatype(a, b)
      import
      type(MPI_Datatype), intent(in) :: a, b
    end function nexar_f08_eq_datatype
    logical function nexar_f08_eq_group(a, b)
      import
      type(MPI_Group), intent(in) :: a, b
    end function nexar_f08_eq_group
    logical function nexar_f08_eq_request(a, b)
      import
      type(MPI_Request), intent(in) :: a, b
    end function nexar_f08_eq_request
    logical function nexar_f08_eq_op(a, b)
      import
      type(MPI_Op), intent(in) :: a, b
    end function nexar_f08_eq_op
    logical function nexar_f08_eq_info(a, b)
      import
      type(MPI_Info), intent(in) :: a, b
    end function nexar_f08_eq_info
    logical function nexar_f08_eq_errhandler(a, b)
      import
      type(MPI_Errhandler), intent(in) :: a, b
    end function nexar_f08_eq_errhandler
    logical function nexar_f08_eq_win(a, b)
      import
      type(MPI_Win), intent(in) :: a, b
    end function nexar_f08_eq_win
    logical function nexar_f08_eq_file(a, b)
      import
      type(MPI_File), intent(in) :: a, b
    end function nexar_f08_eq_file
    logical function nexar_f08_eq_session(a, b)
      import
      type(MPI_Session), intent(in) :: a, b
    end function nexar_f08_eq_session
    logical function nexar_f08_eq_message(a, b)
      import
      type(MPI_Message), intent(in) :: a, b
    end function nexar_f08_eq_message
  end interface
  interface operator(/=)
    logical function nexar_f08_ne_comm(a, b)
      import
      type(MPI_Comm), intent(in) :: a, b
    end function nexar_f08_ne_comm
    logical function nexar_f08_ne_datatype(a, b)
      import
      type(MPI_Datatype), intent(in) :: a, b
    end function nexar_f08_ne_datatype
    logical function nexar_f08_ne_group(a, b)
      import
      type(MPI_Group), intent(in) :: a, b
    end function nexar_f08_ne_group
    logical function nexar_f08_ne_request(a, b)
      import
      type(MPI_Request), intent(in) :: a, b
    end function nexar_f08_ne_request
    logical function nexar_f08_ne_op(a, b)
      import
      type(MPI_Op), intent(in) :: a, b
    end function nexar_f08_ne_op
    logical function nexar_f08_ne_info(a, b)
      import
      type(MPI_Info), intent(in) :: a, b
    end function nexar_f08_ne_info
    logical function nexar_f08_ne_errhandler(a, b)
      import
      type(MPI_Errhandler), intent(in) :: a, b
    end function nexar_f08_ne_errhandler
    logical function nexar_f08_ne_win(a, b)
      import
      type(MPI_Win), intent(in) :: a, b
    end function nexar_f08_ne_win
    logical function nexar_f08_ne_file(a, b)
      import
      type(MPI_File), intent(in) :: a, b
    end function nexar_f08_ne_file
    logical function nexar_f08_ne_session(a, b)
      import
      type(MPI_Session), intent(in) :: a, b
    end function nexar_f08_ne_session
    logical function nexar_f08_ne_message(a, b)
      import
      type(MPI_Message), intent(in) :: a, b
    end function nexar_f08_ne_message
  end interface
  interface
    subroutine MPI_ABI_GET_FORTRAN_INFO(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_ABI_GET_FORTRAN_INFO
  end interface
  interface
    subroutine MPI_ABI_GET_INFO(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_ABI_GET_INFO
  end interface
  interface
    subroutine MPI_ABI_GET_VERSION(abi_major, abi_minor, ierror)
      import
      implicit none
      integer :: abi_major
      integer :: abi_minor
      integer, optional :: ierror
    end subroutine MPI_ABI_GET_VERSION
  end interface
  interface
    subroutine MPI_ABI_SET_FORTRAN_INFO(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_ABI_SET_FORTRAN_INFO
  end interface
  interface
    subroutine MPI_ABORT(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_ABORT
  end interface
  interface
    subroutine MPI_ACCUMULATE(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, op, win, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Op) :: op
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_ACCUMULATE
  end interface
  interface
    subroutine MPI_ADD_ERROR_CLASS(errorclass, ierror)
      import
      implicit none
      integer :: errorclass
      integer, optional :: ierror
    end subroutine MPI_ADD_ERROR_CLASS
  end interface
  interface
    subroutine MPI_ADD_ERROR_CODE(errorclass, errorcode, ierror)
      import
      implicit none
      integer :: errorclass
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_ADD_ERROR_CODE
  end interface
  interface
    subroutine MPI_ADD_ERROR_STRING(errorcode, string, ierror)
      import
      implicit none
      integer :: errorcode
      character(len=*) :: string
      integer, optional :: ierror
    end subroutine MPI_ADD_ERROR_STRING
  end interface
  interface
    subroutine MPI_ALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLGATHER
  end interface
  interface
    subroutine MPI_ALLGATHER_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLGATHER_INIT
  end interface
  interface
    subroutine MPI_ALLGATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLGATHERV
  end interface
  interface
    subroutine MPI_ALLGATHERV_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLGATHERV_INIT
  end interface
  interface
    subroutine MPI_ALLREDUCE(sendbuf, recvbuf, count, datatype, op, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLREDUCE
  end interface
  interface
    subroutine MPI_ALLREDUCE_INIT(sendbuf, recvbuf, count, datatype, op, comm, &
            info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLREDUCE_INIT
  end interface
  interface
    subroutine MPI_ALLTOALL(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLTOALL
  end interface
  interface
    subroutine MPI_ALLTOALL_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLTOALL_INIT
  end interface
  interface
    subroutine MPI_ALLTOALLV(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLTOALLV
  end interface
  interface
    subroutine MPI_ALLTOALLV_INIT(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLTOALLV_INIT
  end interface
  interface
    subroutine MPI_ALLTOALLW(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, &
            rdispls, recvtypes, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_ALLTOALLW
  end interface
  interface
    subroutine MPI_ALLTOALLW_INIT(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, &
            rdispls, recvtypes, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ALLTOALLW_INIT
  end interface
  interface
    subroutine MPI_ATTR_DELETE(comm, keyval, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: keyval
      integer, optional :: ierror
    end subroutine MPI_ATTR_DELETE
  end interface
  interface
    subroutine MPI_BARRIER(comm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_BARRIER
  end interface
  interface
    subroutine MPI_BARRIER_INIT(comm, info, request, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_BARRIER_INIT
  end interface
  interface
    subroutine MPI_BCAST(buffer, count, datatype, root, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_BCAST
  end interface
  interface
    subroutine MPI_BCAST_INIT(buffer, count, datatype, root, comm, info, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_BCAST_INIT
  end interface
  interface
    subroutine MPI_BSEND(buf, count, datatype, dest, tag, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_BSEND
  end interface
  interface
    subroutine MPI_BSEND_INIT(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_BSEND_INIT
  end interface
  interface
    subroutine MPI_BUFFER_ATTACH(buffer, size, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_BUFFER_ATTACH
  end interface
  interface
    subroutine MPI_BUFFER_FLUSH(ierror)
      import
      implicit none
      integer, optional :: ierror
    end subroutine MPI_BUFFER_FLUSH
  end interface
  interface
    subroutine MPI_BUFFER_IFLUSH(request, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_BUFFER_IFLUSH
  end interface
  interface
    subroutine MPI_CANCEL(request, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_CANCEL
  end interface
  interface
    subroutine MPI_CART_COORDS(comm, rank, maxdims, coords, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: rank
      integer :: maxdims
      integer :: coords(*)
      integer, optional :: ierror
    end subroutine MPI_CART_COORDS
  end interface
  interface
    subroutine MPI_CART_CREATE(comm_old, ndims, dims, periods, reorder, comm_cart, &
            ierror)
      import
      implicit none
      type(MPI_Comm) :: comm_old
      integer :: ndims
      integer :: dims(*)
      logical :: periods(*)
      logical :: reorder
      type(MPI_Comm) :: comm_cart
      integer, optional :: ierror
    end subroutine MPI_CART_CREATE
  end interface
  interface
    subroutine MPI_CART_GET(comm, maxdims, dims, periods, coords, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: maxdims
      integer :: dims(*)
      logical :: periods(*)
      integer :: coords(*)
      integer, optional :: ierror
    end subroutine MPI_CART_GET
  end interface
  interface
    subroutine MPI_CART_MAP(comm, ndims, dims, periods, newrank, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: ndims
      integer :: dims(*)
      logical :: periods(*)
      integer :: newrank
      integer, optional :: ierror
    end subroutine MPI_CART_MAP
  end interface
  interface
    subroutine MPI_CART_RANK(comm, coords, rank, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: coords(*)
      integer :: rank
      integer, optional :: ierror
    end subroutine MPI_CART_RANK
  end interface
  interface
    subroutine MPI_CART_SHIFT(comm, direction, disp, rank_source, rank_dest, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: direction
      integer :: disp
      integer :: rank_source
      integer :: rank_dest
      integer, optional :: ierror
    end subroutine MPI_CART_SHIFT
  end interface
  interface
    subroutine MPI_CART_SUB(comm, remain_dims, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      logical :: remain_dims(*)
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_CART_SUB
  end interface
  interface
    subroutine MPI_CARTDIM_GET(comm, ndims, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: ndims
      integer, optional :: ierror
    end subroutine MPI_CARTDIM_GET
  end interface
  interface
    subroutine MPI_CLOSE_PORT(port_name, ierror)
      import
      implicit none
      character(len=*) :: port_name
      integer, optional :: ierror
    end subroutine MPI_CLOSE_PORT
  end interface
  interface
    subroutine MPI_COMM_ACCEPT(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*) :: port_name
      type(MPI_Info) :: info
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_ACCEPT
  end interface
  interface
    subroutine MPI_COMM_ATTACH_BUFFER(comm, buffer, size, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_COMM_ATTACH_BUFFER
  end interface
  interface
    subroutine MPI_COMM_CALL_ERRHANDLER(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_COMM_CALL_ERRHANDLER
  end interface
  interface
    subroutine MPI_COMM_COMPARE(comm1, comm2, result, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm1
      type(MPI_Comm) :: comm2
      integer :: result
      integer, optional :: ierror
    end subroutine MPI_COMM_COMPARE
  end interface
  interface
    subroutine MPI_COMM_CONNECT(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*) :: port_name
      type(MPI_Info) :: info
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_CONNECT
  end interface
  interface
    subroutine MPI_COMM_CREATE(comm, group, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Group) :: group
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_CREATE
  end interface
  interface
    subroutine MPI_COMM_CREATE_FROM_GROUP(group, stringtag, info, errhandler, newcomm, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      character(len=*) :: stringtag
      type(MPI_Info) :: info
      type(MPI_Errhandler) :: errhandler
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_CREATE_FROM_GROUP
  end interface
  interface
    subroutine MPI_COMM_CREATE_GROUP(comm, group, tag, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Group) :: group
      integer :: tag
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_CREATE_GROUP
  end interface
  interface
    subroutine MPI_COMM_DELETE_ATTR(comm, comm_keyval, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: comm_keyval
      integer, optional :: ierror
    end subroutine MPI_COMM_DELETE_ATTR
  end interface
  interface
    subroutine MPI_COMM_DISCONNECT(comm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_COMM_DISCONNECT
  end interface
  interface
    subroutine MPI_COMM_DUP(comm, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_DUP
  end interface
  interface
    subroutine MPI_COMM_DUP_WITH_INFO(comm, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_DUP_WITH_INFO
  end interface
  interface
    subroutine MPI_COMM_FLUSH_BUFFER(comm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_COMM_FLUSH_BUFFER
  end interface
  interface
    subroutine MPI_COMM_FREE(comm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_COMM_FREE
  end interface
  interface
    subroutine MPI_COMM_FREE_KEYVAL(comm_keyval, ierror)
      import
      implicit none
      integer :: comm_keyval
      integer, optional :: ierror
    end subroutine MPI_COMM_FREE_KEYVAL
  end interface
  interface
    subroutine MPI_COMM_GET_ERRHANDLER(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_COMM_GET_ERRHANDLER
  end interface
  interface
    subroutine MPI_COMM_GET_INFO(comm, info_used, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info_used
      integer, optional :: ierror
    end subroutine MPI_COMM_GET_INFO
  end interface
  interface
    subroutine MPI_COMM_GET_NAME(comm, comm_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      character(len=*) :: comm_name
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_COMM_GET_NAME
  end interface
  interface
    subroutine MPI_COMM_GET_PARENT(parent, ierror)
      import
      implicit none
      type(MPI_Comm) :: parent
      integer, optional :: ierror
    end subroutine MPI_COMM_GET_PARENT
  end interface
  interface
    subroutine MPI_COMM_GROUP(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Group) :: group
      integer, optional :: ierror
    end subroutine MPI_COMM_GROUP
  end interface
  interface
    subroutine MPI_COMM_IFLUSH_BUFFER(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_COMM_IFLUSH_BUFFER
  end interface
  interface
    subroutine MPI_COMM_JOIN(fd, intercomm, ierror)
      import
      implicit none
      integer :: fd
      type(MPI_Comm) :: intercomm
      integer, optional :: ierror
    end subroutine MPI_COMM_JOIN
  end interface
  interface
    subroutine MPI_COMM_RANK(comm, rank, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: rank
      integer, optional :: ierror
    end subroutine MPI_COMM_RANK
  end interface
  interface
    subroutine MPI_COMM_REMOTE_GROUP(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Group) :: group
      integer, optional :: ierror
    end subroutine MPI_COMM_REMOTE_GROUP
  end interface
  interface
    subroutine MPI_COMM_REMOTE_SIZE(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_COMM_REMOTE_SIZE
  end interface
  interface
    subroutine MPI_COMM_SET_ERRHANDLER(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_COMM_SET_ERRHANDLER
  end interface
  interface
    subroutine MPI_COMM_SET_INFO(comm, info, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_COMM_SET_INFO
  end interface
  interface
    subroutine MPI_COMM_SET_NAME(comm, comm_name, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      character(len=*) :: comm_name
      integer, optional :: ierror
    end subroutine MPI_COMM_SET_NAME
  end interface
  interface
    subroutine MPI_COMM_SIZE(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_COMM_SIZE
  end interface
  interface
    subroutine MPI_COMM_SPLIT(comm, color, key, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: color
      integer :: key
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_SPLIT
  end interface
  interface
    subroutine MPI_COMM_SPLIT_TYPE(comm, split_type, key, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: split_type
      integer :: key
      type(MPI_Info) :: info
      type(MPI_Comm) :: newcomm
      integer, optional :: ierror
    end subroutine MPI_COMM_SPLIT_TYPE
  end interface
  interface
    subroutine MPI_COMM_TEST_INTER(comm, flag, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_COMM_TEST_INTER
  end interface
  interface
    subroutine MPI_COMPARE_AND_SWAP(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, &
            win, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: compare_addr
      type(*), dimension(*) :: compare_addr
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
      type(*), dimension(*) :: result_addr
      type(MPI_Datatype) :: datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_COMPARE_AND_SWAP
  end interface
  interface
    subroutine MPI_DIMS_CREATE(nnodes, ndims, dims, ierror)
      import
      implicit none
      integer :: nnodes
      integer :: ndims
      integer :: dims(*)
      integer, optional :: ierror
    end subroutine MPI_DIMS_CREATE
  end interface
  interface
    subroutine MPI_DIST_GRAPH_CREATE(comm_old, n, sources, degrees, destinations, weights, &
            info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm_old
      integer :: n
      integer :: sources(*)
      integer :: degrees(*)
      integer :: destinations(*)
      integer :: weights(*)
      type(MPI_Info) :: info
      logical :: reorder
      type(MPI_Comm) :: comm_dist_graph
      integer, optional :: ierror
    end subroutine MPI_DIST_GRAPH_CREATE
  end interface
  interface
    subroutine MPI_DIST_GRAPH_CREATE_ADJACENT(comm_old, indegree, sources, sourceweights, outdegree, destinations, &
            destweights, info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm_old
      integer :: indegree
      integer :: sources(*)
      integer :: sourceweights(*)
      integer :: outdegree
      integer :: destinations(*)
      integer :: destweights(*)
      type(MPI_Info) :: info
      logical :: reorder
      type(MPI_Comm) :: comm_dist_graph
      integer, optional :: ierror
    end subroutine MPI_DIST_GRAPH_CREATE_ADJACENT
  end interface
  interface
    subroutine MPI_DIST_GRAPH_NEIGHBORS(comm, maxindegree, sources, sourceweights, maxoutdegree, destinations, &
            destweights, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: maxindegree
      integer :: sources(*)
      integer :: sourceweights(*)
      integer :: maxoutdegree
      integer :: destinations(*)
      integer :: destweights(*)
      integer, optional :: ierror
    end subroutine MPI_DIST_GRAPH_NEIGHBORS
  end interface
  interface
    subroutine MPI_DIST_GRAPH_NEIGHBORS_COUNT(comm, indegree, outdegree, weighted, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: indegree
      integer :: outdegree
      logical :: weighted
      integer, optional :: ierror
    end subroutine MPI_DIST_GRAPH_NEIGHBORS_COUNT
  end interface
  interface
    subroutine MPI_ERRHANDLER_FREE(errhandler, ierror)
      import
      implicit none
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_ERRHANDLER_FREE
  end interface
  interface
    subroutine MPI_ERROR_CLASS(errorcode, errorclass, ierror)
      import
      implicit none
      integer :: errorcode
      integer :: errorclass
      integer, optional :: ierror
    end subroutine MPI_ERROR_CLASS
  end interface
  interface
    subroutine MPI_ERROR_STRING(errorcode, string, resultlen, ierror)
      import
      implicit none
      integer :: errorcode
      character(len=*) :: string
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_ERROR_STRING
  end interface
  interface
    subroutine MPI_EXSCAN(sendbuf, recvbuf, count, datatype, op, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_EXSCAN
  end interface
  interface
    subroutine MPI_EXSCAN_INIT(sendbuf, recvbuf, count, datatype, op, comm, &
            info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_EXSCAN_INIT
  end interface
  interface
    subroutine MPI_FETCH_AND_OP(origin_addr, result_addr, datatype, target_rank, target_disp, op, &
            win, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
      type(*), dimension(*) :: result_addr
      type(MPI_Datatype) :: datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      type(MPI_Op) :: op
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_FETCH_AND_OP
  end interface
  interface
    subroutine MPI_FILE_CALL_ERRHANDLER(fh, errorcode, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_FILE_CALL_ERRHANDLER
  end interface
  interface
    subroutine MPI_FILE_CLOSE(fh, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer, optional :: ierror
    end subroutine MPI_FILE_CLOSE
  end interface
  interface
    subroutine MPI_FILE_DELETE(filename, info, ierror)
      import
      implicit none
      character(len=*) :: filename
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_FILE_DELETE
  end interface
  interface
    subroutine MPI_FILE_GET_AMODE(fh, amode, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer :: amode
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_AMODE
  end interface
  interface
    subroutine MPI_FILE_GET_ATOMICITY(fh, flag, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_ATOMICITY
  end interface
  interface
    subroutine MPI_FILE_GET_BYTE_OFFSET(fh, offset, disp, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      integer(kind=MPI_OFFSET_KIND) :: disp
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_BYTE_OFFSET
  end interface
  interface
    subroutine MPI_FILE_GET_ERRHANDLER(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File) :: file
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_ERRHANDLER
  end interface
  interface
    subroutine MPI_FILE_GET_GROUP(fh, group, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      type(MPI_Group) :: group
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_GROUP
  end interface
  interface
    subroutine MPI_FILE_GET_INFO(fh, info_used, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      type(MPI_Info) :: info_used
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_INFO
  end interface
  interface
    subroutine MPI_FILE_GET_POSITION(fh, offset, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_POSITION
  end interface
  interface
    subroutine MPI_FILE_GET_POSITION_SHARED(fh, offset, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_POSITION_SHARED
  end interface
  interface
    subroutine MPI_FILE_GET_SIZE(fh, size, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_SIZE
  end interface
  interface
    subroutine MPI_FILE_GET_TYPE_EXTENT(fh, datatype, extent, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: extent
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_TYPE_EXTENT
  end interface
  interface
    subroutine MPI_FILE_GET_VIEW(fh, disp, etype, filetype, datarep, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: disp
      type(MPI_Datatype) :: etype
      type(MPI_Datatype) :: filetype
      character(len=*) :: datarep
      integer, optional :: ierror
    end subroutine MPI_FILE_GET_VIEW
  end interface
  interface
    subroutine MPI_FILE_IREAD(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IREAD
  end interface
  interface
    subroutine MPI_FILE_IREAD_ALL(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IREAD_ALL
  end interface
  interface
    subroutine MPI_FILE_IREAD_AT(fh, offset, buf, count, datatype, request, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IREAD_AT
  end interface
  interface
    subroutine MPI_FILE_IREAD_AT_ALL(fh, offset, buf, count, datatype, request, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IREAD_AT_ALL
  end interface
  interface
    subroutine MPI_FILE_IREAD_SHARED(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IREAD_SHARED
  end interface
  interface
    subroutine MPI_FILE_IWRITE(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IWRITE
  end interface
  interface
    subroutine MPI_FILE_IWRITE_ALL(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IWRITE_ALL
  end interface
  interface
    subroutine MPI_FILE_IWRITE_AT(fh, offset, buf, count, datatype, request, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IWRITE_AT
  end interface
  interface
    subroutine MPI_FILE_IWRITE_AT_ALL(fh, offset, buf, count, datatype, request, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IWRITE_AT_ALL
  end interface
  interface
    subroutine MPI_FILE_IWRITE_SHARED(fh, buf, count, datatype, request, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_FILE_IWRITE_SHARED
  end interface
  interface
    subroutine MPI_FILE_OPEN(comm, filename, amode, info, fh, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      character(len=*) :: filename
      integer :: amode
      type(MPI_Info) :: info
      type(MPI_File) :: fh
      integer, optional :: ierror
    end subroutine MPI_FILE_OPEN
  end interface
  interface
    subroutine MPI_FILE_PREALLOCATE(fh, size, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_FILE_PREALLOCATE
  end interface
  interface
    subroutine MPI_FILE_READ(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ
  end interface
  interface
    subroutine MPI_FILE_READ_ALL(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ALL
  end interface
  interface
    subroutine MPI_FILE_READ_ALL_BEGIN(fh, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ALL_BEGIN
  end interface
  interface
    subroutine MPI_FILE_READ_ALL_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ALL_END
  end interface
  interface
    subroutine MPI_FILE_READ_AT(fh, offset, buf, count, datatype, status, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_AT
  end interface
  interface
    subroutine MPI_FILE_READ_AT_ALL(fh, offset, buf, count, datatype, status, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_AT_ALL
  end interface
  interface
    subroutine MPI_FILE_READ_AT_ALL_BEGIN(fh, offset, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_AT_ALL_BEGIN
  end interface
  interface
    subroutine MPI_FILE_READ_AT_ALL_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_AT_ALL_END
  end interface
  interface
    subroutine MPI_FILE_READ_ORDERED(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ORDERED
  end interface
  interface
    subroutine MPI_FILE_READ_ORDERED_BEGIN(fh, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ORDERED_BEGIN
  end interface
  interface
    subroutine MPI_FILE_READ_ORDERED_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_ORDERED_END
  end interface
  interface
    subroutine MPI_FILE_READ_SHARED(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_READ_SHARED
  end interface
  interface
    subroutine MPI_FILE_SEEK(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      integer :: whence
      integer, optional :: ierror
    end subroutine MPI_FILE_SEEK
  end interface
  interface
    subroutine MPI_FILE_SEEK_SHARED(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      integer :: whence
      integer, optional :: ierror
    end subroutine MPI_FILE_SEEK_SHARED
  end interface
  interface
    subroutine MPI_FILE_SET_ATOMICITY(fh, flag, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_FILE_SET_ATOMICITY
  end interface
  interface
    subroutine MPI_FILE_SET_ERRHANDLER(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File) :: file
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_FILE_SET_ERRHANDLER
  end interface
  interface
    subroutine MPI_FILE_SET_INFO(fh, info, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_FILE_SET_INFO
  end interface
  interface
    subroutine MPI_FILE_SET_SIZE(fh, size, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_FILE_SET_SIZE
  end interface
  interface
    subroutine MPI_FILE_SET_VIEW(fh, disp, etype, filetype, datarep, info, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: disp
      type(MPI_Datatype) :: etype
      type(MPI_Datatype) :: filetype
      character(len=*) :: datarep
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_FILE_SET_VIEW
  end interface
  interface
    subroutine MPI_FILE_SYNC(fh, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer, optional :: ierror
    end subroutine MPI_FILE_SYNC
  end interface
  interface
    subroutine MPI_FILE_WRITE(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE
  end interface
  interface
    subroutine MPI_FILE_WRITE_ALL(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ALL
  end interface
  interface
    subroutine MPI_FILE_WRITE_ALL_BEGIN(fh, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ALL_BEGIN
  end interface
  interface
    subroutine MPI_FILE_WRITE_ALL_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ALL_END
  end interface
  interface
    subroutine MPI_FILE_WRITE_AT(fh, offset, buf, count, datatype, status, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_AT
  end interface
  interface
    subroutine MPI_FILE_WRITE_AT_ALL(fh, offset, buf, count, datatype, status, &
            ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_AT_ALL
  end interface
  interface
    subroutine MPI_FILE_WRITE_AT_ALL_BEGIN(fh, offset, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      integer(kind=MPI_OFFSET_KIND) :: offset
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_AT_ALL_BEGIN
  end interface
  interface
    subroutine MPI_FILE_WRITE_AT_ALL_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_AT_ALL_END
  end interface
  interface
    subroutine MPI_FILE_WRITE_ORDERED(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ORDERED
  end interface
  interface
    subroutine MPI_FILE_WRITE_ORDERED_BEGIN(fh, buf, count, datatype, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ORDERED_BEGIN
  end interface
  interface
    subroutine MPI_FILE_WRITE_ORDERED_END(fh, buf, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_ORDERED_END
  end interface
  interface
    subroutine MPI_FILE_WRITE_SHARED(fh, buf, count, datatype, status, ierror)
      import
      implicit none
      type(MPI_File) :: fh
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_FILE_WRITE_SHARED
  end interface
  interface
    subroutine MPI_FINALIZE(ierror)
      import
      implicit none
      integer, optional :: ierror
    end subroutine MPI_FINALIZE
  end interface
  interface
    subroutine MPI_FINALIZED(flag, ierror)
      import
      implicit none
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_FINALIZED
  end interface
  interface
    subroutine MPI_FREE_MEM(base, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
      type(*), dimension(*) :: base
      integer, optional :: ierror
    end subroutine MPI_FREE_MEM
  end interface
  interface
    subroutine MPI_GATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_GATHER
  end interface
  interface
    subroutine MPI_GATHER_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_GATHER_INIT
  end interface
  interface
    subroutine MPI_GATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, root, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_GATHERV
  end interface
  interface
    subroutine MPI_GATHERV_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, root, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_GATHERV_INIT
  end interface
  interface
    subroutine MPI_GET(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_GET
  end interface
  interface
    subroutine MPI_GET_ACCUMULATE(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, &
            target_rank, target_disp, target_count, target_datatype, op, win, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
      type(*), dimension(*) :: result_addr
      integer :: result_count
      type(MPI_Datatype) :: result_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Op) :: op
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_GET_ACCUMULATE
  end interface
  interface
    subroutine MPI_GET_ADDRESS(location, address, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: location
      type(*), dimension(*) :: location
      integer(kind=MPI_ADDRESS_KIND) :: address
      integer, optional :: ierror
    end subroutine MPI_GET_ADDRESS
  end interface
  interface
    subroutine MPI_GET_COUNT(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      type(MPI_Datatype) :: datatype
      integer :: count
      integer, optional :: ierror
    end subroutine MPI_GET_COUNT
  end interface
  interface
    subroutine MPI_GET_ELEMENTS(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      type(MPI_Datatype) :: datatype
      integer :: count
      integer, optional :: ierror
    end subroutine MPI_GET_ELEMENTS
  end interface
  interface
    subroutine MPI_GET_ELEMENTS_X(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_OFFSET_KIND) :: count
      integer, optional :: ierror
    end subroutine MPI_GET_ELEMENTS_X
  end interface
  interface
    subroutine MPI_GET_HW_RESOURCE_INFO(hw_info, ierror)
      import
      implicit none
      type(MPI_Info) :: hw_info
      integer, optional :: ierror
    end subroutine MPI_GET_HW_RESOURCE_INFO
  end interface
  interface
    subroutine MPI_GET_LIBRARY_VERSION(version, resultlen, ierror)
      import
      implicit none
      character(len=*) :: version
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_GET_LIBRARY_VERSION
  end interface
  interface
    subroutine MPI_GET_PROCESSOR_NAME(name, resultlen, ierror)
      import
      implicit none
      character(len=*) :: name
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_GET_PROCESSOR_NAME
  end interface
  interface
    subroutine MPI_GET_VERSION(version, subversion, ierror)
      import
      implicit none
      integer :: version
      integer :: subversion
      integer, optional :: ierror
    end subroutine MPI_GET_VERSION
  end interface
  interface
    subroutine MPI_GRAPH_CREATE(comm_old, nnodes, indx, edges, reorder, comm_graph, &
            ierror)
      import
      implicit none
      type(MPI_Comm) :: comm_old
      integer :: nnodes
      integer :: indx
      integer :: edges(*)
      logical :: reorder
      type(MPI_Comm) :: comm_graph
      integer, optional :: ierror
    end subroutine MPI_GRAPH_CREATE
  end interface
  interface
    subroutine MPI_GRAPH_GET(comm, maxindex, maxedges, indx, edges, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: maxindex
      integer :: maxedges
      integer :: indx
      integer :: edges(*)
      integer, optional :: ierror
    end subroutine MPI_GRAPH_GET
  end interface
  interface
    subroutine MPI_GRAPH_MAP(comm, nnodes, indx, edges, newrank, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: nnodes
      integer :: indx
      integer :: edges(*)
      integer :: newrank
      integer, optional :: ierror
    end subroutine MPI_GRAPH_MAP
  end interface
  interface
    subroutine MPI_GRAPH_NEIGHBORS(comm, rank, maxneighbors, neighbors, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: rank
      integer :: maxneighbors
      integer :: neighbors(*)
      integer, optional :: ierror
    end subroutine MPI_GRAPH_NEIGHBORS
  end interface
  interface
    subroutine MPI_GRAPH_NEIGHBORS_COUNT(comm, rank, nneighbors, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: rank
      integer :: nneighbors
      integer, optional :: ierror
    end subroutine MPI_GRAPH_NEIGHBORS_COUNT
  end interface
  interface
    subroutine MPI_GRAPHDIMS_GET(comm, nnodes, nedges, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: nnodes
      integer :: nedges
      integer, optional :: ierror
    end subroutine MPI_GRAPHDIMS_GET
  end interface
  interface
    subroutine MPI_GREQUEST_COMPLETE(request, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_GREQUEST_COMPLETE
  end interface
  interface
    subroutine MPI_GROUP_COMPARE(group1, group2, result, ierror)
      import
      implicit none
      type(MPI_Group) :: group1
      type(MPI_Group) :: group2
      integer :: result
      integer, optional :: ierror
    end subroutine MPI_GROUP_COMPARE
  end interface
  interface
    subroutine MPI_GROUP_DIFFERENCE(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group1
      type(MPI_Group) :: group2
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_DIFFERENCE
  end interface
  interface
    subroutine MPI_GROUP_EXCL(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: n
      integer :: ranks(*)
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_EXCL
  end interface
  interface
    subroutine MPI_GROUP_FREE(group, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer, optional :: ierror
    end subroutine MPI_GROUP_FREE
  end interface
  interface
    subroutine MPI_GROUP_FROM_SESSION_PSET(session, pset_name, newgroup, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      character(len=*) :: pset_name
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_FROM_SESSION_PSET
  end interface
  interface
    subroutine MPI_GROUP_INCL(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: n
      integer :: ranks(*)
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_INCL
  end interface
  interface
    subroutine MPI_GROUP_INTERSECTION(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group1
      type(MPI_Group) :: group2
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_INTERSECTION
  end interface
  interface
    subroutine MPI_GROUP_RANGE_EXCL(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: n
      integer :: ranges(*)
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_RANGE_EXCL
  end interface
  interface
    subroutine MPI_GROUP_RANGE_INCL(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: n
      integer :: ranges(*)
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_RANGE_INCL
  end interface
  interface
    subroutine MPI_GROUP_RANK(group, rank, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: rank
      integer, optional :: ierror
    end subroutine MPI_GROUP_RANK
  end interface
  interface
    subroutine MPI_GROUP_SIZE(group, size, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_GROUP_SIZE
  end interface
  interface
    subroutine MPI_GROUP_TRANSLATE_RANKS(group1, n, ranks1, group2, ranks2, ierror)
      import
      implicit none
      type(MPI_Group) :: group1
      integer :: n
      integer :: ranks1(*)
      type(MPI_Group) :: group2
      integer :: ranks2(*)
      integer, optional :: ierror
    end subroutine MPI_GROUP_TRANSLATE_RANKS
  end interface
  interface
    subroutine MPI_GROUP_UNION(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group) :: group1
      type(MPI_Group) :: group2
      type(MPI_Group) :: newgroup
      integer, optional :: ierror
    end subroutine MPI_GROUP_UNION
  end interface
  interface
    subroutine MPI_IALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLGATHER
  end interface
  interface
    subroutine MPI_IALLGATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLGATHERV
  end interface
  interface
    subroutine MPI_IALLREDUCE(sendbuf, recvbuf, count, datatype, op, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLREDUCE
  end interface
  interface
    subroutine MPI_IALLTOALL(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLTOALL
  end interface
  interface
    subroutine MPI_IALLTOALLV(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLTOALLV
  end interface
  interface
    subroutine MPI_IALLTOALLW(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, &
            rdispls, recvtypes, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IALLTOALLW
  end interface
  interface
    subroutine MPI_IBARRIER(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IBARRIER
  end interface
  interface
    subroutine MPI_IBCAST(buffer, count, datatype, root, comm, request, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IBCAST
  end interface
  interface
    subroutine MPI_IBSEND(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IBSEND
  end interface
  interface
    subroutine MPI_IEXSCAN(sendbuf, recvbuf, count, datatype, op, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IEXSCAN
  end interface
  interface
    subroutine MPI_IGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IGATHER
  end interface
  interface
    subroutine MPI_IGATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, root, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IGATHERV
  end interface
  interface
    subroutine MPI_IMPROBE(source, tag, comm, flag, message, status, &
            ierror)
      import
      implicit none
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      logical :: flag
      type(MPI_Message) :: message
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_IMPROBE
  end interface
  interface
    subroutine MPI_IMRECV(buf, count, datatype, message, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Message) :: message
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IMRECV
  end interface
  interface
    subroutine MPI_INEIGHBOR_ALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_INEIGHBOR_ALLGATHER
  end interface
  interface
    subroutine MPI_INEIGHBOR_ALLGATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_INEIGHBOR_ALLGATHERV
  end interface
  interface
    subroutine MPI_INEIGHBOR_ALLTOALL(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_INEIGHBOR_ALLTOALL
  end interface
  interface
    subroutine MPI_INEIGHBOR_ALLTOALLV(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_INEIGHBOR_ALLTOALLV
  end interface
  interface
    subroutine MPI_INFO_CREATE(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_INFO_CREATE
  end interface
  interface
    subroutine MPI_INFO_DELETE(info, key, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: key
      integer, optional :: ierror
    end subroutine MPI_INFO_DELETE
  end interface
  interface
    subroutine MPI_INFO_DUP(info, newinfo, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      type(MPI_Info) :: newinfo
      integer, optional :: ierror
    end subroutine MPI_INFO_DUP
  end interface
  interface
    subroutine MPI_INFO_FREE(info, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_INFO_FREE
  end interface
  interface
    subroutine MPI_INFO_GET(info, key, valuelen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: key
      integer :: valuelen
      character(len=*) :: value
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_INFO_GET
  end interface
  interface
    subroutine MPI_INFO_GET_NKEYS(info, nkeys, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer :: nkeys
      integer, optional :: ierror
    end subroutine MPI_INFO_GET_NKEYS
  end interface
  interface
    subroutine MPI_INFO_GET_NTHKEY(info, n, key, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      integer :: n
      character(len=*) :: key
      integer, optional :: ierror
    end subroutine MPI_INFO_GET_NTHKEY
  end interface
  interface
    subroutine MPI_INFO_GET_STRING(info, key, buflen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: key
      integer :: buflen
      character(len=*) :: value
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_INFO_GET_STRING
  end interface
  interface
    subroutine MPI_INFO_GET_VALUELEN(info, key, valuelen, flag, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: key
      integer :: valuelen
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_INFO_GET_VALUELEN
  end interface
  interface
    subroutine MPI_INFO_SET(info, key, value, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: key
      character(len=*) :: value
      integer, optional :: ierror
    end subroutine MPI_INFO_SET
  end interface
  interface
    subroutine MPI_INIT(ierror)
      import
      implicit none
      integer, optional :: ierror
    end subroutine MPI_INIT
  end interface
  interface
    subroutine MPI_INIT_THREAD(required, provided, ierror)
      import
      implicit none
      integer :: required
      integer :: provided
      integer, optional :: ierror
    end subroutine MPI_INIT_THREAD
  end interface
  interface
    subroutine MPI_INITIALIZED(flag, ierror)
      import
      implicit none
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_INITIALIZED
  end interface
  interface
    subroutine MPI_INTERCOMM_CREATE(local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm, &
            ierror)
      import
      implicit none
      type(MPI_Comm) :: local_comm
      integer :: local_leader
      type(MPI_Comm) :: peer_comm
      integer :: remote_leader
      integer :: tag
      type(MPI_Comm) :: newintercomm
      integer, optional :: ierror
    end subroutine MPI_INTERCOMM_CREATE
  end interface
  interface
    subroutine MPI_INTERCOMM_CREATE_FROM_GROUPS(local_group, local_leader, remote_group, remote_leader, stringtag, info, &
            errhandler, newintercomm, ierror)
      import
      implicit none
      type(MPI_Group) :: local_group
      integer :: local_leader
      type(MPI_Group) :: remote_group
      integer :: remote_leader
      character(len=*) :: stringtag
      type(MPI_Info) :: info
      type(MPI_Errhandler) :: errhandler
      type(MPI_Comm) :: newintercomm
      integer, optional :: ierror
    end subroutine MPI_INTERCOMM_CREATE_FROM_GROUPS
  end interface
  interface
    subroutine MPI_INTERCOMM_MERGE(intercomm, high, newintracomm, ierror)
      import
      implicit none
      type(MPI_Comm) :: intercomm
      integer :: high
      type(MPI_Comm) :: newintracomm
      integer, optional :: ierror
    end subroutine MPI_INTERCOMM_MERGE
  end interface
  interface
    subroutine MPI_IPROBE(source, tag, comm, flag, status, ierror)
      import
      implicit none
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      logical :: flag
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_IPROBE
  end interface
  interface
    subroutine MPI_IRECV(buf, count, datatype, source, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IRECV
  end interface
  interface
    subroutine MPI_IREDUCE(sendbuf, recvbuf, count, datatype, op, root, &
            comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IREDUCE
  end interface
  interface
    subroutine MPI_IREDUCE_SCATTER(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IREDUCE_SCATTER
  end interface
  interface
    subroutine MPI_IREDUCE_SCATTER_BLOCK(sendbuf, recvbuf, recvcount, datatype, op, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IREDUCE_SCATTER_BLOCK
  end interface
  interface
    subroutine MPI_IRSEND(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_IRSEND
  end interface
  interface
    subroutine MPI_IS_THREAD_MAIN(flag, ierror)
      import
      implicit none
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_IS_THREAD_MAIN
  end interface
  interface
    subroutine MPI_ISCAN(sendbuf, recvbuf, count, datatype, op, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISCAN
  end interface
  interface
    subroutine MPI_ISCATTER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISCATTER
  end interface
  interface
    subroutine MPI_ISCATTERV(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
            recvtype, root, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISCATTERV
  end interface
  interface
    subroutine MPI_ISEND(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISEND
  end interface
  interface
    subroutine MPI_ISENDRECV(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
            recvcount, recvtype, source, recvtag, comm, request, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      integer :: dest
      integer :: sendtag
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: source
      integer :: recvtag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISENDRECV
  end interface
  interface
    subroutine MPI_ISENDRECV_REPLACE(buf, count, datatype, dest, sendtag, source, &
            recvtag, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: sendtag
      integer :: source
      integer :: recvtag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISENDRECV_REPLACE
  end interface
  interface
    subroutine MPI_ISSEND(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_ISSEND
  end interface
  interface
    subroutine MPI_KEYVAL_FREE(keyval, ierror)
      import
      implicit none
      integer :: keyval
      integer, optional :: ierror
    end subroutine MPI_KEYVAL_FREE
  end interface
  interface
    subroutine MPI_LOOKUP_NAME(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*) :: service_name
      type(MPI_Info) :: info
      character(len=*) :: port_name
      integer, optional :: ierror
    end subroutine MPI_LOOKUP_NAME
  end interface
  interface
    subroutine MPI_MPROBE(source, tag, comm, message, status, ierror)
      import
      implicit none
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Message) :: message
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_MPROBE
  end interface
  interface
    subroutine MPI_MRECV(buf, count, datatype, message, status, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Message) :: message
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_MRECV
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLGATHER
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLGATHER_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLGATHER_INIT
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLGATHERV(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLGATHERV
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLGATHERV_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
            recvtype, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLGATHERV_INIT
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLTOALL(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALL
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLTOALL_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALL_INIT
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLTOALLV(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALLV
  end interface
  interface
    subroutine MPI_NEIGHBOR_ALLTOALLV_INIT(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
            rdispls, recvtype, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: sdispls(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer :: rdispls(*)
      type(MPI_Datatype) :: recvtype
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALLV_INIT
  end interface
  interface
    subroutine MPI_OP_COMMUTATIVE(op, commute, ierror)
      import
      implicit none
      type(MPI_Op) :: op
      integer :: commute
      integer, optional :: ierror
    end subroutine MPI_OP_COMMUTATIVE
  end interface
  interface
    subroutine MPI_OP_FREE(op, ierror)
      import
      implicit none
      type(MPI_Op) :: op
      integer, optional :: ierror
    end subroutine MPI_OP_FREE
  end interface
  interface
    subroutine MPI_OPEN_PORT(info, port_name, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      character(len=*) :: port_name
      integer, optional :: ierror
    end subroutine MPI_OPEN_PORT
  end interface
  interface
    subroutine MPI_PACK(inbuf, incount, datatype, outbuf, outsize, position, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
      type(*), dimension(*) :: inbuf
      integer :: incount
      type(MPI_Datatype) :: datatype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
      type(*), dimension(*) :: outbuf
      integer :: outsize
      integer :: position
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_PACK
  end interface
  interface
    subroutine MPI_PACK_EXTERNAL(datarep, inbuf, incount, datatype, outbuf, outsize, &
            position, ierror)
      import
      implicit none
      character(len=*) :: datarep
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
      type(*), dimension(*) :: inbuf
      integer :: incount
      type(MPI_Datatype) :: datatype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
      type(*), dimension(*) :: outbuf
      integer(kind=MPI_ADDRESS_KIND) :: outsize
      integer(kind=MPI_ADDRESS_KIND) :: position
      integer, optional :: ierror
    end subroutine MPI_PACK_EXTERNAL
  end interface
  interface
    subroutine MPI_PACK_EXTERNAL_SIZE(datarep, incount, datatype, size, ierror)
      import
      implicit none
      character(len=*) :: datarep
      integer :: incount
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_PACK_EXTERNAL_SIZE
  end interface
  interface
    subroutine MPI_PACK_SIZE(incount, datatype, comm, size, ierror)
      import
      implicit none
      integer :: incount
      type(MPI_Datatype) :: datatype
      type(MPI_Comm) :: comm
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_PACK_SIZE
  end interface
  interface
    subroutine MPI_PARRIVED(request, partition, flag, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer :: partition
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_PARRIVED
  end interface
  interface
    subroutine MPI_PREADY(partition, request, ierror)
      import
      implicit none
      integer :: partition
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_PREADY
  end interface
  interface
    subroutine MPI_PREADY_LIST(length, array_of_partitions, request, ierror)
      import
      implicit none
      integer :: length
      integer :: array_of_partitions(*)
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_PREADY_LIST
  end interface
  interface
    subroutine MPI_PREADY_RANGE(partition_low, partition_high, request, ierror)
      import
      implicit none
      integer :: partition_low
      integer :: partition_high
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_PREADY_RANGE
  end interface
  interface
    subroutine MPI_PRECV_INIT(buf, partitions, count, datatype, dest, tag, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: partitions
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_PRECV_INIT
  end interface
  interface
    subroutine MPI_PROBE(source, tag, comm, status, ierror)
      import
      implicit none
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_PROBE
  end interface
  interface
    subroutine MPI_PSEND_INIT(buf, partitions, count, datatype, dest, tag, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: partitions
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_PSEND_INIT
  end interface
  interface
    subroutine MPI_PUBLISH_NAME(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*) :: service_name
      type(MPI_Info) :: info
      character(len=*) :: port_name
      integer, optional :: ierror
    end subroutine MPI_PUBLISH_NAME
  end interface
  interface
    subroutine MPI_PUT(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_PUT
  end interface
  interface
    subroutine MPI_QUERY_THREAD(provided, ierror)
      import
      implicit none
      integer :: provided
      integer, optional :: ierror
    end subroutine MPI_QUERY_THREAD
  end interface
  interface
    subroutine MPI_RACCUMULATE(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, op, win, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Op) :: op
      type(MPI_Win) :: win
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RACCUMULATE
  end interface
  interface
    subroutine MPI_RECV(buf, count, datatype, source, tag, comm, &
            status, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_RECV
  end interface
  interface
    subroutine MPI_RECV_INIT(buf, count, datatype, source, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: source
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RECV_INIT
  end interface
  interface
    subroutine MPI_REDUCE(sendbuf, recvbuf, count, datatype, op, root, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_REDUCE
  end interface
  interface
    subroutine MPI_REDUCE_INIT(sendbuf, recvbuf, count, datatype, op, root, &
            comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_REDUCE_INIT
  end interface
  interface
    subroutine MPI_REDUCE_LOCAL(inbuf, inoutbuf, count, datatype, op, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
      type(*), dimension(*) :: inbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inoutbuf
      type(*), dimension(*) :: inoutbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      integer, optional :: ierror
    end subroutine MPI_REDUCE_LOCAL
  end interface
  interface
    subroutine MPI_REDUCE_SCATTER(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_REDUCE_SCATTER
  end interface
  interface
    subroutine MPI_REDUCE_SCATTER_BLOCK(sendbuf, recvbuf, recvcount, datatype, op, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_REDUCE_SCATTER_BLOCK
  end interface
  interface
    subroutine MPI_REDUCE_SCATTER_BLOCK_INIT(sendbuf, recvbuf, recvcount, datatype, op, comm, &
            info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_REDUCE_SCATTER_BLOCK_INIT
  end interface
  interface
    subroutine MPI_REDUCE_SCATTER_INIT(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
            info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_REDUCE_SCATTER_INIT
  end interface
  interface
    subroutine MPI_REMOVE_ERROR_CLASS(errorclass, ierror)
      import
      implicit none
      integer :: errorclass
      integer, optional :: ierror
    end subroutine MPI_REMOVE_ERROR_CLASS
  end interface
  interface
    subroutine MPI_REMOVE_ERROR_CODE(errorcode, ierror)
      import
      implicit none
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_REMOVE_ERROR_CODE
  end interface
  interface
    subroutine MPI_REMOVE_ERROR_STRING(errorcode, ierror)
      import
      implicit none
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_REMOVE_ERROR_STRING
  end interface
  interface
    subroutine MPI_REQUEST_FREE(request, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_REQUEST_FREE
  end interface
  interface
    subroutine MPI_REQUEST_GET_STATUS(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      logical :: flag
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_REQUEST_GET_STATUS
  end interface
  interface
    subroutine MPI_REQUEST_GET_STATUS_ALL(count, array_of_requests, flag, array_of_statuses, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      logical :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_REQUEST_GET_STATUS_ALL
  end interface
  interface
    subroutine MPI_REQUEST_GET_STATUS_ANY(count, array_of_requests, indx, flag, status, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      integer :: indx
      logical :: flag
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_REQUEST_GET_STATUS_ANY
  end interface
  interface
    subroutine MPI_REQUEST_GET_STATUS_SOME(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, ierror)
      import
      implicit none
      integer :: incount
      type(MPI_Request) :: array_of_requests(*)
      integer :: outcount
      integer :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_REQUEST_GET_STATUS_SOME
  end interface
  interface
    subroutine MPI_RGET(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Win) :: win
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RGET
  end interface
  interface
    subroutine MPI_RGET_ACCUMULATE(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, &
            target_rank, target_disp, target_count, target_datatype, op, win, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
      type(*), dimension(*) :: result_addr
      integer :: result_count
      type(MPI_Datatype) :: result_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Op) :: op
      type(MPI_Win) :: win
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RGET_ACCUMULATE
  end interface
  interface
    subroutine MPI_RPUT(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
      type(*), dimension(*) :: origin_addr
      integer :: origin_count
      type(MPI_Datatype) :: origin_datatype
      integer :: target_rank
      integer(kind=MPI_ADDRESS_KIND) :: target_disp
      integer :: target_count
      type(MPI_Datatype) :: target_datatype
      type(MPI_Win) :: win
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RPUT
  end interface
  interface
    subroutine MPI_RSEND(buf, count, datatype, dest, tag, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_RSEND
  end interface
  interface
    subroutine MPI_RSEND_INIT(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_RSEND_INIT
  end interface
  interface
    subroutine MPI_SCAN(sendbuf, recvbuf, count, datatype, op, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_SCAN
  end interface
  interface
    subroutine MPI_SCAN_INIT(sendbuf, recvbuf, count, datatype, op, comm, &
            info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count
      type(MPI_Datatype) :: datatype
      type(MPI_Op) :: op
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SCAN_INIT
  end interface
  interface
    subroutine MPI_SCATTER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_SCATTER
  end interface
  interface
    subroutine MPI_SCATTER_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            root, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SCATTER_INIT
  end interface
  interface
    subroutine MPI_SCATTERV(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
            recvtype, root, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_SCATTERV
  end interface
  interface
    subroutine MPI_SCATTERV_INIT(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
            recvtype, root, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer :: displs(*)
      type(MPI_Datatype) :: sendtype
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: root
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SCATTERV_INIT
  end interface
  interface
    subroutine MPI_SEND(buf, count, datatype, dest, tag, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_SEND
  end interface
  interface
    subroutine MPI_SEND_INIT(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SEND_INIT
  end interface
  interface
    subroutine MPI_SENDRECV(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
            recvcount, recvtype, source, recvtag, comm, status, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcount
      type(MPI_Datatype) :: sendtype
      integer :: dest
      integer :: sendtag
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount
      type(MPI_Datatype) :: recvtype
      integer :: source
      integer :: recvtag
      type(MPI_Comm) :: comm
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_SENDRECV
  end interface
  interface
    subroutine MPI_SENDRECV_REPLACE(buf, count, datatype, dest, sendtag, source, &
            recvtag, comm, status, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: sendtag
      integer :: source
      integer :: recvtag
      type(MPI_Comm) :: comm
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_SENDRECV_REPLACE
  end interface
  interface
    subroutine MPI_SESSION_ATTACH_BUFFER(session, buffer, size, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      type(*), dimension(*) :: buffer
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_SESSION_ATTACH_BUFFER
  end interface
  interface
    subroutine MPI_SESSION_CALL_ERRHANDLER(session, errorcode, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_SESSION_CALL_ERRHANDLER
  end interface
  interface
    subroutine MPI_SESSION_FINALIZE(session, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      integer, optional :: ierror
    end subroutine MPI_SESSION_FINALIZE
  end interface
  interface
    subroutine MPI_SESSION_FLUSH_BUFFER(session, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      integer, optional :: ierror
    end subroutine MPI_SESSION_FLUSH_BUFFER
  end interface
  interface
    subroutine MPI_SESSION_GET_ERRHANDLER(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_SESSION_GET_ERRHANDLER
  end interface
  interface
    subroutine MPI_SESSION_GET_INFO(session, info_used, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Info) :: info_used
      integer, optional :: ierror
    end subroutine MPI_SESSION_GET_INFO
  end interface
  interface
    subroutine MPI_SESSION_GET_NTH_PSET(session, info, n, pset_len, pset_name, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Info) :: info
      integer :: n
      integer :: pset_len
      character(len=*) :: pset_name
      integer, optional :: ierror
    end subroutine MPI_SESSION_GET_NTH_PSET
  end interface
  interface
    subroutine MPI_SESSION_GET_NUM_PSETS(session, info, npset_names, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Info) :: info
      integer :: npset_names
      integer, optional :: ierror
    end subroutine MPI_SESSION_GET_NUM_PSETS
  end interface
  interface
    subroutine MPI_SESSION_GET_PSET_INFO(session, pset_name, info, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      character(len=*) :: pset_name
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_SESSION_GET_PSET_INFO
  end interface
  interface
    subroutine MPI_SESSION_IFLUSH_BUFFER(session, request, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SESSION_IFLUSH_BUFFER
  end interface
  interface
    subroutine MPI_SESSION_INIT(info, errhandler, session, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      type(MPI_Errhandler) :: errhandler
      type(MPI_Session) :: session
      integer, optional :: ierror
    end subroutine MPI_SESSION_INIT
  end interface
  interface
    subroutine MPI_SESSION_SET_ERRHANDLER(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session) :: session
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_SESSION_SET_ERRHANDLER
  end interface
  interface
    subroutine MPI_SSEND(buf, count, datatype, dest, tag, comm, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_SSEND
  end interface
  interface
    subroutine MPI_SSEND_INIT(buf, count, datatype, dest, tag, comm, &
            request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count
      type(MPI_Datatype) :: datatype
      integer :: dest
      integer :: tag
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_SSEND_INIT
  end interface
  interface
    subroutine MPI_START(request, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_START
  end interface
  interface
    subroutine MPI_STARTALL(count, array_of_requests, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      integer, optional :: ierror
    end subroutine MPI_STARTALL
  end interface
  interface
    subroutine MPI_STATUS_GET_ERROR(status, error, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: error
      integer, optional :: ierror
    end subroutine MPI_STATUS_GET_ERROR
  end interface
  interface
    subroutine MPI_STATUS_GET_SOURCE(status, source, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: source
      integer, optional :: ierror
    end subroutine MPI_STATUS_GET_SOURCE
  end interface
  interface
    subroutine MPI_STATUS_GET_TAG(status, tag, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: tag
      integer, optional :: ierror
    end subroutine MPI_STATUS_GET_TAG
  end interface
  interface
    subroutine MPI_STATUS_SET_CANCELLED(status, flag, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_CANCELLED
  end interface
  interface
    subroutine MPI_STATUS_SET_ELEMENTS(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      type(MPI_Datatype) :: datatype
      integer :: count
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_ELEMENTS
  end interface
  interface
    subroutine MPI_STATUS_SET_ELEMENTS_X(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_OFFSET_KIND) :: count
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_ELEMENTS_X
  end interface
  interface
    subroutine MPI_STATUS_SET_ERROR(status, error, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: error
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_ERROR
  end interface
  interface
    subroutine MPI_STATUS_SET_SOURCE(status, source, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: source
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_SOURCE
  end interface
  interface
    subroutine MPI_STATUS_SET_TAG(status, tag, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      integer :: tag
      integer, optional :: ierror
    end subroutine MPI_STATUS_SET_TAG
  end interface
  interface
    subroutine MPI_TEST(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      logical :: flag
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_TEST
  end interface
  interface
    subroutine MPI_TEST_CANCELLED(status, flag, ierror)
      import
      implicit none
      type(MPI_Status) :: status
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_TEST_CANCELLED
  end interface
  interface
    subroutine MPI_TESTALL(count, array_of_requests, flag, array_of_statuses, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      logical :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_TESTALL
  end interface
  interface
    subroutine MPI_TESTANY(count, array_of_requests, indx, flag, status, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      integer :: indx
      logical :: flag
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_TESTANY
  end interface
  interface
    subroutine MPI_TESTSOME(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, ierror)
      import
      implicit none
      integer :: incount
      type(MPI_Request) :: array_of_requests(*)
      integer :: outcount
      integer :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_TESTSOME
  end interface
  interface
    subroutine MPI_TOPO_TEST(comm, status, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: status
      integer, optional :: ierror
    end subroutine MPI_TOPO_TEST
  end interface
  interface
    subroutine MPI_TYPE_COMMIT(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_TYPE_COMMIT
  end interface
  interface
    subroutine MPI_TYPE_CONTIGUOUS(count, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CONTIGUOUS
  end interface
  interface
    subroutine MPI_TYPE_CREATE_DARRAY(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, &
            array_of_psizes, order, oldtype, newtype, ierror)
      import
      implicit none
      integer :: size
      integer :: rank
      integer :: ndims
      integer :: array_of_gsizes(*)
      integer :: array_of_distribs(*)
      integer :: array_of_dargs(*)
      integer :: array_of_psizes(*)
      integer :: order
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_DARRAY
  end interface
  interface
    subroutine MPI_TYPE_CREATE_F90_COMPLEX(p, r, newtype, ierror)
      import
      implicit none
      integer :: p
      integer :: r
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_F90_COMPLEX
  end interface
  interface
    subroutine MPI_TYPE_CREATE_F90_INTEGER(r, newtype, ierror)
      import
      implicit none
      integer :: r
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_F90_INTEGER
  end interface
  interface
    subroutine MPI_TYPE_CREATE_F90_REAL(p, r, newtype, ierror)
      import
      implicit none
      integer :: p
      integer :: r
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_F90_REAL
  end interface
  interface
    subroutine MPI_TYPE_CREATE_HINDEXED(count, array_of_blocklengths, array_of_displacements, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND) :: array_of_displacements(*)
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_HINDEXED
  end interface
  interface
    subroutine MPI_TYPE_CREATE_HINDEXED_BLOCK(count, blocklength, array_of_displacements, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: blocklength
      integer(kind=MPI_ADDRESS_KIND) :: array_of_displacements(*)
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_HINDEXED_BLOCK
  end interface
  interface
    subroutine MPI_TYPE_CREATE_HVECTOR(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: blocklength
      integer(kind=MPI_ADDRESS_KIND) :: stride
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_HVECTOR
  end interface
  interface
    subroutine MPI_TYPE_CREATE_INDEXED_BLOCK(count, blocklength, array_of_displacements, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: blocklength
      integer :: array_of_displacements(*)
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_INDEXED_BLOCK
  end interface
  interface
    subroutine MPI_TYPE_CREATE_RESIZED(oldtype, lb, extent, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype) :: oldtype
      integer(kind=MPI_ADDRESS_KIND) :: lb
      integer(kind=MPI_ADDRESS_KIND) :: extent
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_RESIZED
  end interface
  interface
    subroutine MPI_TYPE_CREATE_STRUCT(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND) :: array_of_displacements(*)
      type(MPI_Datatype) :: array_of_types(*)
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_STRUCT
  end interface
  interface
    subroutine MPI_TYPE_CREATE_SUBARRAY(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, &
            newtype, ierror)
      import
      implicit none
      integer :: ndims
      integer :: array_of_sizes(*)
      integer :: array_of_subsizes(*)
      integer :: array_of_starts(*)
      integer :: order
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_CREATE_SUBARRAY
  end interface
  interface
    subroutine MPI_TYPE_DELETE_ATTR(datatype, type_keyval, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: type_keyval
      integer, optional :: ierror
    end subroutine MPI_TYPE_DELETE_ATTR
  end interface
  interface
    subroutine MPI_TYPE_DUP(oldtype, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_DUP
  end interface
  interface
    subroutine MPI_TYPE_FREE(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_TYPE_FREE
  end interface
  interface
    subroutine MPI_TYPE_FREE_KEYVAL(type_keyval, ierror)
      import
      implicit none
      integer :: type_keyval
      integer, optional :: ierror
    end subroutine MPI_TYPE_FREE_KEYVAL
  end interface
  interface
    subroutine MPI_TYPE_GET_CONTENTS(datatype, max_integers, max_addresses, max_datatypes, array_of_integers, array_of_addresses, &
            array_of_datatypes, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: max_integers
      integer :: max_addresses
      integer :: max_datatypes
      integer :: array_of_integers(*)
      integer(kind=MPI_ADDRESS_KIND) :: array_of_addresses(*)
      type(MPI_Datatype) :: array_of_datatypes(*)
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_CONTENTS
  end interface
  interface
    subroutine MPI_TYPE_GET_ENVELOPE(datatype, num_integers, num_addresses, num_datatypes, combiner, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: num_integers
      integer :: num_addresses
      integer :: num_datatypes
      integer :: combiner
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_ENVELOPE
  end interface
  interface
    subroutine MPI_TYPE_GET_EXTENT(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: lb
      integer(kind=MPI_ADDRESS_KIND) :: extent
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_EXTENT
  end interface
  interface
    subroutine MPI_TYPE_GET_EXTENT_X(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_OFFSET_KIND) :: lb
      integer(kind=MPI_OFFSET_KIND) :: extent
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_EXTENT_X
  end interface
  interface
    subroutine MPI_TYPE_GET_NAME(datatype, type_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      character(len=*) :: type_name
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_NAME
  end interface
  interface
    subroutine MPI_TYPE_GET_TRUE_EXTENT(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_ADDRESS_KIND) :: true_lb
      integer(kind=MPI_ADDRESS_KIND) :: true_extent
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_TRUE_EXTENT
  end interface
  interface
    subroutine MPI_TYPE_GET_TRUE_EXTENT_X(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_OFFSET_KIND) :: true_lb
      integer(kind=MPI_OFFSET_KIND) :: true_extent
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_TRUE_EXTENT_X
  end interface
  interface
    subroutine MPI_TYPE_GET_VALUE_INDEX(value_type, index_type, pair_type, ierror)
      import
      implicit none
      type(MPI_Datatype) :: value_type
      type(MPI_Datatype) :: index_type
      type(MPI_Datatype) :: pair_type
      integer, optional :: ierror
    end subroutine MPI_TYPE_GET_VALUE_INDEX
  end interface
  interface
    subroutine MPI_TYPE_INDEXED(count, array_of_blocklengths, array_of_displacements, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: array_of_blocklengths(*)
      integer :: array_of_displacements(*)
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_INDEXED
  end interface
  interface
    subroutine MPI_TYPE_MATCH_SIZE(typeclass, size, datatype, ierror)
      import
      implicit none
      integer :: typeclass
      integer :: size
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_TYPE_MATCH_SIZE
  end interface
  interface
    subroutine MPI_TYPE_SET_NAME(datatype, type_name, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      character(len=*) :: type_name
      integer, optional :: ierror
    end subroutine MPI_TYPE_SET_NAME
  end interface
  interface
    subroutine MPI_TYPE_SIZE(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer :: size
      integer, optional :: ierror
    end subroutine MPI_TYPE_SIZE
  end interface
  interface
    subroutine MPI_TYPE_SIZE_X(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype) :: datatype
      integer(kind=MPI_OFFSET_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_TYPE_SIZE_X
  end interface
  interface
    subroutine MPI_TYPE_VECTOR(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer :: count
      integer :: blocklength
      integer :: stride
      type(MPI_Datatype) :: oldtype
      type(MPI_Datatype) :: newtype
      integer, optional :: ierror
    end subroutine MPI_TYPE_VECTOR
  end interface
  interface
    subroutine MPI_UNPACK(inbuf, insize, position, outbuf, outcount, datatype, &
            comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
      type(*), dimension(*) :: inbuf
      integer :: insize
      integer :: position
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
      type(*), dimension(*) :: outbuf
      integer :: outcount
      type(MPI_Datatype) :: datatype
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_UNPACK
  end interface
  interface
    subroutine MPI_UNPACK_EXTERNAL(datarep, inbuf, insize, position, outbuf, outcount, &
            datatype, ierror)
      import
      implicit none
      character(len=*) :: datarep
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
      type(*), dimension(*) :: inbuf
      integer(kind=MPI_ADDRESS_KIND) :: insize
      integer(kind=MPI_ADDRESS_KIND) :: position
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
      type(*), dimension(*) :: outbuf
      integer :: outcount
      type(MPI_Datatype) :: datatype
      integer, optional :: ierror
    end subroutine MPI_UNPACK_EXTERNAL
  end interface
  interface
    subroutine MPI_UNPUBLISH_NAME(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*) :: service_name
      type(MPI_Info) :: info
      character(len=*) :: port_name
      integer, optional :: ierror
    end subroutine MPI_UNPUBLISH_NAME
  end interface
  interface
    subroutine MPI_WAIT(request, status, ierror)
      import
      implicit none
      type(MPI_Request) :: request
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_WAIT
  end interface
  interface
    subroutine MPI_WAITALL(count, array_of_requests, array_of_statuses, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_WAITALL
  end interface
  interface
    subroutine MPI_WAITANY(count, array_of_requests, indx, status, ierror)
      import
      implicit none
      integer :: count
      type(MPI_Request) :: array_of_requests(*)
      integer :: indx
      type(MPI_Status) :: status
      integer, optional :: ierror
    end subroutine MPI_WAITANY
  end interface
  interface
    subroutine MPI_WAITSOME(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, ierror)
      import
      implicit none
      integer :: incount
      type(MPI_Request) :: array_of_requests(*)
      integer :: outcount
      integer :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional :: ierror
    end subroutine MPI_WAITSOME
  end interface
  interface
    subroutine MPI_WIN_ATTACH(win, base, size, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
      type(*), dimension(*) :: base
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer, optional :: ierror
    end subroutine MPI_WIN_ATTACH
  end interface
  interface
    subroutine MPI_WIN_CALL_ERRHANDLER(win, errorcode, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: errorcode
      integer, optional :: ierror
    end subroutine MPI_WIN_CALL_ERRHANDLER
  end interface
  interface
    subroutine MPI_WIN_COMPLETE(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_COMPLETE
  end interface
  interface
    subroutine MPI_WIN_CREATE(base, size, disp_unit, info, comm, win, &
            ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
      type(*), dimension(*) :: base
      integer(kind=MPI_ADDRESS_KIND) :: size
      integer :: disp_unit
      type(MPI_Info) :: info
      type(MPI_Comm) :: comm
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_CREATE
  end interface
  interface
    subroutine MPI_WIN_CREATE_DYNAMIC(info, comm, win, ierror)
      import
      implicit none
      type(MPI_Info) :: info
      type(MPI_Comm) :: comm
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_CREATE_DYNAMIC
  end interface
  interface
    subroutine MPI_WIN_DELETE_ATTR(win, win_keyval, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: win_keyval
      integer, optional :: ierror
    end subroutine MPI_WIN_DELETE_ATTR
  end interface
  interface
    subroutine MPI_WIN_DETACH(win, base, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
      type(*), dimension(*) :: base
      integer, optional :: ierror
    end subroutine MPI_WIN_DETACH
  end interface
  interface
    subroutine MPI_WIN_FENCE(assert, win, ierror)
      import
      implicit none
      integer :: assert
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FENCE
  end interface
  interface
    subroutine MPI_WIN_FLUSH(rank, win, ierror)
      import
      implicit none
      integer :: rank
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FLUSH
  end interface
  interface
    subroutine MPI_WIN_FLUSH_ALL(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FLUSH_ALL
  end interface
  interface
    subroutine MPI_WIN_FLUSH_LOCAL(rank, win, ierror)
      import
      implicit none
      integer :: rank
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FLUSH_LOCAL
  end interface
  interface
    subroutine MPI_WIN_FLUSH_LOCAL_ALL(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FLUSH_LOCAL_ALL
  end interface
  interface
    subroutine MPI_WIN_FREE(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_FREE
  end interface
  interface
    subroutine MPI_WIN_FREE_KEYVAL(win_keyval, ierror)
      import
      implicit none
      integer :: win_keyval
      integer, optional :: ierror
    end subroutine MPI_WIN_FREE_KEYVAL
  end interface
  interface
    subroutine MPI_WIN_GET_ERRHANDLER(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_WIN_GET_ERRHANDLER
  end interface
  interface
    subroutine MPI_WIN_GET_GROUP(win, group, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      type(MPI_Group) :: group
      integer, optional :: ierror
    end subroutine MPI_WIN_GET_GROUP
  end interface
  interface
    subroutine MPI_WIN_GET_INFO(win, info_used, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      type(MPI_Info) :: info_used
      integer, optional :: ierror
    end subroutine MPI_WIN_GET_INFO
  end interface
  interface
    subroutine MPI_WIN_GET_NAME(win, win_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      character(len=*) :: win_name
      integer :: resultlen
      integer, optional :: ierror
    end subroutine MPI_WIN_GET_NAME
  end interface
  interface
    subroutine MPI_WIN_LOCK(lock_type, rank, assert, win, ierror)
      import
      implicit none
      integer :: lock_type
      integer :: rank
      integer :: assert
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_LOCK
  end interface
  interface
    subroutine MPI_WIN_LOCK_ALL(assert, win, ierror)
      import
      implicit none
      integer :: assert
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_LOCK_ALL
  end interface
  interface
    subroutine MPI_WIN_POST(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: assert
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_POST
  end interface
  interface
    subroutine MPI_WIN_SET_ERRHANDLER(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      type(MPI_Errhandler) :: errhandler
      integer, optional :: ierror
    end subroutine MPI_WIN_SET_ERRHANDLER
  end interface
  interface
    subroutine MPI_WIN_SET_INFO(win, info, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      type(MPI_Info) :: info
      integer, optional :: ierror
    end subroutine MPI_WIN_SET_INFO
  end interface
  interface
    subroutine MPI_WIN_SET_NAME(win, win_name, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      character(len=*) :: win_name
      integer, optional :: ierror
    end subroutine MPI_WIN_SET_NAME
  end interface
  interface
    subroutine MPI_WIN_START(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group) :: group
      integer :: assert
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_START
  end interface
  interface
    subroutine MPI_WIN_SYNC(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_SYNC
  end interface
  interface
    subroutine MPI_WIN_TEST(win, flag, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      logical :: flag
      integer, optional :: ierror
    end subroutine MPI_WIN_TEST
  end interface
  interface
    subroutine MPI_WIN_UNLOCK(rank, win, ierror)
      import
      implicit none
      integer :: rank
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_UNLOCK
  end interface
  interface
    subroutine MPI_WIN_UNLOCK_ALL(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_UNLOCK_ALL
  end interface
  interface
    subroutine MPI_WIN_WAIT(win, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer, optional :: ierror
    end subroutine MPI_WIN_WAIT
  end interface
  interface
    integer(kind=mpi_address_kind) function MPI_AINT_ADD(base, disp)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND) :: base
      integer(kind=MPI_ADDRESS_KIND) :: disp
    end function MPI_AINT_ADD
  end interface
  interface
    integer(kind=mpi_address_kind) function MPI_AINT_DIFF(addr1, addr2)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND) :: addr1
      integer(kind=MPI_ADDRESS_KIND) :: addr2
    end function MPI_AINT_DIFF
  end interface
  interface
    double precision function MPI_WTICK()
      import
      implicit none
    end function MPI_WTICK
  end interface
  interface
    double precision function MPI_WTIME()
      import
      implicit none
    end function MPI_WTIME
  end interface
  ! Routines bound by hand (mpi/src/fortran_manual/)
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
    subroutine MPI_NEIGHBOR_ALLTOALLW(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALLW
    subroutine MPI_INEIGHBOR_ALLTOALLW(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_INEIGHBOR_ALLTOALLW
    subroutine MPI_NEIGHBOR_ALLTOALLW_INIT(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, info, request, ierror)
      import
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      integer :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: sdispls(*)
      type(MPI_Datatype) :: sendtypes(*)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND) :: rdispls(*)
      type(MPI_Datatype) :: recvtypes(*)
      type(MPI_Comm) :: comm
      type(MPI_Info) :: info
      type(MPI_Request) :: request
      integer, optional :: ierror
    end subroutine MPI_NEIGHBOR_ALLTOALLW_INIT
    subroutine MPI_COMM_DETACH_BUFFER(comm, buffer_addr, size, ierror)
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
end module mpi_f08
