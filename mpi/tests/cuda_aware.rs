//! The CUDA-aware shim in one process (a singleton `MPI_Init`): device buffers through
//! `MPI_Allreduce` (in place too), `MPI_Pack` / `MPI_Unpack` and `MPI_Pack_external` /
//! `MPI_Unpack_external` with a derived vector type (device input, device output), and a
//! `MPI_Sendrecv` to self from a device buffer into a device buffer with that type. Every result
//! is read back with a plain driver copy and compared with the same call on host buffers.
//!
//! Needs the `cuda` feature and a GPU; otherwise it prints "SKIPPED: ..." and checks nothing
//! (`scripts/gpu_check.sh` runs it on a GPU machine, where SKIPPED counts as a failure).

#[cfg(feature = "cuda")]
mod gpu {
    use mpi_abi as _;
    use nexar::device::DeviceBuffer;
    use std::ffi::{c_char, c_int, c_void};
    use std::ptr::null_mut;

    const WORLD: usize = 0x101;
    const INT: usize = 0x209;
    const FLOAT: usize = 0x210;
    const SUM: usize = 0x21;
    /// `MPI_IN_PLACE` of the standard ABI: the address 1.
    #[allow(clippy::manual_dangling_ptr)]
    const IN_PLACE: *const c_void = 1 as *const c_void;
    const EXT32: *const c_char = c"external32".as_ptr();

    unsafe extern "C" {
        fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int;
        fn MPI_Finalize() -> c_int;
        fn MPI_Allreduce(
            s: *const c_void,
            r: *mut c_void,
            n: c_int,
            t: usize,
            op: usize,
            comm: usize,
        ) -> c_int;
        fn MPI_Type_vector(
            n: c_int,
            bl: c_int,
            stride: c_int,
            old: usize,
            new: *mut usize,
        ) -> c_int;
        fn MPI_Type_commit(t: *mut usize) -> c_int;
        fn MPI_Pack(
            i: *const c_void,
            n: c_int,
            t: usize,
            o: *mut c_void,
            size: c_int,
            pos: *mut c_int,
            comm: usize,
        ) -> c_int;
        fn MPI_Unpack(
            i: *const c_void,
            size: c_int,
            pos: *mut c_int,
            o: *mut c_void,
            n: c_int,
            t: usize,
            comm: usize,
        ) -> c_int;
        fn MPI_Pack_external(
            rep: *const c_char,
            i: *const c_void,
            n: c_int,
            t: usize,
            o: *mut c_void,
            size: isize,
            pos: *mut isize,
        ) -> c_int;
        fn MPI_Unpack_external(
            rep: *const c_char,
            i: *const c_void,
            size: isize,
            pos: *mut isize,
            o: *mut c_void,
            n: c_int,
            t: usize,
        ) -> c_int;
        fn MPI_Sendrecv(
            s: *const c_void,
            sn: c_int,
            st: usize,
            dest: c_int,
            stag: c_int,
            r: *mut c_void,
            rn: c_int,
            rt: usize,
            src: c_int,
            rtag: c_int,
            comm: usize,
            status: *mut c_void,
        ) -> c_int;
    }

    fn ok(rc: c_int, what: &str) {
        assert_eq!(rc, 0, "{what} returned {rc}");
    }

    fn bytes_of<T: bytemuck::Pod>(v: &[T]) -> Vec<u8> {
        bytemuck::cast_slice(v).to_vec()
    }

    fn device_with(bytes: &[u8]) -> DeviceBuffer {
        let mut d = DeviceBuffer::new(0, bytes.len()).expect("cuMemAlloc");
        d.write(bytes).expect("upload");
        d
    }

    fn read(d: &DeviceBuffer) -> Vec<u8> {
        let mut v = vec![0u8; d.len()];
        d.read(&mut v).expect("download");
        v
    }

    fn dptr(d: &DeviceBuffer) -> *mut c_void {
        d.ptr() as usize as *mut c_void
    }

    #[test]
    fn device_buffers_through_the_shim() {
        if nexar::device::device_count() == 0 {
            println!("SKIPPED: no CUDA device");
            return;
        }
        // SAFETY: every pointer is a live host vector or device allocation of the size the
        // call implies; the MPI functions are the shim's own.
        unsafe {
            ok(MPI_Init(null_mut(), null_mut()), "MPI_Init");

            // Allreduce over device buffers, out of place and in place (a world of one).
            let x: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
            let send = device_with(&bytes_of(&x));
            let recv = device_with(&vec![0u8; 4000]);
            ok(
                MPI_Allreduce(dptr(&send), dptr(&recv), 1000, FLOAT, SUM, WORLD),
                "Allreduce",
            );
            assert_eq!(read(&recv), bytes_of(&x), "device allreduce");
            ok(
                MPI_Allreduce(IN_PLACE, dptr(&recv), 1000, FLOAT, SUM, WORLD),
                "in place",
            );
            assert_eq!(read(&recv), bytes_of(&x), "device allreduce in place");

            // vector(3, 2, 4, int): ints 0-1, 4-5, 8-9 of each 10-int (40-byte) instance.
            let mut vec_t = 0usize;
            ok(MPI_Type_vector(3, 2, 4, INT, &mut vec_t), "Type_vector");
            ok(MPI_Type_commit(&mut vec_t), "Type_commit");
            let src: Vec<i32> = (0..20).collect();
            let want: Vec<i32> = vec![0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19];
            let dsrc = device_with(&bytes_of(&src));

            // MPI_Pack: device input into host output, then into device output.
            let mut host_out = vec![0u8; 48];
            let mut pos: c_int = 0;
            ok(
                MPI_Pack(
                    dptr(&dsrc),
                    2,
                    vec_t,
                    host_out.as_mut_ptr().cast(),
                    48,
                    &mut pos,
                    WORLD,
                ),
                "Pack",
            );
            assert_eq!(
                (pos, host_out.clone()),
                (48, bytes_of(&want)),
                "Pack from device"
            );
            let dout = device_with(&[0u8; 48]);
            pos = 0;
            ok(
                MPI_Pack(dptr(&dsrc), 2, vec_t, dptr(&dout), 48, &mut pos, WORLD),
                "Pack to device",
            );
            assert_eq!(read(&dout), bytes_of(&want), "Pack into device");

            // MPI_Unpack into a device buffer: the holes keep their contents.
            let holes = device_with(&bytes_of(&[-1i32; 20]));
            pos = 0;
            ok(
                MPI_Unpack(
                    host_out.as_ptr().cast(),
                    48,
                    &mut pos,
                    dptr(&holes),
                    2,
                    vec_t,
                    WORLD,
                ),
                "Unpack",
            );
            let mut expect = vec![-1i32; 20];
            for (k, i) in [0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19]
                .into_iter()
                .enumerate()
            {
                expect[i] = want[k];
            }
            assert_eq!(read(&holes), bytes_of(&expect), "Unpack into device");

            // external32: device input equals host input's packing; device output; unpack back.
            let mut ext_host = vec![0u8; 48];
            let mut ext_dev_in = vec![0u8; 48];
            let mut p: isize = 0;
            ok(
                MPI_Pack_external(
                    EXT32,
                    src.as_ptr().cast(),
                    2,
                    vec_t,
                    ext_host.as_mut_ptr().cast(),
                    48,
                    &mut p,
                ),
                "Pack_external host",
            );
            p = 0;
            ok(
                MPI_Pack_external(
                    EXT32,
                    dptr(&dsrc),
                    2,
                    vec_t,
                    ext_dev_in.as_mut_ptr().cast(),
                    48,
                    &mut p,
                ),
                "Pack_external device",
            );
            assert_eq!(
                (p, &ext_dev_in),
                (48, &ext_host),
                "Pack_external from device"
            );
            let be: Vec<u8> = want.iter().flat_map(|v| v.to_be_bytes()).collect();
            assert_eq!(ext_host, be, "external32 is big-endian");
            let dext = device_with(&[0u8; 48]);
            p = 0;
            ok(
                MPI_Pack_external(EXT32, dptr(&dsrc), 2, vec_t, dptr(&dext), 48, &mut p),
                "Pack_external to device",
            );
            assert_eq!(read(&dext), be, "Pack_external into device");
            let holes2 = device_with(&bytes_of(&[-1i32; 20]));
            p = 0;
            ok(
                MPI_Unpack_external(EXT32, dptr(&dext), 48, &mut p, dptr(&holes2), 2, vec_t),
                "Unpack_external",
            );
            assert_eq!(
                read(&holes2),
                bytes_of(&expect),
                "Unpack_external device to device"
            );

            // Sendrecv to self, device to device, with the vector type on both sides.
            let holes3 = device_with(&bytes_of(&[-1i32; 20]));
            ok(
                MPI_Sendrecv(
                    dptr(&dsrc),
                    2,
                    vec_t,
                    0,
                    7,
                    dptr(&holes3),
                    2,
                    vec_t,
                    0,
                    7,
                    WORLD,
                    null_mut(),
                ),
                "Sendrecv",
            );
            assert_eq!(
                read(&holes3),
                bytes_of(&expect),
                "Sendrecv device to device"
            );

            ok(MPI_Finalize(), "MPI_Finalize");
        }
        println!("cuda-aware shim: allreduce, pack, unpack, external32 and sendrecv on device ok");
    }
}

#[cfg(not(feature = "cuda"))]
#[test]
fn device_buffers_through_the_shim() {
    println!("SKIPPED: nexar-mpi built without the `cuda` feature");
}
