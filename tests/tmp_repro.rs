mod common;
use common::*;
use mpi_dtype::pack;
#[test]
fn repro() {
    let specs = vec![
        Spec::IndexedBlock {
            blocklength: 1,
            displacements: vec![0, 0],
            in_bytes: true,
            old: Box::new(Spec::Leaf(Leaf::Int)),
        },
        Spec::Vector {
            count: 1,
            blocklength: 1,
            stride: 0,
            stride_in_bytes: true,
            old: Box::new(Spec::IndexedBlock {
                blocklength: 1,
                displacements: vec![0, 0],
                in_bytes: true,
                old: Box::new(Spec::Leaf(Leaf::Int)),
            }),
        },
        Spec::Struct(vec![(
            1,
            0,
            Spec::Vector {
                count: 1,
                blocklength: 1,
                stride: 0,
                stride_in_bytes: true,
                old: Box::new(Spec::IndexedBlock {
                    blocklength: 1,
                    displacements: vec![0, 0],
                    in_bytes: true,
                    old: Box::new(Spec::Leaf(Leaf::Int)),
                }),
            },
        )]),
    ];
    for s in specs {
        let c = Case::new(s);
        let g = Geometry::new(&c.tm, 1, 16);
        let src = random_bytes(0, g.len);
        let want = model_pack(&c.tm, 1, &src, &g);
        let mut out = vec![0u8; want.len()];
        let mut pos = 0;
        unsafe {
            pack::pack(
                src.as_ptr().add(g.origin()),
                1,
                &c.dt,
                out.as_mut_ptr(),
                out.len() as i64,
                &mut pos,
            )
            .unwrap()
        };
        println!(
            "{:?}\n dense {} layout {:?}\n got {:?}\n want {:?}",
            c.spec, c.dt.layout.dense, c.dt.layout, out, want
        );
    }
}
