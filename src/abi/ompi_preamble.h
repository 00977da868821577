/*
 * The C preamble of the header of Open MPI's ABI (4.1 and 5.0): what the constants table
 * (src/abi/constants.rs) cannot say. The header generator puts it after the includes and
 * before the table's #defines, so it has no include guard of its own. Its Rust counterpart is
 * src/abi/ompi.rs; cbindgen must not emit the types declared here (the handle types, the
 * integer types, MPI_Status and the callback types).
 *
 * Every name, type and layout matches Open MPI's mpi.h, so that a program compiled with
 * either header runs with this library: handles are pointers to Open MPI's structs, and each
 * predefined handle is the address of an object of Open MPI's name, which this library
 * defines.
 */
#include <stddef.h>

/* Defined by mpi-dtype's header of Open MPI's ABI only. */
#define MPI_DTYPE_OMPI_ABI 1

/* Integer types. */
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

/* Handle types: pointers to Open MPI's structs (C++ mangles the tags into names). */
typedef struct ompi_communicator_t *MPI_Comm;
typedef struct ompi_datatype_t *MPI_Datatype;
typedef struct ompi_errhandler_t *MPI_Errhandler;
typedef struct ompi_group_t *MPI_Group;
typedef struct ompi_info_t *MPI_Info;
typedef struct ompi_op_t *MPI_Op;
typedef struct ompi_request_t *MPI_Request;
typedef struct ompi_message_t *MPI_Message;
typedef struct ompi_win_t *MPI_Win;
typedef struct ompi_instance_t *MPI_Session;
typedef struct ompi_file_t *MPI_File;

/*
 * The predefined objects, by kind. Their contents are Open MPI's business: here they are only
 * addresses, so their structs stay incomplete.
 */
struct ompi_predefined_communicator_t;
struct ompi_predefined_datatype_t;
struct ompi_predefined_errhandler_t;
struct ompi_predefined_group_t;
struct ompi_predefined_info_t;
struct ompi_predefined_op_t;
struct ompi_predefined_request_t;
struct ompi_predefined_message_t;
struct ompi_predefined_win_t;
struct ompi_predefined_instance_t;
struct ompi_predefined_file_t;

/* MPI-IO's callback types: a file's error handler and a data representation's functions. */
typedef void (MPI_File_errhandler_function)(MPI_File *, int *, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int (MPI_Datarep_conversion_function)(void *, MPI_Datatype, int, void *, MPI_Offset, void *);
typedef int (MPI_Datarep_conversion_function_c)(void *, MPI_Datatype, MPI_Count, void *, MPI_Offset, void *);
typedef int (MPI_Datarep_extent_function)(MPI_Datatype, MPI_Aint *, void *);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

/* The status of a completed operation, as Open MPI lays it out. */
struct ompi_status_public_t {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    /* Open MPI's own fields: whether the request was cancelled, and the bytes received. */
    int _cancelled;
    size_t _ucount;
};
typedef struct ompi_status_public_t MPI_Status;

/* Passed where no status is wanted: the null pointer. */
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* Address of absolute displacements: MPI_BOTTOM is the null pointer. */
#define MPI_BOTTOM ((void *)0)

/* A collective's buffer argument that says the data are in the other buffer. */
#define MPI_IN_PLACE ((void *)1)

/* The tool information interface's handles. */
typedef struct mca_base_var_enum_t *MPI_T_enum;
typedef struct ompi_mpit_cvar_handle_t *MPI_T_cvar_handle;
typedef struct mca_base_pvar_handle_t *MPI_T_pvar_handle;
typedef struct mca_base_pvar_session_t *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)

/* The weights arguments of a graph without weights, and of a process without edges. */
#define MPI_UNWEIGHTED ((int *)2)
#define MPI_WEIGHTS_EMPTY ((int *)3)

/*
 * Predefined attribute callbacks: functions in Open MPI's ABI (this library exports them
 * under Open MPI's names; their prototypes are among the functions below).
 */
#define MPI_TYPE_NULL_COPY_FN OMPI_C_MPI_TYPE_NULL_COPY_FN
#define MPI_TYPE_DUP_FN OMPI_C_MPI_TYPE_DUP_FN
#define MPI_TYPE_NULL_DELETE_FN OMPI_C_MPI_TYPE_NULL_DELETE_FN
#define MPI_COMM_NULL_COPY_FN OMPI_C_MPI_COMM_NULL_COPY_FN
#define MPI_COMM_DUP_FN OMPI_C_MPI_COMM_DUP_FN
#define MPI_COMM_NULL_DELETE_FN OMPI_C_MPI_COMM_NULL_DELETE_FN
#define MPI_WIN_NULL_COPY_FN OMPI_C_MPI_WIN_NULL_COPY_FN
#define MPI_WIN_DUP_FN OMPI_C_MPI_WIN_DUP_FN
#define MPI_WIN_NULL_DELETE_FN OMPI_C_MPI_WIN_NULL_DELETE_FN
#define MPI_NULL_COPY_FN OMPI_C_MPI_NULL_COPY_FN
#define MPI_DUP_FN OMPI_C_MPI_DUP_FN
#define MPI_NULL_DELETE_FN OMPI_C_MPI_NULL_DELETE_FN

/* printf formats for MPI_Aint. */
#define MPI_AINT_FMT_DEC_SPEC "%td"
#define MPI_AINT_FMT_HEX_SPEC "%tx"
