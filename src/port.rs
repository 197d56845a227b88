//! Ports: two independently started groups meet in a new world (MPI's `MPI_Open_port`,
//! `MPI_Comm_accept`, `MPI_Comm_connect`).
//!
//! A [`Port`] is a TCP listener and a random 32-byte key; its name (`nexar-port://host:port/`
//! and the key in hex) is a capability: whoever knows it may connect, nobody else. The
//! accepting root and the connecting root meet on the listener and prove to each other that
//! they know the key without sending it (HMAC-SHA256 over a fresh nonce, both ways); the
//! accepting root then starts the new world's rendezvous under a fresh secret and sends the
//! connecting root the address and the secret, encrypted with a pad derived from the key and
//! the nonce. Each root broadcasts the outcome in its group, and every member joins the new
//! world: the accepting group as ranks `0..n`, the connecting group after it. The two groups
//! are then joined by an intercommunicator as a spawn's are ([`crate::Spawned`]).
//!
//! A connection that fails the proof (a stranger, or a stale port name) is dropped and the
//! accepting root goes on waiting; the connecting side gets an error.

use crate::comm::Comm;
use crate::context::{Context, build_runtime};
use crate::error::{Error, ErrorKind, Result};
use crate::grow::{Joining, announce};
use crate::security::{JobSecret, SECRET_LEN};
use crate::spawn::{Spawned, gather_origins, join_groups};
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;
use zeroize::Zeroizing;

/// Prefix of every port name.
const SCHEME: &str = "nexar-port://";
/// First bytes the accepting root sends: protocol and version.
const MAGIC: &[u8; 8] = b"nxport01";
/// Longest rendezvous address a reply carries.
const MAX_ADDR: usize = 256;

/// An open port: accepts connections from holders of its name until dropped.
pub struct Port {
    /// Non-blocking: [`Port::admit`] polls it.
    listener: TcpListener,
    key: Zeroizing<[u8; SECRET_LEN]>,
    name: String,
    /// Connecting roots that proved the key, in the order they did, waiting for an accept
    /// (two roots may connect while one accept runs: the second is the next accept's).
    admitted: (Sender<Admitted>, parking_lot::Mutex<Receiver<Admitted>>),
    /// Handshakes running now.
    running: Arc<AtomicUsize>,
}

/// A connecting root admitted by its handshake: the stream, the nonce it answered and the size
/// of its group.
type Admitted = (TcpStream, [u8; 32], u32);

impl std::fmt::Debug for Port {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The name holds the key: never printed.
        f.debug_struct("Port")
            .field("addr", &self.listener.local_addr().ok())
            .finish()
    }
}

fn port_error(msg: String) -> Error {
    Error::new(ErrorKind::Bootstrap, msg)
}

fn random<const N: usize>() -> Result<[u8; N]> {
    let mut b = [0u8; N];
    SystemRandom::new()
        .fill(&mut b)
        .map_err(|_| Error::new(ErrorKind::Security, "the system random generator failed"))?;
    Ok(b)
}

/// HMAC-SHA256 of `parts` under `key`, labelled by `what`.
fn mac(key: &[u8], what: &[u8], parts: &[&[u8]]) -> hmac::Tag {
    let k = hmac::Key::new(hmac::HMAC_SHA256, key);
    let mut ctx = hmac::Context::with_key(&k);
    ctx.update(what);
    for p in parts {
        ctx.update(p);
    }
    ctx.sign()
}

/// Checks that `tag` is `mac(key, what, parts)` (in constant time).
fn verify(key: &[u8], what: &[u8], parts: &[&[u8]], tag: &[u8]) -> bool {
    let k = hmac::Key::new(hmac::HMAC_SHA256, key);
    let msg: Vec<u8> = [what]
        .iter()
        .chain(parts.iter())
        .flat_map(|p| p.iter().copied())
        .collect();
    hmac::verify(&k, &msg, tag).is_ok()
}

impl Port {
    /// Opens a port listening on `ip` (an address the connecting processes can reach).
    pub fn open(ip: std::net::IpAddr) -> Result<Port> {
        let listener = TcpListener::bind(SocketAddr::new(ip, 0))
            .map_err(|e| port_error(format!("cannot open a port on {ip}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| port_error(format!("port: no local address: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| port_error(format!("port: cannot poll the listener: {e}")))?;
        let key = Zeroizing::new(random::<SECRET_LEN>()?);
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        let (tx, rx) = std::sync::mpsc::channel();
        Ok(Port {
            listener,
            key,
            name: format!("{SCHEME}{addr}/{hex}"),
            admitted: (tx, parking_lot::Mutex::new(rx)),
            running: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// The port's name: hand it to the connecting side (it is a capability; keep it private).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits for a connecting root that proves it knows the key and tells its group's size;
    /// strangers are dropped. Returns the stream, the nonce and the size. Each connection's
    /// handshake runs on a thread of its own (at most [`HANDSHAKES`] at once, each given
    /// `limit`), so a stranger that connects and says nothing holds up no one: the first root
    /// to prove the key is admitted, and one that proved it meanwhile waits for the next call.
    fn admit(&self, limit: Duration) -> Result<Admitted> {
        let admitted = self.admitted.1.lock();
        loop {
            match self.listener.accept() {
                Ok((s, from)) => self.start_handshake(s, from, limit),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(port_error(format!("port: accept failed: {e}"))),
            }
            if let Ok(a) = admitted.recv_timeout(ADMIT_POLL) {
                return Ok(a);
            }
        }
    }

    /// Runs the handshake of connection `s` on a thread of its own.
    fn start_handshake(&self, s: TcpStream, from: SocketAddr, limit: Duration) {
        use std::sync::atomic::Ordering::AcqRel;
        if self.running.fetch_add(1, AcqRel) >= HANDSHAKES {
            self.running.fetch_sub(1, AcqRel);
            tracing::warn!(%from, "port: too many handshakes at once; a connection was dropped");
            return;
        }
        let (key, tx, running) = (
            self.key.clone(),
            self.admitted.0.clone(),
            self.running.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("nexar-port-handshake".into())
            .spawn(move || {
                match handshake(s, &key[..], limit) {
                    Ok(a) => {
                        let _ = tx.send(a);
                    }
                    Err(()) => {
                        tracing::warn!(%from, "port: a connection without the port's key was refused")
                    }
                }
                running.fetch_sub(1, AcqRel);
            });
        if let Err(e) = spawned {
            self.running.fetch_sub(1, AcqRel);
            tracing::warn!(%from, "port: no thread for a handshake: {e}");
        }
    }
}

/// The most connections a port handshakes with at once (more are dropped until one ends).
const HANDSHAKES: usize = 64;

/// How often a port waiting for a connecting root looks for new connections.
const ADMIT_POLL: Duration = Duration::from_millis(5);

/// One connection's handshake at the port: sends the magic and a fresh nonce, and admits the
/// peer if its answer proves the key (`Err(())`: a stranger, or silence for `limit`).
fn handshake(mut s: TcpStream, key: &[u8], limit: Duration) -> std::result::Result<Admitted, ()> {
    // The listener is non-blocking; the accepted stream must not be.
    s.set_nonblocking(false).map_err(drop)?;
    let _ = s.set_read_timeout(Some(limit));
    let _ = s.set_write_timeout(Some(limit));
    let nonce = random::<32>().map_err(drop)?;
    let mut hello = [0u8; 36];
    s.write_all(MAGIC)
        .and_then(|_| s.write_all(&nonce))
        .and_then(|_| s.read_exact(&mut hello))
        .map_err(drop)?;
    let size = u32::from_be_bytes(hello[32..36].try_into().expect("4 bytes"));
    if verify(key, b"connect", &[&nonce, &hello[32..36]], &hello[..32]) {
        Ok((s, nonce, size))
    } else {
        Err(())
    }
}

/// The accepting root's reply to the connecting root that proved the key: the accepting group's
/// size, the address, the secret sealed with a pad only key holders can derive, and a tag that
/// proves the reply comes from a key holder.
fn seal_reply(key: &[u8], nonce: &[u8], j: &Joining) -> Result<Vec<u8>> {
    if j.addr.len() > MAX_ADDR {
        return Err(port_error(format!(
            "port: address {:?} is too long",
            j.addr
        )));
    }
    let pad = mac(key, b"seal", &[nonce]);
    let mut fixed = [0u8; 38];
    fixed[..4].copy_from_slice(&j.split.to_be_bytes());
    fixed[4..6].copy_from_slice(&(j.addr.len() as u16).to_be_bytes());
    for i in 0..SECRET_LEN {
        fixed[6 + i] = j.secret.expose()[i] ^ pad.as_ref()[i];
    }
    let tag = mac(key, b"accept", &[nonce, &fixed, j.addr.as_bytes()]);
    let mut out = fixed.to_vec();
    out.extend_from_slice(j.addr.as_bytes());
    out.extend_from_slice(tag.as_ref());
    Ok(out)
}

/// Parses a port name into its address and key.
fn parse_name(name: &str) -> Result<(String, Zeroizing<[u8; SECRET_LEN]>)> {
    let bad = || {
        Error::new(
            ErrorKind::InvalidArgument,
            "not a nexar port name (MPI_Open_port makes them)",
        )
    };
    let rest = name.trim().strip_prefix(SCHEME).ok_or_else(bad)?;
    let (addr, hex) = rest.rsplit_once('/').ok_or_else(bad)?;
    let secret = JobSecret::parse(hex.as_bytes()).map_err(|_| bad())?;
    Ok((addr.to_string(), Zeroizing::new(*secret.expose())))
}

/// The connecting root's side of the handshake: returns how to join the new world.
fn knock(name: &str, size: u32, limit: Duration) -> Result<Joining> {
    let (addr, key) = parse_name(name)?;
    let target = addr
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| port_error(format!("port {addr} does not resolve")))?;
    let mut s = TcpStream::connect_timeout(&target, limit)
        .map_err(|e| port_error(format!("cannot connect to port {addr}: {e}")))?;
    let _ = s.set_read_timeout(Some(limit));
    let _ = s.set_write_timeout(Some(limit));
    let io = |e: std::io::Error| port_error(format!("port {addr}: {e}"));
    let mut head = [0u8; 40];
    s.read_exact(&mut head).map_err(io)?;
    if &head[..8] != MAGIC {
        return Err(port_error(format!("{addr} is not a nexar port")));
    }
    let nonce = &head[8..40];
    let sz = size.to_be_bytes();
    let proof = mac(&key[..], b"connect", &[nonce, &sz]);
    s.write_all(proof.as_ref()).map_err(io)?;
    s.write_all(&sz).map_err(io)?;
    // Reply: accepting size (4), address length (2), sealed secret (32), address, tag (32).
    let mut fixed = [0u8; 38];
    s.read_exact(&mut fixed).map_err(io)?;
    let len = usize::from(u16::from_be_bytes([fixed[4], fixed[5]]));
    if len > MAX_ADDR {
        return Err(port_error(format!("port {addr}: malformed reply")));
    }
    let mut rest = vec![0u8; len + 32];
    s.read_exact(&mut rest).map_err(io)?;
    let (text, tag) = rest.split_at(len);
    if !verify(&key[..], b"accept", &[nonce, &fixed, text], tag) {
        return Err(Error::new(
            ErrorKind::Security,
            format!("port {addr}: the accepting side did not prove it holds the port's key"),
        ));
    }
    let split = u32::from_be_bytes(fixed[..4].try_into().expect("4 bytes"));
    let pad = mac(&key[..], b"seal", &[nonce]);
    let mut secret = [0u8; SECRET_LEN];
    for (i, b) in secret.iter_mut().enumerate() {
        *b = fixed[6 + i] ^ pad.as_ref()[i];
    }
    Ok(Joining {
        addr: String::from_utf8_lossy(text).into_owned(),
        secret: JobSecret::from_bytes(secret),
        size: split
            .checked_add(size)
            .ok_or_else(|| port_error("port: the two groups are too large".into()))?,
        split,
    })
}

impl Context {
    /// Accepts a connection on `port` (significant at `root` only): collective over `comm`
    /// (an intracommunicator of this context), matching a [`Context::connect`] by another
    /// group with the port's name. Blocks until a group connects. Returns the new world (this
    /// group as ranks `0..n`) and the intercommunicator to the connecting group.
    ///
    /// Errors: `InvalidComm` / `InvalidRank` for bad arguments, `InvalidArgument` for a
    /// missing port at the root; a failure to start the world is the root's error everywhere.
    pub fn accept(&self, port: Option<&Port>, comm: &Comm, root: u32) -> Result<Spawned> {
        self.meet(comm, root, true, || {
            let port = port.ok_or_else(|| Error::invalid("accept: no port at the root"))?;
            let limit = self.config().connect_timeout;
            let (mut s, nonce, theirs) = port.admit(limit)?;
            let split = comm.size();
            let size = split
                .checked_add(theirs)
                .ok_or_else(|| port_error("port: the two groups are too large".into()))?;
            let secret = JobSecret::generate()?;
            let ip = port
                .listener
                .local_addr()
                .map_err(|e| port_error(format!("port: no local address: {e}")))?
                .ip();
            let runtime = build_runtime(self.config().threads)?;
            let server = {
                let _in = runtime.enter();
                crate::bootstrap::rendezvous::RendezvousServer::start(
                    &secret,
                    SocketAddr::new(ip, 0),
                    size,
                    self.config(),
                )?
            };
            let joining = Joining {
                addr: SocketAddr::new(ip, server.local_addr().port()).to_string(),
                secret,
                size,
                split,
            };
            s.write_all(&seal_reply(&port.key[..], &nonce, &joining)?)
                .map_err(|e| port_error(format!("port: the connecting side left: {e}")))?;
            Ok((joining, Some((runtime, server))))
        })
    }

    /// Connects to the port named `name` (significant at `root` only): collective over
    /// `comm`, matching an [`Context::accept`] on that port. Returns the new world (this group
    /// after the accepting one) and the intercommunicator to the accepting group.
    ///
    /// Errors: `InvalidArgument` for a malformed name; `Bootstrap` when nobody answers within
    /// the connect timeout; `Security` when the answer does not prove the port's key.
    pub fn connect(&self, name: Option<&str>, comm: &Comm, root: u32) -> Result<Spawned> {
        self.meet(comm, root, false, || {
            let name = name.ok_or_else(|| Error::invalid("connect: no port name at the root"))?;
            Ok((
                knock(name, comm.size(), self.config().connect_timeout)?,
                None,
            ))
        })
    }

    /// Runs `handshake` at `root`, shares its outcome over `comm`, and joins the new world.
    fn meet(
        &self,
        comm: &Comm,
        root: u32,
        accepting: bool,
        handshake: impl FnOnce() -> Result<(Joining, Option<Hosting>)>,
    ) -> Result<Spawned> {
        if comm.is_inter() || !self.owns(comm) {
            return Err(Error::new(
                ErrorKind::InvalidComm,
                "the communicator must be an intracommunicator of this context",
            ));
        }
        if root >= comm.size() {
            return Err(Error::new(
                ErrorKind::InvalidRank,
                format!(
                    "root {root} is not a rank of a communicator of {}",
                    comm.size()
                ),
            ));
        }
        let epoch = self.epoch().wrapping_add(1);
        let mine = (comm.rank() == root).then(handshake);
        let (shared, hosting) = match mine {
            Some(Ok((j, h))) => (Some(j), h),
            Some(Err(e)) => {
                let _ = announce(comm, root, None, epoch);
                return Err(e);
            }
            None => (None, None),
        };
        let j = announce(comm, root, shared, epoch)?;
        let rank = if accepting {
            comm.rank()
        } else {
            j.split + comm.rank()
        };
        let launch = crate::bootstrap::Launch {
            rank,
            size: j.size,
            local_rank: self.launch().map_or(0, |l| l.local_rank),
            rendezvous: Some(j.addr),
            host_rendezvous: false,
            secret: Some(j.secret),
        };
        let (runtime, server) = match hosting {
            Some((rt, s)) => (rt, Some(s)),
            None => (build_runtime(self.config().threads)?, None),
        };
        let mut world =
            Context::from_launch(launch, self.config().clone(), epoch, runtime, server)?;
        world.set_origin(self.origin());
        let origins = gather_origins(world.world(), self.origin())?;
        let (_, inter) = join_groups(world.world(), j.split, accepting)?;
        Ok(Spawned {
            world,
            inter,
            origins,
        })
    }
}

/// The accepting root's runtime and the rendezvous it started inside it.
type Hosting = (
    tokio::runtime::Runtime,
    crate::bootstrap::rendezvous::RendezvousServer,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The handshake alone (no world is started): a stranger holding the address but not the
    /// key is refused and the port goes on waiting; the holder of the name gets the accepting
    /// side's size, address and secret, sealed on the wire.
    #[test]
    fn only_holders_of_the_name_get_in() {
        let port = Port::open([127, 0, 0, 1].into()).unwrap();
        let name = port.name().to_string();
        let mut forged = name.clone();
        let last = forged.pop().unwrap();
        forged.push(if last == '0' { '1' } else { '0' });
        let limit = Duration::from_secs(10);
        let secret = JobSecret::generate().unwrap();
        let expected = *secret.expose();
        let acceptor = std::thread::spawn(move || {
            let (mut s, nonce, theirs) = port.admit(limit).unwrap();
            let j = Joining {
                addr: "127.0.0.1:4242".into(),
                secret,
                size: 2 + theirs,
                split: 2,
            };
            s.write_all(&seal_reply(&port.key[..], &nonce, &j).unwrap())
                .unwrap();
            theirs
        });
        let refused = knock(&forged, 3, limit).unwrap_err();
        assert_eq!(refused.kind(), ErrorKind::Bootstrap, "{refused}");
        let j = knock(&name, 3, limit).unwrap();
        assert_eq!(acceptor.join().unwrap(), 3);
        assert_eq!((j.addr.as_str(), j.size, j.split), ("127.0.0.1:4242", 5, 2));
        assert_eq!(j.secret.expose(), &expected);
    }

    /// Answers one admitted root as the accepting side would (a made-up world).
    fn answer(port: &Port, limit: Duration) -> u32 {
        let (mut s, nonce, theirs) = port.admit(limit).unwrap();
        let j = Joining {
            addr: "127.0.0.1:4242".into(),
            secret: JobSecret::generate().unwrap(),
            size: 2 + theirs,
            split: 2,
        };
        s.write_all(&seal_reply(&port.key[..], &nonce, &j).unwrap())
            .unwrap();
        theirs
    }

    /// A stranger that connects first and says nothing holds up no one: the root that knows
    /// the key is admitted at once, not after the stranger's time runs out.
    #[test]
    fn a_silent_stranger_holds_up_no_one() {
        let port = Port::open([127, 0, 0, 1].into()).unwrap();
        let name = port.name().to_string();
        let addr = port.listener.local_addr().unwrap();
        let limit = Duration::from_secs(20);
        let _silent = TcpStream::connect(addr).unwrap();
        let started = std::time::Instant::now();
        let acceptor = std::thread::spawn(move || answer(&port, limit));
        std::thread::sleep(Duration::from_millis(100));
        let j = knock(&name, 3, limit).unwrap();
        assert_eq!((acceptor.join().unwrap(), j.size), (3, 5));
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "admitted after {took:?}");
    }

    /// Two roots that prove the key while one accept runs: the first is that accept's, the
    /// other waits for the next accept on the port.
    #[test]
    fn roots_knocking_at_once_are_admitted_one_per_accept() {
        let port = std::sync::Arc::new(Port::open([127, 0, 0, 1].into()).unwrap());
        let name = port.name().to_string();
        let limit = Duration::from_secs(20);
        let knockers: Vec<_> = [3u32, 4]
            .into_iter()
            .map(|n| {
                let name = name.clone();
                std::thread::spawn(move || knock(&name, n, limit).unwrap().size)
            })
            .collect();
        std::thread::sleep(Duration::from_millis(200));
        let mut sizes = vec![answer(&port, limit), answer(&port, limit)];
        sizes.sort_unstable();
        assert_eq!(sizes, [3, 4]);
        let mut got: Vec<u32> = knockers.into_iter().map(|k| k.join().unwrap()).collect();
        got.sort_unstable();
        assert_eq!(got, [5, 6]);
    }

    #[test]
    fn malformed_names_are_refused() {
        for bad in [
            "",
            "tcp://1.2.3.4:5/00",
            "nexar-port://127.0.0.1:1/zz",
            "nexar-port://x",
        ] {
            let e = knock(bad, 1, Duration::from_secs(1)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{bad}: {e}");
        }
    }
}
