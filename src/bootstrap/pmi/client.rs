//! The PMI-1 "simple" wire protocol, client side: one `cmd=NAME key=value ...` line per request,
//! one reply line per request (except `abort`), over a stream socket.
//!
//! Every read is bounded by the client's timeout (the engine's connect timeout), and a reply
//! that is malformed, of the wrong command, or carries `rc` other than 0 is a
//! [`ErrorKind::Bootstrap`] error naming the command. Nothing here waits without a deadline.

use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::io::{ErrorKind as IoKind, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// Longest reply line accepted (MPICH's own limit for a PMI command is 64 KiB).
pub const MAX_LINE: usize = 64 * 1024;

/// The limits the process manager announces (`cmd=get_maxes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Maxes {
    /// Longest KVS name.
    pub kvsname_max: usize,
    /// Longest key.
    pub keylen_max: usize,
    /// Longest value.
    pub vallen_max: usize,
}

/// The stream to the process manager: an inherited socket (`PMI_FD`) or TCP (`PMI_PORT`).
#[derive(Debug)]
pub enum Conn {
    /// A socket inherited from the process manager (or a socketpair in tests).
    Unix(UnixStream),
    /// A TCP connection to `PMI_PORT`.
    Tcp(TcpStream),
}

impl Conn {
    fn set_read_timeout(&self, t: Duration) -> std::io::Result<()> {
        match self {
            Conn::Unix(s) => s.set_read_timeout(Some(t)),
            Conn::Tcp(s) => s.set_read_timeout(Some(t)),
        }
    }

    fn set_write_timeout(&self, t: Duration) -> std::io::Result<()> {
        match self {
            Conn::Unix(s) => s.set_write_timeout(Some(t)),
            Conn::Tcp(s) => s.set_write_timeout(Some(t)),
        }
    }

    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Unix(s) => s.read(buf),
            Conn::Tcp(s) => s.read(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Conn::Unix(s) => s.write_all(buf),
            Conn::Tcp(s) => s.write_all(buf),
        }
    }
}

/// One parsed reply line: its command and its `key=value` fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The `cmd=` field.
    pub cmd: String,
    /// The other fields.
    pub fields: HashMap<String, String>,
}

impl Reply {
    /// Parses `cmd=NAME k=v ...`. A word without `=` continues the previous value (process
    /// managers may put spaces in `msg=`); a line not starting with `cmd=` is malformed.
    pub fn parse(line: &str) -> Option<Reply> {
        let mut words = line.split_ascii_whitespace();
        let cmd = words.next()?.strip_prefix("cmd=")?.to_string();
        if cmd.is_empty() {
            return None;
        }
        let mut fields: HashMap<String, String> = HashMap::new();
        let mut last: Option<String> = None;
        for w in words {
            match w.split_once('=') {
                Some((k, v)) if !k.is_empty() => {
                    fields.insert(k.to_string(), v.to_string());
                    last = Some(k.to_string());
                }
                _ => {
                    let v = fields.get_mut(last.as_ref()?)?;
                    v.push(' ');
                    v.push_str(w);
                }
            }
        }
        Some(Reply { cmd, fields })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }
}

fn boot(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

/// A PMI-1 client: one connection to the process manager.
#[derive(Debug)]
pub struct PmiClient {
    conn: Conn,
    /// Bytes read past the last complete line.
    pending: Vec<u8>,
    timeout: Duration,
    maxes: Option<Maxes>,
}

impl PmiClient {
    /// A client over `conn`; every read waits at most `timeout`.
    pub fn new(conn: Conn, timeout: Duration) -> Result<Self> {
        conn.set_write_timeout(timeout)
            .map_err(|e| boot(format!("PMI: cannot set the socket timeout: {e}")))?;
        Ok(Self {
            conn,
            pending: Vec::new(),
            timeout,
            maxes: None,
        })
    }

    /// Connects to `hostport` (hydra's `-pmi-port`: `PMI_PORT`) and introduces itself as `id`
    /// (`PMI_ID`): `cmd=initack pmiid=ID`, answered by `cmd=initack` and `cmd=set` lines for
    /// size, rank and debug. Returns the client and `(rank, size)`.
    pub fn connect_port(hostport: &str, id: u32, timeout: Duration) -> Result<(Self, u32, u32)> {
        use std::net::ToSocketAddrs;
        let addrs = hostport
            .to_socket_addrs()
            .map_err(|e| boot(format!("PMI_PORT={hostport:?} cannot be resolved: {e}")))?;
        let mut last = None;
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = Some(format!("{a}: {e}")),
            }
        }
        let stream = stream.ok_or_else(|| {
            boot(format!(
                "PMI_PORT={hostport:?}: cannot connect ({})",
                last.unwrap_or_else(|| "no address".into())
            ))
        })?;
        let _ = stream.set_nodelay(true);
        let mut c = Self::new(Conn::Tcp(stream), timeout)?;
        c.send("initack", &format!("cmd=initack pmiid={id}"))?;
        c.expect("initack", "initack")?;
        let mut size = None;
        let mut rank = None;
        for _ in 0..3 {
            let r = c.expect("initack", "set")?;
            let num = |k: &str, v: &str| {
                v.parse::<u32>().map_err(|_| {
                    boot(format!(
                        "PMI initack: `set {k}={v}` is not a non-negative integer"
                    ))
                })
            };
            if let Some(v) = r.get("size") {
                size = Some(num("size", v)?);
            } else if let Some(v) = r.get("rank") {
                rank = Some(num("rank", v)?);
            } else if r.get("debug").is_none() {
                return Err(boot(format!(
                    "PMI initack: unexpected `set` line {:?}",
                    r.fields
                )));
            }
        }
        match (rank, size) {
            (Some(r), Some(s)) if r < s => Ok((c, r, s)),
            (Some(r), Some(s)) => Err(boot(format!(
                "PMI initack: rank {r} is out of range for size {s}"
            ))),
            _ => Err(boot(
                "PMI initack: the reply lacks the rank or the size".into(),
            )),
        }
    }

    /// Sends one request line (`line` without its newline); `what` names the command in errors.
    fn send(&mut self, what: &str, line: &str) -> Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        self.conn
            .write_all(&buf)
            .map_err(|e| boot(format!("PMI {what}: cannot send the request: {e}")))
    }

    /// Reads one reply line, waiting at most the client's timeout in total.
    fn read_line(&mut self, what: &str) -> Result<String> {
        let deadline = Instant::now() + self.timeout;
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(pos) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=pos).collect();
                return String::from_utf8(line)
                    .map(|s| s.trim_end().to_string())
                    .map_err(|_| boot(format!("PMI {what}: the reply is not UTF-8")));
            }
            if self.pending.len() > MAX_LINE {
                return Err(boot(format!(
                    "PMI {what}: reply line longer than {MAX_LINE} bytes"
                )));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timed_out(what));
            }
            self.conn
                .set_read_timeout(left)
                .map_err(|e| boot(format!("PMI {what}: cannot set the socket timeout: {e}")))?;
            match self.conn.read(&mut chunk) {
                Ok(0) => {
                    return Err(boot(format!(
                        "PMI {what}: the process manager closed the connection"
                    )));
                }
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if matches!(e.kind(), IoKind::WouldBlock | IoKind::TimedOut) => {
                    return Err(self.timed_out(what));
                }
                Err(e) if e.kind() == IoKind::Interrupted => {}
                Err(e) => return Err(boot(format!("PMI {what}: cannot read the reply: {e}"))),
            }
        }
    }

    fn timed_out(&self, what: &str) -> Error {
        boot(format!(
            "PMI {what}: no reply from the process manager within {:?}",
            self.timeout
        ))
    }

    /// Reads a reply to `what` and checks its command is `cmd` and its `rc` (if any) is 0.
    fn expect(&mut self, what: &str, cmd: &str) -> Result<Reply> {
        let line = self.read_line(what)?;
        let r = Reply::parse(&line)
            .ok_or_else(|| boot(format!("PMI {what}: malformed reply {line:?}")))?;
        if r.cmd != cmd {
            return Err(boot(format!(
                "PMI {what}: expected cmd={cmd}, got {line:?}"
            )));
        }
        match r.get("rc") {
            None | Some("0") => Ok(r),
            Some(rc) => Err(boot(format!(
                "PMI {what} failed: rc={rc} ({})",
                r.get("msg").unwrap_or("no message")
            ))),
        }
    }

    /// A required field of a reply.
    fn field(r: &Reply, what: &str, key: &str) -> Result<String> {
        r.get(key)
            .map(str::to_string)
            .ok_or_else(|| boot(format!("PMI {what}: the reply lacks `{key}`")))
    }

    fn num_field(r: &Reply, what: &str, key: &str) -> Result<u64> {
        let v = Self::field(r, what, key)?;
        v.parse()
            .map_err(|_| boot(format!("PMI {what}: {key}={v:?} is not a number")))
    }

    /// `cmd=init pmi_version=1 pmi_subversion=1`; the process manager must answer rc=0.
    pub fn init(&mut self) -> Result<()> {
        self.send("init", "cmd=init pmi_version=1 pmi_subversion=1")?;
        let r = self.expect("init", "response_to_init")?;
        match r.get("pmi_version") {
            Some("1") | None => Ok(()),
            Some(v) => Err(boot(format!(
                "PMI init: the process manager speaks PMI version {v}, not 1"
            ))),
        }
    }

    /// `cmd=get_maxes`: the KVS limits (kept to check later puts and gets).
    pub fn get_maxes(&mut self) -> Result<Maxes> {
        self.send("get_maxes", "cmd=get_maxes")?;
        let r = self.expect("get_maxes", "maxes")?;
        let n = |k| Self::num_field(&r, "get_maxes", k).map(|v| v as usize);
        let m = Maxes {
            kvsname_max: n("kvsname_max")?,
            keylen_max: n("keylen_max")?,
            vallen_max: n("vallen_max")?,
        };
        self.maxes = Some(m);
        Ok(m)
    }

    /// `cmd=get_my_kvsname`: the name of this job's key-value space.
    pub fn get_my_kvsname(&mut self) -> Result<String> {
        self.send("get_my_kvsname", "cmd=get_my_kvsname")?;
        let r = self.expect("get_my_kvsname", "my_kvsname")?;
        let name = Self::field(&r, "get_my_kvsname", "kvsname")?;
        check_word("get_my_kvsname", "kvsname", &name)?;
        Ok(name)
    }

    /// `cmd=get_universe_size`.
    pub fn get_universe_size(&mut self) -> Result<u64> {
        self.send("get_universe_size", "cmd=get_universe_size")?;
        let r = self.expect("get_universe_size", "universe_size")?;
        Self::num_field(&r, "get_universe_size", "size")
    }

    /// `cmd=get_appnum`.
    pub fn get_appnum(&mut self) -> Result<u64> {
        self.send("get_appnum", "cmd=get_appnum")?;
        let r = self.expect("get_appnum", "appnum")?;
        Self::num_field(&r, "get_appnum", "appnum")
    }

    /// Checks `key` (and `value`) against the announced limits and the protocol's syntax.
    fn check_kv(&self, what: &str, key: &str, value: Option<&str>) -> Result<()> {
        check_word(what, "key", key)?;
        if let Some(m) = self.maxes {
            if key.len() > m.keylen_max {
                return Err(boot(format!(
                    "PMI {what}: key {key:?} is longer than keylen_max={}",
                    m.keylen_max
                )));
            }
            if let Some(v) = value.filter(|v| v.len() > m.vallen_max) {
                return Err(boot(format!(
                    "PMI {what}: the value of {key:?} ({} bytes) is longer than vallen_max={}",
                    v.len(),
                    m.vallen_max
                )));
            }
        }
        value.map_or(Ok(()), |v| check_word(what, "value", v))
    }

    /// `cmd=put`: stores `key=value` in the KVS `kvs` (visible to others after a barrier).
    pub fn put(&mut self, kvs: &str, key: &str, value: &str) -> Result<()> {
        self.check_kv("put", key, Some(value))?;
        self.send(
            "put",
            &format!("cmd=put kvsname={kvs} key={key} value={value}"),
        )?;
        self.expect("put", "put_result").map(|_| ())
    }

    /// `cmd=barrier_in`, answered by `cmd=barrier_out` once every rank entered.
    pub fn barrier(&mut self) -> Result<()> {
        self.send("barrier", "cmd=barrier_in")?;
        self.expect("barrier", "barrier_out").map(|_| ())
    }

    /// `cmd=get`: the value of `key` in the KVS `kvs` (an error when it is not there).
    pub fn get(&mut self, kvs: &str, key: &str) -> Result<String> {
        self.check_kv("get", key, None)?;
        self.send("get", &format!("cmd=get kvsname={kvs} key={key}"))?;
        let r = self
            .expect("get", "get_result")
            .map_err(|e| boot(format!("{} (key {key:?})", e.message())))?;
        Self::field(&r, "get", "value")
    }

    /// `cmd=finalize`, answered by `cmd=finalize_ack`: this process leaves cleanly.
    pub fn finalize(&mut self) -> Result<()> {
        self.send("finalize", "cmd=finalize")?;
        self.expect("finalize", "finalize_ack").map(|_| ())
    }

    /// `cmd=abort exitcode=N`: asks the process manager to end the job (no reply is read).
    pub fn abort(&mut self, code: i32) -> Result<()> {
        self.send("abort", &format!("cmd=abort exitcode={code}"))
    }
}

/// A key, value or name must be non-empty printable ASCII without spaces or `=` (the wire
/// syntax has no escaping; nexar hex-encodes its values).
fn check_word(what: &str, which: &str, s: &str) -> Result<()> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_graphic() && b != b'=') {
        return Err(boot(format!(
            "PMI {what}: {which} {s:?} is empty or holds a space, `=` or a non-printable byte"
        )));
    }
    Ok(())
}

/// Lower-case hex of `bytes` (KVS values are text).
pub fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes [`hex_encode`]'s output; `None` on an odd length or a non-hex digit.
pub fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    s.as_bytes()
        .chunks_exact(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}
