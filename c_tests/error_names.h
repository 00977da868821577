/*
 * error_names.h: the symbolic names of MPI error classes, for messages.
 *
 * The class values differ between MPI libraries, so programs that are built against several
 * of them (the C tests, the drop-in test, the conformance harness) print names, not numbers.
 * Only static inline functions; needs <mpi.h> (mpi-dtype's, MPICH's or Open MPI's).
 */
#ifndef MPI_DTYPE_C_TESTS_ERROR_NAMES_H
#define MPI_DTYPE_C_TESTS_ERROR_NAMES_H

#include <mpi.h>

/* The symbolic name of an MPI error class (for messages). */
static inline const char *check_class_name(int cls)
{
    switch (cls) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_DIMS: return "MPI_ERR_DIMS";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
    case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL";
    case MPI_ERR_SIZE: return "MPI_ERR_SIZE";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
#ifdef MPI_ERR_VALUE_TOO_LARGE /* MPI-4: not in Open MPI 4.1 (the conformance harness) */
    case MPI_ERR_VALUE_TOO_LARGE: return "MPI_ERR_VALUE_TOO_LARGE";
#endif
    case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP";
    case MPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION";
    default: return "(other class)";
    }
}

/* The error class of an MPI return code (the code itself if MPI_Error_class fails). */
static inline int check_error_class(int code)
{
    int cls = code;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS) {
        return code;
    }
    return cls;
}

#endif
