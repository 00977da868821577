/* <h5s_mpio.h> compiles on its own (it brings <mpi.h>) and when included twice. */
#include <h5s_mpio.h>
#include <h5s_mpio.h>

int main(void) {
    h5s_seloper op = H5S_OP_PREPEND;
    return (int)op != 7 || H5S_MPIO_MAX_RANK != 32;
}
