//! Helpers shared by the GPU and NCCL tests (also included by `mpi/tests/nccl_route.rs`
//! through `#[path]`): the no-GPU skip, and reading the `key=value` lines of a job.

use std::process::Output;

/// True (after printing the skip note on stdout and stderr) when there is no GPU to test on.
pub fn no_gpu() -> bool {
    if nexar::device::device_count() == 0 {
        println!("SKIPPED: no CUDA device");
        eprintln!("SKIPPED: no CUDA device");
        return true;
    }
    false
}

/// The stdout and stderr of a finished job, after asserting that it succeeded (`what` names
/// the job in the failure, with both outputs).
pub fn job_output(out: &Output, what: &str) -> (String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n{stdout}\n{stderr}",
        out.status
    );
    (stdout, stderr)
}

/// The value after `key` in a line of `key=value` words (panics naming the key when absent).
pub fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line
        .find(key)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + key.len();
    line[at..].split(' ').next().unwrap()
}
