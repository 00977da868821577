/* MPI 4.0's large-count (_c) functions the C tests call (of datatypes and of communication),
 * for a build against an mpi.h of MPI 3.1 that lacks them (Open MPI 4.1's and 5.0's): declared weak, so that a program links
 * with such an MPI, whose library lacks them too. A program built so may call them only where
 * a library serves them (mpi-dtype, alone or preloaded): the address of each is then not
 * NULL. With an mpi.h of MPI 4.0 or later this header declares nothing. */
#ifndef MPI_DTYPE_TESTS_LARGE_COUNTS_H
#define MPI_DTYPE_TESTS_LARGE_COUNTS_H

#include <mpi.h>

#if MPI_VERSION < 4
#pragma weak MPI_Allgather_c
int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Allgatherv_c
int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                     MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Alltoall_c
int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Alltoallv_c
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Alltoallw_c
int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
#pragma weak MPI_Gather_c
int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
#pragma weak MPI_Gatherv_c
int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                  MPI_Datatype recvtype, int root, MPI_Comm comm);
#pragma weak MPI_Get_count_c
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
#pragma weak MPI_Get_elements_c
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
#pragma weak MPI_Iallgather_c
int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request);
#pragma weak MPI_Iallgatherv_c
int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ialltoall_c
int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request);
#pragma weak MPI_Ialltoallv_c
int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ialltoallw_c
int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                     const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Igather_c
int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Igatherv_c
int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ineighbor_allgather_c
int MPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ineighbor_allgatherv_c
int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request);
#pragma weak MPI_Ineighbor_alltoall_c
int MPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ineighbor_alltoallv_c
int MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Ineighbor_alltoallw_c
int MPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Iscatter_c
int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Iscatterv_c
int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Neighbor_allgather_c
int MPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm);
#pragma weak MPI_Neighbor_allgatherv_c
int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Neighbor_alltoall_c
int MPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm);
#pragma weak MPI_Neighbor_alltoallv_c
int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             MPI_Datatype recvtype, MPI_Comm comm);
#pragma weak MPI_Neighbor_alltoallw_c
int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm);
#pragma weak MPI_Pack_c
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
               MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
#pragma weak MPI_Pack_size_c
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size);
#pragma weak MPI_Send_c
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm);
#pragma weak MPI_Recv_c
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status);
#pragma weak MPI_Isend_c
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Irecv_c
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Request *request);
#pragma weak MPI_Sendrecv_c
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status *status);
#pragma weak MPI_Sendrecv_replace_c
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm,
                           MPI_Status *status);
#pragma weak MPI_Bcast_c
int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
#pragma weak MPI_Allreduce_c
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm);
#pragma weak MPI_Reduce_c
int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm);
#pragma weak MPI_Reduce_scatter_c
int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
#pragma weak MPI_Bsend_c
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm);
#pragma weak MPI_Buffer_attach_c
int MPI_Buffer_attach_c(void *buffer, MPI_Count size);
#pragma weak MPI_Buffer_detach_c
int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);
#pragma weak MPI_Op_create_c
int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
#pragma weak MPI_Win_allocate_shared_c
int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              void *baseptr, MPI_Win *win);
#pragma weak MPI_Win_shared_query_c
int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                           void *baseptr);
#pragma weak MPI_Scatter_c
int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm);
#pragma weak MPI_Scatterv_c
int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
#pragma weak MPI_Type_contiguous_c
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Type_create_darray_c
int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count *array_of_gsizes,
                             const int *array_of_distribs, const int *array_of_dargs,
                             const int *array_of_psizes, int order, MPI_Datatype oldtype,
                             MPI_Datatype *newtype);
#pragma weak MPI_Type_create_hindexed_block_c
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count *array_of_displacements,
                                     MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Type_create_hindexed_c
int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count *array_of_blocklengths,
                               const MPI_Count *array_of_displacements, MPI_Datatype oldtype,
                               MPI_Datatype *newtype);
#pragma weak MPI_Type_create_hvector_c
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                              MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Type_create_indexed_block_c
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                    const MPI_Count *array_of_displacements,
                                    MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Type_create_resized_c
int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                              MPI_Datatype *newtype);
#pragma weak MPI_Type_create_struct_c
int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count *array_of_blocklengths,
                             const MPI_Count *array_of_displacements,
                             const MPI_Datatype *array_of_types, MPI_Datatype *newtype);
#pragma weak MPI_Type_create_subarray_c
int MPI_Type_create_subarray_c(int ndims, const MPI_Count *array_of_sizes,
                               const MPI_Count *array_of_subsizes,
                               const MPI_Count *array_of_starts, int order,
                               MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Type_get_contents_c
int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                            MPI_Count max_addresses, MPI_Count max_large_counts,
                            MPI_Count max_datatypes, int *array_of_integers,
                            MPI_Aint *array_of_addresses, MPI_Count *array_of_large_counts,
                            MPI_Datatype *array_of_datatypes);
#pragma weak MPI_Type_get_envelope_c
int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                            MPI_Count *num_addresses, MPI_Count *num_large_counts,
                            MPI_Count *num_datatypes, int *combiner);
#pragma weak MPI_Type_get_extent_c
int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
#pragma weak MPI_Type_get_true_extent_c
int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                               MPI_Count *true_extent);
#pragma weak MPI_Type_indexed_c
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count *array_of_blocklengths,
                       const MPI_Count *array_of_displacements, MPI_Datatype oldtype,
                       MPI_Datatype *newtype);
#pragma weak MPI_Type_size_c
int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
#pragma weak MPI_Type_vector_c
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
#pragma weak MPI_Unpack_c
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                 MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
#endif

#endif
