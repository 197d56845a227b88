/*
 * io_failure: MPI-IO collective access when a rank dies or the disk is full (issue 22: "a
 * failed rank during collective I/O gives an error on the others, never a hang; nothing
 * already written is lost or corrupted"). Run under nexarrun at 3 or more ranks, with
 * MPI_ERRORS_RETURN on MPI_COMM_WORLD so the launcher leaves the survivors running.
 *
 * io_failure write|read <victim> (victim 0: the aggregator; "last": the last rank, not one):
 *   256-byte records dealt round-robin to the ranks by a view, collective buffering forced on
 *   (romio_cb_write / romio_cb_read enable) with cb_buffer_size 16 KiB, so each call is
 *   hundreds of two-phase rounds. Region A is written and synced first; then every rank
 *   repeats MPI_File_write_at_all (region B) or MPI_File_read_at_all (region A, each read
 *   checked) until one fails, while the victim kills itself with SIGKILL from a timer 150 ms
 *   in. Every survivor must get MPIX_ERR_PROC_FAILED naming the dead rank within 5 s of the
 *   kill, and MPI_File_close must return and free the handle. The survivors then shrink
 *   MPI_COMM_WORLD and rank 0 of the shrunk world checks the file: region A byte for byte,
 *   every record of region B untouched (zeros) or one whole record some call wrote. It prints
 *   "io_failure <mode>: ... file intact" only if every survivor passed (an allreduce on the
 *   shrunk world). The job's status is the dead rank's (128 + 9).
 *
 * io_failure nospace:
 *   /dev/full as the file: a two-phase collective write, a collective write without
 *   collective buffering and an independent write must each fail on every rank with
 *   MPI_ERR_NO_SPACE and a message naming the file (ranks that wrote nothing learn the class
 *   from the others); rank 0 prints "io_failure nospace: every rank got MPI_ERR_NO_SPACE".
 *   Without a writable /dev/full it prints "SKIPPED: ..." (CTest reports it skipped).
 */
#include "io_common.h"

#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#define REC 256
#define NREC 4096 /* records per rank per call: 1 MiB */
#define KILL_AFTER_MS 150
#define MAX_LATENCY_S 5.0
#define LOOP_LIMIT_S 20.0

static int rank, size;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Byte j of global record g as written by call `tag` (the first 16 bytes hold g and tag). */
static unsigned char rec_byte(uint64_t g, uint64_t tag, int j)
{
    return (unsigned char)(g * 31u + tag * 7u + (uint64_t)j * 13u + 1u);
}

static void fill_rec(unsigned char *r, uint64_t g, uint64_t tag)
{
    memcpy(r, &g, 8);
    memcpy(r + 8, &tag, 8);
    for (int j = 16; j < REC; j++) {
        r[j] = rec_byte(g, tag, j);
    }
}

/* This rank's first n records (the k-th is global record k * size + rank) of call `tag`. */
static void fill(unsigned char *buf, int n, uint64_t tag)
{
    for (int k = 0; k < n; k++) {
        fill_rec(buf + (size_t)k * REC, (uint64_t)k * (uint64_t)size + (uint64_t)rank, tag);
    }
}

/* Whether record r is global record g of call tag, tag in [lo, hi]. */
static int rec_ok(const unsigned char *r, uint64_t g, uint64_t lo, uint64_t hi)
{
    uint64_t rg, tag;
    memcpy(&rg, r, 8);
    memcpy(&tag, r + 8, 8);
    if (rg != g || tag < lo || tag > hi) {
        return 0;
    }
    for (int j = 16; j < REC; j++) {
        if (r[j] != rec_byte(g, tag, j)) {
            return 0;
        }
    }
    return 1;
}

static int all_zero(const unsigned char *r)
{
    for (int j = 0; j < REC; j++) {
        if (r[j]) {
            return 0;
        }
    }
    return 1;
}

static void die(int sig)
{
    (void)sig;
    kill(getpid(), SIGKILL);
}

/* The victim: SIGKILL from a timer KILL_AFTER_MS from now, whatever it is doing then. */
static void arm_kill(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = die;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_usec = KILL_AFTER_MS * 1000;
    setitimer(ITIMER_REAL, &it, NULL);
}

static const char *class_name(int cls)
{
    switch (cls) {
    case MPI_SUCCESS:
        return "MPI_SUCCESS";
    case MPIX_ERR_PROC_FAILED:
        return "MPIX_ERR_PROC_FAILED";
    case MPIX_ERR_REVOKED:
        return "MPIX_ERR_REVOKED";
    case MPI_ERR_NO_SPACE:
        return "MPI_ERR_NO_SPACE";
    default:
        return "another class";
    }
}

/* Prints how call `what` ended; gives its error class and its message in msg. */
static int report(const char *what, int rc, char msg[MPI_MAX_ERROR_STRING])
{
    int len = 0, cls = -1;
    msg[0] = '\0';
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    printf("rank %d: %s: %s (%d): %s\n", rank, what, class_name(cls), cls, msg);
    fflush(stdout);
    return cls;
}

static MPI_File open_records(MPI_Comm comm, const char *path, int amode, MPI_Offset disp)
{
    MPI_Info info;
    MPI_File fh;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "romio_cb_write", "enable"));
    CHECK_OK(MPI_Info_set(info, "romio_cb_read", "enable"));
    CHECK_OK(MPI_Info_set(info, "cb_buffer_size", "16384"));
    CHECK_OK(MPI_File_open(comm, path, amode, info, &fh));
    CHECK_OK(MPI_Info_free(&info));
    MPI_Datatype rec, ft;
    CHECK_OK(MPI_Type_contiguous(REC, MPI_BYTE, &rec));
    CHECK_OK(MPI_Type_create_resized(rec, 0, (MPI_Aint)size * REC, &ft));
    CHECK_OK(MPI_Type_commit(&ft));
    CHECK_OK(MPI_File_set_view(fh, disp + (MPI_Offset)rank * REC, MPI_BYTE, ft, "native",
                               MPI_INFO_NULL));
    CHECK_OK(MPI_Type_free(&ft));
    CHECK_OK(MPI_Type_free(&rec));
    return fh;
}

/* Rank 0 of the shrunk world: region A holds call 0 exactly; every record of region B is
 * zeros (or past the end of the file) or a whole record of a call in 1..last. */
static int file_intact(const char *path, int write, uint64_t last)
{
    long len = 0, nrec = (long)size * NREC, zeros = 0, whole = 0;
    unsigned char *b = io_slurp(path, &len);
    if (!b || len < nrec * REC || len % REC != 0) {
        fprintf(stderr, "file %s: %ld bytes, want whole records, at least %ld\n", path, len,
                nrec * REC);
        free(b);
        return 0;
    }
    int ok = 1;
    for (long g = 0; g < nrec && ok; g++) {
        if (!rec_ok(b + g * REC, (uint64_t)g, 0, 0)) {
            fprintf(stderr, "region A: record %ld changed\n", g);
            ok = 0;
        }
    }
    if (write) {
        for (long g = 0; g < nrec && ok; g++) {
            const unsigned char *r = b + (nrec + g) * REC;
            if ((nrec + g + 1) * REC > len || all_zero(r)) {
                zeros++;
            } else if (rec_ok(r, (uint64_t)g, 1, last)) {
                whole++;
            } else {
                fprintf(stderr, "region B: record %ld is neither zeros nor a written record\n",
                        g);
                ok = 0;
            }
        }
        printf("region B: %ld written records, %ld untouched\n", whole, zeros);
    } else if (len != nrec * REC) {
        fprintf(stderr, "the reads changed the file's size to %ld\n", len);
        ok = 0;
    }
    free(b);
    return ok;
}

static int killed(int write, int victim)
{
    char dir[256], path[300];
    io_tmpdir(MPI_COMM_WORLD, dir);
    snprintf(path, sizeof path, "%s/records", dir);
    size_t bytes = (size_t)NREC * REC;
    unsigned char *buf = malloc(bytes), *want = malloc(bytes);
    const MPI_Offset region = (MPI_Offset)size * NREC * REC;

    /* Region A: call 0, written, synced, read back by every rank. */
    MPI_File fh = open_records(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, 0);
    fill(buf, NREC, 0);
    CHECK_OK(MPI_File_write_at_all(fh, 0, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_File_sync(fh));
    CHECK_OK(MPI_File_close(&fh));
    fh = open_records(MPI_COMM_WORLD, path, MPI_MODE_RDWR, write ? region : 0);
    memcpy(want, buf, bytes);

    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = now();
    if (rank == victim) {
        arm_kill();
    }
    int rc = MPI_SUCCESS, ok = 1;
    uint64_t tag = 0;
    while (rc == MPI_SUCCESS && now() - t0 < LOOP_LIMIT_S) {
        if (write) {
            fill(buf, NREC, ++tag);
            rc = MPI_File_write_at_all(fh, 0, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
        } else {
            memset(buf, 0, bytes);
            ++tag;
            rc = MPI_File_read_at_all(fh, 0, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && memcmp(buf, want, bytes) != 0) {
                fprintf(stderr, "rank %d: read_at_all %llu read wrong data\n", rank,
                        (unsigned long long)tag);
                ok = 0;
            }
        }
    }
    double latency = now() - t0 - KILL_AFTER_MS * 1e-3;
    char what[96];
    snprintf(what, sizeof what, "%s call %llu, %.2f s after the kill",
             write ? "MPI_File_write_at_all" : "MPI_File_read_at_all", (unsigned long long)tag,
             latency);
    char msg[MPI_MAX_ERROR_STRING], dead[32];
    int cls = report(what, rc, msg);
    snprintf(dead, sizeof dead, "rank %d failed", victim);
    if (cls != MPIX_ERR_PROC_FAILED || !strstr(msg, dead)) {
        fprintf(stderr, "rank %d: expected MPIX_ERR_PROC_FAILED naming %s\n", rank, dead);
        ok = 0;
    }
    if (latency > MAX_LATENCY_S) {
        fprintf(stderr, "rank %d: the error came %.2f s after the kill\n", rank, latency);
        ok = 0;
    }
    /* Closing is collective too: it must return (with an error) and free the handle. */
    rc = MPI_File_close(&fh);
    report("MPI_File_close", rc, msg);
    if (fh != MPI_FILE_NULL) {
        fprintf(stderr, "rank %d: the file handle is still open\n", rank);
        ok = 0;
    }

    MPI_Comm s;
    CHECK_OK(MPIX_Comm_revoke(MPI_COMM_WORLD));
    CHECK_OK(MPIX_Comm_shrink(MPI_COMM_WORLD, &s));
    int srank, ssize;
    CHECK_OK(MPI_Comm_rank(s, &srank));
    CHECK_OK(MPI_Comm_size(s, &ssize));
    if (ssize != size - 1) {
        fprintf(stderr, "rank %d: %d survivors\n", rank, ssize);
        ok = 0;
    }
    if (srank == 0 && !file_intact(path, write, tag)) {
        ok = 0;
    }
    int all = ok;
    CHECK_OK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s));
    if (srank == 0 && all) {
        printf("io_failure %s: all %d survivors got MPIX_ERR_PROC_FAILED; file intact\n",
               write ? "write" : "read", ssize);
        fflush(stdout);
    }
    io_rmdir(s, dir);
    CHECK_OK(MPI_Comm_free(&s));
    free(buf);
    free(want);
    MPI_Finalize();
    return all ? 0 : 1;
}

/* One write of every rank's records to /dev/full; 1 if it failed with MPI_ERR_NO_SPACE and
 * a message naming the file. */
static int no_space(const char *hint, int collective)
{
    MPI_Info info;
    MPI_File fh;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "romio_cb_write", hint));
    CHECK_OK(MPI_Info_set(info, "cb_buffer_size", "16384"));
    CHECK_OK(MPI_File_open(MPI_COMM_WORLD, "/dev/full", MPI_MODE_WRONLY, info, &fh));
    CHECK_OK(MPI_Info_free(&info));
    MPI_Datatype rec, ft;
    CHECK_OK(MPI_Type_contiguous(REC, MPI_BYTE, &rec));
    CHECK_OK(MPI_Type_create_resized(rec, 0, (MPI_Aint)size * REC, &ft));
    CHECK_OK(MPI_Type_commit(&ft));
    CHECK_OK(MPI_File_set_view(fh, (MPI_Offset)rank * REC, MPI_BYTE, ft, "native",
                               MPI_INFO_NULL));
    size_t bytes = 64 * REC;
    unsigned char *buf = malloc(bytes);
    fill(buf, 64, 1);
    int rc;
    char what[96];
    if (collective) {
        rc = MPI_File_write_at_all(fh, 0, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
        snprintf(what, sizeof what, "MPI_File_write_at_all (romio_cb_write %s)", hint);
    } else {
        rc = MPI_File_write_at(fh, 0, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
        snprintf(what, sizeof what, "MPI_File_write_at");
    }
    char msg[MPI_MAX_ERROR_STRING];
    int ok = report(what, rc, msg) == MPI_ERR_NO_SPACE && strstr(msg, "/dev/full") != NULL;
    if (!ok) {
        fprintf(stderr, "rank %d: expected MPI_ERR_NO_SPACE naming /dev/full\n", rank);
    }
    CHECK_OK(MPI_File_close(&fh));
    CHECK_OK(MPI_Type_free(&ft));
    CHECK_OK(MPI_Type_free(&rec));
    free(buf);
    return ok;
}

static int nospace(void)
{
    int usable = access("/dev/full", W_OK) == 0, all_usable = 0;
    CHECK_OK(MPI_Allreduce(&usable, &all_usable, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (!all_usable) {
        if (rank == 0) {
            printf("SKIPPED: /dev/full is not writable here\n");
        }
        MPI_Finalize();
        return 0;
    }
    int ok = no_space("enable", 1);
    ok &= no_space("disable", 1);
    ok &= no_space("disable", 0);
    int all = 0;
    CHECK_OK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (rank == 0 && all) {
        printf("io_failure nospace: every rank got MPI_ERR_NO_SPACE\n");
    }
    MPI_Finalize();
    return all ? 0 : 1;
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    rank = check_rank;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "nospace")) {
        return nospace();
    }
    int write = !strcmp(mode, "write");
    if ((!write && strcmp(mode, "read")) || argc < 3 || size < 3) {
        if (rank == 0) {
            fprintf(stderr, "usage: io_failure write|read 0|last (3+ ranks) | nospace\n");
        }
        MPI_Finalize();
        return 2;
    }
    int victim = strcmp(argv[2], "last") ? atoi(argv[2]) : size - 1;
    return killed(write, victim);
}
