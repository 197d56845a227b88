//! Automatic NCCL routing of the shim's blocking collectives (feature `nccl`).
//!
//! The test binary re-executes itself as the ranks of a job under `nexarrun` (found next to
//! the test's `deps` directory, built by `cargo build -p nexar --features nccl --bins`, or
//! `NEXAR_TEST_NEXARRUN`; missing, the tests fail saying so). Each rank runs [`rank`]:
//!
//! - Without a GPU (CI), at 1-3 ranks: a non-blocking `MPI_Iallreduce` first (it must leave
//!   `MPI_COMM_WORLD` undecided: non-blocking calls never route), then blocking
//!   `MPI_Allreduce` (int sum, double max; in place and not; 1 to 70 000 elements),
//!   `MPI_Bcast`, `MPI_Allgather` (in place and not), `MPI_Reduce_scatter_block` (in place
//!   and not) and `MPI_Reduce_scatter` with equal counts, plus ranks describing the same data
//!   with different datatypes (a contiguous derived type on rank 0 against `MPI_INT`
//!   elsewhere; a strided vector receive type on odd ranks), every result checked against
//!   values computed locally. The world must then be `Off(NcclMissing)` (no CUDA driver
//!   here: proof that the blocking calls took the decision) and every rank's result hash
//!   must equal the `NEXAR_NCCL=off` run's (`Disabled`).
//! - With a GPU (prints `SKIPPED: no CUDA device` here): one rank, `MPI_Allreduce` from a
//!   device buffer into a device buffer is routed (`On`, one NCCL call) with exact results.
#![cfg(feature = "nccl")]

#[path = "../../tests/common/gpu.rs"]
mod gpu;

use gpu::{field, job_output, no_gpu};
use mpi_abi::consts::{MPI_COMM_WORLD, MPI_Comm, MPI_Datatype, MPI_IN_PLACE, MPI_Op};
use nexar::device::nccl::NcclStatus;
use std::ffi::{c_char, c_int, c_void};
use std::path::PathBuf;
use std::process::Command;
use std::ptr::null_mut;

const INT: MPI_Datatype = 0x209;
const FLOAT: MPI_Datatype = 0x210;
const DOUBLE: MPI_Datatype = 0x214;
const SUM: MPI_Op = 0x21;
const MAX: MPI_Op = 0x23;
/// `MPI_IN_PLACE` (the address 1).
const IN_PLACE: *const c_void = MPI_IN_PLACE as *const c_void;
/// The variable that turns a run of this binary into a rank (`host` or `gpu`).
const ROLE: &str = "NEXAR_TEST_NCCL_ROUTE_RANK";

unsafe extern "C" {
    fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int;
    fn MPI_Finalize() -> c_int;
    fn MPI_Comm_rank(c: MPI_Comm, r: *mut c_int) -> c_int;
    fn MPI_Comm_size(c: MPI_Comm, r: *mut c_int) -> c_int;
    fn MPI_Allreduce(
        s: *const c_void,
        r: *mut c_void,
        n: c_int,
        t: MPI_Datatype,
        op: MPI_Op,
        c: MPI_Comm,
    ) -> c_int;
    fn MPI_Iallreduce(
        s: *const c_void,
        r: *mut c_void,
        n: c_int,
        t: MPI_Datatype,
        op: MPI_Op,
        c: MPI_Comm,
        req: *mut usize,
    ) -> c_int;
    fn MPI_Wait(req: *mut usize, st: *mut c_void) -> c_int;
    fn MPI_Bcast(b: *mut c_void, n: c_int, t: MPI_Datatype, root: c_int, c: MPI_Comm) -> c_int;
    fn MPI_Allgather(
        s: *const c_void,
        sn: c_int,
        st: MPI_Datatype,
        r: *mut c_void,
        rn: c_int,
        rt: MPI_Datatype,
        c: MPI_Comm,
    ) -> c_int;
    fn MPI_Reduce_scatter_block(
        s: *const c_void,
        r: *mut c_void,
        n: c_int,
        t: MPI_Datatype,
        op: MPI_Op,
        c: MPI_Comm,
    ) -> c_int;
    fn MPI_Reduce_scatter(
        s: *const c_void,
        r: *mut c_void,
        counts: *const c_int,
        t: MPI_Datatype,
        op: MPI_Op,
        c: MPI_Comm,
    ) -> c_int;
    fn MPI_Type_contiguous(n: c_int, old: MPI_Datatype, new: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_vector(
        n: c_int,
        bl: c_int,
        stride: c_int,
        old: MPI_Datatype,
        new: *mut MPI_Datatype,
    ) -> c_int;
    fn MPI_Type_commit(t: *mut MPI_Datatype) -> c_int;
    fn MPI_Type_free(t: *mut MPI_Datatype) -> c_int;
}

fn ok(rc: c_int, what: &str) {
    assert_eq!(rc, 0, "{what} failed with error {rc}");
}

/// `send` as an MPI send buffer (`None`: `MPI_IN_PLACE`).
fn source<T>(send: Option<&[T]>) -> *const c_void {
    send.map_or(IN_PLACE, |s| s.as_ptr().cast())
}

/// `MPI_Allreduce` on `MPI_COMM_WORLD` from `send` (`None`: in place) into `recv`, checked
/// (`what` names the call in a failure).
///
/// # Safety
/// `send` and `recv` must hold `n` elements of `t`.
unsafe fn allreduce<T>(
    send: Option<&[T]>,
    recv: &mut [T],
    n: usize,
    t: MPI_Datatype,
    op: MPI_Op,
    what: &str,
) {
    let (s, r) = (source(send), recv.as_mut_ptr().cast());
    // SAFETY: per the contract.
    ok(
        unsafe { MPI_Allreduce(s, r, n as c_int, t, op, MPI_COMM_WORLD) },
        what,
    );
}

/// `MPI_Reduce_scatter_block` on `MPI_COMM_WORLD` of blocks of `recv.len()` floats from
/// `send` (`None`: in place, `recv` holds every block), checked (`what` names the call).
fn reduce_scatter_block(send: Option<&[f32]>, recv: &mut [f32], what: &str) {
    let (_, size) = rank_and_size();
    let per = send.map_or(recv.len() / size, |_| recv.len());
    assert_eq!(
        send.map_or(recv.len(), <[f32]>::len),
        per * size,
        "{what}: input size"
    );
    let (s, r) = (source(send), recv.as_mut_ptr().cast());
    // SAFETY: `per * size` floats of input, `per` of output (checked above).
    ok(
        unsafe { MPI_Reduce_scatter_block(s, r, per as c_int, FLOAT, SUM, MPI_COMM_WORLD) },
        what,
    );
}

fn world_status() -> NcclStatus {
    mpi_abi::state::comm(MPI_COMM_WORLD)
        .expect("MPI_COMM_WORLD")
        .nccl_status()
}

/// An FNV-1a hash of every result, so runs can be compared.
#[derive(Default)]
struct Hash(u64);

impl Hash {
    fn add<T: bytemuck::Pod>(&mut self, v: &[T]) {
        for b in bytemuck::cast_slice::<T, u8>(v) {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// The rank of a job started by the tests below (does nothing in a plain `cargo test` run).
#[test]
fn rank() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    // SAFETY: MPI_Init accepts NULL arguments.
    ok(unsafe { MPI_Init(null_mut(), null_mut()) }, "MPI_Init");
    match role.as_str() {
        "host" => host_rank(),
        "gpu" => gpu_rank(),
        other => panic!("{ROLE}={other}: expected host or gpu"),
    }
    // SAFETY: initialised above.
    ok(unsafe { MPI_Finalize() }, "MPI_Finalize");
}

fn rank_and_size() -> (usize, usize) {
    let (mut r, mut n) = (0, 0);
    // SAFETY: out-parameters on a live world.
    unsafe {
        ok(MPI_Comm_rank(MPI_COMM_WORLD, &mut r), "MPI_Comm_rank");
        ok(MPI_Comm_size(MPI_COMM_WORLD, &mut n), "MPI_Comm_size");
    }
    (r as usize, n as usize)
}

fn host_rank() {
    let (r, n) = rank_and_size();
    let w = MPI_COMM_WORLD;
    let mut h = Hash::default();
    let tri = (n * (n + 1) / 2) as i32;

    // Non-blocking first: it must not decide the communicator.
    let send = [r as i32 + 1; 10];
    let mut recv = [0i32; 10];
    let mut req = 0usize;
    // SAFETY: buffers of 10 ints, alive until MPI_Wait.
    unsafe {
        ok(
            MPI_Iallreduce(
                send.as_ptr().cast(),
                recv.as_mut_ptr().cast(),
                10,
                INT,
                SUM,
                w,
                &mut req,
            ),
            "MPI_Iallreduce",
        );
        ok(MPI_Wait(&mut req, null_mut()), "MPI_Wait");
    }
    assert_eq!(recv, [tri; 10]);
    let before = world_status().state;

    for len in [1usize, 7, 1000, 70_000] {
        let send: Vec<i32> = (0..len).map(|i| (r as i32 + 1) * (i % 97) as i32).collect();
        let want: Vec<i32> = (0..len).map(|i| tri * (i % 97) as i32).collect();
        let mut recv = vec![0i32; len];
        // SAFETY: `len` ints each.
        unsafe { allreduce(Some(&send), &mut recv, len, INT, SUM, "MPI_Allreduce") };
        assert_eq!(recv, want, "int sum of {len}");
        h.add(&recv);
        let mut inplace = send.clone();
        // SAFETY: as above.
        unsafe { allreduce(None, &mut inplace, len, INT, SUM, "MPI_Allreduce in place") };
        assert_eq!(inplace, want, "in-place int sum of {len}");
        let dsend: Vec<f64> = (0..len).map(|i| r as f64 * 0.5 + i as f64).collect();
        let mut drecv = vec![0f64; len];
        // SAFETY: `len` doubles each.
        unsafe {
            allreduce(
                Some(&dsend),
                &mut drecv,
                len,
                DOUBLE,
                MAX,
                "MPI_Allreduce max",
            )
        };
        let dwant: Vec<f64> = (0..len).map(|i| (n - 1) as f64 * 0.5 + i as f64).collect();
        assert_eq!(drecv, dwant, "double max of {len}");
        h.add(&drecv);
    }

    // Bcast from the last rank.
    let root = n - 1;
    let full: Vec<f64> = (0..1000).map(|i| i as f64 * 1.5 + root as f64).collect();
    let mut b = if r == root {
        full.clone()
    } else {
        vec![0.0; 1000]
    };
    // SAFETY: 1000 doubles.
    ok(
        unsafe { MPI_Bcast(b.as_mut_ptr().cast(), 1000, DOUBLE, root as c_int, w) },
        "MPI_Bcast",
    );
    assert_eq!(b, full, "bcast");
    h.add(&b);

    // Allgather, then in place.
    let block = 5;
    let mine: Vec<i32> = (0..block).map(|j| (r * 100 + j) as i32).collect();
    let all: Vec<i32> = (0..n * block)
        .map(|k| ((k / block) * 100 + k % block) as i32)
        .collect();
    let mut got = vec![0i32; n * block];
    // SAFETY: `block` and `n * block` ints.
    ok(
        unsafe {
            MPI_Allgather(
                mine.as_ptr().cast(),
                5,
                INT,
                got.as_mut_ptr().cast(),
                5,
                INT,
                w,
            )
        },
        "MPI_Allgather",
    );
    assert_eq!(got, all, "allgather");
    let mut inplace = vec![-1i32; n * block];
    inplace[r * block..][..block].copy_from_slice(&mine);
    // SAFETY: `n * block` ints.
    ok(
        unsafe { MPI_Allgather(IN_PLACE, 0, INT, inplace.as_mut_ptr().cast(), 5, INT, w) },
        "MPI_Allgather in place",
    );
    assert_eq!(inplace, all, "in-place allgather");
    h.add(&got);

    // Reduce-scatter with equal blocks: block, in place, and the counts form.
    let per = 3;
    let rs_send: Vec<f32> = (0..n * per).map(|k| (r + 1) as f32 * k as f32).collect();
    let rs_want: Vec<f32> = (r * per..(r + 1) * per)
        .map(|k| tri as f32 * k as f32)
        .collect();
    let mut rs = vec![0f32; per];
    reduce_scatter_block(Some(&rs_send), &mut rs, "MPI_Reduce_scatter_block");
    assert_eq!(rs, rs_want, "reduce_scatter_block");
    h.add(&rs);
    let mut rs_in = rs_send.clone();
    reduce_scatter_block(None, &mut rs_in, "MPI_Reduce_scatter_block in place");
    assert_eq!(rs_in[..per], rs_want[..], "in-place reduce_scatter_block");
    let counts = vec![per as c_int; n];
    let mut rs_v = vec![0f32; per];
    // SAFETY: as above, `n` counts.
    ok(
        unsafe {
            MPI_Reduce_scatter(
                rs_send.as_ptr().cast(),
                rs_v.as_mut_ptr().cast(),
                counts.as_ptr(),
                FLOAT,
                SUM,
                w,
            )
        },
        "MPI_Reduce_scatter",
    );
    assert_eq!(rs_v, rs_want, "reduce_scatter, equal counts");

    mixed_datatypes(r, n, &mut h);

    let after = world_status();
    println!(
        "nccl_route ok rank {r}/{n} before={:?} state={:?} nccl={} staged={} hash={:016x}",
        before, after.state, after.nccl_calls, after.staged_calls, h.0
    );
}

/// Ranks describing the same data with different datatypes must still match.
fn mixed_datatypes(r: usize, n: usize, h: &mut Hash) {
    let w = MPI_COMM_WORLD;
    let tri = (n * (n + 1) / 2) as i32;
    let len = 64;
    let send: Vec<i32> = (0..len).map(|i| (r as i32 + 1) * i).collect();
    let mut recv = vec![0i32; len as usize];
    let mut quad: MPI_Datatype = 0;
    let mut strided: MPI_Datatype = 0;
    // SAFETY: type constructors with out-parameters.
    unsafe {
        ok(
            MPI_Type_contiguous(4, INT, &mut quad),
            "MPI_Type_contiguous",
        );
        ok(MPI_Type_commit(&mut quad), "MPI_Type_commit");
        ok(
            MPI_Type_vector(len, 1, 2, INT, &mut strided),
            "MPI_Type_vector",
        );
        ok(MPI_Type_commit(&mut strided), "MPI_Type_commit");
    }
    let (count, ty) = if r == 0 { (len / 4, quad) } else { (len, INT) };
    // SAFETY: `len` ints, described either way.
    unsafe {
        allreduce(
            Some(&send),
            &mut recv,
            count as usize,
            ty,
            SUM,
            "MPI_Allreduce (mixed types)",
        )
    };
    assert_eq!(
        recv,
        (0..len).map(|i| tri * i).collect::<Vec<_>>(),
        "mixed-type allreduce"
    );
    h.add(&recv);
    // Bcast from rank 0 into a strided layout on odd ranks (every other int).
    let full: Vec<i32> = (0..len).map(|i| 7 * i + 1).collect();
    let mut spread = vec![-1i32; 2 * len as usize];
    let mut dense = if r == 0 {
        full.clone()
    } else {
        vec![0; len as usize]
    };
    // SAFETY: `2 * len` ints for the strided type, `len` for the dense one.
    let rc = unsafe {
        if r % 2 == 1 {
            MPI_Bcast(spread.as_mut_ptr().cast(), 1, strided, 0, w)
        } else {
            MPI_Bcast(dense.as_mut_ptr().cast(), len, INT, 0, w)
        }
    };
    ok(rc, "MPI_Bcast (mixed types)");
    if r % 2 == 1 {
        let even: Vec<i32> = spread.iter().step_by(2).copied().collect();
        assert_eq!(even, full, "strided bcast");
        assert!(
            spread.iter().skip(1).step_by(2).all(|&x| x == -1),
            "gaps untouched"
        );
    } else {
        assert_eq!(dense, full, "dense bcast");
    }
    // SAFETY: committed types.
    unsafe {
        ok(MPI_Type_free(&mut quad), "MPI_Type_free");
        ok(MPI_Type_free(&mut strided), "MPI_Type_free");
    }
}

fn gpu_rank() {
    use nexar::device::DeviceBuffer;
    let len = 1 << 20;
    let host: Vec<i32> = (0..len).map(|i| i * 3 - 7).collect();
    let mut send = DeviceBuffer::new(0, len as usize * 4).unwrap();
    send.write(bytemuck::cast_slice(&host)).unwrap();
    let recv = DeviceBuffer::new(0, len as usize * 4).unwrap();
    let (s, d) = (send.ptr() as *const c_void, recv.ptr() as *mut c_void);
    // SAFETY: device buffers of `len` ints, only handed to the shim.
    ok(
        unsafe { MPI_Allreduce(s, d, len, INT, SUM, MPI_COMM_WORLD) },
        "MPI_Allreduce (device)",
    );
    let mut back = vec![0i32; len as usize];
    recv.read(bytemuck::cast_slice_mut(&mut back)).unwrap();
    assert_eq!(back, host, "one rank: the sum is the input");
    let st = world_status();
    println!(
        "nccl_route gpu ok state={:?} nccl={} staged={}",
        st.state, st.nccl_calls, st.staged_calls
    );
}

/// `nexarrun` of this build: `target/<profile>/nexarrun` next to this test's `deps`.
fn nexarrun() -> PathBuf {
    if let Some(p) = std::env::var_os("NEXAR_TEST_NEXARRUN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("test executable path");
    let p = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>")
        .join("nexarrun");
    assert!(
        p.exists(),
        "{} is missing: build it first with `cargo build -p nexar --features nccl --bins` \
         (same profile as this test), or set NEXAR_TEST_NEXARRUN",
        p.display()
    );
    p
}

/// Runs this binary as `n` ranks in `role` with `NEXAR_NCCL=nccl`; the ranks' `nccl_route`
/// lines, sorted by rank.
fn job(n: u32, role: &str, nccl: &str) -> Vec<String> {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(nexarrun())
        .args(["-n", &n.to_string(), "--timeout", "120", "--"])
        .arg(exe)
        .args(["--exact", "rank", "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .env("NEXAR_NCCL", nccl)
        .output()
        .expect("nexarrun starts");
    let (stdout, stderr) = job_output(&out, &format!("n={n} {role} NEXAR_NCCL={nccl}"));
    let mut lines: Vec<String> = stdout
        .lines()
        // The harness may print "test rank ... " before it on the same line.
        .filter_map(|l| l.find("nccl_route ").map(|at| l[at..].to_string()))
        .collect();
    // "rank R/N" (the GPU line has no rank: one rank).
    lines.sort_by_key(|l| {
        l.split("rank ")
            .nth(1)
            .and_then(|t| t.split('/').next()?.parse::<u32>().ok())
            .unwrap_or(0)
    });
    assert_eq!(
        lines.len(),
        n as usize,
        "one line per rank:\n{stdout}\n{stderr}"
    );
    lines
}

#[test]
fn blocking_collectives_decide_off_and_match_nccl_off() {
    let no_gpu = nexar::device::device_count() == 0;
    for n in 1..=3u32 {
        let auto = job(n, "host", "auto");
        let off = job(n, "host", "off");
        for (a, o) in auto.iter().zip(&off) {
            assert_eq!(
                field(a, "before="),
                "Undecided",
                "non-blocking must not decide: {a}"
            );
            if no_gpu {
                assert_eq!(field(a, "state="), "Off(NcclMissing)", "{a}");
            } else {
                assert!(field(a, "state=").starts_with("Off("), "host buffers: {a}");
            }
            assert_eq!((field(a, "nccl="), field(a, "staged=")), ("0", "0"), "{a}");
            assert_eq!(field(o, "state="), "Disabled", "{o}");
            assert_eq!(
                field(a, "hash="),
                field(o, "hash="),
                "n={n}: results differ\n{a}\n{o}"
            );
        }
    }
}

#[test]
fn a_device_allreduce_on_one_rank_routes_through_nccl() {
    if no_gpu() {
        return;
    }
    let lines = job(1, "gpu", "auto");
    assert_eq!(field(&lines[0], "state="), "On", "{}", lines[0]);
    assert_eq!(field(&lines[0], "nccl="), "1", "{}", lines[0]);
}
