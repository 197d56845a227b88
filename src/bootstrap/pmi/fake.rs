//! In-process fake PMI-1 process managers for the unit tests: [`FakePmi`] serves the protocol
//! (KVS, barrier, initack, finalize, abort) to several clients like hydra does, and
//! [`scripted`] answers one client with a fixed script, to test misbehaving servers.

use super::client::Reply;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A fake process manager for a job of `size` ranks.
pub struct FakePmi {
    size: usize,
    kvs: Mutex<HashMap<String, String>>,
    /// (ranks in the current barrier, barrier generation).
    barrier: (Mutex<(usize, u64)>, Condvar),
    /// Number of `cmd=finalize` received.
    pub finalized: AtomicUsize,
    /// Exit codes of `cmd=abort` received.
    pub aborts: Mutex<Vec<i32>>,
}

impl FakePmi {
    /// A fake for `size` ranks.
    pub fn new(size: usize) -> Arc<Self> {
        Arc::new(Self {
            size,
            kvs: Mutex::new(HashMap::new()),
            barrier: (Mutex::new((0, 0)), Condvar::new()),
            finalized: AtomicUsize::new(0),
            aborts: Mutex::new(Vec::new()),
        })
    }

    /// A value put by some client.
    pub fn value(&self, key: &str) -> Option<String> {
        self.kvs.lock().unwrap().get(key).cloned()
    }

    /// Serves one client over a socketpair on a thread; returns the client's end.
    pub fn pair(self: &Arc<Self>) -> UnixStream {
        let (mine, theirs) = UnixStream::pair().unwrap();
        let me = self.clone();
        std::thread::spawn(move || {
            let r = BufReader::new(mine.try_clone().unwrap());
            me.serve(r, mine)
        });
        theirs
    }

    /// Listens on 127.0.0.1 (like hydra's `-pmi-port`) and serves every client that connects,
    /// each on its own thread; returns `host:port`.
    pub fn listen(self: &Arc<Self>) -> String {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let me = self.clone();
        std::thread::spawn(move || {
            for s in l.incoming() {
                let Ok(s) = s else { return };
                let me = me.clone();
                std::thread::spawn(move || {
                    let r = BufReader::new(s.try_clone().unwrap());
                    me.serve(r, s)
                });
            }
        });
        addr
    }

    fn serve(&self, mut r: impl BufRead, mut w: impl Write) {
        let mut line = String::new();
        loop {
            line.clear();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let Some(req) = Reply::parse(line.trim_end()) else {
                return;
            };
            let f = |k: &str| req.fields.get(k).cloned().unwrap_or_default();
            let reply = match req.cmd.as_str() {
                "initack" => format!(
                    "cmd=initack\ncmd=set size={}\ncmd=set rank={}\ncmd=set debug=0",
                    self.size,
                    f("pmiid")
                ),
                "init" => "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0".into(),
                "get_maxes" => "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024".into(),
                "get_my_kvsname" => "cmd=my_kvsname kvsname=kvs_42_0".into(),
                "get_universe_size" => format!("cmd=universe_size size={}", self.size),
                "get_appnum" => "cmd=appnum appnum=0".into(),
                "put" => {
                    self.kvs.lock().unwrap().insert(f("key"), f("value"));
                    "cmd=put_result rc=0 msg=success".into()
                }
                "get" => match self.value(&f("key")) {
                    Some(v) => format!("cmd=get_result rc=0 msg=success value={v}"),
                    None => format!("cmd=get_result rc=-1 msg=key {} not found", f("key")),
                },
                "barrier_in" => {
                    self.wait_barrier();
                    "cmd=barrier_out".into()
                }
                "finalize" => {
                    self.finalized.fetch_add(1, Ordering::SeqCst);
                    "cmd=finalize_ack".into()
                }
                "abort" => {
                    let code = f("exitcode").parse().unwrap_or(-1);
                    self.aborts.lock().unwrap().push(code);
                    return;
                }
                _ => format!("cmd={} rc=-1 msg=unknown_command", req.cmd),
            };
            if w.write_all(format!("{reply}\n").as_bytes()).is_err() {
                return;
            }
        }
    }

    fn wait_barrier(&self) {
        let (m, cv) = &self.barrier;
        let mut g = m.lock().unwrap();
        let generation = g.1;
        g.0 += 1;
        if g.0 == self.size {
            *g = (0, generation + 1);
            cv.notify_all();
            return;
        }
        // Bounded: a test whose ranks never all arrive fails instead of hanging.
        let (g, t) = cv
            .wait_timeout_while(g, Duration::from_secs(20), |g| g.1 == generation)
            .unwrap();
        assert!(
            !t.timed_out() || g.1 != generation,
            "fake barrier timed out"
        );
    }
}

/// What [`scripted`] does after reading one request line.
pub enum Act {
    /// Writes this line (a newline is added).
    Line(&'static str),
    /// Writes these bytes as they are.
    Raw(Vec<u8>),
    /// Closes the connection.
    Close,
    /// Keeps the connection open without answering for this long, then closes it.
    Silent(Duration),
}

/// Serves one client over a socketpair with `acts`, one per request; returns the client's end.
pub fn scripted(acts: Vec<Act>) -> UnixStream {
    let (mine, theirs) = UnixStream::pair().unwrap();
    std::thread::spawn(move || {
        let mut w = mine.try_clone().unwrap();
        let mut r = BufReader::new(mine);
        for act in acts {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            match act {
                Act::Line(l) => {
                    let _ = w.write_all(format!("{l}\n").as_bytes());
                }
                Act::Raw(b) => {
                    let _ = w.write_all(&b);
                }
                Act::Close => return,
                Act::Silent(d) => {
                    std::thread::sleep(d);
                    return;
                }
            }
        }
        // Hold the connection until the client goes away.
        let mut sink = [0u8; 64];
        while r.read(&mut sink).unwrap_or(0) > 0 {}
    });
    theirs
}

/// A TCP listener on 127.0.0.1 that answers one `initack` with `lines`; returns `host:port`.
pub fn initack_server(lines: &'static str) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (s, _): (TcpStream, _) = l.accept().unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut line = String::new();
        let _ = r.read_line(&mut line);
        let mut w = s;
        let _ = w.write_all(lines.as_bytes());
        let mut sink = [0u8; 64];
        while r.read(&mut sink).unwrap_or(0) > 0 {}
    });
    addr
}
