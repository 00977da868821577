//! The committed header `include/mpi_dtype.h` (MPICH's ABI),
//! `include/mpi_dtype_abi/mpi_dtype.h` (the standard ABI, with `--features standard-abi`) or
//! `include/mpi_dtype_ompi/mpi_dtype.h` (Open MPI's, with `--features ompi-abi`) is
//! the one `build.rs` generates (into `OUT_DIR`) from the sources. After changing an exported function, a struct or
//! `src/abi/constants.rs`, regenerate it with
//!
//! ```sh
//! MPI_DTYPE_BLESS=1 cargo test --release --test header
//! ```

use std::path::Path;

#[test]
fn committed_header_is_the_generated_one() {
    let generated_path = env!("MPI_DTYPE_GENERATED_HEADER");
    let committed = if cfg!(abi = "standard") {
        "include/mpi_dtype_abi/mpi_dtype.h"
    } else if cfg!(abi = "ompi") {
        "include/mpi_dtype_ompi/mpi_dtype.h"
    } else {
        "include/mpi_dtype.h"
    };
    let committed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(committed);
    let generated = std::fs::read_to_string(generated_path).expect("build.rs wrote the header");
    if std::env::var_os("MPI_DTYPE_BLESS").is_some() {
        std::fs::write(&committed_path, &generated).expect("include/mpi_dtype.h is writable");
        return;
    }
    let committed = std::fs::read_to_string(&committed_path).expect("the committed header");
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "{committed} differs from the header generated from the sources \
             (first at line {}: committed {:?}, generated {:?}); regenerate it with \
             MPI_DTYPE_BLESS=1 cargo test --release --test header (and --features standard-abi or ompi-abi)",
            first + 1,
            committed.lines().nth(first).unwrap_or("<end>"),
            generated.lines().nth(first).unwrap_or("<end>"),
        );
    }
}
