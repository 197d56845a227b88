/* Graph topologies: Graph_create (a ring over all ranks, then over all but the last), its
 * queries (Graphdims_get, Graph_get, Graph_neighbors(_count), Graph_map, Topo_test) and an
 * exchange with the neighbours it names; Dist_graph_create_adjacent and Dist_graph_create
 * (rank 0 names every edge), weighted and not, with their neighbour queries; errors. */
#include "mpi_check.h"

/* GCC takes the pointer constant MPI_UNWEIGHTED ((int *)10) passed for a `const int[]`
 * parameter for an array of size 0 and warns; the library never reads through it. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

static void ring_graph(int size, int me)
{
    int index[64], edges[128], n = size < 64 ? size : 64;
    for (int i = 0; i < n; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i - 1 + n) % n;
        edges[2 * i + 1] = (i + 1) % n;
    }
    MPI_Comm g;
    int newrank = -5;
    CHECK_OK(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
    CHECK(newrank == (me < n ? me : MPI_UNDEFINED));
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
    if (me >= n) {
        CHECK(g == MPI_COMM_NULL);
        return;
    }
    int status = -1, nn = -1, ne = -1;
    CHECK_OK(MPI_Topo_test(g, &status));
    CHECK(status == MPI_GRAPH);
    CHECK_OK(MPI_Graphdims_get(g, &nn, &ne));
    CHECK(nn == n && ne == 2 * n);
    int gi[64], ge[128];
    CHECK_OK(MPI_Graph_get(g, n, 2 * n, gi, ge));
    for (int i = 0; i < n; i++)
        CHECK(gi[i] == index[i]);
    for (int i = 0; i < 2 * n; i++)
        CHECK(ge[i] == edges[i]);
    int cnt = -1, nb[2];
    CHECK_OK(MPI_Graph_neighbors_count(g, me, &cnt));
    CHECK(cnt == 2);
    CHECK_OK(MPI_Graph_neighbors(g, me, 2, nb));
    CHECK(nb[0] == (me - 1 + n) % n && nb[1] == (me + 1) % n);
    /* Send my rank to the right neighbour, receive the left one's. */
    int got = -1;
    CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, nb[1], 3, &got, 1, MPI_INT, nb[0], 3, g,
                          MPI_STATUS_IGNORE));
    CHECK(got == nb[0]);
    EXPECT_CLASS(MPI_Graph_neighbors_count(g, n, &cnt), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Cartdim_get(g, &cnt), MPI_ERR_TOPOLOGY);
    CHECK_OK(MPI_Comm_free(&g));
}

static void check_dist(MPI_Comm d, int me, int n, int weighted)
{
    int status = -1, in = -1, out = -1, w = -1;
    CHECK_OK(MPI_Topo_test(d, &status));
    CHECK(status == MPI_DIST_GRAPH);
    CHECK_OK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w));
    CHECK(in == 1 && out == 1 && w == weighted);
    int src = -1, dst = -1, sw = -1, dw = -1;
    CHECK_OK(MPI_Dist_graph_neighbors(d, 1, &src, &sw, 1, &dst, &dw));
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    CHECK(src == left && dst == right);
    if (weighted)
        CHECK(sw == 10 + left && dw == 10 + me);
    int got = -1;
    CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, dst, 4, &got, 1, MPI_INT, src, 4, d,
                          MPI_STATUS_IGNORE));
    CHECK(got == left);
}

static void dist_graphs(int size, int me)
{
    /* Adjacent: each names its own neighbours on a directed ring, weight 10 + source. */
    int left = (me - 1 + size) % size, right = (me + 1) % size;
    int sw = 10 + left, dw = 10 + me;
    MPI_Comm d, dup;
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &sw, 1, &right, &dw,
                                            MPI_INFO_NULL, 0, &d));
    check_dist(d, me, size, 1);
    CHECK_OK(MPI_Comm_dup(d, &dup));
    check_dist(dup, me, size, 1);
    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d));
    check_dist(d, me, size, 0);
    CHECK_OK(MPI_Comm_free(&d));

    /* General: rank 0 names every edge i -> i+1 (weight 10 + i); the others name none. */
    int srcs[64], degs[64], dsts[64], ws[64], n = 0;
    if (me == 0)
        for (int i = 0; i < size && i < 64; i++, n++) {
            srcs[i] = i;
            degs[i] = 1;
            dsts[i] = (i + 1) % size;
            ws[i] = 10 + i;
        }
    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, ws, MPI_INFO_NULL, 0,
                                   &d));
    check_dist(d, me, size, 1);
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &d));
    check_dist(d, me, size, 0);
    CHECK_OK(MPI_Comm_free(&d));

    int bad = size;
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad, MPI_UNWEIGHTED, 0, NULL,
                                                MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d),
                 MPI_ERR_RANK);
    int in, out, w;
    EXPECT_CLASS(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &w),
                 MPI_ERR_TOPOLOGY);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int size, me = check_rank;
    CHECK_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    ring_graph(size, me);
    if (size > 1)
        ring_graph(size - 1, me);
    dist_graphs(size, me);

    /* Errors: an edge to no node, decreasing index, too many nodes, no topology. */
    int index[2] = {1, 2}, edges[2] = {0, 5}, nn, ne;
    MPI_Comm g;
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges + 1, 0, &g), MPI_ERR_ARG);
    int dec[2] = {2, 1};
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, dec, edges, 0, &g), MPI_ERR_ARG);
    int big[65], none[1] = {0};
    for (int i = 0; i < 65; i++)
        big[i] = 0;
    if (size < 65)
        EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, size + 1, big, none, 0, &g), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne), MPI_ERR_TOPOLOGY);
    return check_finish();
}
