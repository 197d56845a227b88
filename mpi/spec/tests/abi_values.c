/* Compile-time checks of include/mpi.h against values fixed by the MPI 5.0 standard ABI
 * (cross-checked with mpi-forum/mpi-abi-stubs mpi.h). Built by mpi/spec/check.sh; it only has to
 * compile. Handle constants are compared through intptr_t, which GCC and Clang fold to integer
 * constants (an extension, so this file is built without -pedantic; the header alone is built
 * with it). */
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#define HANDLE_IS(h, v) _Static_assert((intptr_t)(h) == (v), #h " == " #v)
#define VALUE_IS(c, v) _Static_assert((c) == (v), #c " == " #v)

/* Predefined handles */
HANDLE_IS(MPI_COMM_NULL, 0x100);
HANDLE_IS(MPI_COMM_WORLD, 0x101);
HANDLE_IS(MPI_COMM_SELF, 0x102);
HANDLE_IS(MPI_GROUP_EMPTY, 0x109);
HANDLE_IS(MPI_OP_NULL, 0x20);
HANDLE_IS(MPI_SUM, 0x21);
HANDLE_IS(MPI_MAXLOC, 0x39);
HANDLE_IS(MPI_NO_OP, 0x3d);
HANDLE_IS(MPI_REQUEST_NULL, 0x180);
HANDLE_IS(MPI_INFO_ENV, 0x131);
HANDLE_IS(MPI_ERRORS_RETURN, 0x142);
HANDLE_IS(MPI_MESSAGE_NO_PROC, 0x129);
HANDLE_IS(MPI_SESSION_NULL, 0x120);
HANDLE_IS(MPI_DATATYPE_NULL, 0x200);
HANDLE_IS(MPI_INT, 0x209);
HANDLE_IS(MPI_DOUBLE, 0x214);
HANDLE_IS(MPI_BYTE, 0x247);
HANDLE_IS(MPI_LONG_LONG_INT, 0x20b);
HANDLE_IS(MPI_C_COMPLEX, 0x212);
HANDLE_IS(MPI_COMPLEX32, 0x2eb);

/* Buffer addresses and ignored arguments */
HANDLE_IS(MPI_BOTTOM, 0);
HANDLE_IS(MPI_IN_PLACE, 1);
HANDLE_IS(MPI_BUFFER_AUTOMATIC, 2);
HANDLE_IS(MPI_STATUS_IGNORE, 0);
HANDLE_IS(MPI_UNWEIGHTED, 10);
HANDLE_IS(MPI_WEIGHTS_EMPTY, 11);
HANDLE_IS(MPI_COMM_DUP_FN, 1);
HANDLE_IS(MPI_T_PVAR_ALL_HANDLES, 1);

/* Types and layouts */
_Static_assert(sizeof(MPI_Status) == 32, "MPI_Status is 32 bytes");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == 0, "MPI_SOURCE first");
_Static_assert(offsetof(MPI_Status, MPI_TAG) == 4, "MPI_TAG second");
_Static_assert(offsetof(MPI_Status, MPI_ERROR) == 8, "MPI_ERROR third");
_Static_assert(sizeof(MPI_Aint) == sizeof(intptr_t), "MPI_Aint is intptr_t");
_Static_assert(sizeof(MPI_Offset) == 8, "MPI_Offset is 64-bit");
_Static_assert(sizeof(MPI_Count) == 8, "MPI_Count is 64-bit");
_Static_assert(sizeof(MPI_Comm) == sizeof(void *), "handles are pointers");
VALUE_IS((MPI_Offset)MPI_DISPLACEMENT_CURRENT, -1);

/* Integer constants */
VALUE_IS(MPI_VERSION, 5);
VALUE_IS(MPI_SUBVERSION, 0);
VALUE_IS(MPI_ABI_VERSION, 1);
VALUE_IS(MPI_ANY_SOURCE, -1);
VALUE_IS(MPI_ANY_TAG, -2);
VALUE_IS(MPI_PROC_NULL, -3);
VALUE_IS(MPI_ROOT, -4);
VALUE_IS(MPI_UNDEFINED, -32766);
VALUE_IS(MPI_SUCCESS, 0);
VALUE_IS(MPI_ERR_TRUNCATE, 15);
VALUE_IS(MPI_ERR_UNSUPPORTED_OPERATION, 55);
VALUE_IS(MPI_ERR_ABI, 62);
VALUE_IS(MPI_ERR_LASTCODE, 0x3fff);
VALUE_IS(MPI_T_ERR_PVAR_NO_ATOMIC, 1018);
VALUE_IS(MPI_THREAD_SINGLE, 0);
VALUE_IS(MPI_THREAD_FUNNELED, 1024);
VALUE_IS(MPI_THREAD_SERIALIZED, 2048);
VALUE_IS(MPI_THREAD_MULTIPLE, 4096);
VALUE_IS(MPI_MODE_NOSUCCEED, 16384);
VALUE_IS(MPI_ORDER_FORTRAN, 15);
VALUE_IS(MPI_COMBINER_VALUE_INDEX, 117);
VALUE_IS(MPI_TAG_UB, 501);
VALUE_IS(MPI_WIN_MODEL, 605);
VALUE_IS(MPI_F_STATUS_SIZE, 8);
VALUE_IS(MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, 0x3f);
VALUE_IS(MPI_T_VERBOSITY_MPIDEV_ALL, 0x24);

/* String maxima are macros, usable in #if */
#if MPI_MAX_PROCESSOR_NAME != 256 || MPI_MAX_ERROR_STRING != 512 || MPI_MAX_OBJECT_NAME != 128
#error "string maxima"
#endif
#if MPI_MAX_INFO_KEY != 256 || MPI_MAX_INFO_VAL != 1024 || MPI_MAX_PORT_NAME != 1024
#error "string maxima"
#endif
#if MPI_MAX_LIBRARY_VERSION_STRING != 8192 || MPI_BSEND_OVERHEAD != 512
#error "assorted maxima"
#endif
#if MPI_VERSION != 5 || MPI_ABI_VERSION != 1
#error "versions"
#endif

/* Error classes and thread levels are usable as case labels */
int classify(int err);
int classify(int err) {
    switch (err) {
    case MPI_SUCCESS: return 0;
    case MPI_ERR_UNSUPPORTED_OPERATION: return 1;
    case MPI_THREAD_MULTIPLE: return 2;
    default: return 3;
    }
}

/* A callback of the standard's type fits MPI_Op_create */
static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)in; (void)inout; (void)len; (void)type;
}
MPI_User_function *user_fn = sum_fn;
