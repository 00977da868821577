# Which build of mpi-dtype the C tests run against; included after find_package(MpiDtype).
#
#   -DMPI_DTYPE_ABI=mpich     libmpi_dtype, MPICH's ABI (MpiDtype::mpi_dtype, the default)
#   -DMPI_DTYPE_ABI=standard  libmpi_dtype_abi, the MPI-5.0 standard ABI
#                             (MpiDtype::mpi_dtype_abi, headers in include/mpi_dtype_abi/)
#
# Sets MPI_DTYPE_TEST_TARGET (the library target every test links) and
# MPI_DTYPE_TEST_INCLUDE_DIR (the directory of that build's installed mpi.h and mpi_dtype.h).
# The sources tell the builds apart by MPI_DTYPE_STANDARD_ABI, which only the standard-ABI
# header defines; what exists in one ABI only (MPI-1 names and markers, MPICH's handle
# numbers) is tested in that build only.
set(MPI_DTYPE_ABI "mpich" CACHE STRING "The ABI of the mpi-dtype build under test: mpich or standard")
set_property(CACHE MPI_DTYPE_ABI PROPERTY STRINGS mpich standard)
if(MPI_DTYPE_ABI STREQUAL "mpich")
  set(MPI_DTYPE_TEST_TARGET MpiDtype::mpi_dtype)
  set(MPI_DTYPE_TEST_INCLUDE_DIR "${MpiDtype_INCLUDE_DIR}")
elseif(MPI_DTYPE_ABI STREQUAL "standard")
  if(NOT TARGET MpiDtype::mpi_dtype_abi)
    message(FATAL_ERROR "MPI_DTYPE_ABI=standard: the installed MpiDtype has no MpiDtype::mpi_dtype_abi")
  endif()
  set(MPI_DTYPE_TEST_TARGET MpiDtype::mpi_dtype_abi)
  set(MPI_DTYPE_TEST_INCLUDE_DIR "${MpiDtype_ABI_INCLUDE_DIR}")
else()
  message(FATAL_ERROR "MPI_DTYPE_ABI must be mpich or standard, not '${MPI_DTYPE_ABI}'")
endif()
