//! A FAKE device for unit tests: a [`QpFactory`] whose queue pairs are the in-memory pairs of
//! `fake.rs`, joined when both ends have connected to each other's endpoint. It is not hardware
//! and proves nothing about verbs; it lets the set-up exchange over QUIC and the frame path
//! over `QpWriter` / `QpReader` run in one process.

use super::QueuePair;
use super::fake::{FakeConfig, FakeQp, Link, pair};
use super::setup::{Endpoint, Pools, PreparedQp, QpFactory};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::io;
use std::sync::Arc;

/// The fake device. Queue pair numbers count up from 1; endpoints carry no LID or GID.
#[derive(Default)]
pub(crate) struct FakeFactory {
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    next: u32,
    /// Pools of every queue pair made, by number.
    pools: FxHashMap<u32, Pools>,
    /// Ends made by the first side to connect, waiting for the queue pair with that number.
    waiting: FxHashMap<u32, FakeQp>,
    /// The control handles of the pairs joined so far.
    links: Vec<Link>,
}

impl FakeFactory {
    /// Protocol violations the fake pairs recorded (none, when the lane follows the rules).
    pub(crate) fn violations(&self) -> Vec<String> {
        self.state
            .lock()
            .links
            .iter()
            .flat_map(Link::violations)
            .collect()
    }
}

fn config(p: &Pools) -> FakeConfig {
    FakeConfig {
        send_slots: p.send_slots as usize,
        send_slot_len: p.send_slot_len as usize,
        recv_slots: p.recv_slots as usize,
        recv_slot_len: p.recv_slot_len as usize,
    }
}

impl QpFactory for FakeFactory {
    fn prepare(&self, pools: &Pools) -> io::Result<Box<dyn PreparedQp>> {
        let mut st = self.state.lock();
        st.next += 1;
        let num = st.next;
        st.pools.insert(num, *pools);
        Ok(Box::new(Prepared {
            num,
            state: self.state.clone(),
        }))
    }
}

struct Prepared {
    num: u32,
    state: Arc<Mutex<State>>,
}

impl PreparedQp for Prepared {
    fn endpoint(&self) -> Endpoint {
        Endpoint {
            qp_num: self.num,
            lid: 0,
            gid: None,
        }
    }

    fn connect(self: Box<Self>, remote: &Endpoint) -> io::Result<Box<dyn QueuePair>> {
        let mut st = self.state.lock();
        if let Some(mine) = st.waiting.remove(&self.num) {
            return Ok(Box::new(mine));
        }
        let theirs = *st.pools.get(&remote.qp_num).ok_or_else(|| {
            io::Error::other(format!(
                "fake: no queue pair {} to connect to",
                remote.qp_num
            ))
        })?;
        let mine = st.pools[&self.num];
        let (a, b, link) = pair(config(&mine), config(&theirs), u64::from(self.num), 3);
        st.waiting.insert(remote.qp_num, b);
        st.links.push(link);
        Ok(Box::new(a))
    }
}
