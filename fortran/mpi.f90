! mpi.f90: the `use mpi` module of nexar's MPI library (libmpi_abi).
! Constants and special addresses as in mpif.h. Routines with a choice buffer have
! explicit interfaces whose buffer takes any type, kind and rank (gfortran's
! NO_ARG_CHECK); the others have implicit interfaces.
! Generated from mpi/spec by `cargo xtask gen`; do not edit.
module mpi
      implicit none
      public
! Status size and indices (1-based)
      INTEGER MPI_STATUS_SIZE
      PARAMETER (MPI_STATUS_SIZE=8)
      INTEGER MPI_SOURCE
      PARAMETER (MPI_SOURCE=1)
      INTEGER MPI_TAG
      PARAMETER (MPI_TAG=2)
      INTEGER MPI_ERROR
      PARAMETER (MPI_ERROR=3)
! Kinds of address, offset, count and default integers
      INTEGER MPI_ADDRESS_KIND
      PARAMETER (MPI_ADDRESS_KIND=8)
      INTEGER MPI_OFFSET_KIND
      PARAMETER (MPI_OFFSET_KIND=8)
      INTEGER MPI_COUNT_KIND
      PARAMETER (MPI_COUNT_KIND=8)
      INTEGER MPI_INTEGER_KIND
      PARAMETER (MPI_INTEGER_KIND=4)
! Version of the standard and of the ABI
      INTEGER MPI_VERSION
      PARAMETER (MPI_VERSION=5)
      INTEGER MPI_SUBVERSION
      PARAMETER (MPI_SUBVERSION=0)
      INTEGER MPI_ABI_VERSION
      PARAMETER (MPI_ABI_VERSION=1)
      INTEGER MPI_ABI_SUBVERSION
      PARAMETER (MPI_ABI_SUBVERSION=0)
! Predefined MPI_Op handles
      INTEGER MPI_OP_NULL
      PARAMETER (MPI_OP_NULL=32)
      INTEGER MPI_SUM
      PARAMETER (MPI_SUM=33)
      INTEGER MPI_MIN
      PARAMETER (MPI_MIN=34)
      INTEGER MPI_MAX
      PARAMETER (MPI_MAX=35)
      INTEGER MPI_PROD
      PARAMETER (MPI_PROD=36)
      INTEGER MPI_BAND
      PARAMETER (MPI_BAND=40)
      INTEGER MPI_BOR
      PARAMETER (MPI_BOR=41)
      INTEGER MPI_BXOR
      PARAMETER (MPI_BXOR=42)
      INTEGER MPI_LAND
      PARAMETER (MPI_LAND=48)
      INTEGER MPI_LOR
      PARAMETER (MPI_LOR=49)
      INTEGER MPI_LXOR
      PARAMETER (MPI_LXOR=50)
      INTEGER MPI_MINLOC
      PARAMETER (MPI_MINLOC=56)
      INTEGER MPI_MAXLOC
      PARAMETER (MPI_MAXLOC=57)
      INTEGER MPI_REPLACE
      PARAMETER (MPI_REPLACE=60)
      INTEGER MPI_NO_OP
      PARAMETER (MPI_NO_OP=61)
! Predefined MPI_Comm handles
      INTEGER MPI_COMM_NULL
      PARAMETER (MPI_COMM_NULL=256)
      INTEGER MPI_COMM_WORLD
      PARAMETER (MPI_COMM_WORLD=257)
      INTEGER MPI_COMM_SELF
      PARAMETER (MPI_COMM_SELF=258)
! Predefined MPI_Group handles
      INTEGER MPI_GROUP_NULL
      PARAMETER (MPI_GROUP_NULL=264)
      INTEGER MPI_GROUP_EMPTY
      PARAMETER (MPI_GROUP_EMPTY=265)
! Predefined MPI_Win handles
      INTEGER MPI_WIN_NULL
      PARAMETER (MPI_WIN_NULL=272)
! Predefined MPI_File handles
      INTEGER MPI_FILE_NULL
      PARAMETER (MPI_FILE_NULL=280)
! Predefined MPI_Session handles
      INTEGER MPI_SESSION_NULL
      PARAMETER (MPI_SESSION_NULL=288)
! Predefined MPI_Message handles
      INTEGER MPI_MESSAGE_NULL
      PARAMETER (MPI_MESSAGE_NULL=296)
      INTEGER MPI_MESSAGE_NO_PROC
      PARAMETER (MPI_MESSAGE_NO_PROC=297)
! Predefined MPI_Info handles
      INTEGER MPI_INFO_NULL
      PARAMETER (MPI_INFO_NULL=304)
      INTEGER MPI_INFO_ENV
      PARAMETER (MPI_INFO_ENV=305)
! Predefined MPI_Errhandler handles
      INTEGER MPI_ERRHANDLER_NULL
      PARAMETER (MPI_ERRHANDLER_NULL=320)
      INTEGER MPI_ERRORS_ARE_FATAL
      PARAMETER (MPI_ERRORS_ARE_FATAL=321)
      INTEGER MPI_ERRORS_RETURN
      PARAMETER (MPI_ERRORS_RETURN=322)
      INTEGER MPI_ERRORS_ABORT
      PARAMETER (MPI_ERRORS_ABORT=323)
! Predefined MPI_Request handles
      INTEGER MPI_REQUEST_NULL
      PARAMETER (MPI_REQUEST_NULL=384)
! Predefined MPI_Datatype handles
      INTEGER MPI_DATATYPE_NULL
      PARAMETER (MPI_DATATYPE_NULL=512)
      INTEGER MPI_AINT
      PARAMETER (MPI_AINT=513)
      INTEGER MPI_COUNT
      PARAMETER (MPI_COUNT=514)
      INTEGER MPI_OFFSET
      PARAMETER (MPI_OFFSET=515)
      INTEGER MPI_PACKED
      PARAMETER (MPI_PACKED=519)
      INTEGER MPI_SHORT
      PARAMETER (MPI_SHORT=520)
      INTEGER MPI_INT
      PARAMETER (MPI_INT=521)
      INTEGER MPI_LONG
      PARAMETER (MPI_LONG=522)
      INTEGER MPI_LONG_LONG
      PARAMETER (MPI_LONG_LONG=523)
      INTEGER MPI_LONG_LONG_INT
      PARAMETER (MPI_LONG_LONG_INT=523)
      INTEGER MPI_UNSIGNED_SHORT
      PARAMETER (MPI_UNSIGNED_SHORT=524)
      INTEGER MPI_UNSIGNED
      PARAMETER (MPI_UNSIGNED=525)
      INTEGER MPI_UNSIGNED_LONG
      PARAMETER (MPI_UNSIGNED_LONG=526)
      INTEGER MPI_UNSIGNED_LONG_LONG
      PARAMETER (MPI_UNSIGNED_LONG_LONG=527)
      INTEGER MPI_FLOAT
      PARAMETER (MPI_FLOAT=528)
      INTEGER MPI_C_FLOAT_COMPLEX
      PARAMETER (MPI_C_FLOAT_COMPLEX=530)
      INTEGER MPI_C_COMPLEX
      PARAMETER (MPI_C_COMPLEX=530)
      INTEGER MPI_CXX_FLOAT_COMPLEX
      PARAMETER (MPI_CXX_FLOAT_COMPLEX=531)
      INTEGER MPI_DOUBLE
      PARAMETER (MPI_DOUBLE=532)
      INTEGER MPI_C_DOUBLE_COMPLEX
      PARAMETER (MPI_C_DOUBLE_COMPLEX=534)
      INTEGER MPI_CXX_DOUBLE_COMPLEX
      PARAMETER (MPI_CXX_DOUBLE_COMPLEX=535)
      INTEGER MPI_LOGICAL
      PARAMETER (MPI_LOGICAL=536)
      INTEGER MPI_INTEGER
      PARAMETER (MPI_INTEGER=537)
      INTEGER MPI_REAL
      PARAMETER (MPI_REAL=538)
      INTEGER MPI_COMPLEX
      PARAMETER (MPI_COMPLEX=539)
      INTEGER MPI_DOUBLE_PRECISION
      PARAMETER (MPI_DOUBLE_PRECISION=540)
      INTEGER MPI_DOUBLE_COMPLEX
      PARAMETER (MPI_DOUBLE_COMPLEX=541)
      INTEGER MPI_CHARACTER
      PARAMETER (MPI_CHARACTER=542)
      INTEGER MPI_LONG_DOUBLE
      PARAMETER (MPI_LONG_DOUBLE=544)
      INTEGER MPI_C_LONG_DOUBLE_COMPLEX
      PARAMETER (MPI_C_LONG_DOUBLE_COMPLEX=548)
      INTEGER MPI_CXX_LONG_DOUBLE_COMPLEX
      PARAMETER (MPI_CXX_LONG_DOUBLE_COMPLEX=549)
      INTEGER MPI_FLOAT_INT
      PARAMETER (MPI_FLOAT_INT=552)
      INTEGER MPI_DOUBLE_INT
      PARAMETER (MPI_DOUBLE_INT=553)
      INTEGER MPI_LONG_INT
      PARAMETER (MPI_LONG_INT=554)
      INTEGER MPI_2INT
      PARAMETER (MPI_2INT=555)
      INTEGER MPI_SHORT_INT
      PARAMETER (MPI_SHORT_INT=556)
      INTEGER MPI_LONG_DOUBLE_INT
      PARAMETER (MPI_LONG_DOUBLE_INT=557)
      INTEGER MPI_2REAL
      PARAMETER (MPI_2REAL=560)
      INTEGER MPI_2DOUBLE_PRECISION
      PARAMETER (MPI_2DOUBLE_PRECISION=561)
      INTEGER MPI_2INTEGER
      PARAMETER (MPI_2INTEGER=562)
      INTEGER MPI_C_BOOL
      PARAMETER (MPI_C_BOOL=568)
      INTEGER MPI_CXX_BOOL
      PARAMETER (MPI_CXX_BOOL=569)
      INTEGER MPI_WCHAR
      PARAMETER (MPI_WCHAR=572)
      INTEGER MPI_INT8_T
      PARAMETER (MPI_INT8_T=576)
      INTEGER MPI_UINT8_T
      PARAMETER (MPI_UINT8_T=577)
      INTEGER MPI_CHAR
      PARAMETER (MPI_CHAR=579)
      INTEGER MPI_SIGNED_CHAR
      PARAMETER (MPI_SIGNED_CHAR=580)
      INTEGER MPI_UNSIGNED_CHAR
      PARAMETER (MPI_UNSIGNED_CHAR=581)
      INTEGER MPI_BYTE
      PARAMETER (MPI_BYTE=583)
      INTEGER MPI_INT16_T
      PARAMETER (MPI_INT16_T=584)
      INTEGER MPI_UINT16_T
      PARAMETER (MPI_UINT16_T=585)
      INTEGER MPI_INT32_T
      PARAMETER (MPI_INT32_T=592)
      INTEGER MPI_UINT32_T
      PARAMETER (MPI_UINT32_T=593)
      INTEGER MPI_INT64_T
      PARAMETER (MPI_INT64_T=600)
      INTEGER MPI_UINT64_T
      PARAMETER (MPI_UINT64_T=601)
      INTEGER MPI_LOGICAL1
      PARAMETER (MPI_LOGICAL1=704)
      INTEGER MPI_INTEGER1
      PARAMETER (MPI_INTEGER1=705)
      INTEGER MPI_LOGICAL2
      PARAMETER (MPI_LOGICAL2=712)
      INTEGER MPI_INTEGER2
      PARAMETER (MPI_INTEGER2=713)
      INTEGER MPI_REAL2
      PARAMETER (MPI_REAL2=714)
      INTEGER MPI_LOGICAL4
      PARAMETER (MPI_LOGICAL4=720)
      INTEGER MPI_INTEGER4
      PARAMETER (MPI_INTEGER4=721)
      INTEGER MPI_REAL4
      PARAMETER (MPI_REAL4=722)
      INTEGER MPI_COMPLEX4
      PARAMETER (MPI_COMPLEX4=723)
      INTEGER MPI_LOGICAL8
      PARAMETER (MPI_LOGICAL8=728)
      INTEGER MPI_INTEGER8
      PARAMETER (MPI_INTEGER8=729)
      INTEGER MPI_REAL8
      PARAMETER (MPI_REAL8=730)
      INTEGER MPI_COMPLEX8
      PARAMETER (MPI_COMPLEX8=731)
      INTEGER MPI_LOGICAL16
      PARAMETER (MPI_LOGICAL16=736)
      INTEGER MPI_INTEGER16
      PARAMETER (MPI_INTEGER16=737)
      INTEGER MPI_REAL16
      PARAMETER (MPI_REAL16=738)
      INTEGER MPI_COMPLEX16
      PARAMETER (MPI_COMPLEX16=739)
      INTEGER MPI_COMPLEX32
      PARAMETER (MPI_COMPLEX32=747)
! Error Classes
      INTEGER MPI_SUCCESS
      PARAMETER (MPI_SUCCESS=0)
      INTEGER MPI_ERR_BUFFER
      PARAMETER (MPI_ERR_BUFFER=1)
      INTEGER MPI_ERR_COUNT
      PARAMETER (MPI_ERR_COUNT=2)
      INTEGER MPI_ERR_TYPE
      PARAMETER (MPI_ERR_TYPE=3)
      INTEGER MPI_ERR_TAG
      PARAMETER (MPI_ERR_TAG=4)
      INTEGER MPI_ERR_COMM
      PARAMETER (MPI_ERR_COMM=5)
      INTEGER MPI_ERR_RANK
      PARAMETER (MPI_ERR_RANK=6)
      INTEGER MPI_ERR_REQUEST
      PARAMETER (MPI_ERR_REQUEST=7)
      INTEGER MPI_ERR_ROOT
      PARAMETER (MPI_ERR_ROOT=8)
      INTEGER MPI_ERR_GROUP
      PARAMETER (MPI_ERR_GROUP=9)
      INTEGER MPI_ERR_OP
      PARAMETER (MPI_ERR_OP=10)
      INTEGER MPI_ERR_TOPOLOGY
      PARAMETER (MPI_ERR_TOPOLOGY=11)
      INTEGER MPI_ERR_DIMS
      PARAMETER (MPI_ERR_DIMS=12)
      INTEGER MPI_ERR_ARG
      PARAMETER (MPI_ERR_ARG=13)
      INTEGER MPI_ERR_UNKNOWN
      PARAMETER (MPI_ERR_UNKNOWN=14)
      INTEGER MPI_ERR_TRUNCATE
      PARAMETER (MPI_ERR_TRUNCATE=15)
      INTEGER MPI_ERR_OTHER
      PARAMETER (MPI_ERR_OTHER=16)
      INTEGER MPI_ERR_INTERN
      PARAMETER (MPI_ERR_INTERN=17)
      INTEGER MPI_ERR_PENDING
      PARAMETER (MPI_ERR_PENDING=18)
      INTEGER MPI_ERR_IN_STATUS
      PARAMETER (MPI_ERR_IN_STATUS=19)
      INTEGER MPI_ERR_ACCESS
      PARAMETER (MPI_ERR_ACCESS=20)
      INTEGER MPI_ERR_AMODE
      PARAMETER (MPI_ERR_AMODE=21)
      INTEGER MPI_ERR_ASSERT
      PARAMETER (MPI_ERR_ASSERT=22)
      INTEGER MPI_ERR_BAD_FILE
      PARAMETER (MPI_ERR_BAD_FILE=23)
      INTEGER MPI_ERR_BASE
      PARAMETER (MPI_ERR_BASE=24)
      INTEGER MPI_ERR_CONVERSION
      PARAMETER (MPI_ERR_CONVERSION=25)
      INTEGER MPI_ERR_DISP
      PARAMETER (MPI_ERR_DISP=26)
      INTEGER MPI_ERR_DUP_DATAREP
      PARAMETER (MPI_ERR_DUP_DATAREP=27)
      INTEGER MPI_ERR_FILE_EXISTS
      PARAMETER (MPI_ERR_FILE_EXISTS=28)
      INTEGER MPI_ERR_FILE_IN_USE
      PARAMETER (MPI_ERR_FILE_IN_USE=29)
      INTEGER MPI_ERR_FILE
      PARAMETER (MPI_ERR_FILE=30)
      INTEGER MPI_ERR_INFO_KEY
      PARAMETER (MPI_ERR_INFO_KEY=31)
      INTEGER MPI_ERR_INFO_NOKEY
      PARAMETER (MPI_ERR_INFO_NOKEY=32)
      INTEGER MPI_ERR_INFO_VALUE
      PARAMETER (MPI_ERR_INFO_VALUE=33)
      INTEGER MPI_ERR_INFO
      PARAMETER (MPI_ERR_INFO=34)
      INTEGER MPI_ERR_IO
      PARAMETER (MPI_ERR_IO=35)
      INTEGER MPI_ERR_KEYVAL
      PARAMETER (MPI_ERR_KEYVAL=36)
      INTEGER MPI_ERR_LOCKTYPE
      PARAMETER (MPI_ERR_LOCKTYPE=37)
      INTEGER MPI_ERR_NAME
      PARAMETER (MPI_ERR_NAME=38)
      INTEGER MPI_ERR_NO_MEM
      PARAMETER (MPI_ERR_NO_MEM=39)
      INTEGER MPI_ERR_NOT_SAME
      PARAMETER (MPI_ERR_NOT_SAME=40)
      INTEGER MPI_ERR_NO_SPACE
      PARAMETER (MPI_ERR_NO_SPACE=41)
      INTEGER MPI_ERR_NO_SUCH_FILE
      PARAMETER (MPI_ERR_NO_SUCH_FILE=42)
      INTEGER MPI_ERR_PORT
      PARAMETER (MPI_ERR_PORT=43)
      INTEGER MPI_ERR_QUOTA
      PARAMETER (MPI_ERR_QUOTA=44)
      INTEGER MPI_ERR_READ_ONLY
      PARAMETER (MPI_ERR_READ_ONLY=45)
      INTEGER MPI_ERR_RMA_ATTACH
      PARAMETER (MPI_ERR_RMA_ATTACH=46)
      INTEGER MPI_ERR_RMA_CONFLICT
      PARAMETER (MPI_ERR_RMA_CONFLICT=47)
      INTEGER MPI_ERR_RMA_RANGE
      PARAMETER (MPI_ERR_RMA_RANGE=48)
      INTEGER MPI_ERR_RMA_SHARED
      PARAMETER (MPI_ERR_RMA_SHARED=49)
      INTEGER MPI_ERR_RMA_SYNC
      PARAMETER (MPI_ERR_RMA_SYNC=50)
      INTEGER MPI_ERR_SERVICE
      PARAMETER (MPI_ERR_SERVICE=51)
      INTEGER MPI_ERR_SIZE
      PARAMETER (MPI_ERR_SIZE=52)
      INTEGER MPI_ERR_SPAWN
      PARAMETER (MPI_ERR_SPAWN=53)
      INTEGER MPI_ERR_UNSUPPORTED_DATAREP
      PARAMETER (MPI_ERR_UNSUPPORTED_DATAREP=54)
      INTEGER MPI_ERR_UNSUPPORTED_OPERATION
      PARAMETER (MPI_ERR_UNSUPPORTED_OPERATION=55)
      INTEGER MPI_ERR_WIN
      PARAMETER (MPI_ERR_WIN=56)
      INTEGER MPI_ERR_RMA_FLAVOR
      PARAMETER (MPI_ERR_RMA_FLAVOR=57)
      INTEGER MPI_ERR_PROC_ABORTED
      PARAMETER (MPI_ERR_PROC_ABORTED=58)
      INTEGER MPI_ERR_VALUE_TOO_LARGE
      PARAMETER (MPI_ERR_VALUE_TOO_LARGE=59)
      INTEGER MPI_ERR_SESSION
      PARAMETER (MPI_ERR_SESSION=60)
      INTEGER MPI_ERR_ERRHANDLER
      PARAMETER (MPI_ERR_ERRHANDLER=61)
      INTEGER MPI_ERR_ABI
      PARAMETER (MPI_ERR_ABI=62)
      INTEGER MPI_ERR_LASTCODE
      PARAMETER (MPI_ERR_LASTCODE=16383)
! Maximum Sizes for Strings
      INTEGER MPI_MAX_DATAREP_STRING
      PARAMETER (MPI_MAX_DATAREP_STRING=128)
      INTEGER MPI_MAX_ERROR_STRING
      PARAMETER (MPI_MAX_ERROR_STRING=512)
      INTEGER MPI_MAX_INFO_KEY
      PARAMETER (MPI_MAX_INFO_KEY=256)
      INTEGER MPI_MAX_INFO_VAL
      PARAMETER (MPI_MAX_INFO_VAL=1024)
      INTEGER MPI_MAX_LIBRARY_VERSION_STRING
      PARAMETER (MPI_MAX_LIBRARY_VERSION_STRING=8192)
      INTEGER MPI_MAX_OBJECT_NAME
      PARAMETER (MPI_MAX_OBJECT_NAME=128)
      INTEGER MPI_MAX_PORT_NAME
      PARAMETER (MPI_MAX_PORT_NAME=1024)
      INTEGER MPI_MAX_PROCESSOR_NAME
      PARAMETER (MPI_MAX_PROCESSOR_NAME=256)
      INTEGER MPI_MAX_STRINGTAG_LEN
      PARAMETER (MPI_MAX_STRINGTAG_LEN=1024)
      INTEGER MPI_MAX_PSET_NAME_LEN
      PARAMETER (MPI_MAX_PSET_NAME_LEN=1024)
! Assorted Constants
      INTEGER MPI_BSEND_OVERHEAD
      PARAMETER (MPI_BSEND_OVERHEAD=512)
! File Open Modes
      INTEGER MPI_MODE_APPEND
      PARAMETER (MPI_MODE_APPEND=1)
      INTEGER MPI_MODE_CREATE
      PARAMETER (MPI_MODE_CREATE=2)
      INTEGER MPI_MODE_DELETE_ON_CLOSE
      PARAMETER (MPI_MODE_DELETE_ON_CLOSE=4)
      INTEGER MPI_MODE_EXCL
      PARAMETER (MPI_MODE_EXCL=8)
      INTEGER MPI_MODE_RDONLY
      PARAMETER (MPI_MODE_RDONLY=16)
      INTEGER MPI_MODE_RDWR
      PARAMETER (MPI_MODE_RDWR=32)
      INTEGER MPI_MODE_SEQUENTIAL
      PARAMETER (MPI_MODE_SEQUENTIAL=64)
      INTEGER MPI_MODE_UNIQUE_OPEN
      PARAMETER (MPI_MODE_UNIQUE_OPEN=128)
      INTEGER MPI_MODE_WRONLY
      PARAMETER (MPI_MODE_WRONLY=256)
! Window Assertion Modes
      INTEGER MPI_MODE_NOCHECK
      PARAMETER (MPI_MODE_NOCHECK=1024)
      INTEGER MPI_MODE_NOPRECEDE
      PARAMETER (MPI_MODE_NOPRECEDE=2048)
      INTEGER MPI_MODE_NOPUT
      PARAMETER (MPI_MODE_NOPUT=4096)
      INTEGER MPI_MODE_NOSTORE
      PARAMETER (MPI_MODE_NOSTORE=8192)
      INTEGER MPI_MODE_NOSUCCEED
      PARAMETER (MPI_MODE_NOSUCCEED=16384)
! Wildcard values - must be negative
      INTEGER MPI_ANY_SOURCE
      PARAMETER (MPI_ANY_SOURCE=-1)
      INTEGER MPI_ANY_TAG
      PARAMETER (MPI_ANY_TAG=-2)
! Rank sentinels - must be negative
      INTEGER MPI_PROC_NULL
      PARAMETER (MPI_PROC_NULL=-3)
      INTEGER MPI_ROOT
      PARAMETER (MPI_ROOT=-4)
! Multi-purpose sentinel - must be negative
      INTEGER MPI_UNDEFINED
      PARAMETER (MPI_UNDEFINED=-32766)
! Thread Support - monotonic values, SINGLE < FUNNELED < SERIALIZED < MU
      INTEGER MPI_THREAD_SINGLE
      PARAMETER (MPI_THREAD_SINGLE=0)
      INTEGER MPI_THREAD_FUNNELED
      PARAMETER (MPI_THREAD_FUNNELED=1024)
      INTEGER MPI_THREAD_SERIALIZED
      PARAMETER (MPI_THREAD_SERIALIZED=2048)
      INTEGER MPI_THREAD_MULTIPLE
      PARAMETER (MPI_THREAD_MULTIPLE=4096)
! Array Datatype Order
      INTEGER MPI_ORDER_C
      PARAMETER (MPI_ORDER_C=12)
      INTEGER MPI_ORDER_FORTRAN
      PARAMETER (MPI_ORDER_FORTRAN=15)
! Array Datatype Distribution
      INTEGER MPI_DISTRIBUTE_NONE
      PARAMETER (MPI_DISTRIBUTE_NONE=16)
      INTEGER MPI_DISTRIBUTE_BLOCK
      PARAMETER (MPI_DISTRIBUTE_BLOCK=17)
      INTEGER MPI_DISTRIBUTE_CYCLIC
      PARAMETER (MPI_DISTRIBUTE_CYCLIC=18)
      INTEGER MPI_DISTRIBUTE_DFLT_DARG
      PARAMETER (MPI_DISTRIBUTE_DFLT_DARG=19)
! Datatype Decoding Combiners
      INTEGER MPI_COMBINER_NAMED
      PARAMETER (MPI_COMBINER_NAMED=101)
      INTEGER MPI_COMBINER_DUP
      PARAMETER (MPI_COMBINER_DUP=102)
      INTEGER MPI_COMBINER_CONTIGUOUS
      PARAMETER (MPI_COMBINER_CONTIGUOUS=103)
      INTEGER MPI_COMBINER_VECTOR
      PARAMETER (MPI_COMBINER_VECTOR=104)
      INTEGER MPI_COMBINER_HVECTOR
      PARAMETER (MPI_COMBINER_HVECTOR=105)
      INTEGER MPI_COMBINER_INDEXED
      PARAMETER (MPI_COMBINER_INDEXED=106)
      INTEGER MPI_COMBINER_HINDEXED
      PARAMETER (MPI_COMBINER_HINDEXED=107)
      INTEGER MPI_COMBINER_INDEXED_BLOCK
      PARAMETER (MPI_COMBINER_INDEXED_BLOCK=108)
      INTEGER MPI_COMBINER_HINDEXED_BLOCK
      PARAMETER (MPI_COMBINER_HINDEXED_BLOCK=109)
      INTEGER MPI_COMBINER_STRUCT
      PARAMETER (MPI_COMBINER_STRUCT=110)
      INTEGER MPI_COMBINER_SUBARRAY
      PARAMETER (MPI_COMBINER_SUBARRAY=111)
      INTEGER MPI_COMBINER_DARRAY
      PARAMETER (MPI_COMBINER_DARRAY=112)
      INTEGER MPI_COMBINER_F90_INTEGER
      PARAMETER (MPI_COMBINER_F90_INTEGER=113)
      INTEGER MPI_COMBINER_F90_REAL
      PARAMETER (MPI_COMBINER_F90_REAL=114)
      INTEGER MPI_COMBINER_F90_COMPLEX
      PARAMETER (MPI_COMBINER_F90_COMPLEX=115)
      INTEGER MPI_COMBINER_RESIZED
      PARAMETER (MPI_COMBINER_RESIZED=116)
      INTEGER MPI_COMBINER_VALUE_INDEX
      PARAMETER (MPI_COMBINER_VALUE_INDEX=117)
! Fortran Datatype Matching
      INTEGER MPIX_TYPECLASS_LOGICAL
      PARAMETER (MPIX_TYPECLASS_LOGICAL=191)
      INTEGER MPI_TYPECLASS_INTEGER
      PARAMETER (MPI_TYPECLASS_INTEGER=192)
      INTEGER MPI_TYPECLASS_REAL
      PARAMETER (MPI_TYPECLASS_REAL=193)
      INTEGER MPI_TYPECLASS_COMPLEX
      PARAMETER (MPI_TYPECLASS_COMPLEX=194)
! Communicator and Group Comparisons
      INTEGER MPI_IDENT
      PARAMETER (MPI_IDENT=201)
      INTEGER MPI_CONGRUENT
      PARAMETER (MPI_CONGRUENT=202)
      INTEGER MPI_SIMILAR
      PARAMETER (MPI_SIMILAR=203)
      INTEGER MPI_UNEQUAL
      PARAMETER (MPI_UNEQUAL=204)
! Communicator Virtual Topology Types
      INTEGER MPI_CART
      PARAMETER (MPI_CART=211)
      INTEGER MPI_GRAPH
      PARAMETER (MPI_GRAPH=212)
      INTEGER MPI_DIST_GRAPH
      PARAMETER (MPI_DIST_GRAPH=213)
! Communicator Split Types
      INTEGER MPI_COMM_TYPE_SHARED
      PARAMETER (MPI_COMM_TYPE_SHARED=221)
      INTEGER MPI_COMM_TYPE_HW_UNGUIDED
      PARAMETER (MPI_COMM_TYPE_HW_UNGUIDED=222)
      INTEGER MPI_COMM_TYPE_HW_GUIDED
      PARAMETER (MPI_COMM_TYPE_HW_GUIDED=223)
      INTEGER MPI_COMM_TYPE_RESOURCE_GUIDED
      PARAMETER (MPI_COMM_TYPE_RESOURCE_GUIDED=224)
! Window Lock Types
      INTEGER MPI_LOCK_EXCLUSIVE
      PARAMETER (MPI_LOCK_EXCLUSIVE=301)
      INTEGER MPI_LOCK_SHARED
      PARAMETER (MPI_LOCK_SHARED=302)
! Window Create Flavors
      INTEGER MPI_WIN_FLAVOR_CREATE
      PARAMETER (MPI_WIN_FLAVOR_CREATE=311)
      INTEGER MPI_WIN_FLAVOR_ALLOCATE
      PARAMETER (MPI_WIN_FLAVOR_ALLOCATE=312)
      INTEGER MPI_WIN_FLAVOR_DYNAMIC
      PARAMETER (MPI_WIN_FLAVOR_DYNAMIC=313)
      INTEGER MPI_WIN_FLAVOR_SHARED
      PARAMETER (MPI_WIN_FLAVOR_SHARED=314)
! Window Memory Models
      INTEGER MPI_WIN_UNIFIED
      PARAMETER (MPI_WIN_UNIFIED=321)
      INTEGER MPI_WIN_SEPARATE
      PARAMETER (MPI_WIN_SEPARATE=322)
! File Positioning
      INTEGER MPI_SEEK_SET
      PARAMETER (MPI_SEEK_SET=401)
      INTEGER MPI_SEEK_CUR
      PARAMETER (MPI_SEEK_CUR=402)
      INTEGER MPI_SEEK_END
      PARAMETER (MPI_SEEK_END=403)
! Invalid attribute key
      INTEGER MPI_KEYVAL_INVALID
      PARAMETER (MPI_KEYVAL_INVALID=0)
! Predefined communicator attribute keys
      INTEGER MPI_TAG_UB
      PARAMETER (MPI_TAG_UB=501)
      INTEGER MPI_IO
      PARAMETER (MPI_IO=502)
      INTEGER MPI_HOST
      PARAMETER (MPI_HOST=503)
      INTEGER MPI_WTIME_IS_GLOBAL
      PARAMETER (MPI_WTIME_IS_GLOBAL=504)
      INTEGER MPI_UNIVERSE_SIZE
      PARAMETER (MPI_UNIVERSE_SIZE=505)
      INTEGER MPI_APPNUM
      PARAMETER (MPI_APPNUM=506)
      INTEGER MPI_LASTUSEDCODE
      PARAMETER (MPI_LASTUSEDCODE=507)
! Predefined window attribute keys
      INTEGER MPI_WIN_BASE
      PARAMETER (MPI_WIN_BASE=601)
      INTEGER MPI_WIN_DISP_UNIT
      PARAMETER (MPI_WIN_DISP_UNIT=602)
      INTEGER MPI_WIN_SIZE
      PARAMETER (MPI_WIN_SIZE=603)
      INTEGER MPI_WIN_CREATE_FLAVOR
      PARAMETER (MPI_WIN_CREATE_FLAVOR=604)
      INTEGER MPI_WIN_MODEL
      PARAMETER (MPI_WIN_MODEL=605)
! MPIX error classes (ULFM fault tolerance; MPICH's values)
      INTEGER MPIX_ERR_PROC_FAILED
      PARAMETER (MPIX_ERR_PROC_FAILED=101)
      INTEGER MPIX_ERR_PROC_FAILED_PENDING
      PARAMETER (MPIX_ERR_PROC_FAILED_PENDING=102)
      INTEGER MPIX_ERR_REVOKED
      PARAMETER (MPIX_ERR_REVOKED=103)
! MPIX error classes of nexar (the timeout has MPICH's value; the mismat
      INTEGER MPIX_ERR_TIMEOUT
      PARAMETER (MPIX_ERR_TIMEOUT=107)
      INTEGER MPIX_ERR_COLL_MISMATCH
      PARAMETER (MPIX_ERR_COLL_MISMATCH=120)
! Special addresses (recognised by the library)
      INTEGER MPI_BOTTOM
      COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM
      INTEGER MPI_IN_PLACE
      COMMON /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE
      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)
      COMMON /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE
      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)
      COMMON /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE
      INTEGER MPI_ERRCODES_IGNORE(1)
      COMMON /MPI_FORTRAN_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE
      INTEGER MPI_UNWEIGHTED(1)
      COMMON /MPI_FORTRAN_UNWEIGHTED/ MPI_UNWEIGHTED
      INTEGER MPI_WEIGHTS_EMPTY(1)
      COMMON /MPI_FORTRAN_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY
      CHARACTER*1 MPI_ARGV_NULL(1)
      COMMON /MPI_FORTRAN_ARGV_NULL/ MPI_ARGV_NULL
      CHARACTER*1 MPI_ARGVS_NULL(1,1)
      COMMON /MPI_FORTRAN_ARGVS_NULL/ MPI_ARGVS_NULL
! Functions
      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD
      EXTERNAL MPI_AINT_ADD
      INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_DIFF
      EXTERNAL MPI_AINT_DIFF
      DOUBLE PRECISION MPI_WTICK
      EXTERNAL MPI_WTICK
      DOUBLE PRECISION MPI_WTIME
      EXTERNAL MPI_WTIME
! Predefined callbacks
      EXTERNAL MPI_COMM_NULL_COPY_FN
      EXTERNAL MPI_COMM_DUP_FN
      EXTERNAL MPI_COMM_NULL_DELETE_FN
      EXTERNAL MPI_TYPE_NULL_COPY_FN
      EXTERNAL MPI_TYPE_DUP_FN
      EXTERNAL MPI_TYPE_NULL_DELETE_FN
      EXTERNAL MPI_WIN_NULL_COPY_FN
      EXTERNAL MPI_WIN_DUP_FN
      EXTERNAL MPI_WIN_NULL_DELETE_FN
      EXTERNAL MPI_NULL_COPY_FN
      EXTERNAL MPI_DUP_FN
      EXTERNAL MPI_NULL_DELETE_FN
      EXTERNAL MPI_CONVERSION_FN_NULL
! Explicit interfaces of the routines with a choice buffer
      interface
        subroutine MPI_ACCUMULATE(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, op, win, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
          type(*), dimension(*) :: origin_addr
          integer :: origin_count
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: op
          integer :: win
          integer :: ierror
        end subroutine MPI_ACCUMULATE
      end interface
      interface
        subroutine MPI_ALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
          type(*), dimension(*) :: sendbuf
          integer :: sendcount
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtypes(*)
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtypes(*)
          integer :: comm
          integer :: ierror
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
          integer :: sendtypes(*)
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtypes(*)
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
        end subroutine MPI_ALLTOALLW_INIT
      end interface
      interface
        subroutine MPI_BCAST(buffer, count, datatype, root, comm, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
          type(*), dimension(*) :: buffer
          integer :: count
          integer :: datatype
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_BSEND_INIT
      end interface
      interface
        subroutine MPI_BUFFER_ATTACH(buffer, size, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
          type(*), dimension(*) :: buffer
          integer :: size
          integer :: ierror
        end subroutine MPI_BUFFER_ATTACH
      end interface
      interface
        subroutine MPI_COMM_ATTACH_BUFFER(comm, buffer, size, ierror)
          import
          implicit none
          integer :: comm
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
          type(*), dimension(*) :: buffer
          integer :: size
          integer :: ierror
        end subroutine MPI_COMM_ATTACH_BUFFER
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
          integer :: datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: win
          integer :: ierror
        end subroutine MPI_COMPARE_AND_SWAP
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: op
          integer :: win
          integer :: ierror
        end subroutine MPI_FETCH_AND_OP
      end interface
      interface
        subroutine MPI_FILE_IREAD(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IREAD
      end interface
      interface
        subroutine MPI_FILE_IREAD_ALL(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IREAD_ALL
      end interface
      interface
        subroutine MPI_FILE_IREAD_AT(fh, offset, buf, count, datatype, request, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IREAD_AT
      end interface
      interface
        subroutine MPI_FILE_IREAD_AT_ALL(fh, offset, buf, count, datatype, request, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IREAD_AT_ALL
      end interface
      interface
        subroutine MPI_FILE_IREAD_SHARED(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IREAD_SHARED
      end interface
      interface
        subroutine MPI_FILE_IWRITE(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IWRITE
      end interface
      interface
        subroutine MPI_FILE_IWRITE_ALL(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IWRITE_ALL
      end interface
      interface
        subroutine MPI_FILE_IWRITE_AT(fh, offset, buf, count, datatype, request, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IWRITE_AT
      end interface
      interface
        subroutine MPI_FILE_IWRITE_AT_ALL(fh, offset, buf, count, datatype, request, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IWRITE_AT_ALL
      end interface
      interface
        subroutine MPI_FILE_IWRITE_SHARED(fh, buf, count, datatype, request, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: request
          integer :: ierror
        end subroutine MPI_FILE_IWRITE_SHARED
      end interface
      interface
        subroutine MPI_FILE_READ(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ
      end interface
      interface
        subroutine MPI_FILE_READ_ALL(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_ALL
      end interface
      interface
        subroutine MPI_FILE_READ_ALL_BEGIN(fh, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_READ_ALL_BEGIN
      end interface
      interface
        subroutine MPI_FILE_READ_ALL_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_ALL_END
      end interface
      interface
        subroutine MPI_FILE_READ_AT(fh, offset, buf, count, datatype, status, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_AT
      end interface
      interface
        subroutine MPI_FILE_READ_AT_ALL(fh, offset, buf, count, datatype, status, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_AT_ALL
      end interface
      interface
        subroutine MPI_FILE_READ_AT_ALL_BEGIN(fh, offset, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_READ_AT_ALL_BEGIN
      end interface
      interface
        subroutine MPI_FILE_READ_AT_ALL_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_AT_ALL_END
      end interface
      interface
        subroutine MPI_FILE_READ_ORDERED(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_ORDERED
      end interface
      interface
        subroutine MPI_FILE_READ_ORDERED_BEGIN(fh, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_READ_ORDERED_BEGIN
      end interface
      interface
        subroutine MPI_FILE_READ_ORDERED_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_ORDERED_END
      end interface
      interface
        subroutine MPI_FILE_READ_SHARED(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_READ_SHARED
      end interface
      interface
        subroutine MPI_FILE_WRITE(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE
      end interface
      interface
        subroutine MPI_FILE_WRITE_ALL(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ALL
      end interface
      interface
        subroutine MPI_FILE_WRITE_ALL_BEGIN(fh, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ALL_BEGIN
      end interface
      interface
        subroutine MPI_FILE_WRITE_ALL_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ALL_END
      end interface
      interface
        subroutine MPI_FILE_WRITE_AT(fh, offset, buf, count, datatype, status, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_AT
      end interface
      interface
        subroutine MPI_FILE_WRITE_AT_ALL(fh, offset, buf, count, datatype, status, &
            ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_AT_ALL
      end interface
      interface
        subroutine MPI_FILE_WRITE_AT_ALL_BEGIN(fh, offset, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          integer(kind=MPI_OFFSET_KIND) :: offset
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_WRITE_AT_ALL_BEGIN
      end interface
      interface
        subroutine MPI_FILE_WRITE_AT_ALL_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_AT_ALL_END
      end interface
      interface
        subroutine MPI_FILE_WRITE_ORDERED(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ORDERED
      end interface
      interface
        subroutine MPI_FILE_WRITE_ORDERED_BEGIN(fh, buf, count, datatype, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ORDERED_BEGIN
      end interface
      interface
        subroutine MPI_FILE_WRITE_ORDERED_END(fh, buf, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_ORDERED_END
      end interface
      interface
        subroutine MPI_FILE_WRITE_SHARED(fh, buf, count, datatype, status, ierror)
          import
          implicit none
          integer :: fh
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_FILE_WRITE_SHARED
      end interface
      interface
        subroutine MPI_FREE_MEM(base, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
          type(*), dimension(*) :: base
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: win
          integer :: ierror
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
          integer :: origin_datatype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
          type(*), dimension(*) :: result_addr
          integer :: result_count
          integer :: result_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: op
          integer :: win
          integer :: ierror
        end subroutine MPI_GET_ACCUMULATE
      end interface
      interface
        subroutine MPI_GET_ADDRESS(location, address, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: location
          type(*), dimension(*) :: location
          integer(kind=MPI_ADDRESS_KIND) :: address
          integer :: ierror
        end subroutine MPI_GET_ADDRESS
      end interface
      interface
        subroutine MPI_IALLGATHER(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
            comm, request, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
          type(*), dimension(*) :: sendbuf
          integer :: sendcount
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtypes(*)
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtypes(*)
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_IALLTOALLW
      end interface
      interface
        subroutine MPI_IBCAST(buffer, count, datatype, root, comm, request, &
            ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
          type(*), dimension(*) :: buffer
          integer :: count
          integer :: datatype
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_IGATHERV
      end interface
      interface
        subroutine MPI_IMRECV(buf, count, datatype, message, request, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: message
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_INEIGHBOR_ALLTOALLV
      end interface
      interface
        subroutine MPI_IRECV(buf, count, datatype, source, tag, comm, &
            request, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: source
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_IRSEND
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          integer :: dest
          integer :: sendtag
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: source
          integer :: recvtag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: sendtag
          integer :: source
          integer :: recvtag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_ISSEND
      end interface
      interface
        subroutine MPI_MRECV(buf, count, datatype, message, status, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: message
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: displs(*)
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcounts(*)
          integer :: rdispls(*)
          integer :: recvtype
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
        end subroutine MPI_NEIGHBOR_ALLTOALLV_INIT
      end interface
      interface
        subroutine MPI_PACK(inbuf, incount, datatype, outbuf, outsize, position, &
            comm, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: inbuf
          type(*), dimension(*) :: inbuf
          integer :: incount
          integer :: datatype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
          type(*), dimension(*) :: outbuf
          integer :: outsize
          integer :: position
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: outbuf
          type(*), dimension(*) :: outbuf
          integer(kind=MPI_ADDRESS_KIND) :: outsize
          integer(kind=MPI_ADDRESS_KIND) :: position
          integer :: ierror
        end subroutine MPI_PACK_EXTERNAL
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
        end subroutine MPI_PRECV_INIT
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
        end subroutine MPI_PSEND_INIT
      end interface
      interface
        subroutine MPI_PUT(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
          type(*), dimension(*) :: origin_addr
          integer :: origin_count
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: win
          integer :: ierror
        end subroutine MPI_PUT
      end interface
      interface
        subroutine MPI_RACCUMULATE(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, op, win, request, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
          type(*), dimension(*) :: origin_addr
          integer :: origin_count
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: op
          integer :: win
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: source
          integer :: tag
          integer :: comm
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
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
          integer :: datatype
          integer :: source
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
        end subroutine MPI_REDUCE_SCATTER_INIT
      end interface
      interface
        subroutine MPI_RGET(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, &
            target_datatype, win, request, ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
          type(*), dimension(*) :: origin_addr
          integer :: origin_count
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: win
          integer :: request
          integer :: ierror
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
          integer :: origin_datatype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
          type(*), dimension(*) :: result_addr
          integer :: result_count
          integer :: result_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: op
          integer :: win
          integer :: request
          integer :: ierror
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
          integer :: origin_datatype
          integer :: target_rank
          integer(kind=MPI_ADDRESS_KIND) :: target_disp
          integer :: target_count
          integer :: target_datatype
          integer :: win
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: op
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: ierror
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
          integer :: sendtype
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: root
          integer :: comm
          integer :: info
          integer :: request
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
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
          integer :: sendtype
          integer :: dest
          integer :: sendtag
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
          type(*), dimension(*) :: recvbuf
          integer :: recvcount
          integer :: recvtype
          integer :: source
          integer :: recvtag
          integer :: comm
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: sendtag
          integer :: source
          integer :: recvtag
          integer :: comm
          integer :: status(MPI_STATUS_SIZE)
          integer :: ierror
        end subroutine MPI_SENDRECV_REPLACE
      end interface
      interface
        subroutine MPI_SESSION_ATTACH_BUFFER(session, buffer, size, ierror)
          import
          implicit none
          integer :: session
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
          type(*), dimension(*) :: buffer
          integer :: size
          integer :: ierror
        end subroutine MPI_SESSION_ATTACH_BUFFER
      end interface
      interface
        subroutine MPI_SSEND(buf, count, datatype, dest, tag, comm, &
            ierror)
          import
          implicit none
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
          type(*), dimension(*) :: buf
          integer :: count
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: dest
          integer :: tag
          integer :: comm
          integer :: request
          integer :: ierror
        end subroutine MPI_SSEND_INIT
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
          integer :: datatype
          integer :: comm
          integer :: ierror
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
          integer :: datatype
          integer :: ierror
        end subroutine MPI_UNPACK_EXTERNAL
      end interface
      interface
        subroutine MPI_WIN_ATTACH(win, base, size, ierror)
          import
          implicit none
          integer :: win
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
          type(*), dimension(*) :: base
          integer(kind=MPI_ADDRESS_KIND) :: size
          integer :: ierror
        end subroutine MPI_WIN_ATTACH
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
          integer :: info
          integer :: comm
          integer :: win
          integer :: ierror
        end subroutine MPI_WIN_CREATE
      end interface
      interface
        subroutine MPI_WIN_DETACH(win, base, ierror)
          import
          implicit none
          integer :: win
          !GCC$ ATTRIBUTES NO_ARG_CHECK :: base
          type(*), dimension(*) :: base
          integer :: ierror
        end subroutine MPI_WIN_DETACH
      end interface
end module mpi
