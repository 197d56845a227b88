/* Client/server connections: the world splits into an accepting half and a connecting half;
 * the accepting root opens a port and publishes it, the connecting root looks it up. A
 * stranger (the port name with one key digit changed) is refused with MPI_ERR_PORT while the
 * acceptor goes on waiting for the real client; the two halves then get an intercommunicator
 * (sizes, an allreduce and a merge across it), disconnect, and meet again on the same port.
 * The accepting half is the odd ranks, so the new world numbers everyone differently from
 * MPI_COMM_WORLD: groups must still name the same processes (compare, translate).
 * MPI_Comm_join over a TCP socket between ranks 0 and 1. Errors at any size: a malformed port
 * name (MPI_ERR_PORT), closing a port never opened (MPI_ERR_PORT), looking up or unpublishing
 * an unknown service (MPI_ERR_NAME, MPI_ERR_SERVICE), publishing a name twice. */
#define _XOPEN_SOURCE 700
#include "mpi_check.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static void errors_at_any_size(const char *service)
{
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm c = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c),
                 MPI_ERR_PORT);
    CHECK(c == MPI_COMM_NULL);
    EXPECT_CLASS(MPI_Close_port("nexar-port://127.0.0.1:1/00"), MPI_ERR_PORT);
    EXPECT_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, port), MPI_ERR_NAME);
    EXPECT_CLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, "x"), MPI_ERR_SERVICE);
    CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK(strncmp(port, "nexar-port://", 13) == 0 && strlen(port) < MPI_MAX_PORT_NAME);
    CHECK_OK(MPI_Publish_name(service, MPI_INFO_NULL, port));
    EXPECT_CLASS(MPI_Publish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_OK(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    CHECK_OK(MPI_Close_port(port));
}

/* Checks an intercommunicator between the halves: sizes, an allreduce of world ranks, a merge. */
static void check_inter(MPI_Comm inter, MPI_Comm half, int accepting, int nacc, int size)
{
    int lsize, rsize, me, sum = -1, mrank = -1, hrank;
    CHECK_OK(MPI_Comm_size(inter, &lsize));
    CHECK_OK(MPI_Comm_remote_size(inter, &rsize));
    CHECK(lsize == (accepting ? nacc : size - nacc) && rsize == size - lsize);
    /* The local group is this half's, though the intercommunicator lives in a new world; the
     * remote group is the other half: in MPI_COMM_WORLD at their world ranks. */
    MPI_Group hg, lg, rg, wg;
    int cmp = -1, zero = 0, w0 = -1;
    CHECK_OK(MPI_Comm_group(half, &hg));
    CHECK_OK(MPI_Comm_group(inter, &lg));
    CHECK_OK(MPI_Group_compare(hg, lg, &cmp));
    CHECK(cmp == MPI_IDENT);
    CHECK_OK(MPI_Comm_remote_group(inter, &rg));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_OK(MPI_Group_translate_ranks(rg, 1, &zero, wg, &w0));
    CHECK(w0 == (accepting ? 0 : 1));
    CHECK_OK(MPI_Group_free(&hg));
    CHECK_OK(MPI_Group_free(&lg));
    CHECK_OK(MPI_Group_free(&rg));
    CHECK_OK(MPI_Group_free(&wg));
    me = check_rank;
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, inter));
    /* The remote half's world ranks: the even ones (seen by the odd) or the odd ones. */
    int want = 0;
    for (int r = accepting ? 0 : 1; r < size; r += 2)
        want += r;
    CHECK(sum == want);
    MPI_Comm merged;
    CHECK_OK(MPI_Intercomm_merge(inter, !accepting, &merged));
    CHECK_OK(MPI_Comm_rank(merged, &mrank));
    CHECK_OK(MPI_Comm_rank(half, &hrank));
    CHECK(mrank == (accepting ? hrank : nacc + hrank));
    CHECK_OK(MPI_Comm_free(&merged));
}

int main(int argc, char **argv)
{
    int size, pid;
    char service[64];
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    pid = (int)getpid();
    CHECK_OK(MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD));
    snprintf(service, sizeof service, "nexar-ctest-ports-%d-%d", pid, check_rank);
    errors_at_any_size(service);
    if (size < 2)
        return check_finish();

    int nacc = size / 2, accepting = check_rank % 2 == 1;
    MPI_Comm half, inter;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, accepting, check_rank, &half));
    CHECK_OK(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
    char port[MPI_MAX_PORT_NAME] = "";
    snprintf(service, sizeof service, "nexar-ctest-ports-%d", pid);
    if (check_rank == 1) {
        CHECK_OK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_OK(MPI_Publish_name(service, MPI_INFO_NULL, port));
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int round = 0; round < 2; round++) {
        if (accepting) {
            CHECK_OK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter));
        } else {
            char found[MPI_MAX_PORT_NAME] = "";
            if (check_rank == 0) {
                CHECK_OK(MPI_Lookup_name(service, MPI_INFO_NULL, found));
                if (round == 0) {
                    /* A stranger: the right address, a wrong key. */
                    char forged[MPI_MAX_PORT_NAME];
                    MPI_Comm c = MPI_COMM_NULL;
                    strcpy(forged, found);
                    char *last = forged + strlen(forged) - 1;
                    *last = *last == '0' ? '1' : '0';
                    EXPECT_CLASS(MPI_Comm_connect(forged, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c),
                                 MPI_ERR_PORT);
                    CHECK(c == MPI_COMM_NULL);
                }
            }
            CHECK_OK(MPI_Comm_connect(found, MPI_INFO_NULL, 0, half, &inter));
        }
        check_inter(inter, half, accepting, nacc, size);
        CHECK_OK(MPI_Comm_disconnect(&inter));
    }
    if (check_rank == 1) {
        CHECK_OK(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        CHECK_OK(MPI_Close_port(port));
    }
    CHECK_OK(MPI_Comm_free(&half));

    /* MPI_Comm_join between ranks 0 and 1 over a loopback TCP connection. */
    if (check_rank < 2) {
        int fd = -1, tcp_port = 0;
        if (check_rank == 0) {
            struct sockaddr_in a = {.sin_family = AF_INET};
            socklen_t len = sizeof a;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            int l = socket(AF_INET, SOCK_STREAM, 0);
            CHECK(l >= 0 && bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0);
            CHECK(getsockname(l, (struct sockaddr *)&a, &len) == 0);
            tcp_port = ntohs(a.sin_port);
            CHECK_OK(MPI_Send(&tcp_port, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
            fd = accept(l, NULL, NULL);
            close(l);
        } else {
            struct sockaddr_in a = {.sin_family = AF_INET};
            CHECK_OK(MPI_Recv(&tcp_port, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            a.sin_port = htons((unsigned short)tcp_port);
            fd = socket(AF_INET, SOCK_STREAM, 0);
            CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
        }
        CHECK(fd >= 0);
        MPI_Comm joined;
        int rsize = -1, other = -1;
        CHECK_OK(MPI_Comm_join(fd, &joined));
        CHECK_OK(MPI_Comm_remote_size(joined, &rsize));
        CHECK(rsize == 1);
        CHECK_OK(MPI_Sendrecv(&check_rank, 1, MPI_INT, 0, 3, &other, 1, MPI_INT, 0, 3, joined,
                              MPI_STATUS_IGNORE));
        CHECK(other == 1 - check_rank);
        CHECK_OK(MPI_Comm_disconnect(&joined));
        close(fd);
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    return check_finish();
}
