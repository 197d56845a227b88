/*
 * info_env.c: MPI_Info_create_env may be called before MPI_Init and gives the same keys and
 * values as after it (MPI 4.1 §11.4); its maxprocs is the number of processes started.
 */
#include "mpi_check.h"

#define MAXKEYS 32

struct pairs {
    int n;
    char key[MAXKEYS][MPI_MAX_INFO_KEY + 1];
    char val[MAXKEYS][256];
};

/* Reads every pair of a new MPI_Info_create_env into `p`; 0 on success. */
static int read_env(int argc, char **argv, struct pairs *p)
{
    MPI_Info info;
    if (MPI_Info_create_env(argc, argv, &info) != MPI_SUCCESS)
        return 1;
    if (MPI_Info_get_nkeys(info, &p->n) != MPI_SUCCESS || p->n > MAXKEYS)
        return 2;
    for (int i = 0; i < p->n; i++) {
        int len = (int)sizeof p->val[i], flag = 0;
        if (MPI_Info_get_nthkey(info, i, p->key[i]) != MPI_SUCCESS ||
            MPI_Info_get_string(info, p->key[i], &len, p->val[i], &flag) != MPI_SUCCESS || !flag)
            return 3;
    }
    return MPI_Info_free(&info) == MPI_SUCCESS ? 0 : 4;
}

static const char *value_of(const struct pairs *p, const char *key)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->key[i], key) == 0)
            return p->val[i];
    return NULL;
}

int main(int argc, char **argv)
{
    static struct pairs before, after;
    int rc = read_env(argc, argv, &before);
    check_init(&argc, &argv);
    if (rc != 0)
        fprintf(stderr, "[rank %d] MPI_Info_create_env before MPI_Init failed (step %d)\n",
                check_rank, rc);
    CHECK(rc == 0);
    CHECK_OK(read_env(argc, argv, &after) == 0 ? MPI_SUCCESS : MPI_ERR_OTHER);

    if (before.n != after.n)
        fprintf(stderr, "[rank %d] %d keys before MPI_Init, %d after\n", check_rank, before.n,
                after.n);
    CHECK(before.n == after.n);
    for (int i = 0; i < after.n; i++) {
        const char *b = value_of(&before, after.key[i]);
        if (!b || strcmp(b, after.val[i]) != 0)
            fprintf(stderr, "[rank %d] key %s: \"%s\" before MPI_Init, \"%s\" after\n",
                    check_rank, after.key[i], b ? b : "(unset)", after.val[i]);
        CHECK(b && strcmp(b, after.val[i]) == 0);
    }

    int size = 0;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    const char *mp = value_of(&after, "maxprocs");
    if (!mp || atoi(mp) != size)
        fprintf(stderr, "[rank %d] maxprocs is %s, the world has %d processes\n", check_rank,
                mp ? mp : "(unset)", size);
    CHECK(mp && atoi(mp) == size);

    return check_finish();
}
