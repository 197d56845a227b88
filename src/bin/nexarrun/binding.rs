//! Pinning ranks to CPUs, as Open MPI's `mpirun` does by default.
//!
//! A rank that waits spins on its rings; when the scheduler puts two spinning ranks on one CPU
//! (it does, now and then, at start-up), every message waits for a time slice: measured here,
//! a 2-rank 64 KiB ping-pong ran 9-10 us or 35 us from one launch to the next, and always
//! 9-10 us with each rank on its own CPU. So when this launcher's ranks fit the CPUs it may use
//! (its own affinity mask, which `taskset` or a batch system may have narrowed), local rank `i`
//! gets the `i`-th of them, before `exec`, so every thread of the rank inherits it. With more
//! ranks than CPUs nothing is pinned: the scheduler balances oversubscribed ranks better than a
//! fixed round robin would.
//!
//! `--bind-to` (nexarrun and mpiexec) or `NEXAR_BIND` chooses: `auto` (the default, as above),
//! `core` / `cpu` / `hwthread` (always pin, round robin over the CPUs), `none`.

/// How the ranks of one launcher are pinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bind {
    /// One CPU per rank when the ranks fit the CPUs, none otherwise.
    Auto,
    /// One CPU per rank, round robin even when oversubscribed.
    Cpu,
    /// No pinning.
    None,
}

impl Bind {
    /// Parses a `--bind-to` / `NEXAR_BIND` value.
    pub fn parse(v: &str) -> Result<Self, String> {
        match v.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Ok(Self::Auto),
            "core" | "cpu" | "hwthread" => Ok(Self::Cpu),
            "none" => Ok(Self::None),
            other => Err(format!(
                "binding '{other}': expected auto, core, cpu, hwthread or none"
            )),
        }
    }

    /// The policy in force: `given` (the command line) or else `NEXAR_BIND`, else `Auto`.
    pub fn resolve(given: Option<Self>) -> Result<Self, String> {
        match given {
            Some(b) => Ok(b),
            None => match std::env::var("NEXAR_BIND") {
                Ok(v) => Self::parse(&v).map_err(|e| format!("NEXAR_BIND: {e}")),
                Err(_) => Ok(Self::Auto),
            },
        }
    }

    /// The CPUs to hand out to `ranks` local ranks, in order (rank `i` gets entry
    /// `i % len`); `None` when nothing is pinned.
    pub fn cpus(self, ranks: u32, allowed: Vec<usize>) -> Option<Vec<usize>> {
        match self {
            _ if allowed.is_empty() => None,
            Self::None => None,
            Self::Auto if ranks as usize > allowed.len() => None,
            Self::Auto | Self::Cpu => Some(allowed),
        }
    }
}

/// The CPUs this process may run on (its affinity mask), in ascending order; empty when the
/// mask cannot be read.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills at most its size.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 is this thread; the size is the set's own.
    let rc =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        return Vec::new();
    }
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: cpu < CPU_SETSIZE, inside the set.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// Pins the calling process to `cpu`. For a forked child before `exec`: only
/// `sched_setaffinity`, which is async-signal-safe.
pub fn pin_to(cpu: usize) -> std::io::Result<()> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: callers pass a CPU from `allowed_cpus`, below CPU_SETSIZE.
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: pid 0 is this process's calling thread (the only one in a child before exec).
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spellings_of_mpiexec_and_refuses_others() {
        assert_eq!(Bind::parse("core"), Ok(Bind::Cpu));
        assert_eq!(Bind::parse("HWTHREAD"), Ok(Bind::Cpu));
        assert_eq!(Bind::parse(" none "), Ok(Bind::None));
        assert_eq!(Bind::parse("auto"), Ok(Bind::Auto));
        assert!(Bind::parse("socket").unwrap_err().contains("socket"));
    }

    #[test]
    fn auto_pins_only_when_the_ranks_fit_the_cpus() {
        assert_eq!(Bind::Auto.cpus(2, vec![4, 5]), Some(vec![4, 5]));
        assert_eq!(Bind::Auto.cpus(3, vec![4, 5]), None);
        assert_eq!(Bind::Cpu.cpus(3, vec![4, 5]), Some(vec![4, 5]));
        assert_eq!(Bind::None.cpus(1, vec![0, 1]), None);
        assert_eq!(
            Bind::Cpu.cpus(1, vec![]),
            None,
            "an unreadable mask pins nothing"
        );
    }

    #[test]
    fn this_process_may_run_somewhere() {
        assert!(!allowed_cpus().is_empty());
    }
}
