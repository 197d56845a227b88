//! Host lists (`-H a,b:2`) and hostfiles (`host slots=N` / `host:N` lines) for `mpiexec`.
//!
//! Hosts that are this machine (by name, `localhost`, a loopback address, or one of its own
//! addresses) run their ranks here; the others make a job across hosts
//! (see [`crate::mpiexec_hosts`]).

use std::net::IpAddr;

/// One host entry and the number of slots it offers (`None`: not stated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSlots {
    /// The host name or address as written.
    pub host: String,
    /// Its slots, when given (`slots=N`, `host:N`).
    pub slots: Option<u32>,
}

/// Parses a comma-separated host list: `a,b`, `a:2,b:4` (slots after a colon).
pub fn parse_host_list(list: &str) -> Result<Vec<HostSlots>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(|h| host_colon_slots(h, "host list"))
        .collect()
}

/// `host` or `host:N` (a bare IPv6 address keeps its colons).
fn host_colon_slots(entry: &str, what: &str) -> Result<HostSlots, String> {
    if entry.parse::<IpAddr>().is_ok() {
        return Ok(HostSlots {
            host: entry.to_string(),
            slots: None,
        });
    }
    match entry.rsplit_once(':') {
        Some((host, n)) => Ok(HostSlots {
            host: host.to_string(),
            slots: Some(parse_slots(n, what, entry)?),
        }),
        None => Ok(HostSlots {
            host: entry.to_string(),
            slots: None,
        }),
    }
}

fn parse_slots(n: &str, what: &str, entry: &str) -> Result<u32, String> {
    match n.trim().parse::<u32>() {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(format!("bad slot count '{n}' in {what} entry '{entry}'")),
    }
}

/// Parses a hostfile (Open MPI `host slots=N max_slots=M` and MPICH `host:N` lines; `#`
/// comments and blank lines ignored).
pub fn parse_hostfile(text: &str, name: &str) -> Result<Vec<HostSlots>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let what = format!("hostfile {name}, line {}", i + 1);
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        let mut entry = host_colon_slots(first, &what)?;
        for w in words {
            let (key, value) = w.split_once('=').unwrap_or((w, ""));
            match key {
                "slots" | "cpu" | "cpus" => entry.slots = Some(parse_slots(value, &what, w)?),
                // Upper bounds and MPICH per-host options do not change the count.
                "max_slots" | "max-slots" | "ifhn" | "env" => {}
                _ => return Err(format!("{what}: unknown attribute '{w}'")),
            }
        }
        out.push(entry);
    }
    Ok(out)
}

/// Total slots of a host list: stated slots, 1 for each host without a count.
pub fn total_slots(hosts: &[HostSlots]) -> u64 {
    hosts.iter().map(|h| u64::from(h.slots.unwrap_or(1))).sum()
}

/// This machine's host name (empty when it cannot be read).
pub fn this_hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: buf is valid for writes of its whole length; gethostname NUL-terminates within it
    // when the name fits (and we cut at the first NUL or the end either way).
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Whether `host` names this machine, given its host name `me`: `localhost`, a loopback
/// address, or `me` (compared case-insensitively, with or without its domain).
pub fn is_local(host: &str, me: &str) -> bool {
    let h = host.trim().trim_end_matches('.').to_ascii_lowercase();
    if h == "localhost" || h.ends_with(".localhost") || h == "localhost.localdomain" {
        return true;
    }
    let bracketed = h.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bracketed.parse::<IpAddr>() {
        return ip.is_loopback();
    }
    let me = me.trim().to_ascii_lowercase();
    if me.is_empty() {
        return false;
    }
    let short = |s: &str| s.split('.').next().unwrap_or("").to_string();
    h == me || (short(&h) == short(&me) && (!h.contains('.') || !me.contains('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_lists_with_and_without_slots() {
        let h = parse_host_list("localhost,127.0.0.1:3, ::1").unwrap();
        assert_eq!(h.len(), 3);
        assert_eq!(h[1].slots, Some(3));
        assert_eq!(h[2].host, "::1");
        assert_eq!(total_slots(&h), 5);
        assert!(parse_host_list("localhost:x").is_err());
        assert!(parse_host_list("localhost:0").is_err());
    }

    #[test]
    fn hostfiles_in_both_dialects() {
        let text = "# comment\n\nlocalhost slots=4 max_slots=8\n127.0.0.1:2 # trailing\nnode7\n";
        let h = parse_hostfile(text, "hf").unwrap();
        assert_eq!(
            h,
            vec![
                HostSlots {
                    host: "localhost".into(),
                    slots: Some(4)
                },
                HostSlots {
                    host: "127.0.0.1".into(),
                    slots: Some(2)
                },
                HostSlots {
                    host: "node7".into(),
                    slots: None
                },
            ]
        );
        assert_eq!(total_slots(&h), 7);
        let e = parse_hostfile("localhost slots=zero\n", "hf").unwrap_err();
        assert!(e.contains("hf, line 1"), "{e}");
        assert!(parse_hostfile("localhost colour=red\n", "hf").is_err());
    }

    #[test]
    fn local_names() {
        for h in [
            "localhost",
            "LOCALHOST",
            "127.0.0.1",
            "127.0.1.1",
            "::1",
            "[::1]",
            "box",
            "box.example.org",
        ] {
            assert!(is_local(h, "box.example.org"), "{h}");
            assert!(is_local(h, "box"), "{h}");
        }
        for h in ["node7", "10.1.2.3", "box.other.org", "boxer"] {
            assert!(!is_local(h, "box.example.org"), "{h}");
        }
        assert!(!is_local("box", ""));
    }
}
