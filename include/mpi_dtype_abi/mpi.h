/*
 * mpi.h for mpi-dtype with the MPI-5.0 standard ABI (libmpi_dtype_abi): lets unmodified
 * sources that include <mpi.h> build against this library. Everything is declared in
 * mpi_dtype.h.
 */
#ifndef MPI_INCLUDED
#define MPI_INCLUDED
#include "mpi_dtype.h"
#endif
