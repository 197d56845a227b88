//! A seeded chaos layer under QUIC, for testing only: wraps the endpoint's UDP socket and drops,
//! duplicates, reorders and delays outgoing datagrams with a deterministic random generator.
//!
//! Enabled by `NEXAR_CHAOS` (see `config.rs`), e.g.
//! `NEXAR_CHAOS=seed=7,loss=0.05,dup=0.01,reorder=0.05,delay_ms=2`:
//!
//! * `seed`: the generator's seed (mixed with the socket's port, so ranks differ), default 1;
//! * `loss`: probability a datagram is dropped;
//! * `dup`: probability a datagram is sent twice;
//! * `reorder`: probability a datagram is held back for a random delay of up to `delay_ms`
//!   milliseconds (later datagrams overtake it);
//! * `delay_ms`: the longest hold-back, default 2.
//!
//! Unset (the default), endpoints use the plain socket: the layer costs nothing. Set, every
//! transmit carries one datagram (no GSO) so each can be treated on its own. QUIC must recover
//! from all of it: the chaos tests check results stay bit-exact.

use crate::error::{Error, ErrorKind, Result};
use nexar_proto::sim::SimRng;
use parking_lot::Mutex;
use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use std::io::{self, IoSliceMut};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

/// What the chaos layer does to outgoing datagrams.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChaosSpec {
    /// Generator seed.
    pub seed: u64,
    /// Probability a datagram is dropped.
    pub loss: f64,
    /// Probability a datagram is sent twice.
    pub dup: f64,
    /// Probability a datagram is held back (reordered).
    pub reorder: f64,
    /// Longest hold-back of a reordered datagram.
    pub delay: Duration,
}

impl Default for ChaosSpec {
    fn default() -> Self {
        Self {
            seed: 1,
            loss: 0.0,
            dup: 0.0,
            reorder: 0.0,
            delay: Duration::from_millis(2),
        }
    }
}

impl ChaosSpec {
    /// Parses `key=value` pairs separated by commas (keys: seed, loss, dup, reorder, delay_ms).
    pub fn parse(s: &str) -> Result<Self> {
        let bad =
            |what: String| Error::new(ErrorKind::Bootstrap, format!("NEXAR_CHAOS={s:?}: {what}"));
        let mut spec = Self::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("{part:?} is not key=value")))?;
            let prob = || -> Result<f64> {
                match v.parse::<f64>() {
                    Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
                    _ => Err(bad(format!("{k}={v:?} is not a probability in [0, 1]"))),
                }
            };
            match k {
                "seed" => {
                    spec.seed = v
                        .parse()
                        .map_err(|_| bad(format!("seed={v:?} is not an integer")))?;
                }
                "loss" => spec.loss = prob()?,
                "dup" => spec.dup = prob()?,
                "reorder" => spec.reorder = prob()?,
                "delay_ms" => {
                    let ms: u64 = v
                        .parse()
                        .map_err(|_| bad(format!("delay_ms={v:?} is not an integer")))?;
                    spec.delay = Duration::from_millis(ms.min(10_000));
                }
                other => return Err(bad(format!("unknown key {other:?}"))),
            }
        }
        Ok(spec)
    }

    /// The process's setting from `NEXAR_CHAOS`, read once; `None` when unset or empty.
    pub fn from_env() -> Result<Option<Self>> {
        static SPEC: OnceLock<std::result::Result<Option<ChaosSpec>, Error>> = OnceLock::new();
        SPEC.get_or_init(|| match std::env::var("NEXAR_CHAOS") {
            Ok(v) if !v.trim().is_empty() => Self::parse(&v).map(Some),
            _ => Ok(None),
        })
        .clone()
    }
}

/// Datagrams this process's chaos sockets dropped, duplicated and held back.
static COUNTS: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

/// How many datagrams the chaos layer of this process dropped, duplicated and held back
/// (reordered) so far: tests print them to show the chaos was real.
pub fn counts() -> (u64, u64, u64) {
    let c = |i: usize| COUNTS[i].load(Ordering::Relaxed);
    (c(0), c(1), c(2))
}

/// A UDP socket that mistreats what it sends (see the module docs).
#[derive(Debug)]
pub struct ChaosSocket {
    inner: Arc<dyn AsyncUdpSocket>,
    spec: ChaosSpec,
    rng: Mutex<SimRng>,
    runtime: tokio::runtime::Handle,
}

impl ChaosSocket {
    /// Wraps `inner`; delayed datagrams are sent from tasks on `runtime`.
    pub fn wrap(
        inner: Arc<dyn AsyncUdpSocket>,
        spec: ChaosSpec,
        runtime: tokio::runtime::Handle,
    ) -> Arc<Self> {
        let port = inner.local_addr().map(|a| a.port()).unwrap_or(0);
        let seed = spec.seed ^ (u64::from(port) << 32) ^ 0x9e37_79b9_7f4a_7c15;
        tracing::warn!(
            ?spec,
            port,
            "NEXAR_CHAOS: the QUIC socket drops, duplicates and reorders datagrams"
        );
        Arc::new(Self {
            inner,
            spec,
            rng: Mutex::new(SimRng::new(seed)),
            runtime,
        })
    }

    /// A uniform draw in [0, 1).
    fn draw(rng: &mut SimRng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Sends one datagram after `delay`, on a task (a full socket then loses it: chaos anyway).
    fn send_later(&self, t: &Transmit<'_>, delay: Duration) {
        let inner = self.inner.clone();
        let (destination, ecn, src_ip) = (t.destination, t.ecn, t.src_ip);
        let contents = t.contents.to_vec();
        self.runtime.spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = inner.try_send(&Transmit {
                destination,
                ecn,
                contents: &contents,
                segment_size: None,
                src_ip,
            });
        });
    }
}

impl AsyncUdpSocket for ChaosSocket {
    fn create_io_poller(self: Arc<Self>) -> Pin<Box<dyn UdpPoller>> {
        self.inner.clone().create_io_poller()
    }

    fn try_send(&self, transmit: &Transmit<'_>) -> io::Result<()> {
        let (lose, dup, hold) = {
            let mut rng = self.rng.lock();
            let lose = Self::draw(&mut rng) < self.spec.loss;
            let dup = Self::draw(&mut rng) < self.spec.dup;
            let hold = (Self::draw(&mut rng) < self.spec.reorder).then(|| {
                let max = self.spec.delay.as_micros().max(1) as u64;
                Duration::from_micros(1 + rng.next_u64() % max)
            });
            (lose, dup, hold)
        };
        if lose {
            COUNTS[0].fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        if let Some(delay) = hold {
            COUNTS[2].fetch_add(1, Ordering::Relaxed);
            self.send_later(transmit, delay);
        } else {
            self.inner.try_send(transmit)?;
        }
        if dup {
            COUNTS[1].fetch_add(1, Ordering::Relaxed);
            self.send_later(transmit, Duration::from_micros(50));
        }
        Ok(())
    }

    fn poll_recv(
        &self,
        cx: &mut Context<'_>,
        bufs: &mut [IoSliceMut<'_>],
        meta: &mut [RecvMeta],
    ) -> Poll<io::Result<usize>> {
        self.inner.poll_recv(cx, bufs, meta)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }

    // One datagram per transmit, so each is dropped, duplicated or held on its own.
    fn max_transmit_segments(&self) -> usize {
        1
    }

    fn max_receive_segments(&self) -> usize {
        self.inner.max_receive_segments()
    }

    fn may_fragment(&self) -> bool {
        self.inner.may_fragment()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key_and_rejects_bad_values() {
        let s = ChaosSpec::parse("seed=7,loss=0.05,dup=0.01,reorder=0.05,delay_ms=3").unwrap();
        assert_eq!(s.seed, 7);
        assert_eq!(s.loss, 0.05);
        assert_eq!(s.dup, 0.01);
        assert_eq!(s.reorder, 0.05);
        assert_eq!(s.delay, Duration::from_millis(3));
        assert_eq!(ChaosSpec::parse("").unwrap(), ChaosSpec::default());
        for bad in [
            "loss=2",
            "loss=x",
            "nope=1",
            "seed",
            "delay_ms=-1",
            "dup=-0.1",
        ] {
            let e = ChaosSpec::parse(bad).unwrap_err();
            assert!(e.message().contains("NEXAR_CHAOS"), "{bad}: {e}");
        }
    }

    #[test]
    fn draws_are_uniform_enough() {
        let mut rng = SimRng::new(3);
        let n = 100_000;
        let below = (0..n)
            .filter(|_| ChaosSocket::draw(&mut rng) < 0.05)
            .count();
        let frac = below as f64 / n as f64;
        assert!((0.04..0.06).contains(&frac), "{frac}");
    }
}
