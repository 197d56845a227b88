//! Automatic NCCL routing of the engine's collectives (feature `nccl`).
//!
//! Without a GPU (CI): under nexarrun at 1-4 ranks, `examples/ranks/nccl_auto.rs` runs every
//! routable collective (and the non-routed forms) on host buffers, the world decides "off"
//! (`NcclMissing` where no CUDA driver loads), each process logs the reason exactly once, and
//! every result hashes the same as with `NEXAR_NCCL=off` (today's path, where nothing is set
//! up: `Disabled`, no log line). In process: a communicator stays undecided until its first
//! routable collective (barrier, non-blocking and rooted collectives do not decide), bad
//! arguments fail before any set-up, and `Config::nccl = Off` never sets up; a malformed
//! `NEXAR_NCCL` fails naming the variable.
//!
//! With a GPU (these print `SKIPPED: no CUDA device` here): a single-rank communicator whose
//! first allreduce has a device buffer routes it through NCCL (`On`, the NCCL call counter
//! proves it) with exact results, and a host buffer on it is staged; 2-4 ranks sharing GPU 0
//! fall back with `SharedGpu` and correct results (under nexarrun, and 2 ranks in process).
#![cfg(feature = "nccl")]

mod common;

use common::gpu::{field, job_output, no_gpu};
use common::procs::{example, nexarrun_path};
use nexar::config::NcclMode;
use nexar::device::nccl::{Fallback, NcclState};
use nexar::{Comm, Config, Context, ReduceOp};
use std::process::Command;

/// Runs `f(world)` on every rank of an in-process world of `n` made with `cfg`, in parallel.
fn on_ranks<R: Send>(n: usize, cfg: Config, f: impl Fn(&Comm) -> R + Sync) -> Vec<R> {
    let ctxs = Context::in_process_with(n, cfg).unwrap();
    std::thread::scope(|s| {
        let hs: Vec<_> = ctxs.iter().map(|c| s.spawn(|| f(c.world()))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// One rank's summary line of the example.
#[derive(Debug)]
struct Line {
    rank: u32,
    state: String,
    nccl: u64,
    staged: u64,
    hash: String,
    rest: String,
}

fn run_example(n: u32, nccl: &str, arg: Option<&str>) -> (Vec<Line>, String) {
    let mut cmd = Command::new(nexarrun_path());
    cmd.args(["-n", &n.to_string(), "--timeout", "200", "--"])
        .arg(example("nccl_auto"))
        .args(arg)
        .env("NEXAR_NCCL", nccl)
        .env("NEXAR_LOG", "info");
    let out = cmd.output().expect("nexarrun starts");
    let (stdout, stderr) = job_output(&out, &format!("n={n} NEXAR_NCCL={nccl}"));
    let mut lines: Vec<Line> = stdout
        .lines()
        .filter(|l| l.contains("nccl_auto ok"))
        .map(|l| Line {
            rank: l["rank ".len()..]
                .split('/')
                .next()
                .unwrap()
                .parse()
                .unwrap(),
            state: field(l, "state=").to_string(),
            nccl: field(l, "nccl=").parse().unwrap(),
            staged: field(l, "staged=").parse().unwrap(),
            hash: field(l, "hash=").to_string(),
            rest: l.to_string(),
        })
        .collect();
    lines.sort_by_key(|l| l.rank);
    assert_eq!(
        lines.len(),
        n as usize,
        "one line per rank:\n{stdout}\n{stderr}"
    );
    (lines, stderr)
}

fn fallback_logs(stderr: &str) -> usize {
    stderr
        .matches("NCCL not used, staged CUDA path instead")
        .count()
}

#[test]
fn auto_falls_back_logs_once_and_gives_the_results_of_nccl_off() {
    for n in 1..=4u32 {
        let (auto, auto_err) = run_example(n, "auto", None);
        let (off, off_err) = run_example(n, "off", None);
        for (a, o) in auto.iter().zip(&off) {
            assert!(a.state.starts_with("Off("), "n={n}: {}", a.rest);
            if nexar::device::device_count() == 0 {
                assert_eq!(a.state, "Off(NcclMissing)", "n={n}: {}", a.rest);
            }
            assert_eq!((a.nccl, a.staged), (0, 0), "off costs nothing: {}", a.rest);
            assert_eq!(o.state, "Disabled", "n={n}: {}", o.rest);
            assert_eq!(a.hash, o.hash, "n={n} rank {}: results differ", a.rank);
        }
        // One line per process for the world's decision (a dup's identical reason is not
        // logged again), none when NCCL is off.
        assert_eq!(fallback_logs(&auto_err), n as usize, "n={n}:\n{auto_err}");
        assert_eq!(fallback_logs(&off_err), 0, "n={n}:\n{off_err}");
    }
}

#[test]
fn a_communicator_decides_on_its_first_routable_collective_only() {
    for n in [1, 3] {
        on_ranks(n, Config::default(), |w| {
            let (r, size) = (w.rank(), w.size());
            assert_eq!(w.nccl_status().state, NcclState::Undecided);
            // Bad arguments fail on this rank before any set-up.
            let mut f = [1.0f32; 4];
            assert!(w.allreduce_blocking(&mut f, ReduceOp::Land).is_err());
            assert!(w.bcast_blocking(&mut f, size).is_err());
            // Entries that do not route leave it undecided.
            w.barrier_blocking().unwrap();
            let v = w.iallreduce(vec![r as u64; 3], ReduceOp::Sum).unwrap();
            let want = (0..size as u64).sum::<u64>();
            assert_eq!(v.wait().unwrap(), vec![want; 3]);
            let mut g = vec![0u32; size as usize];
            w.gather_blocking(&[r], &mut g, 0).unwrap();
            assert_eq!(w.nccl_status().state, NcclState::Undecided);
            // The first allreduce decides (off without a driver) and gives the right sum.
            let mut x = vec![r as i64 + 1; 1000];
            w.allreduce_blocking(&mut x, ReduceOp::Sum).unwrap();
            assert_eq!(x, vec![(1..=size as i64).sum::<i64>(); 1000]);
            let s = w.nccl_status();
            match &s.state {
                NcclState::Off(_) if !nexar::device::available() => {
                    assert_eq!(s.state, NcclState::Off(Fallback::NcclMissing))
                }
                NcclState::Off(_) => {}
                other => panic!("host buffers and no current context: {other:?}"),
            }
            assert_eq!((s.nccl_calls, s.staged_calls), (0, 0));
            // Later calls keep the decision.
            let mut b = vec![r; 5];
            w.bcast_blocking(&mut b, size - 1).unwrap();
            assert_eq!(b, vec![size - 1; 5]);
            assert_eq!(w.nccl_status(), s);
        });
    }
}

#[test]
fn nccl_off_in_the_config_never_sets_up() {
    let cfg = Config {
        nccl: NcclMode::Off,
        ..Config::default()
    };
    on_ranks(2, cfg, |w| {
        let mut x = [w.rank() as i32; 8];
        w.allreduce_blocking(&mut x, ReduceOp::Max).unwrap();
        assert_eq!(x, [1; 8]);
        let mut all = [0u8; 2];
        w.allgather_blocking(&[w.rank() as u8], &mut all).unwrap();
        assert_eq!(all, [0, 1]);
        let s = w.nccl_status();
        assert_eq!(s.state, NcclState::Disabled);
        assert_eq!((s.nccl_calls, s.staged_calls), (0, 0));
    });
}

fn device_vec<T: bytemuck::Pod>(v: &[T]) -> nexar::device::DeviceBuffer {
    let mut d = nexar::device::DeviceBuffer::new(0, std::mem::size_of_val(v)).unwrap();
    d.write(bytemuck::cast_slice(v)).unwrap();
    d
}

fn host_vec<T: bytemuck::Pod + Default + Clone>(d: &nexar::device::DeviceBuffer) -> Vec<T> {
    let mut v = vec![T::default(); d.len() / std::mem::size_of::<T>()];
    d.read(bytemuck::cast_slice_mut(&mut v)).unwrap();
    v
}

#[test]
fn single_rank_device_buffer_routes_to_nccl() {
    if no_gpu() {
        return;
    }
    on_ranks(1, Config::default(), |w| {
        let input: Vec<f32> = (0..(1 << 20)).map(|i| (i % 1001) as f32 - 500.0).collect();
        let mut d = device_vec(&input);
        // SAFETY: device memory, only handed to nexar.
        w.allreduce_blocking(unsafe { d.as_slice_mut::<f32>() }, ReduceOp::Sum)
            .unwrap();
        assert_eq!(
            host_vec::<f32>(&d),
            input,
            "1-rank allreduce is the identity"
        );
        let s = w.nccl_status();
        if s.state == NcclState::Off(Fallback::NcclMissing) {
            println!("SKIPPED: libnccl not loadable (fallback checked only)");
            return;
        }
        assert_eq!(s.state, NcclState::On, "{s:?}");
        assert_eq!((s.nccl_calls, s.staged_calls), (1, 0));
        // SAFETY: as above.
        w.bcast_blocking(unsafe { d.as_slice_mut::<f32>() }, 0)
            .unwrap();
        assert_eq!(host_vec::<f32>(&d), input);
        // A host buffer on the same communicator takes the staged path.
        let mut h = vec![3i64; 10];
        w.allreduce_blocking(&mut h, ReduceOp::Sum).unwrap();
        assert_eq!(h, vec![3; 10]);
        assert_eq!(
            (w.nccl_status().nccl_calls, w.nccl_status().staged_calls),
            (2, 1)
        );
    });
}

#[test]
fn ranks_sharing_one_gpu_fall_back_in_process() {
    if no_gpu() {
        return;
    }
    on_ranks(2, Config::default(), |w| {
        let mine: Vec<i64> = (0..5000).map(|i| i * (w.rank() as i64 + 1)).collect();
        let mut d = device_vec(&mine);
        // SAFETY: device memory, only handed to nexar.
        w.allreduce_blocking(unsafe { d.as_slice_mut::<i64>() }, ReduceOp::Sum)
            .unwrap();
        let want: Vec<i64> = (0..5000).map(|i| i * 3).collect();
        assert_eq!(host_vec::<i64>(&d), want);
        match w.nccl_status().state {
            NcclState::Off(Fallback::SharedGpu { ordinal: 0, .. }) => {}
            NcclState::Off(Fallback::NcclMissing) => println!("SKIPPED: libnccl not loadable"),
            other => panic!("2 ranks on GPU 0: {other:?}"),
        }
    });
}

#[test]
fn ranks_sharing_one_gpu_fall_back_under_nexarrun() {
    if no_gpu() {
        return;
    }
    for n in 2..=4 {
        let (lines, _) = run_example(n, "auto", Some("device"));
        for l in &lines {
            assert!(l.rest.contains("device=checked"), "{}", l.rest);
            let d = field(&l.rest, "dstate=");
            assert!(
                d.starts_with("Off(SharedGpu") || d == "Off(NcclMissing)",
                "n={n}: {}",
                l.rest
            );
        }
    }
}

#[test]
fn a_bad_nexar_nccl_value_is_an_error_naming_it() {
    let out = Command::new(nexarrun_path())
        .args(["-n", "2", "--timeout", "60", "--"])
        .arg(example("nccl_auto"))
        .env("NEXAR_NCCL", "sometimes")
        .output()
        .expect("nexarrun starts");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("NEXAR_NCCL=\"sometimes\""), "{all}");
    assert!(!all.contains("nccl_auto ok"), "{all}");
}
