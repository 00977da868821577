#!/bin/sh
# compiler_wrapper.sh WRAPPER LIB SOURCE_DIR WORK_DIR: the installed compiler wrapper (mpi-dtype-cc
# or mpi-dtype-cc-abi) names mpi-dtype's include directory and, unless it only compiles, the
# library LIB in what -show prints; and it builds a program of the one-process world
# (test_p2p_standalone.c), which then runs.
set -eu
wrapper=$1 lib=$2 src=$3 work=$4
"$wrapper" -show -c x.c | grep -q -- "-I.*include"
if "$wrapper" -show -c x.c | grep -q -- "-l$lib"; then
    echo "FAILED: $wrapper links when it only compiles"
    exit 1
fi
"$wrapper" -show x.c -o x | grep -q -- "-l$lib"
"$wrapper" -std=c11 -Wall -Wextra -Werror -I"$src" "$src/test_p2p_standalone.c" -lpthread \
    -o "$work/p2p_by_wrapper"
"$work/p2p_by_wrapper"
