/*
 * The case table shared by the bad-argument matrices (badarg_c.c for the C ABI,
 * mpi/badarg_mpi.c for the MPI shim): each case is written once as
 * CASE(name, ranks, code, func, what) { body } and registered before main runs (table order =
 * file order); main finds a case by name and answers `--list` / `--count N` with
 * badarg_list_or_count. The CMake files read the CASE lines to register one CTest per case.
 */
#ifndef NEXAR_BADARG_CASES_H
#define NEXAR_BADARG_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*case_fn)(void);

struct badcase {
    const char *name;
    int ranks; /* 0: called before the library is initialized (singleton) */
    int code;  /* the expected status (C ABI) or error class (MPI) */
    const char *func;
    const char *what;
    case_fn fn;
};

#define MAX_CASES 160
static struct badcase cases[MAX_CASES];
static int ncases;

static void add_case(const char *name, int ranks, int code, const char *func, const char *what,
                     case_fn fn)
{
    if (ncases == MAX_CASES) {
        fprintf(stderr, "badarg: raise MAX_CASES in badarg_cases.h\n");
        exit(2);
    }
    cases[ncases++] = (struct badcase){ name, ranks, code, func, what, fn };
}

/* Defines case_<name> and registers it before main runs (table order = file order). */
#define CASE(nm, ranks, code, func, what)                                                   \
    static int case_##nm(void);                                                             \
    __attribute__((constructor)) static void register_##nm(void)                            \
    {                                                                                       \
        add_case(#nm, ranks, code, func, what, case_##nm);                                  \
    }                                                                                       \
    static int case_##nm(void)

/* The case called `name`, or NULL. */
static const struct badcase *find(const char *name)
{
    for (int i = 0; i < ncases; i++) {
        if (strcmp(cases[i].name, name) == 0) {
            return &cases[i];
        }
    }
    return NULL;
}

/*
 * Answers `--count N` (exit 0 only if exactly N cases are compiled in) and `--list` (every
 * case as "<name> <ranks>"): returns the exit status, or -1 when argv asks for a case.
 */
static int badarg_list_or_count(int argc, char **argv)
{
    if (strcmp(argv[1], "--count") == 0 && argc == 3) {
        /* CMake registered argv[2] cases: a CASE it could not read would be silently lost */
        if (ncases != atoi(argv[2])) {
            fprintf(stderr, "%s: %d cases compiled, %s registered as tests\n", argv[0], ncases,
                    argv[2]);
            return 1;
        }
        return 0;
    }
    if (strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < ncases; i++) {
            printf("%s %d\n", cases[i].name, cases[i].ranks);
        }
        return 0;
    }
    return -1;
}

#endif
