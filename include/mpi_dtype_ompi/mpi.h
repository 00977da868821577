/*
 * mpi.h for mpi-dtype with Open MPI's ABI (libmpi_dtype_ompi): lets unmodified
 * sources that include <mpi.h> build against this library. Everything is declared in
 * mpi_dtype.h.
 */
#ifndef MPI_INCLUDED
#define MPI_INCLUDED
#include "mpi_dtype.h"
#endif
