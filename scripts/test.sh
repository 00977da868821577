#!/usr/bin/env bash
# Runs every test: formatting and lints, the Rust unit and property tests, the generated
# header's freshness, then installs the library into build/prefix and runs the C test suite
# with ctest through find_package(MpiDtype) (plain and under AddressSanitizer/UBSan), and
# checks the pkg-config file. Installs missing tools first (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '\n== %s\n' "$*"; }

step "dependencies"
./scripts/install-deps.sh

step "cargo fmt --check"
cargo fmt --check

step "cargo clippy -D warnings"
cargo clippy --release --all-targets --quiet -- -D warnings

step "cargo test"
cargo test --release

step "generated header is up to date"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --exit-code -- include/ || { echo "include/ differs from the committed header: commit the regenerated header"; exit 1; }
fi

step "build and install into build/prefix"
cmake -S . -B build/lib -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$root/build/prefix" >/dev/null
cmake --build build/lib
cmake --install build/lib >/dev/null

step "C tests (ctest)"
cmake -S c_tests -B build/c_tests -DCMAKE_PREFIX_PATH="$root/build/prefix" \
      -DMPI_DTYPE_REQUIRE_REFERENCE_MPIS=ON >/dev/null
cmake --build build/c_tests -j2 >/dev/null
ctest --test-dir build/c_tests --output-on-failure -j2
cat build/c_tests/conformance/conformance_report.md

step "C tests under AddressSanitizer and UBSan (ctest)"
cmake -S c_tests -B build/c_tests_sanitize -DCMAKE_PREFIX_PATH="$root/build/prefix" -DMPI_DTYPE_SANITIZE=ON >/dev/null
cmake --build build/c_tests_sanitize -j2 >/dev/null
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build/c_tests_sanitize --output-on-failure -j2

step "pkg-config"
export PKG_CONFIG_PATH="$root/build/prefix/lib/pkgconfig"
gcc -std=c99 -Wall -Wextra -Werror examples/demo.c $(pkg-config --cflags --libs mpi_dtype) \
    -Wl,-rpath,"$root/build/prefix/lib" -o build/demo_pkgconfig
./build/demo_pkgconfig >/dev/null
echo "demo built with pkg-config runs"

step "all tests passed"
