#!/usr/bin/env bash
# Builds libmpi_dtype and runs the demo program against it. Needs only cargo and gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p target/demo
gcc -std=c99 -Wall -Wextra -Werror -Iinclude examples/demo.c \
    -Ltarget/release -lmpi_dtype -Wl,-rpath,"$PWD/target/release" -o target/demo/demo
./target/demo/demo
