//! Constructor sequences decoded from bytes, run through the Rust core: every constructor,
//! nesting, markers, resized types and counts up to the 64-bit limits. Invalid arguments must
//! fail, small valid ones must succeed, and every type the naive model can write out must
//! answer size, bounds, true bounds and the packed sizes exactly as the model does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mpi_dtype_fuzz::{build, Bytes, Program};

fuzz_target!(|data: &[u8]| {
    let prog = Program::decode(&mut Bytes::new(data));
    build(&prog);
});
