#!/usr/bin/env bash
# Builds and runs the tests of libh5s_mpio (h5s_mpio/tests, under ctest) against an installed
# mpi-dtype prefix: ./scripts/test-h5s_mpio.sh PREFIX [BUILD_DIR]
# (PREFIX from `cmake --install` of the root project; BUILD_DIR defaults to build/h5s_mpio).
# Needs serial HDF5 (libhdf5-dev) and MPICH; scripts/install-deps.sh installs them. Also checks
# the pkg-config file and the CMake package of the prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=$(cd "${1:?usage: $0 PREFIX [BUILD_DIR]}" && pwd)
build=${2:-$root/build/h5s_mpio}

echo "== h5s_mpio tests (ctest) against $prefix"
cmake -S h5s_mpio/tests -B "$build/tests" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/tests" -j2 >/dev/null
ctest --test-dir "$build/tests" --output-on-failure -j2 --timeout 240
grep -h "cases:" "$build"/tests/Testing/Temporary/LastTest.log | sed 's/^/  /' || true

echo "== h5s_mpio tests under AddressSanitizer and UBSan (ctest)"
cmake -S h5s_mpio/tests -B "$build/tests_sanitize" -DCMAKE_PREFIX_PATH="$prefix" -DH5S_MPIO_SANITIZE=ON \
      -DH5S_CASES=2000 >/dev/null
cmake --build "$build/tests_sanitize" -j2 >/dev/null
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir "$build/tests_sanitize" --output-on-failure -j2 --timeout 240

echo "== h5s_mpio with pkg-config"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
example=$(ls "$build"/tests/doc_examples/*.c | head -n1)
gcc -std=c11 -Wall -Wextra -Werror "$example" $(pkg-config --cflags --libs h5s_mpio) \
    -Wl,-rpath,"$prefix/lib" -o "$build/doc_example_pkgconfig"
"$build/doc_example_pkgconfig"
echo "h5s_mpio tests passed"
