# Which build of mpi-dtype the C tests run against; included after find_package(MpiDtype).
#
#   -DMPI_DTYPE_ABI=mpich     libmpi_dtype, MPICH's ABI (MpiDtype::mpi_dtype, the default)
#   -DMPI_DTYPE_ABI=standard  libmpi_dtype_abi, the MPI-5.0 standard ABI
#                             (MpiDtype::mpi_dtype_abi, headers in include/mpi_dtype_abi/)
#   -DMPI_DTYPE_ABI=ompi      libmpi_dtype_ompi, Open MPI's ABI
#                             (MpiDtype::mpi_dtype_ompi, headers in include/mpi_dtype_ompi/)
#
# Sets MPI_DTYPE_TEST_TARGET (the library target every test links) and
# MPI_DTYPE_TEST_INCLUDE_DIR (the directory of that build's installed mpi.h and mpi_dtype.h).
# The sources tell the builds apart by MPI_DTYPE_MPICH_ABI, MPI_DTYPE_STANDARD_ABI and
# MPI_DTYPE_OMPI_ABI, which each build's header defines; what exists in some ABIs only (the
# MPI-1 names and the markers: not the standard's; MPICH's handle numbers) is tested in
# those builds only.
set(MPI_DTYPE_ABI "mpich" CACHE STRING "The ABI of the mpi-dtype build under test: mpich, standard or ompi")
set_property(CACHE MPI_DTYPE_ABI PROPERTY STRINGS mpich standard ompi)
if(MPI_DTYPE_ABI STREQUAL "mpich")
  set(MPI_DTYPE_TEST_TARGET MpiDtype::mpi_dtype)
  set(MPI_DTYPE_TEST_INCLUDE_DIR "${MpiDtype_INCLUDE_DIR}")
elseif(MPI_DTYPE_ABI STREQUAL "standard" OR MPI_DTYPE_ABI STREQUAL "ompi")
  set(_variant abi)
  if(MPI_DTYPE_ABI STREQUAL "ompi")
    set(_variant ompi)
  endif()
  string(TOUPPER "${_variant}" _var)
  if(NOT TARGET MpiDtype::mpi_dtype_${_variant})
    message(FATAL_ERROR "MPI_DTYPE_ABI=${MPI_DTYPE_ABI}: the installed MpiDtype has no MpiDtype::mpi_dtype_${_variant}")
  endif()
  set(MPI_DTYPE_TEST_TARGET MpiDtype::mpi_dtype_${_variant})
  set(MPI_DTYPE_TEST_INCLUDE_DIR "${MpiDtype_${_var}_INCLUDE_DIR}")
else()
  message(FATAL_ERROR "MPI_DTYPE_ABI must be mpich, standard or ompi, not '${MPI_DTYPE_ABI}'")
endif()
