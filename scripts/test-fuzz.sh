#!/usr/bin/env bash
# Runs the fuzzers for a bounded time (see docs/fuzzing.md):
#  - each cargo-fuzz target of fuzz/ (nightly toolchain, AddressSanitizer) for
#    MPI_DTYPE_FUZZ_SECONDS seconds (default 20), starting from the committed corpus
#    (fuzz/corpus/<target>, copied: new inputs stay in the build directory);
#  - the C hostile-input fuzzer of the exported API (c_tests/fuzz/api_fuzz.c) as a libFuzzer
#    target under AddressSanitizer and UBSan when clang has libFuzzer, and its deterministic
#    seeded driver under AddressSanitizer and UBSan either way.
# Installs cargo-fuzz (cargo install) and clang (apt-get) when they are missing. Uses the
# installed library in MPI_DTYPE_PREFIX (default build/prefix, which scripts/test.sh
# installs) or builds one into build/fuzz/prefix. Run from the repository root; a failure
# leaves the crashing input in build/fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${MPI_DTYPE_FUZZ_SECONDS:-20}
work="$root/build/fuzz"
mkdir -p "$work"

step() { printf '\n== %s\n' "$*"; }

step "fuzzing tools"
if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
if ! command -v clang >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq >/dev/null && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  fi
fi

step "cargo fuzz build"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$work/cargo-target}"
(cd fuzz && cargo +nightly fuzz build -O)

for target in $(cd fuzz && cargo +nightly fuzz list); do
  step "cargo fuzz run $target (${seconds} s)"
  corpus="$work/corpus/$target"
  artifacts="$work/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp fuzz/corpus/"$target"/* "$corpus"/
  log="$work/$target.log"
  if ! (cd fuzz && cargo +nightly fuzz run -O "$target" "$corpus" -- \
          -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
          -artifact_prefix="$artifacts/" -print_final_stats=1) >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "cargo fuzz $target failed: the input is in $artifacts"
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "$target: $runs executions, no failure"
done

step "installed library"
prefix="${MPI_DTYPE_PREFIX:-$root/build/prefix}"
if [ ! -f "$prefix/lib/cmake/MpiDtype/MpiDtypeConfig.cmake" ]; then
  prefix="$work/prefix"
  cmake -S . -B "$work/lib" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  cmake --build "$work/lib" >/dev/null
  cmake --install "$work/lib" >/dev/null
fi
echo "$prefix"

step "C hostile-input fuzzer (ASan/UBSan)"
cmake -S c_tests/fuzz -B "$work/c" -DCMAKE_PREFIX_PATH="$prefix" -DMPI_DTYPE_SANITIZE=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work/c" -j2 >/dev/null
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$work/c/api_fuzz_driver" --iterations 10000 --seed 1
if [ -x "$work/c/api_fuzz_libfuzzer" ]; then
  corpus="$work/corpus/api_fuzz"
  mkdir -p "$corpus" "$work/artifacts/api_fuzz"
  cp c_tests/fuzz/corpus/* "$corpus"/
  "$work/c/api_fuzz_libfuzzer" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=20 -artifact_prefix="$work/artifacts/api_fuzz/" -print_final_stats=1 \
      >"$work/api_fuzz.log" 2>&1 || { tail -n 60 "$work/api_fuzz.log"; exit 1; }
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/api_fuzz.log" | grep -o '[0-9]*$' || echo '?')
  echo "api_fuzz (libFuzzer): $runs executions, no failure"
else
  echo "clang with libFuzzer not found: only the seeded driver ran"
fi

step "fuzzing passed"
