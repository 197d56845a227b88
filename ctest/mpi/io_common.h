/*
 * io_common.h: helpers of the MPI-IO tests (ctest/mpi/io_*.c): a temporary directory made by
 * rank 0 and shared with the others, removed at the end, and reading a whole file with POSIX
 * calls (the serial reference the tests compare against).
 */
#ifndef NEXAR_IO_COMMON_H
#define NEXAR_IO_COMMON_H

/* mkdtemp, opendir: POSIX 2008 (the tests build as strict C11). Include this header first. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "mpi_check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Makes a fresh directory (rank 0) and gives its path to every rank of `comm`. */
static inline void io_tmpdir(MPI_Comm comm, char dir[256])
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    memset(dir, 0, 256);
    if (rank == 0) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, 256, "%s/nexar-io-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Bcast(dir, 256, MPI_CHAR, 0, comm);
}

/* How many shared-pointer files (made only once a file's shared pointer is used) are in dir. */
static inline int io_hidden_files(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strstr(e->d_name, "nexar-shfp") != NULL;
    if (d)
        closedir(d);
    return n;
}

/* Removes the directory and every file in it (rank 0, after a barrier); checks that nothing
 * but what the test made was left (the shared pointer's hidden file is removed on close). */
static inline void io_rmdir(MPI_Comm comm, const char *dir)
{
    int rank;
    MPI_Barrier(comm);
    MPI_Comm_rank(comm, &rank);
    if (rank != 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (strstr(e->d_name, "nexar-shfp")) {
            fprintf(stderr, "[rank 0] hidden pointer file %s left behind\n", e->d_name);
            check_failures++;
        }
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* The whole content of file `path` (malloc'd; *len its size), read with stdio. */
static inline unsigned char *io_slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *len = -1;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*len > 0 ? (size_t)*len : 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len)
        *len = -1;
    fclose(f);
    return b;
}

#endif
