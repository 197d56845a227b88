//! Byte-level collectives: the building blocks the typed Rust API, the non-blocking forms and
//! the C API share.
//!
//! Each `start_*` call is synchronous: it validates arguments, copies the input, takes the
//! communicator's next collective sequence number (so calls are matched in program order even
//! when non-blocking) and sends the first messages. The returned [`PendingCollective`] finishes
//! the work and writes the result into the receive buffer. Counts and displacements are in
//! elements of `dtype`; buffers are bytes.
//!
//! The reductions come in two forms: `start_reduce(.., dtype, op, ..)` with a predefined
//! operator, and `start_reduce_with(.., reducer, ..)` with any [`Reducer`], a user-defined
//! [`nexar_proto::CustomOp`] included (counts are then in the reducer's elements). A
//! non-commutative custom op is combined in rank order (`x0 ⊕ x1 ⊕ ... ⊕ x(n-1)`).

use super::dest::Dest;
use super::direct_allreduce::DirectAllreduce;
use super::layout::{Unpack, expect_len, lens, pack, ranges};
use super::plan::unplanned;
use crate::comm::Comm;
use crate::core::fingerprint::{Fingerprint, Kind};
use crate::driver::CollectiveRun;
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::algo;
use nexar_proto::select::plan::{Algo, Coll, Facts, Plan};
use nexar_proto::{Collective, Datatype, ProtoError, ReduceOp, Reducer};

/// A collective that has started on this rank; finish it to get the result (into the
/// destination given with [`PendingCollective::to`], or into a buffer given to
/// [`PendingCollective::finish_into`]).
pub struct PendingCollective {
    pub(super) work: Work,
    pub(super) recv_len: Option<usize>,
    /// Where the result goes, when the caller gave it up front (see [`super::dest`]).
    pub(super) dest: Dest,
    /// The communicator it runs on (for [`PendingCollective::wait`]).
    pub(super) comm: Comm,
}

/// How a started collective runs.
pub(super) enum Work {
    /// A proto machine; its output is unpacked into the receive buffer.
    Machine(CollectiveRun, Unpack),
    /// The direct shared-memory allreduce, which writes the receive buffer itself.
    Direct(Box<DirectAllreduce>),
    /// Already complete when its start returned (a blocking call NCCL or the flag area ran).
    Done,
    /// An allreduce on a communicator of one rank ([`Plan::Alone`]): the result is the
    /// caller's input, still at this address (borrowed until the finish), copied into the
    /// receive buffer unless it is that buffer.
    Alone { addr: usize, len: usize },
    /// Complete when its start returned, with this result still to be written into the
    /// receive buffer (a reduce's root on the flag area: its input may be that buffer).
    Ready(Vec<u8>),
    /// A collective between the groups of an intercommunicator (`super::inter`), yielding
    /// this rank's output, unpacked into the receive buffer like a machine's.
    Inter(
        std::pin::Pin<Box<dyn Future<Output = Result<Vec<u8>>> + Send>>,
        Unpack,
    ),
}

impl std::fmt::Debug for PendingCollective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingCollective")
            .field("recv_len", &self.recv_len)
            .finish()
    }
}

impl PendingCollective {
    /// Completes the collective and writes this rank's result into `recv` (which must be the
    /// receive buffer described when it was started; ignored where there is no result).
    pub async fn finish_into(self, recv: &mut [u8]) -> Result<()> {
        if matches!(self.work, Work::Done) {
            return Ok(());
        }
        if let Some(want) = self.recv_len {
            expect_len("receive buffer", recv.len(), want)?;
        }
        if let Work::Alone { addr, .. } = self.work
            && recv.as_ptr() as usize == addr
        {
            return Ok(()); // in place: the input is the result
        }
        // A device receive buffer is written through a host stand-in (crate::device); one
        // this rank does not write (Unpack::Nothing) is left alone.
        let (recv, writes_all): (&mut [u8], bool) = match &self.work {
            Work::Machine(_, Unpack::Nothing) | Work::Inter(_, Unpack::Nothing) => (&mut [], true),
            Work::Machine(_, Unpack::Blocks(r)) | Work::Inter(_, Unpack::Blocks(r)) => {
                let len = recv.len();
                (recv, crate::device::tiles(r, len))
            }
            _ => (recv, true),
        };
        let mut landing = crate::device::Landing::new(recv, writes_all)?;
        let recv = landing.buf();
        match self.work {
            Work::Machine(run, unpack) => {
                let out = run.finish().await?;
                unpack.apply(&out, recv)?;
            }
            Work::Direct(d) => d.finish_into(recv).await?,
            Work::Ready(result) => recv.copy_from_slice(&result),
            Work::Alone { len: 0, .. } => {}
            Work::Alone { addr, len } => {
                // SAFETY: the borrowed start's contract keeps the input readable and unchanged
                // until the collective finishes; it is host memory (device inputs are staged).
                recv.copy_from_slice(unsafe { std::slice::from_raw_parts(addr as *const u8, len) })
            }
            Work::Inter(run, unpack) => {
                let out = run.await?;
                unpack.apply(&out, recv)?;
            }
            Work::Done => {}
        }
        landing.land()
    }

    /// Length in bytes the receive buffer passed to [`PendingCollective::finish_into`] must have,
    /// or `None` if this rank receives nothing.
    pub fn recv_len(&self) -> Option<usize> {
        self.recv_len
    }
}

/// The algorithm the plan gives a call (`$facts`) of collective `$coll`, which its caller runs
/// as a proto machine; a call that moves nothing ([`Plan::Nothing`]) returns, complete, from
/// the caller; a plan for another path is an internal error.
macro_rules! planned {
    ($comm:expr, $facts:expr, $coll:ident) => {
        match $comm.inner.plan(&$facts) {
            Plan::Machine(Algo::$coll(a)) => a,
            Plan::Nothing => return $comm.nothing(),
            other => return Err(unplanned(Coll::$coll, other)),
        }
    };
}

fn whole(len: usize) -> (Unpack, Option<usize>) {
    (Unpack::Whole, Some(len))
}

impl Comm {
    pub(super) fn check_root(&self, root: u32) -> Result<()> {
        if root >= self.size() {
            return Err(Error::new(
                ErrorKind::InvalidRoot,
                format!(
                    "root {root} is out of range for a communicator of size {}",
                    self.size()
                ),
            ));
        }
        Ok(())
    }

    fn check_reduction(dtype: Datatype, op: ReduceOp) -> Result<()> {
        op.check(dtype).map_err(Error::from)
    }

    pub(super) fn check_reducer(red: &Reducer, len: usize) -> Result<()> {
        red.check()?;
        red.count_of(len)?;
        Ok(())
    }

    /// The facts of an allreduce of `len` bytes with `reducer` on this communicator.
    fn allreduce_facts(&self, reducer: &Reducer, len: usize) -> Facts {
        Facts {
            commutative: reducer.commutative(),
            ..self.inner.facts(Coll::Allreduce, len)
        }
    }

    /// What a collective that runs nothing ([`Plan::Alone`], [`Plan::Nothing`]) still checks:
    /// the engine is open and this communicator not revoked (as a started machine's would).
    fn check_alone(&self) -> Result<()> {
        let engine = &self.inner.engine;
        engine.check_open()?;
        engine.check_revoked(self.inner.context)
    }

    /// A call that moves no byte anywhere ([`Plan::Nothing`]), complete now: no sequence
    /// number is taken, as none is on the other members, which all plan the same. (A member
    /// that wrongly passes a non-zero count is caught by its next collective's fingerprint
    /// check, which meets this member's next call.)
    fn nothing(&self) -> Result<PendingCollective> {
        self.check_alone()?;
        Ok(self.pending(Work::Done, None))
    }

    /// A started collective of `work`, whose destination the caller gives later.
    pub(super) fn pending(&self, work: Work, recv_len: Option<usize>) -> PendingCollective {
        PendingCollective {
            work,
            recv_len,
            dest: Dest::Unset,
            comm: self.clone(),
        }
    }

    fn launch(
        &self,
        fp: Fingerprint,
        machine: std::result::Result<Box<dyn Collective>, ProtoError>,
        (unpack, recv_len): (Unpack, Option<usize>),
    ) -> Result<PendingCollective> {
        let run = CollectiveRun::start(&self.inner, machine?, fp)?;
        Ok(self.pending(Work::Machine(run, unpack), recv_len))
    }

    /// Starts a barrier.
    pub fn start_barrier(&self) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Barrier);
        let m = match self
            .inner
            .machine_algo(&self.inner.facts(Coll::Barrier, 0))?
        {
            Algo::Barrier => Box::new(algo::barrier::Barrier::new(self.inner.group())),
            other => return Err(unplanned(Coll::Barrier, other)),
        };
        self.launch(fp, Ok(m), (Unpack::Nothing, None))
    }

    /// Starts a broadcast of `buf` (root's contents) to a buffer of the same length everywhere.
    pub fn start_bcast(&self, buf: &[u8], root: u32) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Bcast).root(root).len(buf.len());
        self.check_root(root)?;
        let a = planned!(self, self.inner.facts(Coll::Bcast, buf.len()), Bcast);
        let data = crate::device::to_host_vec(buf)?;
        let m = algo::bcast::machine_with(self.inner.group(), root, data, a);
        self.launch(fp, m, whole(buf.len()))
    }

    /// Starts a reduction of `send` to `root`, whose receive buffer has `send.len()` bytes.
    pub fn start_reduce(
        &self,
        send: &[u8],
        dtype: Datatype,
        op: ReduceOp,
        root: u32,
    ) -> Result<PendingCollective> {
        self.check_root(root)?;
        Self::check_reduction(dtype, op)?;
        self.start_reduce_with(send, Reducer::builtin(op, dtype), root)
    }

    /// [`Comm::start_reduce`] with any [`Reducer`] (a custom, possibly non-commutative op).
    pub fn start_reduce_with(
        &self,
        send: &[u8],
        reducer: Reducer,
        root: u32,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Reduce)
            .root(root)
            .reducing(&reducer)
            .len(send.len());
        self.check_root(root)?;
        Self::check_reducer(&reducer, send.len())?;
        let facts = Facts {
            commutative: reducer.commutative(),
            ..self.inner.facts(Coll::Reduce, send.len())
        };
        let a = planned!(self, facts, Reduce);
        let data = crate::device::to_host_vec(send)?;
        let m = algo::reduce::reducer_machine_with(self.inner.group(), root, reducer, data, a);
        let unpack = if self.rank() == root {
            whole(send.len())
        } else {
            (Unpack::Nothing, None)
        };
        self.launch(fp, m, unpack)
    }

    /// Starts an allreduce of `send`; every receive buffer has `send.len()` bytes.
    pub fn start_allreduce(
        &self,
        send: &[u8],
        dtype: Datatype,
        op: ReduceOp,
    ) -> Result<PendingCollective> {
        Self::check_reduction(dtype, op)?;
        self.start_allreduce_with(send, Reducer::builtin(op, dtype))
    }

    /// [`Comm::start_allreduce`] with any [`Reducer`] (a custom, possibly non-commutative op).
    pub fn start_allreduce_with(&self, send: &[u8], reducer: Reducer) -> Result<PendingCollective> {
        Self::check_reducer(&reducer, send.len())?;
        self.start_allreduce_owned(crate::device::to_host_vec(send)?, reducer)
    }

    /// [`Comm::start_allreduce_with`] taking ownership of the input (no copy of it is made).
    /// Large vectors between ranks of one host are reduced straight out of each other's
    /// buffers (see [`super::direct_allreduce`]).
    pub fn start_allreduce_owned(
        &self,
        send: Vec<u8>,
        reducer: Reducer,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Allreduce)
            .reducing(&reducer)
            .len(send.len());
        Self::check_reducer(&reducer, send.len())?;
        let len = send.len();
        match self.inner.plan(&self.allreduce_facts(&reducer, len)) {
            Plan::Direct => {
                let d = DirectAllreduce::start(&self.inner, reducer, send, fp)?;
                Ok(self.pending(Work::Direct(Box::new(d)), Some(len)))
            }
            Plan::Alone => {
                self.check_alone()?;
                Ok(self.pending(Work::Ready(send), Some(len)))
            }
            Plan::Nothing => self.nothing(),
            Plan::Machine(Algo::Allreduce(a)) => {
                let m = algo::allreduce::reducer_machine_with(self.inner.group(), reducer, send, a);
                self.launch(fp, m, whole(len))
            }
            other => Err(unplanned(Coll::Allreduce, other)),
        }
    }

    /// [`Comm::start_allreduce_with`] over the caller's `len` bytes at `send`, which the direct
    /// shared-memory algorithm reads in place (the peers copy straight out of it); the other
    /// algorithms copy it first. For bindings whose callers promise to leave the buffer alone
    /// until the operation completes (MPI).
    ///
    /// `send` may also be the receive buffer later passed to
    /// [`PendingCollective::finish_into`] (in place): the result then replaces the input.
    ///
    /// # Safety
    /// `send` must be valid for reads of `len` bytes, and left unchanged by the caller, until
    /// the returned collective has finished or been dropped.
    pub unsafe fn start_allreduce_borrowed(
        &self,
        send: *const u8,
        len: usize,
        reducer: Reducer,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Allreduce).reducing(&reducer).len(len);
        Self::check_reducer(&reducer, len)?;
        if len > 0 && crate::device::is_device(send) {
            // SAFETY: valid for `len` bytes per the contract; staged, never read on the host.
            let dev = unsafe { std::slice::from_raw_parts(send, len) };
            return self.start_allreduce_owned(crate::device::to_host_vec(dev)?, reducer);
        }
        match self.inner.plan(&self.allreduce_facts(&reducer, len)) {
            Plan::Direct => {
                // SAFETY: forwarded from this function's contract.
                let d = unsafe {
                    DirectAllreduce::start_borrowed(&self.inner, reducer, send, len, fp)
                }?;
                return Ok(self.pending(Work::Direct(Box::new(d)), Some(len)));
            }
            Plan::Alone => {
                self.check_alone()?;
                let addr = send as usize;
                return Ok(self.pending(Work::Alone { addr, len }, Some(len)));
            }
            Plan::Nothing => return self.nothing(),
            _ => {}
        }
        let data = if len == 0 {
            Vec::new()
        } else {
            // SAFETY: valid for `len` bytes of reads per the contract.
            unsafe { std::slice::from_raw_parts(send, len) }.to_vec()
        };
        self.start_allreduce_owned(data, reducer)
    }

    /// Starts an allgather(v): `send` is my block (`counts[rank]` elements); block `i` lands at
    /// `displs[i]` (or packed in order) in a receive buffer of `recv_len` bytes.
    pub fn start_allgatherv(
        &self,
        send: &[u8],
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Allgather);
        let r = ranges(
            "allgatherv",
            counts,
            displs,
            dtype.size(),
            recv_len,
            self.size(),
        )?;
        expect_len(
            "allgatherv send buffer",
            send.len(),
            r[self.rank() as usize].len(),
        )?;
        // The blocks' sum, which every rank knows (the displacements are each rank's own).
        let total = r.iter().map(|b| b.len()).sum();
        let a = planned!(self, self.inner.facts(Coll::Allgather, total), Allgather);
        let data = crate::device::to_host_vec(send)?;
        let m = algo::allgather::machine_with(self.inner.group(), data, lens(&r), a);
        self.launch(fp, m, (Unpack::Blocks(r), Some(recv_len)))
    }

    /// Starts an allgather of equal blocks of `send.len()` bytes.
    pub fn start_allgather(&self, send: &[u8], dtype: Datatype) -> Result<PendingCollective> {
        let count = dtype.count_of(send.len())?;
        let total = send
            .len()
            .checked_mul(self.size() as usize)
            .ok_or_else(|| {
                Error::new(ErrorKind::InvalidCount, "allgather: total size overflows")
            })?;
        self.start_allgatherv(send, dtype, &vec![count; self.size() as usize], None, total)
    }

    /// Starts a gather(v) to `root`. `counts`/`displs` (elements) describe the root's receive
    /// buffer of `recv_len` bytes and are read at the root only.
    pub fn start_gatherv(
        &self,
        send: &[u8],
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
        root: u32,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Gather).root(root);
        self.check_root(root)?;
        let n = self.size() as usize;
        // Non-roots know only their own block: the plan picks an algorithm that needs no more.
        let gatherv_facts = Facts {
            layout_shared: false,
            ..self.inner.facts(Coll::Gather, 0)
        };
        if self.rank() == root {
            let r = ranges(
                "gatherv",
                counts,
                displs,
                dtype.size(),
                recv_len,
                self.size(),
            )?;
            expect_len("gatherv send buffer", send.len(), r[root as usize].len())?;
            let a = planned!(self, gatherv_facts, Gather);
            let data = crate::device::to_host_vec(send)?;
            let m = algo::gather::machine_with(self.inner.group(), root, data, lens(&r), a);
            self.launch(fp, m, (Unpack::Blocks(r), Some(recv_len)))
        } else {
            // Non-roots know only their own block; the linear algorithm needs no more.
            let mut l = vec![0; n];
            l[self.rank() as usize] = send.len();
            let a = planned!(self, gatherv_facts, Gather);
            let data = crate::device::to_host_vec(send)?;
            let m = algo::gather::machine_with(self.inner.group(), root, data, l, a);
            self.launch(fp, m, (Unpack::Nothing, None))
        }
    }

    /// Starts a gather of equal blocks of `send.len()` bytes to `root`.
    pub fn start_gather(
        &self,
        send: &[u8],
        dtype: Datatype,
        root: u32,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Gather).root(root);
        self.check_root(root)?;
        dtype.count_of(send.len())?;
        let n = self.size() as usize;
        let total = send
            .len()
            .checked_mul(n)
            .ok_or_else(|| Error::new(ErrorKind::InvalidCount, "gather: total size overflows"))?;
        let a = planned!(self, self.inner.facts(Coll::Gather, total), Gather);
        let data = crate::device::to_host_vec(send)?;
        let m = algo::gather::machine_with(self.inner.group(), root, data, vec![send.len(); n], a);
        let unpack = if self.rank() == root {
            whole(total)
        } else {
            (Unpack::Nothing, None)
        };
        self.launch(fp, m, unpack)
    }

    /// Starts a scatter(v) from `root`: block `i` of the root's `send` (at `displs[i]`,
    /// `counts[i]` elements; read at the root only) lands in rank `i`'s receive buffer of
    /// `recv_len` bytes.
    pub fn start_scatterv(
        &self,
        send: &[u8],
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
        root: u32,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Scatter).root(root);
        self.check_root(root)?;
        let n = self.size() as usize;
        let (data, l) = if self.rank() == root {
            let r = ranges(
                "scatterv",
                counts,
                displs,
                dtype.size(),
                send.len(),
                self.size(),
            )?;
            expect_len("scatterv receive buffer", recv_len, r[root as usize].len())?;
            (pack(&crate::device::host_view(send)?, &r), lens(&r))
        } else {
            let mut l = vec![0; n];
            l[self.rank() as usize] = recv_len;
            (Vec::new(), l)
        };
        // Non-roots know only their own block: the plan picks an algorithm that needs no more.
        let facts = Facts {
            layout_shared: false,
            ..self.inner.facts(Coll::Scatter, 0)
        };
        let a = planned!(self, facts, Scatter);
        let m = algo::scatter::machine_with(self.inner.group(), root, data, l, a);
        self.launch(fp, m, whole(recv_len))
    }

    /// Starts a scatter of equal blocks of `recv_len` bytes from `root`.
    pub fn start_scatter(
        &self,
        send: &[u8],
        dtype: Datatype,
        recv_len: usize,
        root: u32,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Scatter).root(root);
        self.check_root(root)?;
        dtype.count_of(recv_len)?;
        let n = self.size() as usize;
        let data = if self.rank() == root {
            let total = recv_len.checked_mul(n).ok_or_else(|| {
                Error::new(ErrorKind::InvalidCount, "scatter: total size overflows")
            })?;
            expect_len("scatter send buffer", send.len(), total)?;
            crate::device::to_host_vec(send)?
        } else {
            Vec::new()
        };
        // Every rank knows the total (`recv_len * n`), the root's send length included.
        let total = recv_len.saturating_mul(n);
        let a = planned!(self, self.inner.facts(Coll::Scatter, total), Scatter);
        let m = algo::scatter::machine_with(self.inner.group(), root, data, vec![recv_len; n], a);
        self.launch(fp, m, whole(recv_len))
    }

    /// Starts an alltoall(v): block `j` of `send` (at `sdispls[j]`, `scounts[j]` elements) goes
    /// to rank `j`; the block from rank `i` lands at `rdispls[i]` in a receive buffer of
    /// `recv_len` bytes.
    #[allow(clippy::too_many_arguments)]
    pub fn start_alltoallv(
        &self,
        send: &[u8],
        scounts: &[usize],
        sdispls: Option<&[usize]>,
        dtype: Datatype,
        rcounts: &[usize],
        rdispls: Option<&[usize]>,
        recv_len: usize,
    ) -> Result<PendingCollective> {
        let (s, r) = ((send, scounts, sdispls), (rcounts, rdispls, recv_len));
        self.start_alltoall_blocks(s, dtype, r, false)
    }

    /// [`Comm::start_alltoallv`], where `equal` says every block of every rank has the same
    /// size (an alltoall), which every rank then knows.
    fn start_alltoall_blocks(
        &self,
        sends: (&[u8], &[usize], Option<&[usize]>),
        dtype: Datatype,
        recvs: (&[usize], Option<&[usize]>, usize),
        equal: bool,
    ) -> Result<PendingCollective> {
        if self.is_inter() {
            return self.start_inter_alltoallv(sends, dtype, recvs);
        }
        let ((send, scounts, sdispls), (rcounts, rdispls, recv_len)) = (sends, recvs);
        let fp = Fingerprint::of(Kind::Alltoall);
        let e = dtype.size();
        let s = ranges(
            "alltoallv send",
            scounts,
            sdispls,
            e,
            send.len(),
            self.size(),
        )?;
        let r = ranges(
            "alltoallv receive",
            rcounts,
            rdispls,
            e,
            recv_len,
            self.size(),
        )?;
        let me = self.rank() as usize;
        if s[me].len() != r[me].len() {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                "alltoallv: the block a rank sends itself must equal the block it receives",
            ));
        }
        // This rank's send volume: the alltoall algorithms interoperate, so it may differ.
        let sent = s.iter().map(|b| b.len()).sum();
        let facts = Facts {
            layout_shared: equal,
            ..self.inner.facts(Coll::Alltoall, sent)
        };
        let a = planned!(self, facts, Alltoall);
        let data = pack(&crate::device::host_view(send)?, &s);
        let m = algo::alltoall::machine_with(self.inner.group(), data, lens(&s), lens(&r), a);
        self.launch(fp, m, (Unpack::Blocks(r), Some(recv_len)))
    }

    /// Starts an alltoall of equal blocks (`send.len() / size` bytes each).
    pub fn start_alltoall(&self, send: &[u8], dtype: Datatype) -> Result<PendingCollective> {
        let n = self.size() as usize;
        let count = dtype.count_of(send.len())?;
        if !count.is_multiple_of(n) {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!("alltoall: {count} elements do not split into {n} equal blocks"),
            ));
        }
        let c = vec![count / n; n];
        self.start_alltoall_blocks((send, &c, None), dtype, (&c, None, send.len()), true)
    }

    /// Starts a reduce-scatter: `send` holds `sum(counts)` elements; rank `i` receives block `i`
    /// (`counts[i]` elements) of the reduction.
    pub fn start_reduce_scatter(
        &self,
        send: &[u8],
        counts: &[usize],
        dtype: Datatype,
        op: ReduceOp,
    ) -> Result<PendingCollective> {
        Self::check_reduction(dtype, op)?;
        self.start_reduce_scatter_with(send, counts, Reducer::builtin(op, dtype))
    }

    /// [`Comm::start_reduce_scatter`] with any [`Reducer`]; `counts` are in its elements.
    pub fn start_reduce_scatter_with(
        &self,
        send: &[u8],
        counts: &[usize],
        reducer: Reducer,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::ReduceScatter)
            .reducing(&reducer)
            .len(send.len());
        reducer.check()?;
        let r = ranges(
            "reduce_scatter",
            counts,
            None,
            reducer.elem_size(),
            send.len(),
            self.size(),
        )?;
        let total = r.last().map_or(0, |r| r.end);
        expect_len("reduce_scatter send buffer", send.len(), total)?;
        let mine = r[self.rank() as usize].len();
        let facts = Facts {
            commutative: reducer.commutative(),
            ..self.inner.facts(Coll::ReduceScatter, total)
        };
        let a = planned!(self, facts, ReduceScatter);
        let data = crate::device::to_host_vec(send)?;
        let m = algo::reduce_scatter::reducer_with_algo(
            a,
            self.inner.group(),
            reducer,
            data,
            counts.to_vec(),
        );
        self.launch(fp, m, whole(mine))
    }

    /// Starts a scan (inclusive) or exscan (exclusive; rank 0's buffer is left untouched).
    pub fn start_scan(
        &self,
        send: &[u8],
        dtype: Datatype,
        op: ReduceOp,
        exclusive: bool,
    ) -> Result<PendingCollective> {
        Self::check_reduction(dtype, op)?;
        self.start_scan_with(send, Reducer::builtin(op, dtype), exclusive)
    }

    /// [`Comm::start_scan`] with any [`Reducer`] (a custom, possibly non-commutative op).
    pub fn start_scan_with(
        &self,
        send: &[u8],
        reducer: Reducer,
        exclusive: bool,
    ) -> Result<PendingCollective> {
        let fp = Fingerprint::of(Kind::Scan)
            .root(exclusive as u32)
            .reducing(&reducer)
            .len(send.len());
        Self::check_reducer(&reducer, send.len())?;
        let len = send.len();
        let a = planned!(self, self.inner.facts(Coll::Scan, len), Scan);
        let data = crate::device::to_host_vec(send)?;
        let m = algo::scan::reducer_with_algo(a, self.inner.group(), reducer, data, exclusive);
        let unpack = if exclusive && self.rank() == 0 {
            (Unpack::Nothing, Some(len))
        } else {
            whole(len)
        };
        self.launch(fp, m, unpack)
    }
}
