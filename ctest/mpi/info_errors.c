/* Info objects (set / get_string / get / valuelen / delete / dup / nkeys / nthkey order /
 * free, MPI_INFO_ENV, Info_create_env, Abi_get_info, Comm_set_info / get_info, and their
 * errors), user error classes, codes and strings (with Error_string / Error_class and the
 * MPI_LASTUSEDCODE attribute), user error handlers with Comm_call_errhandler, and Alloc_mem /
 * Free_mem. */
#include "mpi_check.h"
#include <stddef.h>
#include <stdint.h>

static void expect_value(MPI_Info info, const char *key, const char *want)
{
    char value[MPI_MAX_INFO_VAL];
    int buflen = MPI_MAX_INFO_VAL, flag = -1;
    CHECK_OK(MPI_Info_get_string(info, key, &buflen, value, &flag));
    CHECK(flag == (want != NULL));
    if (want && flag) {
        CHECK(strcmp(value, want) == 0);
        CHECK(buflen == (int)strlen(want) + 1);
    }
}

static void infos(void)
{
    MPI_Info info, dup;
    CHECK_OK(MPI_Info_create(&info));
    int n = -1;
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 0);
    CHECK_OK(MPI_Info_set(info, "zeta", "1"));
    CHECK_OK(MPI_Info_set(info, "alpha", "two"));
    CHECK_OK(MPI_Info_set(info, "mid", "three"));
    CHECK_OK(MPI_Info_set(info, "zeta", "one")); /* replaced in place */
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 3);
    const char *order[3] = {"zeta", "alpha", "mid"};
    for (int i = 0; i < 3; i++) {
        char key[MPI_MAX_INFO_KEY];
        CHECK_OK(MPI_Info_get_nthkey(info, i, key));
        CHECK(strcmp(key, order[i]) == 0);
    }
    expect_value(info, "zeta", "one");
    expect_value(info, "mid", "three");
    expect_value(info, "none", NULL);

    /* get_string with buflen 0 asks for the length; a short buffer truncates. */
    int buflen = 0, flag = 0;
    CHECK_OK(MPI_Info_get_string(info, "mid", &buflen, NULL, &flag));
    CHECK(flag && buflen == 6);
    char small[3];
    buflen = 3;
    CHECK_OK(MPI_Info_get_string(info, "mid", &buflen, small, &flag));
    CHECK(flag && buflen == 6 && strcmp(small, "th") == 0);
    char old[8];
    CHECK_OK(MPI_Info_get(info, "alpha", 7, old, &flag));
    CHECK(flag && strcmp(old, "two") == 0);
    int vlen = -1;
    CHECK_OK(MPI_Info_get_valuelen(info, "alpha", &vlen, &flag));
    CHECK(flag && vlen == 3);

    /* dup copies, in order; the copies are independent. */
    CHECK_OK(MPI_Info_dup(info, &dup));
    CHECK_OK(MPI_Info_delete(info, "alpha"));
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 2);
    expect_value(info, "alpha", NULL);
    expect_value(dup, "alpha", "two");
    char key[MPI_MAX_INFO_KEY];
    CHECK_OK(MPI_Info_get_nthkey(dup, 2, key));
    CHECK(strcmp(key, "mid") == 0);
    CHECK(MPI_Info_fromint(MPI_Info_toint(dup)) == dup);

    /* Errors. */
    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    static char longval[MPI_MAX_INFO_VAL + 8];
    memset(longval, 'v', sizeof longval - 1);
    longval[sizeof longval - 1] = '\0';
    EXPECT_CLASS(MPI_Info_set(info, longkey, "x"), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    EXPECT_CLASS(MPI_Info_set(info, "k", longval), MPI_ERR_INFO_VALUE);
    EXPECT_CLASS(MPI_Info_delete(info, "alpha"), MPI_ERR_INFO_NOKEY);
    EXPECT_CLASS(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);

    /* Communicator hints: set, read back, carried by dup, replaced by dup_with_info. */
    MPI_Comm c, d, e;
    MPI_Info used;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_OK(MPI_Comm_set_info(c, dup));
    CHECK_OK(MPI_Comm_get_info(c, &used));
    CHECK_OK(MPI_Info_get_nkeys(used, &n));
    CHECK(n == 3);
    expect_value(used, "zeta", "one");
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Comm_dup(c, &d));
    CHECK_OK(MPI_Comm_get_info(d, &used));
    expect_value(used, "alpha", "two");
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Comm_dup_with_info(c, info, &e));
    CHECK_OK(MPI_Comm_get_info(e, &used));
    expect_value(used, "alpha", NULL);
    expect_value(used, "mid", "three");
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_Comm_free(&c));
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Comm_free(&e));

    CHECK_OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL);
    CHECK_OK(MPI_Info_free(&dup));
    EXPECT_CLASS(MPI_Info_get_nkeys(dup, &n), MPI_ERR_INFO); /* dup is now MPI_INFO_NULL */

    /* MPI_INFO_ENV and a copy of it; the ABI's integer sizes. */
    char cmd[MPI_MAX_INFO_VAL];
    buflen = MPI_MAX_INFO_VAL;
    CHECK_OK(MPI_Info_get_string(MPI_INFO_ENV, "command", &buflen, cmd, &flag));
    CHECK(flag && strstr(cmd, "info_errors") != NULL);
    MPI_Info env;
    CHECK_OK(MPI_Info_create_env(0, NULL, &env));
    expect_value(env, "command", cmd);
    CHECK_OK(MPI_Info_free(&env));
    MPI_Info abi;
    CHECK_OK(MPI_Abi_get_info(&abi));
    char want[8];
    snprintf(want, sizeof want, "%d", (int)sizeof(MPI_Aint));
    expect_value(abi, "mpi_aint_size", want);
    snprintf(want, sizeof want, "%d", (int)sizeof(MPI_Count));
    expect_value(abi, "mpi_count_size", want);
    snprintf(want, sizeof want, "%d", (int)sizeof(MPI_Offset));
    expect_value(abi, "mpi_offset_size", want);
    CHECK_OK(MPI_Info_free(&abi));
    /* The Fortran description: gfortran's default kinds, which sized types exist. */
    CHECK_OK(MPI_Abi_get_fortran_info(&abi));
    expect_value(abi, "mpi_integer_size", "4");
    expect_value(abi, "mpi_double_precision_size", "8");
    expect_value(abi, "mpi_integer8_supported", "true");
    CHECK_OK(MPI_Info_free(&abi));
    int t = -1, f = -1, set = -1;
    CHECK_OK(MPI_Abi_get_fortran_booleans(4, &t, &f, &set));
    CHECK(t == 1 && f == 0 && set == 0);
    MPI_Errhandler was;
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &was));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT_CLASS(MPI_Abi_get_fortran_booleans(3, &t, &f, &set), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, was));
}

static int handler_calls = 0, handler_code = -1;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static void error_codes(void)
{
    int cls, code, code2, got = -1, len = -1, flag = 0;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK_OK(MPI_Add_error_class(&cls));
    CHECK(cls > MPI_ERR_LASTCODE);
    CHECK_OK(MPI_Add_error_code(cls, &code));
    CHECK_OK(MPI_Add_error_code(MPI_ERR_ARG, &code2));
    CHECK(code != cls && code2 != code && code2 != cls);
    int *last = NULL;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last >= code2 && *last >= code && *last >= cls);

    CHECK_OK(MPI_Add_error_string(cls, "my class"));
    CHECK_OK(MPI_Add_error_string(code, "my code"));
    CHECK_OK(MPI_Error_string(cls, msg, &len));
    CHECK(strcmp(msg, "my class") == 0 && len == 8);
    CHECK_OK(MPI_Error_string(code, msg, &len));
    CHECK(strcmp(msg, "my code") == 0);
    CHECK_OK(MPI_Error_string(code2, msg, &len));
    CHECK(len == 0 && msg[0] == '\0'); /* no string added */
    CHECK_OK(MPI_Error_class(code, &got));
    CHECK(got == cls);
    CHECK_OK(MPI_Error_class(cls, &got));
    CHECK(got == cls);
    CHECK_OK(MPI_Error_class(code2, &got));
    CHECK(got == MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Add_error_string(MPI_ERR_RANK, "no"), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Add_error_code(cls + 1000, &got), MPI_ERR_ARG);

    /* Comm_call_errhandler: under MPI_ERRORS_RETURN the call returns; a user handler receives
     * the added code, and the codes of failing calls on its communicator. */
    CHECK_OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code));
    MPI_Errhandler eh, got_eh;
    CHECK_OK(MPI_Comm_create_errhandler(handler, &eh));
    MPI_Comm c;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_OK(MPI_Comm_set_errhandler(c, eh));
    CHECK_OK(MPI_Comm_get_errhandler(c, &got_eh));
    CHECK(got_eh == eh);
    CHECK_OK(MPI_Errhandler_free(&got_eh));
    CHECK(got_eh == MPI_ERRHANDLER_NULL);
    CHECK_OK(MPI_Comm_call_errhandler(c, code));
    CHECK(handler_calls == 1 && handler_code == code);
    int x = 0, size;
    CHECK_OK(MPI_Comm_size(c, &size));
    int rc = MPI_Send(&x, 1, MPI_INT, size, 0, c);
    CHECK(handler_calls == 2 && handler_code == rc);
    EXPECT_CLASS(rc, MPI_ERR_RANK);
    CHECK_OK(MPI_Errhandler_free(&eh));
    /* Freed, but still in use by c; a new dup inherits it. */
    MPI_Comm c2;
    CHECK_OK(MPI_Comm_dup(c, &c2));
    CHECK_OK(MPI_Comm_call_errhandler(c2, cls));
    CHECK(handler_calls == 3 && handler_code == cls);
    CHECK_OK(MPI_Comm_free(&c2));
    CHECK_OK(MPI_Comm_free(&c));
    EXPECT_CLASS(MPI_Comm_call_errhandler(MPI_COMM_NULL, code), MPI_ERR_COMM);

    /* Removal: a class with codes stays, and so does anything with a string; strings and
     * codes go first. */
    EXPECT_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Remove_error_code(code), MPI_ERR_ARG);
    CHECK_OK(MPI_Remove_error_string(code));
    CHECK_OK(MPI_Error_string(code, msg, &len));
    CHECK(len == 0);
    CHECK_OK(MPI_Remove_error_code(code));
    CHECK_OK(MPI_Remove_error_code(code2));
    EXPECT_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    CHECK_OK(MPI_Remove_error_string(cls));
    CHECK_OK(MPI_Remove_error_class(cls));
    EXPECT_CLASS(MPI_Error_class(code, &got), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Remove_error_code(MPI_ERR_RANK), MPI_ERR_ARG);
}

static void memory(void)
{
    double *p = NULL;
    CHECK_OK(MPI_Alloc_mem(1000 * sizeof(double), MPI_INFO_NULL, &p));
    CHECK(p != NULL && (uintptr_t)p % sizeof(double) == 0);
    for (int i = 0; i < 1000; i++)
        p[i] = i;
    double s = 0;
    for (int i = 0; i < 1000; i++)
        s += p[i];
    CHECK(s == 999.0 * 1000 / 2);
    CHECK_OK(MPI_Free_mem(p));
    int local;
    EXPECT_CLASS(MPI_Free_mem(&local), MPI_ERR_BASE);
    /* Too large for any allocation (refused before malloc, so sanitizers stay quiet). */
    void *huge = NULL;
    EXPECT_CLASS(MPI_Alloc_mem((MPI_Aint)PTRDIFF_MAX, MPI_INFO_NULL, &huge), MPI_ERR_NO_MEM);
    CHECK(huge == NULL);
    EXPECT_CLASS(MPI_Alloc_mem(-1, MPI_INFO_NULL, &huge), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    infos();
    error_codes();
    memory();
    return check_finish();
}
