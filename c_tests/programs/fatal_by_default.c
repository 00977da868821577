/* With no error handler set, an error is fatal: the program must print which function
   failed and why, and exit with a non-zero status before reaching the end of main. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Type_contiguous(-3, MPI_INT, &t);
    printf("not reached\n");
    MPI_Finalize();
    return 0;
}
