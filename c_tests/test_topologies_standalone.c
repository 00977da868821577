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
 *   - distributed graphs of one node (MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 *     with and without weights): MPI_Dist_graph_neighbors_count, _neighbors, MPI_Topo_test;
 *     a rank other than 0 (MPI_ERR_RANK); an edge in without its edge out brings nothing;
 *   - the neighbourhood collectives on each kind of topology, blocking, nonblocking and
 *     persistent: on a Cartesian grid a block sent in one direction of a periodic dimension
 *     comes back from the other, none from a dimension that does not wrap; in a graph the
 *     k-th edge out is the k-th edge in; the v and w forms place blocks at their
 *     displacements, with different types of one signature on the two sides; a communicator
 *     without a topology is MPI_ERR_TOPOLOGY;
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

static void dist_graphs(void)
{
    int zeros[3] = {0, 0, 0}, in_weights[2] = {5, 6}, out_weights[2] = {7, 8}, three = 3, one = 1;
    int indegree = -1, outdegree = -1, weighted = -1, kind = -1;
    int sources[3] = {-1, -1, -1}, destinations[3] = {-1, -1, -1}, sw[3] = {0}, dw[3] = {0};
    MPI_Comm adjacent, created, bad, cart;
    int dims[1] = {1}, periods[1] = {1};

    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, zeros, in_weights, 2, zeros,
                                            out_weights, MPI_INFO_NULL, 0, &adjacent));
    CHECK_OK(MPI_Topo_test(adjacent, &kind));
    CHECK_EQ_LONG(kind, MPI_DIST_GRAPH);
    CHECK_OK(MPI_Dist_graph_neighbors_count(adjacent, &indegree, &outdegree, &weighted));
    CHECK(indegree == 2 && outdegree == 2 && weighted == 1);
    CHECK_OK(MPI_Dist_graph_neighbors(adjacent, 3, sources, sw, 3, destinations, dw));
    CHECK(sources[0] == 0 && sources[1] == 0 && sources[2] == -1);
    CHECK(sw[0] == 5 && sw[1] == 6 && dw[0] == 7 && dw[1] == 8);

    CHECK_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, zeros, &three, zeros, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &created));
    CHECK_OK(MPI_Dist_graph_neighbors_count(created, &indegree, &outdegree, &weighted));
    CHECK(indegree == 3 && outdegree == 3 && weighted == 0);

    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &one, MPI_UNWEIGHTED, 1, zeros,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &bad),
              MPI_ERR_RANK);
    /* an edge in without its edge out is taken (as MPICH takes it): nothing comes along it */
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zeros, MPI_UNWEIGHTED, 0, zeros,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &bad));
    CHECK_OK(MPI_Dist_graph_neighbors_count(bad, &indegree, &outdegree, &weighted));
    CHECK(indegree == 1 && outdegree == 0 && weighted == 0);
    sources[0] = -7;
    CHECK_OK(MPI_Neighbor_alltoall(zeros, 1, MPI_INT, sources, 1, MPI_INT, bad));
    CHECK_EQ_LONG(sources[0], -7);
    CHECK_OK(MPI_Comm_free(&bad));
    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    CHECK_ERR(MPI_Dist_graph_neighbors_count(cart, &indegree, &outdegree, &weighted),
              MPI_ERR_TOPOLOGY);
    CHECK_OK(MPI_Comm_free(&cart));
    CHECK_OK(MPI_Comm_free(&created));
    CHECK_OK(MPI_Comm_free(&adjacent));
}

static void neighbourhoods(void)
{
    int dims[2] = {1, 1}, periods[2] = {1, 0}, zeros[2] = {0, 0}, i;
    int send[4] = {10, 11, 12, 13}, recv[4], counts[2] = {1, 2}, displs[2] = {3, 0};
    int wide[6] = {0}, gathered[4];
    int two[2] = {2, 2}, rdispls[2] = {2, 0};
    MPI_Aint bytes_s[2] = {0, 2 * sizeof(int)}, bytes_r[2] = {2 * sizeof(int), 0};
    MPI_Datatype pairs, types[2], strided;
    MPI_Comm cart, graph;
    MPI_Request request;

    CHECK_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    for (i = 0; i < 4; i++)
        recv[i] = -1;
    /* dimension 0 wraps: what goes up comes back from below and the other way round */
    CHECK_OK(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart));
    CHECK(recv[0] == 11 && recv[1] == 10 && recv[2] == -1 && recv[3] == -1);
    for (i = 0; i < 4; i++)
        recv[i] = -1;
    CHECK_OK(MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, cart));
    CHECK(recv[0] == 10 && recv[1] == 10 && recv[2] == -1 && recv[3] == -1);
    for (i = 0; i < 4; i++)
        recv[i] = -1;
    CHECK_OK(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart, &request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK(recv[0] == 11 && recv[1] == 10);

    /* a distributed graph with two edges from the process to itself */
    CHECK_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, zeros, MPI_UNWEIGHTED, 2, zeros,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph));
    for (i = 0; i < 4; i++)
        recv[i] = -1;
    CHECK_OK(MPI_Neighbor_alltoall_init(send, 2, MPI_INT, recv, 2, MPI_INT, graph, MPI_INFO_NULL,
                                        &request));
    CHECK_OK(MPI_Start(&request));
    CHECK_OK(MPI_Wait(&request, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Request_free(&request));
    for (i = 0; i < 4; i++)
        CHECK_EQ_LONG(recv[i], send[i]);
    /* allgatherv: the one block to each displacement, as many as each count */
    for (i = 0; i < 4; i++)
        gathered[i] = -1;
    CHECK_OK(MPI_Neighbor_allgatherv(send, 1, MPI_INT, gathered, two, displs, MPI_INT, graph));
    CHECK(gathered[3] == 10 && gathered[0] == 10);
    CHECK_ERR(MPI_Neighbor_allgatherv(send, 2, MPI_INT, gathered, counts, displs, MPI_INT, graph),
              MPI_ERR_TRUNCATE);
    /* alltoallv: two ints sent from a strided type land as a contiguous pair; the send blocks
       are one extent (an int) apart */
    CHECK_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &pairs));
    CHECK_OK(MPI_Type_create_resized(pairs, 0, sizeof(int), &strided)); /* blocks one int apart */
    CHECK_OK(MPI_Type_free(&pairs));
    CHECK_OK(MPI_Type_commit(&strided));
    CHECK_OK(MPI_Neighbor_alltoallv(send, (int[]){1, 1}, (int[]){0, 1}, strided, wide, two,
                                    rdispls, MPI_INT, graph));
    /* block 0 (send[0], send[2]) to wide[2..4], block 1 (send[1], send[3]) to wide[0..2] */
    CHECK(wide[2] == 10 && wide[3] == 12 && wide[0] == 11 && wide[1] == 13);
    CHECK_OK(MPI_Type_contiguous(2, MPI_INT, &pairs));
    CHECK_OK(MPI_Type_commit(&pairs));
    types[0] = types[1] = pairs;
    for (i = 0; i < 4; i++)
        recv[i] = -1;
    CHECK_OK(MPI_Neighbor_alltoallw(send, (int[]){1, 1}, bytes_s, types, recv, (int[]){1, 1},
                                    bytes_r, types, graph));
    CHECK(recv[2] == 10 && recv[3] == 11 && recv[0] == 12 && recv[1] == 13);

    CHECK_ERR(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD),
              MPI_ERR_TOPOLOGY);
    CHECK_OK(MPI_Type_free(&strided));
    CHECK_OK(MPI_Type_free(&pairs));
    CHECK_OK(MPI_Comm_free(&graph));
    CHECK_OK(MPI_Comm_free(&cart));
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
    dist_graphs();
    neighbourhoods();
    CHECK_OK(MPI_Finalize());
    return check_report(argv[0]);
}
