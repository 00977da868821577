# Programs built against MPICH 5.0.2's own standard-ABI header instead of mpi-dtype's, linked
# with libmpi_dtype_abi alone and run with no MPI library loaded: a program compiled for the
# MPI-5.0 standard ABI runs on mpi-dtype as it is (docs/abi.md).
#
# Included from c_tests/CMakeLists.txt in the standard-ABI configuration once MPICH5_INCLUDE_DIR
# holds mpi_abi.h; uses test_sources, the C tests of that configuration.
#
#   mpich5_abi_<test>   each C test below and examples/demo.c, compiled as MPICH's mpicc_abi
#                       compiles (-DMPI_ABI -I<MPICH 5's include>: its mpi.h includes
#                       mpi_abi.h), linked with libmpi_dtype_abi.so instead of -lmpi_abi
#   mpich5_abi_no_mpi   ldd of every program above: libmpi_dtype_abi.so is the only MPI library
#                       they load (no libmpi_abi.so.1, libmpi.so.12 or libmpich.so.12)
#
# The sources tell the standard ABI by MPI_DTYPE_STANDARD_ABI, which mpi-dtype's header defines
# and MPICH's does not: it is defined on the command line here.

# Tests that use names mpi_abi.h does not have, left out.
set(mpich5_abi_left_out
  test_explain # MPIX_Type_explain, mpi-dtype's extension
  test_iov     # MPIX_Iov and MPIX_Type_iov, MPICH's extension, not in its mpi_abi.h
  test_pmpi)   # reads the list of functions from mpi-dtype's installed header
set(mpich5_abi_sources "${CMAKE_CURRENT_SOURCE_DIR}/../examples/demo.c")
foreach(source IN LISTS test_sources)
  get_filename_component(name "${source}" NAME_WE)
  if(NOT name IN_LIST mpich5_abi_left_out)
    list(APPEND mpich5_abi_sources "${source}")
  endif()
endforeach()

set(mpich5_abi_programs "")
foreach(source IN LISTS mpich5_abi_sources)
  get_filename_component(name "${source}" NAME_WE)
  set(target mpich5_abi_${name})
  add_executable(${target} "${source}")
  target_include_directories(${target} PRIVATE "${MPICH5_INCLUDE_DIR}")
  target_compile_definitions(${target} PRIVATE MPI_ABI MPI_DTYPE_STANDARD_ABI=1)
  # The library's file, not the target MpiDtype::mpi_dtype_abi, whose include directory would
  # add mpi-dtype's own mpi.h.
  target_link_libraries(${target} PRIVATE "$<TARGET_FILE:MpiDtype::mpi_dtype_abi>")
  add_test(NAME ${target} COMMAND ${target})
  list(APPEND mpich5_abi_programs "$<TARGET_FILE:${target}>")
endforeach()

find_program(LDD ldd)
if(LDD)
  add_test(NAME mpich5_abi_no_mpi COMMAND "${LDD}" ${mpich5_abi_programs})
  set_tests_properties(mpich5_abi_no_mpi PROPERTIES
    PASS_REGULAR_EXPRESSION "libmpi_dtype_abi\\.so => /"
    FAIL_REGULAR_EXPRESSION "libmpi(ch|fort)?(_abi)?\\.so|not found")
endif()
