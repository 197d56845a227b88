/* MPI_Alltoallw / MPI_Ialltoallw (and the _c forms): per-peer counts, byte displacements and
 * datatypes on both sides. Rank r sends peer j a block whose type depends on r + j (MPI_INT,
 * MPI_DOUBLE, a strided vector of ints, a contiguous pair of shorts) and receives it with a
 * type of the same signature but another layout; then MPI_IN_PLACE, the nonblocking forms
 * and argument errors (a peer sending more than the receiver expects fails on the receiver). */
#include "mpi_check.h"

enum { MAXR = 16, K = 3 };

/* The value element k of the block from rank s to rank d carries. */
static int val(int s, int d, int k) { return s * 1000 + d * 10 + k; }

/* Kind of the block exchanged between ranks s and d: symmetric in (s, d). */
static int kind(int s, int d) { return (s + d) % 4; }

/* Per-peer send and receive descriptions (`int` and `_c` forms). */
struct plan {
    int sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR];
    MPI_Count sc_c[MAXR], rc_c[MAXR];
    MPI_Aint sd_c[MAXR], rd_c[MAXR];
    MPI_Datatype st[MAXR], rt[MAXR];
};

/* Send and receive buffers: byte arrays with one 64-byte slot per peer. */
enum { SLOT = 64 };
static unsigned char sbuf[MAXR * SLOT], rbuf[MAXR * SLOT];

static MPI_Datatype vec3, vec3r, pairs;

static void make_types(void)
{
    /* 3 ints with stride 2 (send side), 3 ints with stride 3 (receive side). */
    CHECK_OK(MPI_Type_vector(K, 1, 2, MPI_INT, &vec3));
    CHECK_OK(MPI_Type_commit(&vec3));
    CHECK_OK(MPI_Type_vector(K, 1, 3, MPI_INT, &vec3r));
    CHECK_OK(MPI_Type_commit(&vec3r));
    CHECK_OK(MPI_Type_contiguous(2, MPI_SHORT, &pairs));
    CHECK_OK(MPI_Type_commit(&pairs));
}

/* Fills the plan and this rank's send buffer; poisons the receive buffer. */
static void setup(struct plan *p, int rank, int size)
{
    memset(sbuf, 0xAB, sizeof sbuf);
    memset(rbuf, 0xCD, sizeof rbuf);
    for (int j = 0; j < size; j++) {
        /* Send slots run backwards, receive slots forwards, offset by a few bytes. */
        int so = (size - 1 - j) * SLOT, ro = j * SLOT + 8;
        unsigned char *s = sbuf + so;
        p->sd[j] = so;
        p->rd[j] = ro;
        switch (kind(rank, j)) {
        case 0: /* K ints, received as K ints. */
            p->sc[j] = p->rc[j] = K;
            p->st[j] = p->rt[j] = MPI_INT;
            for (int k = 0; k < K; k++)
                ((int *)s)[k] = val(rank, j, k);
            break;
        case 1: /* 2 doubles. */
            p->sc[j] = p->rc[j] = 2;
            p->st[j] = p->rt[j] = MPI_DOUBLE;
            for (int k = 0; k < 2; k++)
                ((double *)s)[k] = val(rank, j, k) + 0.5;
            break;
        case 2: /* One strided vector sent, K plain ints received. */
            p->sc[j] = 1;
            p->st[j] = vec3;
            p->rc[j] = 1;
            p->rt[j] = vec3r;
            for (int k = 0; k < K; k++)
                ((int *)s)[2 * k] = val(rank, j, k);
            break;
        default: /* 2 pairs of shorts sent, 4 shorts received; or nothing at all on self. */
            if (j == rank) {
                p->sc[j] = p->rc[j] = 0;
                p->st[j] = p->rt[j] = MPI_INT;
                break;
            }
            p->sc[j] = 2;
            p->st[j] = pairs;
            p->rc[j] = 4;
            p->rt[j] = MPI_SHORT;
            for (int k = 0; k < 4; k++)
                ((short *)s)[k] = (short)(val(rank, j, k) % 30000);
            break;
        }
        p->sc_c[j] = p->sc[j];
        p->rc_c[j] = p->rc[j];
        p->sd_c[j] = p->sd[j];
        p->rd_c[j] = p->rd[j];
    }
}

/* Checks the blocks received from every peer (`in_place`: the self block too came back). */
static void verify(int rank, int size, const char *what)
{
    int bad = 0;
    for (int j = 0; j < size; j++) {
        const unsigned char *r = rbuf + j * SLOT + 8;
        switch (kind(j, rank)) {
        case 0:
            for (int k = 0; k < K; k++)
                bad += ((const int *)r)[k] != val(j, rank, k);
            break;
        case 1:
            for (int k = 0; k < 2; k++)
                bad += ((const double *)r)[k] != val(j, rank, k) + 0.5;
            break;
        case 2:
            for (int k = 0; k < K; k++) {
                bad += ((const int *)r)[3 * k] != val(j, rank, k);
                /* The gaps of the receive vector stay untouched. */
                if (k < K - 1)
                    bad += ((const unsigned char *)&((const int *)r)[3 * k + 1])[0] != 0xCD;
            }
            break;
        default:
            if (j == rank) {
                bad += r[0] != 0xCD;
                break;
            }
            for (int k = 0; k < 4; k++)
                bad += ((const short *)r)[k] != (short)(val(j, rank, k) % 30000);
            break;
        }
        /* Bytes before each block are untouched. */
        bad += rbuf[j * SLOT] != 0xCD;
    }
    if (bad)
        fprintf(stderr, "[rank %d] %s: %d bad values\n", rank, what, bad);
    CHECK(bad == 0);
}

static void blocking(int rank, int size)
{
    struct plan p;
    setup(&p, rank, size);
    CHECK_OK(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD));
    verify(rank, size, "MPI_Alltoallw");

    setup(&p, rank, size);
    CHECK_OK(MPI_Alltoallw_c(sbuf, p.sc_c, p.sd_c, p.st, rbuf, p.rc_c, p.rd_c, p.rt,
                             MPI_COMM_WORLD));
    verify(rank, size, "MPI_Alltoallw_c");
}

static void nonblocking(int rank, int size)
{
    struct plan p;
    MPI_Request req[2];
    setup(&p, rank, size);
    CHECK_OK(MPI_Ialltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD,
                            &req[0]));
    /* A barrier started behind it completes too. */
    CHECK_OK(MPI_Ibarrier(MPI_COMM_WORLD, &req[1]));
    CHECK_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    verify(rank, size, "MPI_Ialltoallw");

    setup(&p, rank, size);
    int done = 0;
    CHECK_OK(MPI_Ialltoallw_c(sbuf, p.sc_c, p.sd_c, p.st, rbuf, p.rc_c, p.rd_c, p.rt,
                              MPI_COMM_WORLD, &req[0]));
    while (!done)
        CHECK_OK(MPI_Test(&req[0], &done, MPI_STATUS_IGNORE));
    CHECK(req[0] == MPI_REQUEST_NULL);
    verify(rank, size, "MPI_Ialltoallw_c");
}

/* In place: block j of the receive buffer (type by peer, symmetric) is sent to j and replaced
 * by what j sends back. Rank r's block for j holds doubles (j odd) or a strided vector of ints
 * (j even), both sides alike since the kind depends on r + j. */
static void in_place(int rank, int size)
{
    int rc[MAXR], rd[MAXR];
    MPI_Datatype rt[MAXR];
    double buf[MAXR * 8];
    for (int i = 0; i < MAXR * 8; i++)
        buf[i] = -1.0;
    for (int j = 0; j < size; j++) {
        rd[j] = (int)(j * 8 * sizeof(double));
        double *b = buf + j * 8;
        if ((rank + j) % 2) {
            rc[j] = 3;
            rt[j] = MPI_DOUBLE;
            for (int k = 0; k < 3; k++)
                b[k] = val(rank, j, k);
        } else {
            /* One vec3r (ints 0, 3, 6 of the slot). */
            rc[j] = 1;
            rt[j] = vec3r;
            for (int k = 0; k < K; k++)
                ((int *)b)[3 * k] = val(rank, j, k);
        }
    }
    CHECK_OK(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, rc, rd, rt, MPI_COMM_WORLD));
    int bad = 0;
    for (int j = 0; j < size; j++) {
        double *b = buf + j * 8;
        for (int k = 0; k < 3; k++)
            bad += (rank + j) % 2 ? b[k] != val(j, rank, k)
                                  : ((int *)b)[3 * k] != val(j, rank, k);
        bad += b[7] != -1.0;
    }
    if (bad)
        fprintf(stderr, "[rank %d] in place: %d bad values\n", rank, bad);
    CHECK(bad == 0);
}

/* Argument errors are local checks, raised before any communication on every rank. */
static void errors(int rank, int size)
{
    struct plan p;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    setup(&p, rank, size);
    p.sc[size - 1] = -1;
    EXPECT_CLASS(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD),
                 MPI_ERR_COUNT);
    setup(&p, rank, size);
    p.rc_c[0] = -2;
    EXPECT_CLASS(MPI_Ialltoallw_c(sbuf, p.sc_c, p.sd_c, p.st, rbuf, p.rc_c, p.rd_c, p.rt,
                                  MPI_COMM_WORLD, &req),
                 MPI_ERR_COUNT);
    CHECK(req == MPI_REQUEST_NULL);
    setup(&p, rank, size);
    p.rt[0] = MPI_DATATYPE_NULL;
    EXPECT_CLASS(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD),
                 MPI_ERR_TYPE);
    /* An uncommitted type. */
    MPI_Datatype raw;
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &raw));
    setup(&p, rank, size);
    p.st[0] = raw;
    EXPECT_CLASS(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD),
                 MPI_ERR_TYPE);
    CHECK_OK(MPI_Type_free(&raw));
    /* The block a rank sends itself must match the one it receives. */
    setup(&p, rank, size);
    p.sc[rank] = 1;
    p.st[rank] = MPI_INT;
    p.rc[rank] = 2;
    p.rt[rank] = MPI_INT;
    EXPECT_CLASS(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD),
                 MPI_ERR_TRUNCATE);
    EXPECT_CLASS(MPI_Ialltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD,
                                NULL),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Alltoallw(sbuf, NULL, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD),
                 MPI_ERR_ARG);
    /* Rank 0 sends rank 1 more than it expects (3 doubles for 2): rank 1's call fails with a
     * clear error, the others succeed. */
    if (size >= 2) {
        setup(&p, rank, size);
        if (rank == 0)
            p.sc[1] = 3;
        int rc = MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD);
        if (rank == 1) {
            CHECK(rc != MPI_SUCCESS);
        } else {
            CHECK(rc == MPI_SUCCESS);
        }
        CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    /* Still usable afterwards. */
    setup(&p, rank, size);
    CHECK_OK(MPI_Alltoallw(sbuf, p.sc, p.sd, p.st, rbuf, p.rc, p.rd, p.rt, MPI_COMM_WORLD));
    verify(rank, size, "MPI_Alltoallw after errors");
}

int main(int argc, char **argv)
{
    int rank, size;
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size > MAXR) {
        fprintf(stderr, "alltoallw: at most %d ranks\n", MAXR);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    make_types();
    blocking(rank, size);
    nonblocking(rank, size);
    in_place(rank, size);
    errors(rank, size);
    CHECK_OK(MPI_Type_free(&vec3));
    CHECK_OK(MPI_Type_free(&vec3r));
    CHECK_OK(MPI_Type_free(&pairs));
    return check_finish();
}
