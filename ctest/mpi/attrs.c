/* Communicator attributes with user keyvals: set/get/delete, copy callbacks on MPI_Comm_dup
 * (user function, MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN), delete callbacks on replace,
 * delete_attr and MPI_Comm_free (callbacks may call MPI), a failing copy callback, freed
 * keyvals, the deprecated MPI-1 forms, and errors under MPI_ERRORS_RETURN. */
#include "mpi_check.h"

struct counts {
    int copies, deletes;
    intptr_t last_deleted;
};

static int copy_plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    int r;
    CHECK_OK(MPI_Comm_rank(comm, &r)); /* callbacks may call MPI */
    ((struct counts *)extra)->copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_count(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    int r;
    CHECK_OK(MPI_Comm_rank(comm, &r));
    struct counts *c = extra;
    c->deletes++;
    c->last_deleted = (intptr_t)val;
    return MPI_SUCCESS;
}

/* Deletes at MPI_Finalize of MPI_COMM_SELF attributes: order and MPI still usable. */
static int self_order[2], self_deleted = 0, self_finalized_seen = -1;

static int delete_self(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    if (self_deleted < 2)
        self_order[self_deleted] = (int)(intptr_t)val;
    self_deleted++;
    MPI_Finalized(&self_finalized_seen);
    return MPI_SUCCESS;
}

static int copy_fails(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    struct counts cnt = {0, 0, 0};
    int kv = MPI_KEYVAL_INVALID, knull, kdup, flag;
    void *val;
    CHECK_OK(MPI_Comm_create_keyval(copy_plus_one, delete_count, &kv, &cnt));
    CHECK(kv != MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull,
                                    NULL));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL));
    CHECK(knull != kv && kdup != kv && kdup != knull);

    MPI_Comm a, b;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_OK(MPI_Comm_get_attr(a, kv, &val, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)100));
    CHECK_OK(MPI_Comm_set_attr(a, knull, (void *)(intptr_t)7));
    CHECK_OK(MPI_Comm_set_attr(a, kdup, (void *)(intptr_t)8));
    CHECK_OK(MPI_Comm_get_attr(a, kv, &val, &flag));
    CHECK(flag == 1 && (intptr_t)val == 100);

    /* Replacing a value runs the delete callback on the old one. */
    CHECK_OK(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)200));
    CHECK(cnt.deletes == 1 && cnt.last_deleted == 100);

    /* Dup: user copy (+1), NULL copy (absent), DUP copy (same). */
    CHECK_OK(MPI_Comm_dup(a, &b));
    CHECK(cnt.copies == 1);
    CHECK_OK(MPI_Comm_get_attr(b, kv, &val, &flag));
    CHECK(flag == 1 && (intptr_t)val == 201);
    CHECK_OK(MPI_Comm_get_attr(b, knull, &val, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Comm_get_attr(b, kdup, &val, &flag));
    CHECK(flag == 1 && (intptr_t)val == 8);
    /* Split does not copy attributes. */
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(a, 0, 0, &s));
    CHECK_OK(MPI_Comm_get_attr(s, kv, &val, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Comm_free(&s));

    /* Free runs the delete callback of each attribute. */
    CHECK_OK(MPI_Comm_free(&b));
    CHECK(cnt.deletes == 2 && cnt.last_deleted == 201);

    /* delete_attr. */
    CHECK_OK(MPI_Comm_delete_attr(a, kv));
    CHECK(cnt.deletes == 3 && cnt.last_deleted == 200);
    CHECK_OK(MPI_Comm_get_attr(a, kv, &val, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Comm_delete_attr(a, kv)); /* not set: nothing to do */
    CHECK(cnt.deletes == 3);

    /* A freed keyval: invalid for new accesses, its attached attribute still deleted. */
    CHECK_OK(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)300));
    int kfreed = kv;
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    CHECK(kv == MPI_KEYVAL_INVALID);
    CHECK_OK(MPI_Comm_free(&a));
    CHECK(cnt.deletes == 4 && cnt.last_deleted == 300);

    /* Deprecated MPI-1 forms. */
    int k1;
    CHECK_OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k1, NULL));
    CHECK_OK(MPI_Attr_put(MPI_COMM_WORLD, k1, (void *)(intptr_t)42));
    CHECK_OK(MPI_Attr_get(MPI_COMM_WORLD, k1, &val, &flag));
    CHECK(flag == 1 && (intptr_t)val == 42);
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_OK(MPI_Attr_get(a, k1, &val, &flag));
    CHECK(flag == 1 && (intptr_t)val == 42);
    CHECK_OK(MPI_Attr_delete(MPI_COMM_WORLD, k1));
    CHECK_OK(MPI_Attr_get(MPI_COMM_WORLD, k1, &val, &flag));
    CHECK(flag == 0);
    CHECK_OK(MPI_Comm_free(&a));
    CHECK_OK(MPI_Keyval_free(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID);

    /* Errors. */
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, kfreed, &val, &flag), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, kfreed, NULL), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    int tag_ub = MPI_TAG_UB;
    EXPECT_CLASS(MPI_Comm_free_keyval(&tag_ub), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_free_keyval(&kfreed), MPI_ERR_KEYVAL);
    /* Freed twice while an attribute still uses it (a delete callback freeing its own keyval,
     * then the program, as MPICH's keyval_double_free does): accepted; once the attribute is
     * gone the keyval is released and a further free is an error. */
    int ktwice, kcopy;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ktwice, NULL));
    kcopy = ktwice;
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ktwice, NULL));
    CHECK_OK(MPI_Comm_free_keyval(&ktwice));
    ktwice = kcopy;
    CHECK_OK(MPI_Comm_free_keyval(&ktwice));
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_SELF, kcopy));
    EXPECT_CLASS(MPI_Comm_free_keyval(&kcopy), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_create_keyval(NULL, NULL, NULL, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_NULL, knull, NULL), MPI_ERR_COMM);

    /* A failing copy callback fails the dup (on every rank alike) and leaves no comm. */
    int kbad;
    CHECK_OK(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &kbad, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kbad, NULL));
    b = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_WORLD, &b), MPI_ERR_OTHER);
    CHECK(b == MPI_COMM_NULL);
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kbad));
    CHECK_OK(MPI_Comm_free_keyval(&kbad));
    CHECK_OK(MPI_Comm_free_keyval(&knull));
    CHECK_OK(MPI_Comm_free_keyval(&kdup));

    /* Attributes on MPI_COMM_SELF are deleted first thing in MPI_Finalize, last set first. */
    int ks1, ks2;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_self, &ks1, NULL));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_self, &ks2, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks2, (void *)(intptr_t)1));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, ks1, (void *)(intptr_t)2));
    int rc = check_finish();
    if (self_deleted != 2 || self_order[0] != 2 || self_order[1] != 1 ||
        self_finalized_seen != 0) {
        fprintf(stderr, "[rank %d] MPI_COMM_SELF attribute deletes at finalize: %d (%d, %d), "
                        "finalized seen %d\n",
                check_rank, self_deleted, self_order[0], self_order[1], self_finalized_seen);
        return 1;
    }
    return rc;
}
