/* MPI shim: init, rank/size, processor name, versions, thread queries, finalize. */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    int flag = -1;
    CHECK_OK(MPI_Initialized(&flag));
    CHECK(flag == 0);
    check_init(&argc, &argv);
    CHECK_OK(MPI_Initialized(&flag));
    CHECK(flag == 1);

    int rank = -1, size = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 1 && rank >= 0 && rank < size);
    int srank = -1, ssize = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_SELF, &srank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_SELF, &ssize));
    CHECK(srank == 0 && ssize == 1);

    char name[MPI_MAX_PROCESSOR_NAME];
    int len = -1;
    CHECK_OK(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && (size_t)len == strlen(name));

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    CHECK_OK(MPI_Get_library_version(lib, &len));
    CHECK(strstr(lib, "nexar") != NULL && (size_t)len == strlen(lib));

    int v = 0, sv = -1;
    CHECK_OK(MPI_Get_version(&v, &sv));
    CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION && v == 5 && sv == 0);
    int am = 0, an = -1;
    CHECK_OK(MPI_Abi_get_version(&am, &an));
    CHECK(am == 1 && an == 0);

    int provided = -1, main_thread = 0;
    CHECK_OK(MPI_Query_thread(&provided));
    CHECK(provided == MPI_THREAD_SINGLE);
    CHECK_OK(MPI_Is_thread_main(&main_thread));
    CHECK(main_thread == 1);

    double t0 = MPI_Wtime();
    CHECK(MPI_Wtick() > 0.0 && MPI_Wtick() < 1.0);
    CHECK(MPI_Wtime() >= t0);
    char a[16];
    CHECK(MPI_Aint_diff(MPI_Aint_add((MPI_Aint)a, 5), (MPI_Aint)a) == 5);

    /* Handle <-> int conversions of predefined handles; unknown ints give the NULL handle. */
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_DOUBLE)) == MPI_DOUBLE);
    CHECK(MPI_Op_fromint(MPI_Op_toint(MPI_SUM)) == MPI_SUM);
    CHECK(MPI_Type_fromint(-7) == MPI_DATATYPE_NULL);
    CHECK(MPI_Comm_fromint(123456) == MPI_COMM_NULL);
    CHECK(MPI_Request_fromint(99) == MPI_REQUEST_NULL);

    printf("hello from rank %d of %d on %s (%s)\n", rank, size, name, lib);
    int rc = check_finish();
    CHECK_OK(MPI_Finalized(&flag));
    if (flag != 1) {
        return 1;
    }
    return rc;
}
