/* Dynamic processes: MPI_Comm_spawn from MPI_COMM_WORLD with a root other than rank 0 and the
 * arguments at the root only (argv with a space kept whole, errcodes on every rank); the
 * children's MPI_COMM_WORLD is their own group, MPI_Comm_get_parent the intercommunicator,
 * point-to-point and a broadcast both ways, MPI_Intercomm_merge ordering, MPI_APPNUM;
 * MPI_Comm_spawn_multiple from MPI_COMM_SELF on every rank at once (two commands: APPNUM 0
 * and 1); the `wdir` info key; MPI_Comm_disconnect leaving MPI_Comm_get_parent NULL; and the
 * errors: a program that does not exist (MPI_ERR_SPAWN on every rank, nobody hangs), one that
 * exits without joining (the same, at once, naming it) and
 * maxprocs 0 at the root (MPI_ERR_ARG there, MPI_ERR_SPAWN elsewhere). Children report
 * their failed checks to the parents, whose exit status carries them. */
#define _XOPEN_SOURCE 700
#include "mpi_check.h"
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

/* Sums the children's failed checks at the parents' rank 0 (children pass their count). */
static int children_failures(MPI_Comm inter, int parent_side)
{
    int mine = check_failures, sum = 0, rank;
    if (!parent_side) {
        CHECK_OK(MPI_Reduce(&mine, NULL, 1, MPI_INT, MPI_SUM, 0, inter));
        return 0;
    }
    CHECK_OK(MPI_Comm_rank(inter, &rank));
    CHECK_OK(MPI_Reduce(NULL, &sum, 1, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                        inter));
    return sum;
}

static int child(MPI_Comm parent, int argc, char **argv)
{
    int rank, size, psize, flag = 0, *appnum = NULL, v = -1, sum = -1;
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = 100 + rank;
    /* A job this process would launch in turn was not spawned: the variable is gone. */
    CHECK(getenv("NEXAR_SPAWN_PARENTS") == NULL);
    CHECK_OK(MPI_Comm_remote_size(parent, &psize));
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    CHECK(flag);
    CHECK_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size - 1) / 2);
    /* Groups name this world's processes: my rank in my world's group, and the parents'
     * group is disjoint from it. */
    MPI_Group wg, pg;
    int grank = -1, cmp = -1;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_OK(MPI_Group_rank(wg, &grank));
    CHECK(grank == rank);
    CHECK_OK(MPI_Comm_remote_group(parent, &pg));
    CHECK_OK(MPI_Group_compare(wg, pg, &cmp));
    CHECK(cmp == MPI_UNEQUAL);
    CHECK_OK(MPI_Group_free(&wg));
    CHECK_OK(MPI_Group_free(&pg));
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "world") == 0) {
        CHECK(argc == 3 && strcmp(argv[2], "two words") == 0);
        CHECK(size == 2 && flag && *appnum == 0);
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, 0, 5, parent, MPI_STATUS_IGNORE));
        CHECK(v == 1000 + rank);
        v = 2000 + rank;
        CHECK_OK(MPI_Send(&v, 1, MPI_INT, 0, 6, parent));
        int b = -1;
        CHECK_OK(MPI_Bcast(&b, 1, MPI_INT, psize - 1, parent));
        CHECK(b == 77);
        b = 88;
        CHECK_OK(MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, parent));
        MPI_Comm merged;
        int mrank = -1;
        CHECK_OK(MPI_Intercomm_merge(parent, 1, &merged));
        CHECK_OK(MPI_Comm_rank(merged, &mrank));
        CHECK(mrank == psize + rank);
        CHECK_OK(MPI_Comm_free(&merged));
    } else if (strcmp(mode, "multi") == 0) {
        /* One process of command 0, two of command 1. */
        CHECK(size == 3 && psize == 1 && flag && *appnum == (rank == 0 ? 0 : 1));
    } else if (strcmp(mode, "wdir") == 0) {
        char here[PATH_MAX], want[PATH_MAX];
        CHECK(getcwd(here, sizeof here) && realpath(argv[2], want));
        CHECK(strcmp(here, want) == 0);
    } else {
        CHECK(!"a known mode");
    }
    children_failures(parent, 0);
    CHECK_OK(MPI_Comm_disconnect(&parent));
    CHECK(parent == MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL);
    return check_finish();
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int rank, size;
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL)
        return child(parent, argc, argv);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    rank = check_rank;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int root = size - 1, n = -1, lsize = -1;

    /* 1. From the world, root size-1, arguments at the root only. */
    char *args[] = {"world", "two words", NULL};
    int errs[2] = {-1, -1};
    CHECK_OK(MPI_Comm_spawn(rank == root ? argv[0] : NULL, rank == root ? args : MPI_ARGV_NULL,
                            rank == root ? 2 : -1, MPI_INFO_NULL, root, MPI_COMM_WORLD, &inter,
                            errs));
    CHECK(errs[0] == MPI_SUCCESS && errs[1] == MPI_SUCCESS);
    CHECK_OK(MPI_Comm_remote_size(inter, &n));
    CHECK_OK(MPI_Comm_size(inter, &lsize));
    CHECK(n == 2 && lsize == size);
    /* The intercommunicator's local group is MPI_COMM_WORLD's, though its world differs. */
    MPI_Group wg, lg;
    int cmp = -1, in[1] = {size - 1}, out[1] = {-1};
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_OK(MPI_Comm_group(inter, &lg));
    CHECK_OK(MPI_Group_compare(wg, lg, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Group_translate_ranks(wg, 1, in, lg, out));
    CHECK(out[0] == size - 1);
    CHECK_OK(MPI_Group_free(&lg));
    if (rank == 0) {
        for (int i = 0; i < 2; i++) {
            int v = 1000 + i, back = -1;
            CHECK_OK(MPI_Send(&v, 1, MPI_INT, i, 5, inter));
            CHECK_OK(MPI_Recv(&back, 1, MPI_INT, i, 6, inter, MPI_STATUS_IGNORE));
            CHECK(back == 2000 + i);
        }
    }
    int b = 77;
    CHECK_OK(MPI_Bcast(&b, 1, MPI_INT, rank == size - 1 ? MPI_ROOT : MPI_PROC_NULL, inter));
    b = -1;
    CHECK_OK(MPI_Bcast(&b, 1, MPI_INT, 0, inter));
    CHECK(b == 88);
    MPI_Comm merged;
    int mrank = -1;
    CHECK_OK(MPI_Intercomm_merge(inter, 0, &merged));
    CHECK_OK(MPI_Comm_rank(merged, &mrank));
    CHECK(mrank == rank);
    CHECK_OK(MPI_Comm_free(&merged));
    CHECK(children_failures(inter, 1) == 0);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    CHECK(inter == MPI_COMM_NULL);

    /* 2. Every rank at once from MPI_COMM_SELF: two commands, 1 + 2 processes. */
    char *cmds[] = {argv[0], argv[0]};
    char *margs[] = {"multi", NULL};
    char **argvs[] = {margs, margs};
    int maxprocs[] = {1, 2}, merrs[3] = {-1, -1, -1};
    MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_NULL};
    CHECK_OK(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_SELF, &inter,
                                     merrs));
    CHECK(merrs[0] == MPI_SUCCESS && merrs[1] == MPI_SUCCESS && merrs[2] == MPI_SUCCESS);
    /* This rank alone is the local group; it is in MPI_COMM_WORLD at its rank. */
    CHECK_OK(MPI_Comm_group(inter, &lg));
    in[0] = 0;
    CHECK_OK(MPI_Group_translate_ranks(lg, 1, in, wg, out));
    CHECK(out[0] == rank);
    CHECK_OK(MPI_Group_free(&lg));
    CHECK_OK(MPI_Group_free(&wg));
    CHECK_OK(MPI_Comm_remote_size(inter, &n));
    CHECK(n == 3);
    CHECK(children_failures(inter, 1) == 0);
    CHECK_OK(MPI_Comm_disconnect(&inter));

    /* 3. The working directory through info. */
    MPI_Info info;
    char *wargs[] = {"wdir", "/tmp", NULL};
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "wdir", "/tmp"));
    char exe[PATH_MAX];
    CHECK(realpath(argv[0], exe) != NULL);
    CHECK_OK(MPI_Comm_spawn(exe, wargs, 1, info, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE));
    CHECK(children_failures(inter, 1) == 0);
    CHECK_OK(MPI_Comm_disconnect(&inter));
    CHECK_OK(MPI_Info_free(&info));

    /* 4. Errors reach every rank; nobody waits for processes that never start. */
    inter = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Comm_spawn("/nonexistent/nexar-no-such-program", MPI_ARGV_NULL, 1,
                                MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                 MPI_ERR_SPAWN);
    CHECK(inter == MPI_COMM_NULL);
    /* A program that starts but never joins (not an MPI program): the spawn fails on every
     * rank as soon as it exits, naming it, instead of waiting out the connect timeout. */
    int rc = MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                            &inter, MPI_ERRCODES_IGNORE);
    EXPECT_CLASS(rc, MPI_ERR_SPAWN);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_OK(MPI_Error_string(rc, msg, &len));
    CHECK(strstr(msg, "/bin/true") && strstr(msg, "before joining"));
    EXPECT_CLASS(MPI_Comm_spawn(argv[0], args, rank == 0 ? 0 : -1, MPI_INFO_NULL, 0,
                                MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                 rank == 0 ? MPI_ERR_ARG : MPI_ERR_SPAWN);
    EXPECT_CLASS(MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, size, MPI_COMM_WORLD, &inter,
                                MPI_ERRCODES_IGNORE),
                 MPI_ERR_ROOT);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    return check_finish();
}
