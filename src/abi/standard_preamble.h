/*
 * The C preamble of the standard-ABI header (MPI-5.0 chapter 21): what the constants table
 * (src/abi/constants.rs) cannot say. The header generator puts it after the
 * includes and before the table's #defines, so it has no include guard of its own. Its
 * Rust counterpart is src/abi/standard.rs; cbindgen must not emit the types declared
 * here (the handle types, the integer types, MPI_Status and the callback types).
 *
 * Every name and value matches the standard's header and MPICH 5.0.2's mpi_abi.h, so that
 * a program may include either; scripts/check_abi_standard.py checks that.
 */
#include <stdint.h>

/* Defined by mpi-dtype's standard-ABI header only: code shared by both builds tells them apart. */
#define MPI_DTYPE_STANDARD_ABI 1

/* ABI versions are in the constants table; MPI_Abi_get_version returns them. */

/*
 * Integer types. MPI_Aint holds an address (intptr_t); MPI_Offset is 64-bit on every
 * platform; MPI_Count is MPI_Offset (the larger of the two wherever addresses have at most
 * 64 bits). The standard ABI has no MPI_Fint: the Fortran handle conversions
 * (MPI_Type_c2f, ...) are not part of it, MPI_Type_toint / MPI_Type_fromint replace them.
 */
typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef MPI_Offset MPI_Count;

/*
 * Handle types: pointers to incomplete structs, one struct per kind, so that the compiler
 * tells the kinds apart. The struct tags are the standard's (C++ mangles them into names).
 * Predefined handles are the integers 1 to 4095 cast to these types.
 */
typedef struct MPI_ABI_Datatype *MPI_Datatype;
typedef struct MPI_ABI_Comm *MPI_Comm;
typedef struct MPI_ABI_Errhandler *MPI_Errhandler;
typedef struct MPI_ABI_Info *MPI_Info;
typedef struct MPI_ABI_Request *MPI_Request;
typedef struct MPI_ABI_Message *MPI_Message;
typedef struct MPI_ABI_Group *MPI_Group;
typedef struct MPI_ABI_Op *MPI_Op;
typedef struct MPI_ABI_Win *MPI_Win;
typedef struct MPI_ABI_File *MPI_File;
/* A file's error handler (MPI-IO). */
typedef void (MPI_File_errhandler_function)(MPI_File *file, int *error_code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
/* The functions of a data representation the program registers (MPI-IO). */
typedef int (MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count,
                                              void *filebuf, MPI_Offset position, void *extra_state);
typedef int (MPI_Datarep_conversion_function_c)(void *userbuf, MPI_Datatype datatype, MPI_Count count,
                                                void *filebuf, MPI_Offset position, void *extra_state);
typedef int (MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0x0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0x0)
typedef struct MPI_ABI_Session *MPI_Session;

/*
 * The status of a completed operation: three public fields, then five ints the
 * implementation owns (MPICH 5 keeps the byte count and the cancelled flag in the first
 * two; this library does the same).
 */
typedef struct {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int MPI_internal[5];
} MPI_Status;

/* Passed where no status is wanted: the null pointer (MPICH's ABI uses 1). */
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* Address of absolute displacements: MPI_BOTTOM is the null pointer. */
#define MPI_BOTTOM ((void *)0)

/* A collective's buffer argument that says the data are in the other buffer. */
#define MPI_IN_PLACE ((void *)1)

/* The tool information interface's handles. */
typedef struct MPI_T_enum_t *MPI_T_enum;
typedef struct MPI_T_cvar_handle_t *MPI_T_cvar_handle;
typedef struct MPI_T_pvar_handle_t *MPI_T_pvar_handle;
typedef struct MPI_T_pvar_session_t *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)

/* The weights arguments of a graph without weights, and of a process without edges. */
#define MPI_UNWEIGHTED ((int *)10)
#define MPI_WEIGHTS_EMPTY ((int *)11)

/*
 * Predefined attribute callbacks for datatype keyvals. They are sentinels, not functions:
 * the library recognises them by address and never calls them (in MPICH's ABI,
 * MPI_TYPE_DUP_FN is a real function).
 */
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0x0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)0x1)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0x0)
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0x0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)0x1)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0x0)
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0x0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)0x1)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0x0)
