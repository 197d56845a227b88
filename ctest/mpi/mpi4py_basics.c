/* Small behaviours mpi4py's test suite relies on (scripts/mpi4py.sh): the name of
 * MPI_COMM_NULL, the MPI_LASTUSEDCODE attribute, MPI_Comm_get_parent, the hardware- and
 * resource-guided MPI_Comm_split_type giving MPI_COMM_NULL, and the MPI_Status field
 * accessors (get/set source, tag, error, cancelled). */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    check_init(&argc, &argv);

    /* MPI_COMM_NULL is named, like the predefined communicators. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
    CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == (int)strlen("MPI_COMM_NULL"));

    /* MPI_LASTUSEDCODE: set, at least MPI_ERR_LASTCODE; read-only like the others. */
    int *lastuc = NULL, flag = 0;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastuc, &flag));
    CHECK(flag == 1 && lastuc != NULL && *lastuc >= MPI_ERR_LASTCODE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, NULL), MPI_ERR_KEYVAL);

    /* No spawned processes: no parent. */
    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL);
    EXPECT_CLASS(MPI_Comm_get_parent(NULL), MPI_ERR_ARG);

    /* No hardware resource types are known: MPI_COMM_NULL on every rank, for every type. */
    const int types[] = {MPI_COMM_TYPE_HW_UNGUIDED, MPI_COMM_TYPE_HW_GUIDED,
                         MPI_COMM_TYPE_RESOURCE_GUIDED};
    for (int i = 0; i < 3; i++) {
        MPI_Comm c = MPI_COMM_WORLD;
        CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, types[i], check_rank, MPI_INFO_NULL, &c));
        CHECK(c == MPI_COMM_NULL);
    }
    /* The shared-memory split still works after them (they were collective no-ops). */
    MPI_Comm shm;
    int size, shm_size;
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_size(shm, &shm_size));
    CHECK(shm_size == size);
    CHECK_OK(MPI_Comm_free(&shm));

    /* Status fields round-trip through the accessors; the cancelled flag reaches
     * MPI_Test_cancelled. */
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_OK(MPI_Status_set_source(&st, 3 + check_rank));
    CHECK_OK(MPI_Status_set_tag(&st, 77));
    CHECK_OK(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
    int source = -1, tag = -1, error = -1, cancelled = -1;
    CHECK_OK(MPI_Status_get_source(&st, &source));
    CHECK_OK(MPI_Status_get_tag(&st, &tag));
    CHECK_OK(MPI_Status_get_error(&st, &error));
    CHECK(source == 3 + check_rank && st.MPI_SOURCE == source);
    CHECK(tag == 77 && st.MPI_TAG == 77);
    CHECK(error == MPI_ERR_TRUNCATE && st.MPI_ERROR == MPI_ERR_TRUNCATE);
    CHECK_OK(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == 0);
    CHECK_OK(MPI_Status_set_cancelled(&st, 5));
    CHECK_OK(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == 1);
    CHECK_OK(MPI_Status_set_cancelled(&st, 0));
    CHECK_OK(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == 0);
    EXPECT_CLASS(MPI_Status_set_tag(NULL, 1), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Status_get_source(&st, NULL), MPI_ERR_ARG);

    return check_finish();
}
