/* <mpi_dtype.h> compiles on its own. */
#include <mpi_dtype.h>

int main(void) {
    MPI_Aint a = 0;
    return (int)a + (MPI_DTYPE_VERSION_MAJOR < 0);
}
