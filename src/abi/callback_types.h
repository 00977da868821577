/*
 * The callback types of the ABIs whose handles are pointers (the standard ABI's and Open
 * MPI's), appended by the header generator to their preambles (standard_preamble.h,
 * ompi_preamble.h), after the handle types they name. They are function types, as in the
 * standard's header and Open MPI's mpi.h: parameters of these types are pointers to
 * functions.
 */
typedef void (MPI_Comm_errhandler_function)(MPI_Comm *comm, int *error_code, ...);
typedef int (MPI_Type_copy_attr_function)(MPI_Datatype datatype, int type_keyval,
                                          void *extra_state, void *attribute_val_in,
                                          void *attribute_val_out, int *flag);
typedef int (MPI_Type_delete_attr_function)(MPI_Datatype datatype, int type_keyval,
                                            void *attribute_val, void *extra_state);
typedef void (MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef int (MPI_Comm_copy_attr_function)(MPI_Comm comm, int comm_keyval, void *extra_state,
                                          void *attribute_val_in, void *attribute_val_out,
                                          int *flag);
typedef int (MPI_Comm_delete_attr_function)(MPI_Comm comm, int comm_keyval,
                                            void *attribute_val, void *extra_state);
typedef void (MPI_User_function_c)(void *invec, void *inoutvec, MPI_Count *len,
                                   MPI_Datatype *datatype);
typedef void (MPI_Win_errhandler_function)(MPI_Win *win, int *error_code, ...);
typedef void (MPI_Session_errhandler_function)(MPI_Session *session, int *error_code, ...);
typedef int (MPI_Win_copy_attr_function)(MPI_Win win, int win_keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out,
                                         int *flag);
typedef int (MPI_Win_delete_attr_function)(MPI_Win win, int win_keyval, void *attribute_val,
                                           void *extra_state);
