/* <mpi.h> compiles on its own. */
#include <mpi.h>

int main(void) {
    MPI_Datatype t = MPI_INT;
    return t == MPI_DATATYPE_NULL;
}
