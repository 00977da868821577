/* halo: ghost-layer exchange of a 3-D array of doubles on a periodic 2x2 process grid, with
 * face types made by MPI_Type_create_subarray and by MPI_Type_vector/MPI_Type_create_hvector,
 * exchanged blocking (MPI_Sendrecv), nonblocking (MPI_Isend/MPI_Irecv/MPI_Waitall) and
 * persistent (MPI_Send_init/MPI_Recv_init/MPI_Startall, started twice), and one exchange that
 * sends with the subarray faces and receives with the vector faces.  After every exchange the
 * whole local array (interior, faces, edges, corners) is compared with values computed from
 * the global index.  Then MPI_Probe, MPI_Get_count and MPI_Get_elements on full and partial
 * messages with the derived face types. */
#include "check_mpi.h"

#define NX 6
#define NY 5
#define NZ 4
#define AX (NX + 2)
#define AY (NY + 2)
#define AZ (NZ + 2)
#define NCELL (AX * AY * AZ)
#define IDX(i, j, k) (((i) * AY + (j)) * AZ + (k))

static int dims[2], coords[2], nbr_prev[2], nbr_next[2];
static MPI_Comm cart;

static double value(int round, int gi, int gj, int gk)
{
    return round * 1.0e6 + gi * 1.0e4 + gj * 100.0 + gk + 0.25;
}

static double sentinel(int i, int j, int k)
{
    return -1.0e9 - (i * 10000 + j * 100 + k);
}

static int wrap(int v, int n) { return ((v % n) + n) % n; }

/* Fills the interior with this round's values and every ghost cell with its sentinel. */
static void fill(double *a, int round)
{
    int i, j, k;
    for (i = 0; i < AX; i++)
        for (j = 0; j < AY; j++)
            for (k = 0; k < AZ; k++) {
                int in_i = i >= 1 && i <= NX, in_j = j >= 1 && j <= NY, in_k = k >= 1 && k <= NZ;
                if (in_i && in_j && in_k)
                    a[IDX(i, j, k)] =
                        value(round, coords[0] * NX + i - 1, coords[1] * NY + j - 1, k - 1);
                else
                    a[IDX(i, j, k)] = sentinel(i, j, k);
            }
}

/* What the array must hold after a complete exchange: the interior, the four face ghost
 * layers from the neighbours (periodic), the sentinels everywhere else. */
static void expected_after(double *e, int round)
{
    int i, j, k, GX = dims[0] * NX, GY = dims[1] * NY;
    for (i = 0; i < AX; i++)
        for (j = 0; j < AY; j++)
            for (k = 0; k < AZ; k++) {
                int in_i = i >= 1 && i <= NX, in_j = j >= 1 && j <= NY, in_k = k >= 1 && k <= NZ;
                int face = in_k && ((in_i && in_j) || (!in_i && in_j) || (in_i && !in_j));
                if (face)
                    e[IDX(i, j, k)] = value(round, wrap(coords[0] * NX + i - 1, GX),
                                            wrap(coords[1] * NY + j - 1, GY), k - 1);
                else
                    e[IDX(i, j, k)] = sentinel(i, j, k);
            }
}

/* The faces of one dimension: [0] interior low face (sent to prev), [1] interior high face
 * (sent to next), [2] low ghost (received from prev), [3] high ghost (received from next). */
struct faces {
    MPI_Datatype type[4];
    size_t offset[4]; /* in doubles from the start of the array */
};

static struct faces sub[2], vec[2];

static void make_subarray_faces(void)
{
    int sizes[3] = {AX, AY, AZ};
    int d, f;
    for (d = 0; d < 2; d++) {
        for (f = 0; f < 4; f++) {
            int pos = f == 0 ? 1 : f == 1 ? (d == 0 ? NX : NY) : f == 2 ? 0 : (d == 0 ? NX + 1 : NY + 1);
            int subsizes[3], starts[3];
            subsizes[0] = d == 0 ? 1 : NX;
            subsizes[1] = d == 0 ? NY : 1;
            subsizes[2] = NZ;
            starts[0] = d == 0 ? pos : 1;
            starts[1] = d == 0 ? 1 : pos;
            starts[2] = 1;
            MPI_CHECK(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C,
                                               MPI_DOUBLE, &sub[d].type[f]));
            MPI_CHECK(MPI_Type_commit(&sub[d].type[f]));
            sub[d].offset[f] = 0;
        }
    }
}

static void make_vector_faces(void)
{
    MPI_Datatype iface, jface, row;
    int f;
    MPI_CHECK(MPI_Type_vector(NY, NZ, AZ, MPI_DOUBLE, &iface));
    MPI_CHECK(MPI_Type_commit(&iface));
    MPI_CHECK(MPI_Type_contiguous(NZ, MPI_DOUBLE, &row));
    MPI_CHECK(MPI_Type_create_hvector(NX, 1, (MPI_Aint)(AY * AZ * sizeof(double)), row, &jface));
    MPI_CHECK(MPI_Type_free(&row)); /* jface stays valid */
    MPI_CHECK(MPI_Type_commit(&jface));
    for (f = 0; f < 4; f++) {
        int pos0 = f == 0 ? 1 : f == 1 ? NX : f == 2 ? 0 : NX + 1;
        int pos1 = f == 0 ? 1 : f == 1 ? NY : f == 2 ? 0 : NY + 1;
        if (f == 0)
            vec[0].type[f] = iface, vec[1].type[f] = jface;
        else {
            MPI_CHECK(MPI_Type_dup(iface, &vec[0].type[f]));
            MPI_CHECK(MPI_Type_dup(jface, &vec[1].type[f]));
        }
        vec[0].offset[f] = IDX(pos0, 1, 1);
        vec[1].offset[f] = IDX(1, pos1, 1);
    }
}

static void free_faces(struct faces *fc)
{
    int d, f;
    for (d = 0; d < 2; d++)
        for (f = 0; f < 4; f++)
            MPI_CHECK(MPI_Type_free(&fc[d].type[f]));
}

static void exchange_blocking(double *a, const struct faces *s, const struct faces *r)
{
    int d;
    MPI_Status st;
    for (d = 0; d < 2; d++) {
        MPI_CHECK(MPI_Sendrecv(a + s[d].offset[0], 1, s[d].type[0], nbr_prev[d], 10 * d,
                               a + r[d].offset[3], 1, r[d].type[3], nbr_next[d], 10 * d, cart,
                               &st));
        MPI_CHECK(MPI_Sendrecv(a + s[d].offset[1], 1, s[d].type[1], nbr_next[d], 10 * d + 1,
                               a + r[d].offset[2], 1, r[d].type[2], nbr_prev[d], 10 * d + 1,
                               cart, &st));
        CHECK_INT(st.MPI_SOURCE, nbr_prev[d], "halo: Sendrecv status source");
        CHECK_INT(st.MPI_TAG, 10 * d + 1, "halo: Sendrecv status tag");
    }
}

static void post(double *a, const struct faces *fc, MPI_Request *req, int persistent)
{
    int d, n = 0;
    for (d = 0; d < 2; d++) {
        if (persistent) {
            MPI_CHECK(MPI_Recv_init(a + fc[d].offset[3], 1, fc[d].type[3], nbr_next[d], 10 * d,
                                    cart, &req[n++]));
            MPI_CHECK(MPI_Recv_init(a + fc[d].offset[2], 1, fc[d].type[2], nbr_prev[d],
                                    10 * d + 1, cart, &req[n++]));
        } else {
            MPI_CHECK(MPI_Irecv(a + fc[d].offset[3], 1, fc[d].type[3], nbr_next[d], 10 * d, cart,
                                &req[n++]));
            MPI_CHECK(MPI_Irecv(a + fc[d].offset[2], 1, fc[d].type[2], nbr_prev[d], 10 * d + 1,
                                cart, &req[n++]));
        }
    }
    for (d = 0; d < 2; d++) {
        if (persistent) {
            MPI_CHECK(MPI_Send_init(a + fc[d].offset[0], 1, fc[d].type[0], nbr_prev[d], 10 * d,
                                    cart, &req[n++]));
            MPI_CHECK(MPI_Send_init(a + fc[d].offset[1], 1, fc[d].type[1], nbr_next[d],
                                    10 * d + 1, cart, &req[n++]));
        } else {
            MPI_CHECK(MPI_Isend(a + fc[d].offset[0], 1, fc[d].type[0], nbr_prev[d], 10 * d, cart,
                                &req[n++]));
            MPI_CHECK(MPI_Isend(a + fc[d].offset[1], 1, fc[d].type[1], nbr_next[d], 10 * d + 1,
                                cart, &req[n++]));
        }
    }
}

static void check_recv_statuses(const MPI_Status *st, const struct faces *fc, const char *what)
{
    int d, c;
    for (d = 0; d < 2; d++) {
        MPI_CHECK(MPI_Get_count(&st[2 * d], fc[d].type[3], &c));
        CHECK_INT(c, 1, what);
        MPI_CHECK(MPI_Get_count(&st[2 * d + 1], fc[d].type[2], &c));
        CHECK_INT(c, 1, what);
        CHECK_INT(st[2 * d].MPI_SOURCE, nbr_next[d], what);
        CHECK_INT(st[2 * d + 1].MPI_SOURCE, nbr_prev[d], what);
    }
}

int main(int argc, char **argv)
{
    int rank, size, d, round = 0, periods[2] = {1, 1}, c;
    double *a = malloc(NCELL * sizeof(double)), *e = malloc(NCELL * sizeof(double));
    MPI_Request req[8];
    MPI_Status st[8];
    struct faces *sets[2];
    const char *set_names[2] = {"subarray", "vector"};
    int s;

    start(&argc, &argv, "halo", &rank, &size);
    dims[0] = dims[1] = 0;
    MPI_CHECK(MPI_Dims_create(size, 2, dims));
    CHECK(dims[0] * dims[1] == size, "halo: MPI_Dims_create", "dims %d x %d", dims[0], dims[1]);
    MPI_CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MPI_CHECK(MPI_Cart_coords(cart, rank, 2, coords));
    for (d = 0; d < 2; d++)
        MPI_CHECK(MPI_Cart_shift(cart, d, 1, &nbr_prev[d], &nbr_next[d]));

    make_subarray_faces();
    make_vector_faces();
    sets[0] = sub;
    sets[1] = vec;

    /* The face types hold NY*NZ and NX*NZ doubles. */
    for (s = 0; s < 2; s++) {
        int sz;
        MPI_CHECK(MPI_Type_size(sets[s][0].type[0], &sz));
        CHECK_INT(sz, NY * NZ * (int)sizeof(double), "halo: size of the i face");
        MPI_CHECK(MPI_Type_size(sets[s][1].type[0], &sz));
        CHECK_INT(sz, NX * NZ * (int)sizeof(double), "halo: size of the j face");
    }

    for (s = 0; s < 2; s++) {
        char what[128];
        /* blocking */
        fill(a, ++round);
        exchange_blocking(a, sets[s], sets[s]);
        expected_after(e, round);
        snprintf(what, sizeof what, "halo: MPI_Sendrecv exchange with %s faces", set_names[s]);
        CHECK_DOUBLES(a, e, NCELL, what);

        /* nonblocking */
        fill(a, ++round);
        post(a, sets[s], req, 0);
        MPI_CHECK(MPI_Waitall(8, req, st));
        expected_after(e, round);
        snprintf(what, sizeof what, "halo: MPI_Isend/MPI_Irecv exchange with %s faces",
                 set_names[s]);
        CHECK_DOUBLES(a, e, NCELL, what);
        check_recv_statuses(st, sets[s], "halo: MPI_Get_count on the MPI_Waitall statuses");

        /* persistent, started twice */
        post(a, sets[s], req, 1);
        for (c = 0; c < 2; c++) {
            int i;
            fill(a, ++round);
            MPI_CHECK(MPI_Startall(8, req));
            MPI_CHECK(MPI_Waitall(8, req, st));
            expected_after(e, round);
            snprintf(what, sizeof what, "halo: persistent exchange %d with %s faces", c + 1,
                     set_names[s]);
            CHECK_DOUBLES(a, e, NCELL, what);
            check_recv_statuses(st, sets[s], "halo: MPI_Get_count on persistent statuses");
            for (i = 0; i < 8; i++)
                CHECK(req[i] != MPI_REQUEST_NULL, "halo: persistent request stays allocated",
                      "request %d is MPI_REQUEST_NULL", i);
        }
        for (c = 0; c < 8; c++)
            MPI_CHECK(MPI_Request_free(&req[c]));
    }

    /* Send with the subarray faces, receive with the vector faces, and the other way. */
    fill(a, ++round);
    exchange_blocking(a, sub, vec);
    expected_after(e, round);
    CHECK_DOUBLES(a, e, NCELL, "halo: send subarray faces, receive vector faces");
    fill(a, ++round);
    exchange_blocking(a, vec, sub);
    expected_after(e, round);
    CHECK_DOUBLES(a, e, NCELL, "halo: send vector faces, receive subarray faces");

    /* Probe, Get_count, Get_elements. */
    {
        MPI_Request sreq;
        MPI_Status pst, rst;
        int cnt, i, j, k;
        MPI_Count cnt_x;
        double part[NY * NZ];

        /* A whole i face, sent with the subarray type to the next rank in dimension 0. */
        fill(a, ++round);
        MPI_CHECK(MPI_Isend(a, 1, sub[0].type[1], nbr_next[0], 100, cart, &sreq));
        MPI_CHECK(MPI_Probe(nbr_prev[0], 100, cart, &pst));
        CHECK_INT(pst.MPI_SOURCE, nbr_prev[0], "halo: MPI_Probe source");
        CHECK_INT(pst.MPI_TAG, 100, "halo: MPI_Probe tag");
        MPI_CHECK(MPI_Get_count(&pst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, 1, "halo: MPI_Get_count(probe status, subarray face)");
        MPI_CHECK(MPI_Get_count(&pst, vec[0].type[2], &cnt));
        CHECK_INT(cnt, 1, "halo: MPI_Get_count(probe status, vector face)");
        MPI_CHECK(MPI_Get_count(&pst, MPI_DOUBLE, &cnt));
        CHECK_INT(cnt, NY * NZ, "halo: MPI_Get_count(probe status, MPI_DOUBLE)");
        MPI_CHECK(MPI_Get_elements(&pst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, NY * NZ, "halo: MPI_Get_elements(probe status, subarray face)");
        MPI_CHECK(MPI_Get_elements_x(&pst, vec[0].type[2], &cnt_x));
        CHECK_INT(cnt_x, NY * NZ, "halo: MPI_Get_elements_x(probe status, vector face)");
        MPI_CHECK(MPI_Recv(a, 1, sub[0].type[2], nbr_prev[0], 100, cart, &rst));
        MPI_CHECK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Get_count(&rst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, 1, "halo: MPI_Get_count(recv status, subarray face)");
        MPI_CHECK(MPI_Get_elements(&rst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, NY * NZ, "halo: MPI_Get_elements(recv status, subarray face)");
        expected_after(e, round);
        for (i = 0; i < AX; i++)
            for (j = 0; j < AY; j++)
                for (k = 0; k < AZ; k++)
                    if (i != 0 && !(i >= 1 && i <= NX && j >= 1 && j <= NY && k >= 1 && k <= NZ))
                        e[IDX(i, j, k)] = sentinel(i, j, k);
        CHECK_DOUBLES(a, e, NCELL, "halo: probed low i face received with the subarray type");

        /* A partial face: 12 doubles, received with count 1 of the i-face type. */
        for (i = 0; i < 12; i++)
            part[i] = 7000.5 + 100 * rank + i;
        fill(a, ++round);
        MPI_CHECK(MPI_Isend(part, 12, MPI_DOUBLE, nbr_next[0], 101, cart, &sreq));
        MPI_CHECK(MPI_Probe(MPI_ANY_SOURCE, 101, cart, &pst));
        CHECK_INT(pst.MPI_SOURCE, nbr_prev[0], "halo: MPI_Probe(MPI_ANY_SOURCE) source");
        MPI_CHECK(MPI_Get_count(&pst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, MPI_UNDEFINED, "halo: MPI_Get_count(partial, subarray face)");
        MPI_CHECK(MPI_Get_elements(&pst, sub[0].type[2], &cnt));
        CHECK_INT(cnt, 12, "halo: MPI_Get_elements(partial, subarray face)");
        MPI_CHECK(MPI_Get_count(&pst, MPI_DOUBLE, &cnt));
        CHECK_INT(cnt, 12, "halo: MPI_Get_count(partial, MPI_DOUBLE)");
        MPI_CHECK(MPI_Recv(a + vec[0].offset[2], 1, vec[0].type[2], pst.MPI_SOURCE, 101, cart,
                           &rst));
        MPI_CHECK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Get_count(&rst, vec[0].type[2], &cnt));
        CHECK_INT(cnt, MPI_UNDEFINED, "halo: MPI_Get_count(partial recv, vector face)");
        MPI_CHECK(MPI_Get_elements(&rst, vec[0].type[2], &cnt));
        CHECK_INT(cnt, 12, "halo: MPI_Get_elements(partial recv, vector face)");
        fill(e, round);
        for (i = 0; i < 12; i++) /* the first 12 elements of the face, j-major then k */
            e[IDX(0, 1 + i / NZ, 1 + i % NZ)] = 7000.5 + 100 * nbr_prev[0] + i;
        CHECK_DOUBLES(a, e, NCELL, "halo: partial face lands in the first 12 elements");

        /* A partial j face (6 doubles) into the hvector-of-contiguous type: the first
         * block and half of the second. */
        for (i = 0; i < 6; i++)
            part[i] = -500.75 - 10 * rank - i;
        fill(a, ++round);
        MPI_CHECK(MPI_Isend(part, 6, MPI_DOUBLE, nbr_prev[1], 102, cart, &sreq));
        MPI_CHECK(MPI_Recv(a + vec[1].offset[3], 1, vec[1].type[3], nbr_next[1], 102, cart, &rst));
        MPI_CHECK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Get_count(&rst, vec[1].type[3], &cnt));
        CHECK_INT(cnt, MPI_UNDEFINED, "halo: MPI_Get_count(partial recv, hvector face)");
        MPI_CHECK(MPI_Get_elements(&rst, vec[1].type[3], &cnt));
        CHECK_INT(cnt, 6, "halo: MPI_Get_elements(partial recv, hvector face)");
        fill(e, round);
        for (i = 0; i < 6; i++)
            e[IDX(1 + i / NZ, NY + 1, 1 + i % NZ)] = -500.75 - 10 * nbr_next[1] - i;
        CHECK_DOUBLES(a, e, NCELL, "halo: partial j face lands in the first 6 elements");

        /* Two faces in one message: count 2 of the vector face type, received as
         * MPI_DOUBLE; the second face starts one extent ((NY-1)*AZ+NZ doubles) later. */
        {
            MPI_Aint lb, ext;
            double big[2 * AY * AZ + 8], want2[2 * NY * NZ], got2[2 * NY * NZ];
            int n;
            MPI_CHECK(MPI_Type_get_extent(vec[0].type[0], &lb, &ext));
            CHECK_INT(lb, 0, "halo: lower bound of the vector face");
            CHECK_INT(ext, ((NY - 1) * AZ + NZ) * (MPI_Aint)sizeof(double),
                      "halo: extent of the vector face");
            n = (int)(sizeof big / sizeof big[0]);
            for (i = 0; i < n; i++)
                big[i] = 3.0 * i + 1000.0 * rank + 0.5;
            MPI_CHECK(MPI_Sendrecv(big, 2, vec[0].type[0], nbr_next[0], 103, got2, 2 * NY * NZ,
                                   MPI_DOUBLE, nbr_prev[0], 103, cart, &rst));
            MPI_CHECK(MPI_Get_count(&rst, MPI_DOUBLE, &cnt));
            CHECK_INT(cnt, 2 * NY * NZ, "halo: two vector faces counted as doubles");
            for (c = 0; c < 2; c++)
                for (j = 0; j < NY; j++)
                    for (k = 0; k < NZ; k++) {
                        int src = c * (int)(ext / (MPI_Aint)sizeof(double)) + j * AZ + k;
                        want2[(c * NY + j) * NZ + k] = 3.0 * src + 1000.0 * nbr_prev[0] + 0.5;
                    }
            CHECK_DOUBLES(got2, want2, 2 * NY * NZ, "halo: count 2 of the vector face");
        }
    }

    free_faces(sub);
    free_faces(vec);
    MPI_CHECK(MPI_Comm_free(&cart));
    free(a);
    free(e);
    return finish();
}
