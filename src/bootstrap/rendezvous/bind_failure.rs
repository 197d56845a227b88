//! Fail fast when rank 0 cannot host the rendezvous at the address a scheduler's variables
//! derive (a taken port): rank 0 leaves a note in `/dev/shm` under the job's id, and the ranks
//! of its host that wait for the rendezvous read it and fail at once with rank 0's reason,
//! instead of waiting out the connect timeout. Ranks on other hosts still wait (with their
//! periodic notices): they share no file with rank 0.
//!
//! The note is keyed by the job id (derived from the secret), so a secret file reused across
//! jobs could meet an old note: a note older than the reading process is ignored, and a rank 0
//! that binds removes any note left under its id.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// Where the note of job `job_id` lives.
fn path(job_id: &str) -> PathBuf {
    PathBuf::from(format!("/dev/shm/nexar-{job_id}-rendezvous-failed"))
}

/// Rank 0 could not bind: records `reason` for the waiting ranks of this host (best effort).
pub fn record(job_id: &str, reason: &str) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let p = path(job_id);
    let _ = std::fs::remove_file(&p);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&p)
    {
        let _ = f.write_all(reason.as_bytes());
    }
}

/// Rank 0 hosts the rendezvous: an old note under this job id is stale.
pub fn clear(job_id: &str) {
    let _ = std::fs::remove_file(path(job_id));
}

/// The reason rank 0 recorded, when a note newer than this process (less `slack`) exists.
pub fn recorded(job_id: &str, slack: Duration) -> Option<String> {
    let p = path(job_id);
    let written = std::fs::metadata(&p).and_then(|m| m.modified()).ok()?;
    let started = process_start().unwrap_or(SystemTime::UNIX_EPOCH);
    if written + slack < started {
        return None;
    }
    std::fs::read_to_string(p).ok()
}

/// When this process started: the boot time (`btime` of `/proc/stat`) plus its start time in
/// clock ticks (field 22 of `/proc/self/stat`).
fn process_start() -> Option<SystemTime> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let after = &stat[stat.rfind(')')? + 2..];
    let ticks: u64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let boot: u64 = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    // SAFETY: sysconf only reads a system constant.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()?
        .max(1);
    Some(
        SystemTime::UNIX_EPOCH
            + Duration::from_secs(boot)
            + Duration::from_millis(ticks * 1000 / hz),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_read_once_written_and_gone_once_cleared() {
        let id = format!("test-{}", std::process::id());
        assert_eq!(recorded(&id, Duration::from_secs(60)), None);
        record(&id, "address in use");
        assert_eq!(
            recorded(&id, Duration::from_secs(60)).as_deref(),
            Some("address in use")
        );
        clear(&id);
        assert_eq!(recorded(&id, Duration::from_secs(60)), None);
    }

    #[test]
    fn this_process_started_in_the_last_hour() {
        let t = process_start().expect("start time from /proc");
        let age = SystemTime::now()
            .duration_since(t)
            .expect("not in the future");
        assert!(age < Duration::from_secs(3600), "{age:?}");
    }
}
