/*
 * test_topologies_standalone.c: process topologies in the one-process world (the library
 * linked alone, no MPI behind it), in both builds.
 *
 *   - MPI_Dims_create balances any number of nodes over the free dimensions, in
 *     non-increasing order, keeping the given ones (the standard's examples);
 *   - a Cartesian communicator of one node: MPI_Cart_get, _rank (coordinates of periodic
 *     dimensions wrap), _coords, _shift (MPI_PROC_NULL off the end of a dimension that does
 *     not wrap, the process itself along one that does), _sub, _map, MPI_Cartdim_get,
 *     MPI_Topo_test, and MPI_Comm_dup keeps the topology;
 *   - a graph communicator of one node with a self-loop: MPI_Graphdims_get, _get,
 *     _neighbors_count, _neighbors, _map; a graph of no node gives MPI_COMM_NULL;
 *   - bad arguments: a grid larger than the communicator (MPI_ERR_TOPOLOGY), a
 *     non-positive extent (MPI_ERR_DIMS), a Cartesian call on a communicator without that
 *     topology (MPI_ERR_TOPOLOGY), a coordinate out of range (MPI_ERR_ARG), a rank out of
 *     range (MPI_ERR_RANK).
 */
#include "check.h"

static void dims_create(void)
{
    int a[2] = {0, 0}, b[2] = {0, 0}, c[3] = {0, 3, 0}, d[3] = {0, 0, 0}, e[2] = {0, 3};
    CHECK_OK(MPI_Dims_create(6, 2, a));
    CHECK(a[0] == 3 && a[1] == 2);
    CHECK_OK(MPI_Dims_create(7, 2, b));
    CHECK(b[0] == 7 && b[1] == 1);
    CHECK_OK(MPI_Dims_create(6, 3, c));
    CHECK(c[0] == 2 && c[1] == 3 && c[2] == 1);
    CHECK_OK(MPI_Dims_create(64, 3, d));
    CHECK(d[0] == 4 && d[1] == 4 && d[2] == 4);
    CHECK_ERR(MPI_Dims_create(7, 2, e), MPI_ERR_DIMS);
}

static void cartesian(void)
{
    int dims[2] = {1, 1}, periods[2] = {1, 0}, coords[2] = {-1, -1}, keep[2] = {0, 1};
    int got_dims[2], got_periods[2], rank = -1, source = -5, dest = -5, ndims = -1, kind = -1;
    MPI_Comm cart, dup, sub;

    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK_OK(MPI_Topo_test(cart, &kind));
    CHECK_EQ_LONG(kind, MPI_CART);
    CHECK_OK(MPI_Topo_test(MPI_COMM_WORLD, &kind));
    CHECK_EQ_LONG(kind, MPI_UNDEFINED);
    CHECK_OK(MPI_Cartdim_get(cart, &ndims));
    CHECK_EQ_LONG(ndims, 2);
    CHECK_OK(MPI_Cart_get(cart, 2, got_dims, got_periods, coords));
    CHECK(got_dims[0] == 1 && got_periods[0] == 1 && got_periods[1] == 0);
    CHECK(coords[0] == 0 && coords[1] == 0);

    coords[0] = 5, coords[1] = 0; /* the first dimension wraps */
    CHECK_OK(MPI_Cart_rank(cart, coords, &rank));
    CHECK_EQ_LONG(rank, 0);
    coords[0] = 0, coords[1] = 1;
    CHECK_ERR(MPI_Cart_rank(cart, coords, &rank), MPI_ERR_ARG);
    CHECK_OK(MPI_Cart_coords(cart, 0, 2, coords));
    CHECK(coords[0] == 0 && coords[1] == 0);
    CHECK_ERR(MPI_Cart_coords(cart, 1, 2, coords), MPI_ERR_RANK);

    CHECK_OK(MPI_Cart_shift(cart, 0, 1, &source, &dest));
    CHECK(source == 0 && dest == 0);
    CHECK_OK(MPI_Cart_shift(cart, 1, 1, &source, &dest));
    CHECK(source == MPI_PROC_NULL && dest == MPI_PROC_NULL);
    CHECK_OK(MPI_Cart_shift(cart, 1, 0, &source, &dest));
    CHECK(source == 0 && dest == 0);
    CHECK_ERR(MPI_Cart_shift(cart, 2, 1, &source, &dest), MPI_ERR_ARG);

    CHECK_OK(MPI_Cart_sub(cart, keep, &sub));
    CHECK_OK(MPI_Cartdim_get(sub, &ndims));
    CHECK_EQ_LONG(ndims, 1);
    CHECK_OK(MPI_Cart_get(sub, 1, got_dims, got_periods, coords));
    CHECK(got_periods[0] == 0);
    CHECK_OK(MPI_Comm_dup(cart, &dup));
    CHECK_OK(MPI_Topo_test(dup, &kind));
    CHECK_EQ_LONG(kind, MPI_CART);
    CHECK_OK(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &rank));
    CHECK_EQ_LONG(rank, 0);

    dims[0] = 2;
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &dup), MPI_ERR_TOPOLOGY);
    dims[0] = 0;
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &dup), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Cartdim_get(MPI_COMM_WORLD, &ndims), MPI_ERR_TOPOLOGY);
    CHECK_OK(MPI_Comm_free(&sub));
    CHECK_OK(MPI_Comm_free(&cart));
}

static void graphs(void)
{
    int index[1] = {1}, edges[1] = {0}, nnodes = -1, nedges = -1, count = -1, neighbors[2];
    int got_index[1], got_edges[1], rank = -1, kind = -1;
    MPI_Comm graph, none;

    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &graph));
    CHECK_OK(MPI_Topo_test(graph, &kind));
    CHECK_EQ_LONG(kind, MPI_GRAPH);
    CHECK_OK(MPI_Graphdims_get(graph, &nnodes, &nedges));
    CHECK(nnodes == 1 && nedges == 1);
    CHECK_OK(MPI_Graph_get(graph, 1, 1, got_index, got_edges));
    CHECK(got_index[0] == 1 && got_edges[0] == 0);
    CHECK_OK(MPI_Graph_neighbors_count(graph, 0, &count));
    CHECK_EQ_LONG(count, 1);
    CHECK_OK(MPI_Graph_neighbors(graph, 0, 2, neighbors));
    CHECK_EQ_LONG(neighbors[0], 0);
    CHECK_ERR(MPI_Graph_neighbors_count(graph, 1, &count), MPI_ERR_RANK);
    CHECK_ERR(MPI_Cartdim_get(graph, &count), MPI_ERR_TOPOLOGY);
    CHECK_OK(MPI_Graph_map(MPI_COMM_WORLD, 1, index, edges, &rank));
    CHECK_EQ_LONG(rank, 0);
    CHECK_OK(MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &none));
    CHECK(none == MPI_COMM_NULL);
    edges[0] = 3;
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &none), MPI_ERR_ARG);
    CHECK_OK(MPI_Comm_free(&graph));
}

int main(int argc, char **argv)
{
    (void)argc;
    CHECK_OK(MPI_Init(NULL, NULL));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    dims_create();
    cartesian();
    graphs();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
