//! The same constructor sequences through the exported C functions (the `_c` variants when
//! an operation asks for them or an argument does not fit an `int`): every call must end as
//! it ends in the Rust core (success, or the same error class), and every type made must
//! decode (MPI_Type_get_envelope / MPI_Type_get_contents and their `_c` variants) into
//! arguments that rebuild a type with the identical decoding and the identical type map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mpi_dtype::datatype::typemap::TypeMap;
use mpi_dtype::handles;
use mpi_dtype_fuzz::{build, capi, Bytes, Program};

fuzz_target!(|data: &[u8]| {
    let prog = Program::decode(&mut Bytes::new(data));
    let core = build(&prog);
    let made = capi::build(&prog);
    for (i, (c, r)) in made.iter().zip(&core).enumerate() {
        let Some(c) = c else {
            assert!(r.dt.is_none(), "operation {i}: made by the core only");
            continue;
        };
        let handle = match (c.handle, &r.dt) {
            (Ok(h), Some(_)) => h,
            (Err(class), None) => {
                assert_eq!(Some(class), r.error, "operation {i}: error classes differ");
                continue;
            }
            (c, _) => panic!(
                "operation {i} {:?}: the C API gave {c:?}, the core {:?}",
                prog.ops[i], r.error
            ),
        };
        let dt = r.dt.as_ref().expect("made by the core");
        let q = capi::queries(handle);
        assert_eq!(
            q,
            [
                dt.size(),
                dt.lb(),
                dt.extent(),
                dt.true_lb(),
                dt.true_extent()
            ],
            "operation {i}: C queries differ from the core's"
        );
        if i % 2 == 0 && c.derived {
            capi::commit(handle);
        }
        let rebuilt = capi::rebuild(handle);
        assert!(
            capi::same_decoding(handle, rebuilt),
            "operation {i} {:?}: the rebuilt type decodes differently",
            prog.ops[i]
        );
        assert_eq!(capi::queries(rebuilt), q, "operation {i}: rebuilt queries");
        if r.info.modelable() {
            let ours =
                TypeMap::of(&handles::with_type(handle, |t, _| t.clone()).expect("a live handle"));
            let again =
                TypeMap::of(&handles::with_type(rebuilt, |t, _| t.clone()).expect("a live handle"));
            assert_eq!(ours, TypeMap::of(dt), "operation {i}: C and core type maps");
            assert_eq!(ours, again, "operation {i}: the rebuilt type map differs");
            let ext32: i64 = ours
                .data_entries()
                .iter()
                .map(|(b, _)| b.info().ext32_size())
                .sum();
            assert_eq!(
                capi::external32_size(handle),
                Ok(ext32),
                "operation {i}: external32 size"
            );
        }
        if rebuilt != handle {
            capi::free_all(&[Some(capi::Made {
                handle: Ok(rebuilt),
                large: false,
                derived: true,
            })]);
        }
    }
    capi::free_all(&made);
});
