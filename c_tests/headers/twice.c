/* Both public headers can be included twice, in either order. */
#include <mpi.h>
#include <mpi_dtype.h>
#include <mpi.h>
#include <mpi_dtype.h>

int main(void) {
    MPI_Status status;
    status.MPI_ERROR = MPI_SUCCESS;
    return status.MPI_ERROR;
}
