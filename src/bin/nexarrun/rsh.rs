//! `nexarrun -H hostA:2,hostB:2 prog`: a multi-host job whose joiners the leader starts itself
//! through a remote shell (`NEXAR_RSH`, default `ssh`; words split on blanks), as
//! `RSH host nexarrun --join IP:PORT --local K --secret-file PATH [-l] prog args...`.
//!
//! The first host of the list must be this one (the leader); the others each get a joiner, in
//! list order. The leader listens on the local address that routes to the first remote host
//! (or `--listen`), on a free port. The remote `nexarrun` is this executable's path, and the
//! secret file must be at the same path on every host (a shared home directory): the secret
//! never travels on a command line.

use crate::hosts::{self, HostSlots};
use std::ffi::OsString;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

/// The joiners a leader starts through the remote shell.
#[derive(Debug, Clone)]
pub struct RshPlan {
    /// Remote hosts, in list order, with their rank counts.
    pub hosts: Vec<(String, u32)>,
    /// The secret file (same path on every host).
    pub secret_file: PathBuf,
    /// The program and its arguments.
    pub command: Vec<OsString>,
    /// Pass `-l` on.
    pub tag_output: bool,
}

/// A `-H` job: this host's ranks, the world size, the listen address and the remote hosts.
#[derive(Debug)]
pub struct HostJob {
    /// Ranks on this host (the first entry).
    pub local: u32,
    /// World size.
    pub size: u32,
    /// Where the leader listens (port 0: any).
    pub listen: SocketAddr,
    /// Remote hosts and their counts.
    pub remote: Vec<(String, u32)>,
}

/// Whether `host` is this machine: its name, `localhost`, or an address of it.
fn is_this_host(host: &str) -> bool {
    if hosts::is_local(host, &hosts::this_hostname()) {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>()
        .is_ok_and(|ip| std::net::UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok())
}

/// Plans a `-H` job from the host list, `-n` (must match the slots when given) and
/// `--listen` (its port is used; port 0 or absent: a free one).
pub fn plan_hosts(
    list: &str,
    n: Option<u32>,
    listen: Option<SocketAddr>,
) -> Result<HostJob, String> {
    let hosts: Vec<HostSlots> = hosts::parse_host_list(list)?;
    let mut entries = hosts.iter().map(|h| (h.host.clone(), h.slots.unwrap_or(1)));
    let (first, local) = entries.next().ok_or("-H needs at least one host")?;
    if !is_this_host(&first) {
        return Err(format!(
            "-H: the first host '{first}' must be this one (the leader runs there)"
        ));
    }
    let remote: Vec<(String, u32)> = entries.collect();
    if remote.is_empty() {
        return Err("-H names only this host; run without -H".into());
    }
    let total: u64 = u64::from(local) + remote.iter().map(|r| u64::from(r.1)).sum::<u64>();
    let size = u32::try_from(total).map_err(|_| format!("-H: {total} ranks are too many"))?;
    if let Some(n) = n
        && n != size
    {
        return Err(format!(
            "-n {n} does not match the {size} slots of -H {list}"
        ));
    }
    let listen = match listen {
        Some(l) => l,
        None => {
            let peer = (remote[0].0.trim_start_matches('[').trim_end_matches(']'), 9)
                .to_socket_addrs()
                .ok()
                .and_then(|mut a| a.next())
                .ok_or_else(|| format!("-H: cannot resolve host '{}'", remote[0].0))?;
            let ip = nexar::bootstrap::rendezvous::launchers::local_ip_towards(peer)
                .map_err(|e| e.message().to_string())?;
            SocketAddr::new(ip, 0)
        }
    };
    Ok(HostJob {
        local,
        size,
        listen,
        remote,
    })
}

/// Quotes `s` for a POSIX shell (the remote shell joins its arguments into one command line).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The remote shell command that starts the joiner for `host` with `count` ranks.
pub fn joiner_command(
    plan: &RshPlan,
    rsh: &str,
    host: &str,
    count: u32,
    leader: SocketAddr,
) -> Result<tokio::process::Command, String> {
    let mut words = rsh.split_whitespace();
    let program = words.next().ok_or("NEXAR_RSH is empty")?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find nexarrun itself: {e}"))?;
    let mut remote: Vec<String> = vec![
        exe.to_string_lossy().into_owned(),
        "--join".into(),
        leader.to_string(),
        "--local".into(),
        count.to_string(),
        "--secret-file".into(),
        plan.secret_file.to_string_lossy().into_owned(),
    ];
    if plan.tag_output {
        remote.push("-l".into());
    }
    remote.push("--".into());
    remote.extend(
        plan.command
            .iter()
            .map(|a| a.to_string_lossy().into_owned()),
    );
    let line: Vec<String> = remote.iter().map(|w| shell_quote(w)).collect();
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(words)
        .arg(host)
        .arg(line.join(" "))
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_for_a_shell() {
        assert_eq!(shell_quote("abc/d-1.x"), "abc/d-1.x");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
    }

    #[test]
    fn plans_a_host_list() {
        let j = plan_hosts("localhost:2,127.0.0.1:3", None, None).unwrap();
        assert_eq!((j.local, j.size), (2, 5));
        assert_eq!(j.remote, vec![("127.0.0.1".to_string(), 3)]);
        assert!(j.listen.ip().is_loopback());
        assert!(plan_hosts("localhost:2,127.0.0.1:3", Some(4), None).is_err());
        assert!(plan_hosts("localhost:2", None, None).is_err());
        let e = plan_hosts("no-such-host.invalid:2,localhost", None, None).unwrap_err();
        assert!(e.contains("must be this one"), "{e}");
    }
}
