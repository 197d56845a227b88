/*
 * test_sigpipe.c <default|handler>: a C program that uses nexar survives writing to a dead
 * peer's socket or pipe. nexar_init sets SIGPIPE, if still at its default action (which kills
 * the process), to ignored, so such a write fails with EPIPE instead (the transports turn that
 * into NEXAR_ERR_PROC_FAILED). `handler`: a handler the program installed before nexar_init is
 * kept, and still runs. Started alone (a world of one).
 */
#include <errno.h>
#include <nexar.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t handled = 0;
static void on_pipe(int sig)
{
    (void)sig;
    handled = 1;
}

/* Writes to a pipe whose read end is closed; returns errno (0 if the write succeeded). */
static int write_to_closed_pipe(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    close(fds[0]);
    errno = 0;
    ssize_t n = write(fds[1], "x", 1);
    int e = n < 0 ? errno : 0;
    close(fds[1]);
    return e;
}

int main(int argc, char **argv)
{
    int own = argc > 1 && !strcmp(argv[1], "handler");
    if (own) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_pipe;
        sigaction(SIGPIPE, &sa, NULL);
    }
    if (nexar_init(NULL, NULL) != NEXAR_SUCCESS) {
        fprintf(stderr, "nexar_init failed\n");
        return 1;
    }
    /* Without nexar's setting (or the program's handler) this write kills the process. */
    int e = write_to_closed_pipe();
    nexar_finalize();
    if (e != EPIPE) {
        fprintf(stderr, "the write returned errno %d, want EPIPE\n", e);
        return 1;
    }
    if (own && !handled) {
        fprintf(stderr, "the program's own SIGPIPE handler did not run\n");
        return 1;
    }
    printf("SIGPIPE does not kill a nexar process (%s)\n", own ? "own handler kept" : "ignored");
    return 0;
}
