/*
 * keyval_free.c: freeing a keyval that attributes still use (MPI 4.1 §7.7.2): the free
 * sets the handle variable to MPI_KEYVAL_INVALID but the keyval lives on while attributes use
 * it: they can still be read and deleted through (a copy of) its value, MPI_Comm_free /
 * MPI_Type_free and MPI_Comm_delete_attr still run its delete callback with its extra state,
 * and MPI_Comm_dup still copies it. With its last attribute gone the keyval is released.
 */
#include "mpi_check.h"

static int deleted, last_value, last_extra;
static int extra_state = 1234;

static int comm_delete(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c, (void)k;
    deleted++;
    last_value = *(int *)value;
    last_extra = *(int *)extra;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int k, void *value, void *extra)
{
    (void)t, (void)k;
    deleted++;
    last_value = *(int *)value;
    last_extra = *(int *)extra;
    return MPI_SUCCESS;
}

/* The delete callback ran `n` times in all, last on `value` with the keyval's extra state. */
#define DELETED(n, value, what)                                                         \
    do {                                                                                \
        if (deleted != (n) || last_value != (value) || last_extra != extra_state)       \
            fprintf(stderr, "[rank %d] %s: delete callback ran %d times (want %d), last " \
                            "on value %d (want %d), extra %d\n",                        \
                    check_rank, what, deleted, (n), last_value, (value), last_extra);   \
        CHECK(deleted == (n) && last_value == (value) && last_extra == extra_state);    \
    } while (0)

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    static int v1 = 11, v2 = 22, v3 = 33;
    int k, copy, flag = 0;
    int *got = NULL;
    MPI_Comm a, b;

    /* Freed while in use: the attribute is still readable and deletable through a copy. */
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_delete, &k, &extra_state));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_OK(MPI_Comm_set_attr(a, k, &v1));
    copy = k;
    CHECK_OK(MPI_Comm_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID);
    CHECK(deleted == 0);
    CHECK_OK(MPI_Comm_get_attr(a, copy, &got, &flag));
    CHECK(flag && got == &v1);
    CHECK_OK(MPI_Comm_delete_attr(a, copy));
    DELETED(1, 11, "MPI_Comm_delete_attr after MPI_Comm_free_keyval");
    /* That was its last attribute: the keyval is gone now. */
    EXPECT_CLASS(MPI_Comm_get_attr(a, copy, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Comm_free(&a));
    CHECK(deleted == 1);

    /* Freed while in use, then dup (copies it) and free of both communicators. */
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_delete, &k, &extra_state));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_OK(MPI_Comm_set_attr(a, k, &v2));
    copy = k;
    CHECK_OK(MPI_Comm_free_keyval(&k));
    EXPECT_CLASS(MPI_Comm_set_attr(a, copy, &v3), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Comm_dup(a, &b));
    flag = 0;
    CHECK_OK(MPI_Comm_get_attr(b, copy, &got, &flag));
    CHECK(flag && got == &v2);
    CHECK_OK(MPI_Comm_free(&a));
    DELETED(2, 22, "MPI_Comm_free of the first communicator");
    CHECK_OK(MPI_Comm_free(&b));
    DELETED(3, 22, "MPI_Comm_free of its dup");
    EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, copy), MPI_ERR_KEYVAL);

    /* A keyval freed with no attribute left is gone at once. */
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &k, &extra_state));
    copy = k;
    CHECK_OK(MPI_Comm_free_keyval(&k));
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, copy, &got, &flag), MPI_ERR_KEYVAL);

    /* The same for datatypes. */
    MPI_Datatype t;
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &k, &extra_state));
    CHECK_OK(MPI_Type_dup(MPI_INT, &t));
    CHECK_OK(MPI_Type_set_attr(t, k, &v3));
    copy = k;
    CHECK_OK(MPI_Type_free_keyval(&k));
    CHECK(k == MPI_KEYVAL_INVALID);
    flag = 0;
    CHECK_OK(MPI_Type_get_attr(t, copy, &got, &flag));
    CHECK(flag && got == &v3);
    CHECK_OK(MPI_Type_free(&t));
    DELETED(4, 33, "MPI_Type_free after MPI_Type_free_keyval");
    CHECK_OK(MPI_Type_dup(MPI_INT, &t));
    EXPECT_CLASS(MPI_Type_get_attr(t, copy, &got, &flag), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Type_free(&t));

    return check_finish();
}
