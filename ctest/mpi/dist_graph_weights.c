/*
 * dist_graph_weights.c: whether a distributed graph without edges is weighted (MPI 4.1 §8.5.4).
 * A graph is weighted unless its weights are MPI_UNWEIGHTED; MPI_WEIGHTS_EMPTY and a weights
 * array (of zero entries) both mean weighted, also when no process names an edge.
 */
#include "mpi_check.h"

/* GCC takes the pointer constants MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY passed for a `const int[]`
 * parameter for an array of size 0 and warns; the library never reads through them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

/* The `weighted` flag of graph communicator `g`, which must have no edges here; frees `g`. */
static int weighted_and_free(MPI_Comm *g, const char *what)
{
    int in = -1, out = -1, w = -1;
    CHECK_OK(MPI_Dist_graph_neighbors_count(*g, &in, &out, &w));
    if (in != 0 || out != 0)
        fprintf(stderr, "[rank %d] %s: degrees %d/%d, want 0/0\n", check_rank, what, in, out);
    CHECK(in == 0 && out == 0);
    CHECK_OK(MPI_Comm_free(g));
    return w;
}

static void expect(MPI_Comm *g, int want, const char *what)
{
    int w = weighted_and_free(g, what);
    if ((w != 0) != want)
        fprintf(stderr, "[rank %d] %s: weighted = %d, want %d\n", check_rank, what, w, want);
    CHECK((w != 0) == want);
}

int main(int argc, char **argv)
{
    check_init(&argc, &argv);
    MPI_Comm w = MPI_COMM_WORLD, g;
    int none[1] = {0}, weights[1] = {5};

    CHECK_OK(MPI_Dist_graph_create_adjacent(w, 0, none, weights, 0, none, weights,
                                            MPI_INFO_NULL, 0, &g));
    expect(&g, 1, "adjacent, degree 0, weights arrays");
    CHECK_OK(MPI_Dist_graph_create_adjacent(w, 0, none, MPI_WEIGHTS_EMPTY, 0, none,
                                            MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    expect(&g, 1, "adjacent, degree 0, MPI_WEIGHTS_EMPTY");
    CHECK_OK(MPI_Dist_graph_create_adjacent(w, 0, none, MPI_UNWEIGHTED, 0, none, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &g));
    expect(&g, 0, "adjacent, degree 0, MPI_UNWEIGHTED");

    CHECK_OK(MPI_Dist_graph_create(w, 0, none, none, none, weights, MPI_INFO_NULL, 0, &g));
    expect(&g, 1, "create, no edges, weights array");
    CHECK_OK(MPI_Dist_graph_create(w, 0, none, none, none, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0,
                                   &g));
    expect(&g, 1, "create, no edges, MPI_WEIGHTS_EMPTY");
    CHECK_OK(MPI_Dist_graph_create(w, 0, none, none, none, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &g));
    expect(&g, 0, "create, no edges, MPI_UNWEIGHTED");

    return check_finish();
}
