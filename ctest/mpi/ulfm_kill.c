/* ULFM recovery through the MPI shim after a real failure (run under nexarrun at 2 or more
 * ranks, MPI_ERRORS_RETURN so the launcher leaves the survivors running): the last rank kills
 * itself with SIGKILL after a barrier while the others run allreduces. Each survivor:
 *   - gets MPIX_ERR_PROC_FAILED (or MPIX_ERR_REVOKED, if another survivor revoked first);
 *   - revokes MPI_COMM_WORLD and shrinks it; an allreduce on the shrunk communicator is right;
 *   - finds the dead rank in MPIX_Comm_get_failed; agrees on a flag, which raises
 *     MPIX_ERR_PROC_FAILED while nobody acknowledged the failure (MPIX_Comm_ack_failed with 0)
 *     and not once all did (with the group's size: 1 acknowledged), blocking and non-blocking;
 *   - prints "rank R recovered" and finalizes (cleanly, although the world is revoked).
 * The job's exit status is the dead rank's (128 + SIGKILL = 137). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int fail(int rank, const char *what, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    msg[0] = '\0';
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "rank %d: %s failed (%d): %s\n", rank, what, rc, msg);
    return 1;
}

int main(int argc, char **argv)
{
    int rank, size, rc, cls = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        struct timespec t = {0, 100 * 1000 * 1000};
        nanosleep(&t, NULL);
        kill(getpid(), SIGKILL);
    }
    /* Bounded (the launcher's --timeout guards it too): the death ends it much sooner. */
    for (long i = 0; i < 10 * 1000 * 1000; i++) {
        int x = 1, sum = 0;
        rc = MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            break;
        }
    }
    MPI_Error_class(rc, &cls);
    if (cls != MPIX_ERR_PROC_FAILED && cls != MPIX_ERR_REVOKED) {
        return fail(rank, "allreduce with a dead rank (class)", rc);
    }
    if ((rc = MPIX_Comm_revoke(MPI_COMM_WORLD)) != MPI_SUCCESS) {
        return fail(rank, "MPIX_Comm_revoke", rc);
    }
    MPI_Comm s;
    if ((rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s)) != MPI_SUCCESS) {
        return fail(rank, "MPIX_Comm_shrink", rc);
    }
    int ssize = -1, x = rank, sum = -1;
    MPI_Comm_size(s, &ssize);
    if ((rc = MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, s)) != MPI_SUCCESS) {
        return fail(rank, "allreduce on the shrunk communicator", rc);
    }
    if (ssize != size - 1 || sum != (size - 1) * (size - 2) / 2) {
        fprintf(stderr, "rank %d: shrunk to %d ranks, sum %d\n", rank, ssize, sum);
        return 1;
    }
    MPI_Group g;
    int nfailed = -1;
    if ((rc = MPIX_Comm_get_failed(MPI_COMM_WORLD, &g)) != MPI_SUCCESS) {
        return fail(rank, "MPIX_Comm_get_failed", rc);
    }
    MPI_Group_size(g, &nfailed);
    if (g != MPI_GROUP_EMPTY) {
        MPI_Group_free(&g);
    }
    /* The shrink agreed that the last rank failed, so every survivor has detected it. */
    if (nfailed != 1) {
        fprintf(stderr, "rank %d: %d failed ranks known\n", rank, nfailed);
        return 1;
    }
    /* Nothing acknowledged yet: the agreement still agrees, and raises on every survivor. */
    int nacked = -1;
    if ((rc = MPIX_Comm_ack_failed(MPI_COMM_WORLD, 0, &nacked)) != MPI_SUCCESS || nacked != 0) {
        fprintf(stderr, "rank %d: MPIX_Comm_ack_failed(0): rc %d, %d acked\n", rank, rc, nacked);
        return 1;
    }
    int flag = 0x30 | rank;
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    MPI_Error_class(rc, &cls);
    if (cls != MPIX_ERR_PROC_FAILED || flag != 0x30) {
        fprintf(stderr, "rank %d: unacknowledged agree: class %d, flag %#x\n", rank, cls, flag);
        return 1;
    }
    if ((rc = MPIX_Comm_ack_failed(MPI_COMM_WORLD, size, &nacked)) != MPI_SUCCESS || nacked != 1) {
        fprintf(stderr, "rank %d: MPIX_Comm_ack_failed(size): rc %d, %d acked\n", rank, rc, nacked);
        return 1;
    }
    flag = 0x10 | rank;
    if ((rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag)) != MPI_SUCCESS) {
        return fail(rank, "MPIX_Comm_agree", rc);
    }
    if (flag != 0x10) {
        fprintf(stderr, "rank %d: agreed flag %#x\n", rank, flag);
        return 1;
    }
    MPI_Request areq;
    flag = 0x20 | rank;
    if ((rc = MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &areq)) != MPI_SUCCESS ||
        (rc = MPI_Wait(&areq, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
        return fail(rank, "MPIX_Comm_iagree", rc);
    }
    if (flag != 0x20) {
        fprintf(stderr, "rank %d: iagreed flag %#x\n", rank, flag);
        return 1;
    }
    MPI_Comm_free(&s);
    printf("rank %d recovered\n", rank);
    fflush(stdout);
    if ((rc = MPI_Finalize()) != MPI_SUCCESS) {
        return fail(rank, "MPI_Finalize", rc);
    }
    return 0;
}
