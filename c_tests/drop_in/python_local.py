"""Python loads MPI as mpi4py does: with RTLD_LOCAL, while mpi-dtype is preloaded.

Usage (under LD_PRELOAD=libmpi_dtype.so): python_local.py LIBMPICH

The process calls go through the global scope, where the preloaded mpi-dtype defines them;
mpi-dtype must find the RTLD_LOCAL copy of MPICH and forward MPI_Init, MPI_Comm_size,
MPI_Get_library_version and MPI_Finalize to it. Exits 0 when MPICH answered.
"""
import ctypes
import sys


def main():
    mpich = ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_LOCAL)
    assert mpich is not None
    world = ctypes.CDLL(None)  # the global scope: the program and the preloaded library
    if world.MPI_Init(None, None) != 0:
        sys.exit("MPI_Init failed")
    version = ctypes.create_string_buffer(8192)
    length = ctypes.c_int(0)
    if world.MPI_Get_library_version(version, ctypes.byref(length)) != 0:
        sys.exit("MPI_Get_library_version failed")
    text = version.value.decode(errors="replace")
    print("library:", text.splitlines()[0])
    size = ctypes.c_int(-1)
    mpi_comm_world = 0x44000000
    if world.MPI_Comm_size(mpi_comm_world, ctypes.byref(size)) != 0 or size.value != 1:
        sys.exit("MPI_Comm_size failed")
    # A datatype call is mpi-dtype's: MPI_Type_size of MPI_DOUBLE.
    type_size = ctypes.c_int(-1)
    if world.MPI_Type_size(0x4C00080B, ctypes.byref(type_size)) != 0 or type_size.value != 8:
        sys.exit("MPI_Type_size failed")
    if world.MPI_Finalize() != 0:
        sys.exit("MPI_Finalize failed")
    if not text.startswith("MPICH Version:"):
        sys.exit("MPI_Get_library_version was not answered by MPICH: " + text)
    print("python_local: MPICH answered")


if __name__ == "__main__":
    main()
