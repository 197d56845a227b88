//! Collectives on an intercommunicator (MPI 4.1 §6.2.2), built the standard way from
//! collectives on each local group (the intercommunicator's local intracommunicator) and
//! exchanges between the groups' rank 0s (or with a rooted call's root), on the
//! intercommunicator's own collective context. Byte-level: bindings pack and check the
//! arguments; each call's messages carry a tag both groups number alike.
//!
//! A start takes the call's number at once (program order) and returns a
//! [`PendingCollective`] whose work runs when its turn comes: calls between the groups run one
//! at a time in that order, so the local phases of two calls in flight start in the same
//! order on every member. A call's work runs while its [`PendingCollective`] is being
//! finished: finish the calls of one intercommunicator in start order, or on tasks of their
//! own (as the MPI shim's requests are), never a later one alone while an earlier one waits
//! unfinished.
//!
//! Every member of both groups calls each of them, in the same order. In a rooted call the
//! root passes [`InterRoot::Root`], the rest of its group [`InterRoot::Idle`], and the other
//! group [`InterRoot::Remote`] with the root's rank in the root's group.

use super::collectives::{PendingCollective, Work};
use super::layout::{Unpack, lens, pack, ranges};
use crate::Reducer;
use crate::comm::Comm;
use crate::comm_inter::{Inter, Turn, bcast_bytes, check_len};
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::Datatype;

/// A member's part in a rooted collective on an intercommunicator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterRoot {
    /// This process is the root (`MPI_ROOT`).
    Root,
    /// In the root's group but not the root (`MPI_PROC_NULL`): takes no part.
    Idle,
    /// In the other group; the root is this rank of the remote group.
    Remote(u32),
}

impl Comm {
    /// The intercommunicator state, or `InvalidComm` naming `what`.
    fn inter_of(&self, what: &str) -> Result<&Inter> {
        self.inner.inter.as_deref().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidComm,
                format!("{what}: not an intercommunicator"),
            )
        })
    }

    /// Checks a remote root rank.
    fn check_remote_root(&self, root: InterRoot) -> Result<()> {
        if let InterRoot::Remote(r) = root {
            self.inner.peer_world_rank(r).map_err(|_| {
                Error::new(
                    ErrorKind::InvalidRoot,
                    format!(
                        "root {r} is out of range for a remote group of size {}",
                        self.remote_size().unwrap_or(0)
                    ),
                )
            })?;
        }
        Ok(())
    }

    /// Starts `run` (given this communicator and the call's tag) as the next call between the
    /// groups; it yields this rank's result, `recv_len` bytes (nothing when `None`).
    fn start_inter<F>(
        &self,
        what: &str,
        recv_len: Option<usize>,
        run: impl FnOnce(Comm, i32) -> F,
    ) -> Result<PendingCollective>
    where
        F: Future<Output = Result<Vec<u8>>> + Send + 'static,
    {
        let unpack = if recv_len.is_some() {
            Unpack::Whole
        } else {
            Unpack::Nothing
        };
        self.start_inter_unpacked(what, (unpack, recv_len), run)
    }

    /// [`Comm::start_inter`] whose output lands in the receive buffer of `recv_len` bytes as
    /// `unpack` says.
    fn start_inter_unpacked<F>(
        &self,
        what: &str,
        (unpack, recv_len): (Unpack, Option<usize>),
        run: impl FnOnce(Comm, i32) -> F,
    ) -> Result<PendingCollective>
    where
        F: Future<Output = Result<Vec<u8>>> + Send + 'static,
    {
        self.inter_of(what)?;
        let turn = Turn::take(self)?;
        let fut = run(self.clone(), turn.tag());
        let work = async move {
            turn.wait().await;
            let out = fut.await;
            drop(turn);
            out
        };
        Ok(self.pending(Work::Inter(Box::pin(work), unpack), recv_len))
    }

    /// Starts a barrier between the groups: it completes once every member of the remote
    /// group has entered it.
    pub fn start_inter_barrier(&self) -> Result<PendingCollective> {
        self.start_inter("inter_barrier", None, |c, tag| async move {
            let inter = c.inter_of("inter_barrier")?;
            inter.local.barrier().await?;
            if c.rank() == 0 {
                c.inter_sendrecv(inter, Vec::new(), 0, 0, tag).await?;
            }
            // Nobody leaves before rank 0 heard that the whole remote group entered.
            inter.local.barrier().await?;
            Ok(Vec::new())
        })
    }

    /// Starts a broadcast of the root's `buf` to every member of the other group, whose
    /// result has `len` bytes. The root's group receives nothing.
    pub fn start_inter_bcast(
        &self,
        buf: Vec<u8>,
        len: usize,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        let recv_len = matches!(root, InterRoot::Remote(_)).then_some(len);
        self.start_inter("inter_bcast", recv_len, move |c, tag| async move {
            let inter = c.inter_of("inter_bcast")?;
            match root {
                InterRoot::Root => c.inter_send(inter, buf, 0, tag).map(|()| Vec::new()),
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let mut out = vec![0u8; len];
                    if c.rank() == 0 {
                        let got = c.inter_post(inter, r, tag)?.await?;
                        check_len("the broadcast's root", got.len(), len)?;
                        out.copy_from_slice(&got);
                    }
                    bcast_bytes(&inter.local, &mut out, 0).await?;
                    Ok(out)
                }
            }
        })
    }

    /// Starts an allreduce between the groups: every member gets the reduction with
    /// `reducer` of the remote group's inputs (in remote rank order), as long as `send`.
    pub fn start_inter_allreduce(
        &self,
        send: Vec<u8>,
        reducer: Reducer,
    ) -> Result<PendingCollective> {
        Self::check_reducer(&reducer, send.len())?;
        let len = send.len();
        self.start_inter("inter_allreduce", Some(len), move |c, tag| async move {
            let inter = c.inter_of("inter_allreduce")?;
            let mine = local_reduce(&c, inter, &send, reducer).await?;
            let mut out = vec![0u8; len];
            if c.rank() == 0 {
                let got = c.inter_sendrecv(inter, mine, 0, 0, tag).await?;
                check_len("the remote group's rank 0", got.len(), len)?;
                out.copy_from_slice(&got);
            }
            bcast_bytes(&inter.local, &mut out, 0).await?;
            Ok(out)
        })
    }

    /// Starts a reduction to the root of the other group's inputs with `reducer` (needed in
    /// that group only); the root's result is `len` bytes, as long as the inputs.
    pub fn start_inter_reduce(
        &self,
        send: Vec<u8>,
        len: usize,
        reducer: Option<Reducer>,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        let reducer = match (root, reducer) {
            (InterRoot::Remote(_), None) => {
                return Err(Error::new(
                    ErrorKind::InvalidOp,
                    "inter_reduce: the sending group needs a reduction",
                ));
            }
            (InterRoot::Remote(_), Some(r)) => {
                Self::check_reducer(&r, send.len())?;
                Some(r)
            }
            (_, r) => r,
        };
        let recv_len = (root == InterRoot::Root).then_some(len);
        self.start_inter("inter_reduce", recv_len, move |c, tag| async move {
            let inter = c.inter_of("inter_reduce")?;
            match root {
                InterRoot::Root => {
                    let got = c.inter_post(inter, 0, tag)?.await?;
                    check_len("the remote group's rank 0", got.len(), len)?;
                    Ok(got.to_vec())
                }
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let reducer = reducer.expect("checked at start");
                    let mine = local_reduce(&c, inter, &send, reducer).await?;
                    if c.rank() == 0 {
                        c.inter_send(inter, mine, r, tag)?;
                    }
                    Ok(Vec::new())
                }
            }
        })
    }

    /// Starts an allgather between the groups: every member gets the remote group's `send`s
    /// in remote rank order, `recv_len` bytes in all.
    pub fn start_inter_allgather(
        &self,
        send: Vec<u8>,
        recv_len: usize,
    ) -> Result<PendingCollective> {
        self.start_inter(
            "inter_allgather",
            Some(recv_len),
            move |c, tag| async move {
                let inter = c.inter_of("inter_allgather")?;
                let mine = local_gather(&c, inter, &send).await?;
                let mut out = vec![0u8; recv_len];
                if c.rank() == 0 {
                    let got = c.inter_sendrecv(inter, mine, 0, 0, tag).await?;
                    check_len("the remote group's rank 0", got.len(), recv_len)?;
                    out.copy_from_slice(&got);
                }
                bcast_bytes(&inter.local, &mut out, 0).await?;
                Ok(out)
            },
        )
    }

    /// Starts a gather to the root of the other group's `send`s in remote rank order,
    /// `recv_len` bytes in all at the root (ignored elsewhere).
    pub fn start_inter_gather(
        &self,
        send: Vec<u8>,
        recv_len: usize,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        let result_len = (root == InterRoot::Root).then_some(recv_len);
        self.start_inter("inter_gather", result_len, move |c, tag| async move {
            let inter = c.inter_of("inter_gather")?;
            match root {
                InterRoot::Root => {
                    let got = c.inter_post(inter, 0, tag)?.await?;
                    check_len("the remote group's rank 0", got.len(), recv_len)?;
                    Ok(got.to_vec())
                }
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let mine = local_gather(&c, inter, &send).await?;
                    if c.rank() == 0 {
                        c.inter_send(inter, mine, r, tag)?;
                    }
                    Ok(Vec::new())
                }
            }
        })
    }

    /// Starts a scatter: rank `i` of the other group gets block `i` of the root's `send`
    /// (remote size blocks), `recv_len` bytes; `send` is ignored elsewhere.
    pub fn start_inter_scatter(
        &self,
        send: Vec<u8>,
        recv_len: usize,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        let result_len = matches!(root, InterRoot::Remote(_)).then_some(recv_len);
        self.start_inter("inter_scatter", result_len, move |c, tag| async move {
            let inter = c.inter_of("inter_scatter")?;
            match root {
                InterRoot::Root => c.inter_send(inter, send, 0, tag).map(|()| Vec::new()),
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let mut all = Vec::new();
                    if c.rank() == 0 {
                        all = c.inter_post(inter, r, tag)?.await?.to_vec();
                        let want = recv_len * c.size() as usize;
                        check_len("the scatter's root", all.len(), want)?;
                    }
                    let mut out = vec![0u8; recv_len];
                    inter
                        .local
                        .start_scatter(&all, Datatype::U8, recv_len, 0)?
                        .finish_into(&mut out)
                        .await?;
                    Ok(out)
                }
            }
        })
    }

    /// Starts an alltoall between the groups: remote rank `j` gets block `j` of `send`, and
    /// block `i` of the result (`recv_len` bytes, remote size equal blocks) comes from remote
    /// rank `i`.
    pub fn start_inter_alltoall(
        &self,
        send: Vec<u8>,
        recv_len: usize,
    ) -> Result<PendingCollective> {
        let n = self.remote_size().unwrap_or(1) as usize;
        if !send.len().is_multiple_of(n) || !recv_len.is_multiple_of(n) {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!("inter_alltoall: the buffers do not split into {n} equal blocks"),
            ));
        }
        self.start_inter("inter_alltoall", Some(recv_len), move |c, tag| async move {
            let inter = c.inter_of("inter_alltoall")?;
            let (sb, rb) = (send.len() / n, recv_len / n);
            let posted = (0..n as u32)
                .map(|i| c.inter_post(inter, i, tag))
                .collect::<Result<Vec<_>>>()?;
            for j in 0..n {
                c.inter_send(inter, send[j * sb..(j + 1) * sb].to_vec(), j as u32, tag)?;
            }
            let mut out = vec![0u8; recv_len];
            for (i, p) in posted.into_iter().enumerate() {
                let got = p.await?;
                check_len("a remote rank", got.len(), rb)?;
                out[i * rb..(i + 1) * rb].copy_from_slice(&got);
            }
            Ok(out)
        })
    }

    /// Starts an allgatherv between the groups: remote rank `i`'s `send` (`counts[i]`
    /// elements of `dtype`) lands at `displs[i]` (packed in rank order when `None`) of every
    /// member's receive buffer of `recv_len` bytes.
    pub fn start_inter_allgatherv(
        &self,
        send: Vec<u8>,
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
    ) -> Result<PendingCollective> {
        let r = self.remote_ranges("inter_allgatherv", counts, displs, dtype, recv_len)?;
        let total: usize = lens(&r).iter().sum();
        let unpack = (Unpack::Blocks(r), Some(recv_len));
        self.start_inter_unpacked("inter_allgatherv", unpack, move |c, tag| async move {
            let inter = c.inter_of("inter_allgatherv")?;
            let mine = local_gatherv(&c, inter, &send).await?;
            c.leaders_swap(inter, tag, mine, total).await
        })
    }

    /// Starts a gatherv to the root: remote rank `i`'s `send` (`counts[i]` elements of
    /// `dtype`) lands at `displs[i]` of the root's receive buffer of `recv_len` bytes
    /// (`counts`, `displs` and `recv_len` count only at the root).
    #[allow(clippy::too_many_arguments)]
    pub fn start_inter_gatherv(
        &self,
        send: Vec<u8>,
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        let (unpack, total) = if root == InterRoot::Root {
            let r = self.remote_ranges("inter_gatherv", counts, displs, dtype, recv_len)?;
            let total: usize = lens(&r).iter().sum();
            ((Unpack::Blocks(r), Some(recv_len)), total)
        } else {
            ((Unpack::Nothing, None), 0)
        };
        self.start_inter_unpacked("inter_gatherv", unpack, move |c, tag| async move {
            let inter = c.inter_of("inter_gatherv")?;
            match root {
                InterRoot::Root => {
                    let got = c.inter_post(inter, 0, tag)?.await?;
                    check_len("the remote group's rank 0", got.len(), total)?;
                    Ok(got.to_vec())
                }
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let mine = local_gatherv(&c, inter, &send).await?;
                    if c.rank() == 0 {
                        c.inter_send(inter, mine, r, tag)?;
                    }
                    Ok(Vec::new())
                }
            }
        })
    }

    /// Starts a scatterv from the root: remote rank `i` gets `counts[i]` elements of `dtype`
    /// at `displs[i]` of the root's `send` (`counts` and `displs` count only at the root), in
    /// its receive buffer of `recv_len` bytes.
    #[allow(clippy::too_many_arguments)]
    pub fn start_inter_scatterv(
        &self,
        send: Vec<u8>,
        dtype: Datatype,
        counts: &[usize],
        displs: Option<&[usize]>,
        recv_len: usize,
        root: InterRoot,
    ) -> Result<PendingCollective> {
        self.check_remote_root(root)?;
        // The root sends the blocks' lengths first: the receiving group's rank 0 scatters
        // them without knowing its members' counts.
        let mut out = Vec::new();
        if root == InterRoot::Root {
            let r = self.remote_ranges("inter_scatterv", counts, displs, dtype, send.len())?;
            for l in lens(&r) {
                out.extend_from_slice(&(l as u64).to_le_bytes());
            }
            out.extend_from_slice(&pack(&send, &r));
        }
        let result_len = matches!(root, InterRoot::Remote(_)).then_some(recv_len);
        self.start_inter("inter_scatterv", result_len, move |c, tag| async move {
            let inter = c.inter_of("inter_scatterv")?;
            match root {
                InterRoot::Root => c.inter_send(inter, out, 0, tag).map(|()| Vec::new()),
                InterRoot::Idle => Ok(Vec::new()),
                InterRoot::Remote(r) => {
                    let (mut data, mut blocks) = (Vec::new(), Vec::new());
                    if c.rank() == 0 {
                        let got = c.inter_post(inter, r, tag)?.await?;
                        let head = 8 * c.size() as usize;
                        if got.len() < head {
                            check_len("the scatterv's root", got.len(), head)?;
                        }
                        blocks = got[..head]
                            .chunks_exact(8)
                            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
                            .collect();
                        let total: usize = blocks.iter().sum();
                        check_len("the scatterv's root", got.len() - head, total)?;
                        data = got[head..].to_vec();
                    }
                    let mut mine = vec![0u8; recv_len];
                    inter
                        .local
                        .start_scatterv(&data, Datatype::U8, &blocks, None, recv_len, 0)?
                        .finish_into(&mut mine)
                        .await?;
                    Ok(mine)
                }
            }
        })
    }

    /// An alltoallv between the groups (see [`Comm::start_alltoallv`], which hands an
    /// intercommunicator here): remote rank `j` gets the block `(send counts, displs)` names
    /// for `j`; remote rank `i`'s block for this rank lands where `(recv counts, displs)` say.
    pub(crate) fn start_inter_alltoallv(
        &self,
        (send, scounts, sdispls): (&[u8], &[usize], Option<&[usize]>),
        dtype: Datatype,
        (rcounts, rdispls, recv_len): (&[usize], Option<&[usize]>, usize),
    ) -> Result<PendingCollective> {
        let what = "inter_alltoallv";
        let s = self.remote_ranges(what, scounts, sdispls, dtype, send.len())?;
        let r = self.remote_ranges(what, rcounts, rdispls, dtype, recv_len)?;
        let blocks: Vec<Vec<u8>> = s.iter().map(|b| send[b.clone()].to_vec()).collect();
        let want = lens(&r);
        let unpack = (Unpack::Blocks(r), Some(recv_len));
        self.start_inter_unpacked(what, unpack, move |c, tag| async move {
            let inter = c.inter_of(what)?;
            let posted = (0..want.len() as u32)
                .map(|i| c.inter_post(inter, i, tag))
                .collect::<Result<Vec<_>>>()?;
            for (j, b) in blocks.into_iter().enumerate() {
                c.inter_send(inter, b, j as u32, tag)?;
            }
            let mut out = Vec::with_capacity(want.iter().sum());
            for (p, &w) in posted.into_iter().zip(&want) {
                let got = p.await?;
                check_len("a remote rank", got.len(), w)?;
                out.extend_from_slice(&got);
            }
            Ok(out)
        })
    }

    /// Starts a reduce-scatter between the groups: the reduction with `reducer` of the remote
    /// group's `send`s (`sum(counts)` reducer elements, as long in both groups) is split into
    /// blocks of `counts[i]` elements, block `i` to local rank `i`.
    pub fn start_inter_reduce_scatter(
        &self,
        send: Vec<u8>,
        counts: &[usize],
        reducer: Reducer,
    ) -> Result<PendingCollective> {
        Self::check_reducer(&reducer, send.len())?;
        let r = ranges(
            "inter_reduce_scatter",
            counts,
            None,
            reducer.elem_size(),
            send.len(),
            self.size(),
        )?;
        let blocks = lens(&r);
        if blocks.iter().sum::<usize>() != send.len() {
            return Err(Error::new(
                ErrorKind::InvalidCount,
                format!(
                    "inter_reduce_scatter: the counts cover {} of the {} bytes sent",
                    blocks.iter().sum::<usize>(),
                    send.len()
                ),
            ));
        }
        let mine = blocks[self.rank() as usize];
        self.start_inter(
            "inter_reduce_scatter",
            Some(mine),
            move |c, tag| async move {
                let inter = c.inter_of("inter_reduce_scatter")?;
                let len = send.len();
                let reduced = local_reduce(&c, inter, &send, reducer).await?;
                let (mut theirs, mut at_root) = (Vec::new(), &[][..]);
                if c.rank() == 0 {
                    theirs = c.inter_sendrecv(inter, reduced, 0, 0, tag).await?.to_vec();
                    check_len("the remote group's rank 0", theirs.len(), len)?;
                    at_root = &blocks;
                }
                let mut out = vec![0u8; mine];
                inter
                    .local
                    .start_scatterv(&theirs, Datatype::U8, at_root, None, mine, 0)?
                    .finish_into(&mut out)
                    .await?;
                Ok(out)
            },
        )
    }

    /// Byte ranges of the remote group's blocks (`counts` and `displs` in elements of
    /// `dtype`, one per remote rank) in a buffer of `len` bytes.
    fn remote_ranges(
        &self,
        what: &str,
        counts: &[usize],
        displs: Option<&[usize]>,
        dtype: Datatype,
        len: usize,
    ) -> Result<Vec<std::ops::Range<usize>>> {
        let n = self.remote_size().unwrap_or(0);
        ranges(what, counts, displs, dtype.size(), len, n)
    }
}

/// The local group's `send`s reduced with `reducer` at local rank 0 (empty elsewhere).
async fn local_reduce(c: &Comm, inter: &Inter, send: &[u8], reducer: Reducer) -> Result<Vec<u8>> {
    let mut mine = vec![0u8; if c.rank() == 0 { send.len() } else { 0 }];
    inter
        .local
        .start_reduce_with(send, reducer, 0)?
        .finish_into(&mut mine)
        .await?;
    Ok(mine)
}

/// The local group's `send`s gathered at local rank 0, in rank order (empty elsewhere).
async fn local_gather(c: &Comm, inter: &Inter, send: &[u8]) -> Result<Vec<u8>> {
    let n = if c.rank() == 0 {
        send.len() * c.size() as usize
    } else {
        0
    };
    let mut all = vec![0u8; n];
    inter
        .local
        .start_gather(send, Datatype::U8, 0)?
        .finish_into(&mut all)
        .await?;
    Ok(all)
}

/// The local group's `send`s (of any lengths) gathered at local rank 0, in rank order (empty
/// elsewhere): the lengths first, then the blocks.
async fn local_gatherv(c: &Comm, inter: &Inter, send: &[u8]) -> Result<Vec<u8>> {
    let lens = local_gather(c, inter, &(send.len() as u64).to_le_bytes()).await?;
    let counts: Vec<usize> = lens
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
        .collect();
    let total = counts.iter().sum();
    let mut all = vec![0u8; total];
    inter
        .local
        .start_gatherv(send, Datatype::U8, &counts, None, total, 0)?
        .finish_into(&mut all)
        .await?;
    Ok(all)
}
