//! The starts a binding calls with the caller's buffers ([`Input`], [`Dest`]) and a [`Mode`],
//! for the four collectives NCCL can run and the barrier. The destination is given up front,
//! and a blocking call goes through NCCL or the communicator's shared flag area
//! ([`super::flags`]) when the plan says so (`nexar_proto::select::plan`), so no binding routes
//! anything itself.
//!
//! NCCL is handed contiguous buffers: the caller's own, or a binding's packed input
//! ([`Input::Owned`]) and target buffer ([`Dest::Target`]); a rank whose buffers are host
//! memory is then moved to the staged path by NCCL's per-call agreement, so ranks that describe
//! the same data differently still take the same branch.

use super::collectives::{PendingCollective, Work};
use super::dest::{Dest, Input, Mode};
use crate::comm::Comm;
use crate::error::{Error, ErrorKind, Result};
use nexar_proto::Reducer;
use nexar_proto::select::plan::{Coll, Facts, Plan};

/// `len` bytes at `ptr` as a slice (empty, whatever `ptr` is, when `len` is 0).
///
/// # Safety
/// `ptr` must be valid for reads of `len` bytes for `'a`.
unsafe fn view<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: per the contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The destination's contiguous buffer, which must have `len` bytes.
fn recv_buf(dest: &mut Dest, len: usize, what: &str) -> Result<*mut u8> {
    let (ptr, have) = match dest {
        Dest::Caller { ptr, len } => (*ptr, *len),
        Dest::Target(t) => {
            let b = t.buf();
            (b.as_mut_ptr(), b.len())
        }
        _ => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("{what}: the destination must be a buffer"),
            ));
        }
    };
    if have != len {
        return Err(Error::new(
            ErrorKind::InvalidCount,
            format!("{what}: the receive buffer has {have} bytes, the call needs {len}"),
        ));
    }
    Ok(ptr)
}

/// The input's address (`None`: in place), checked to be usable with a destination at `recv`.
fn source(send: &Input, dest: &Dest, len: usize, what: &str) -> Result<Option<*const u8>> {
    match send {
        Input::InPlace if matches!(dest, Dest::Caller { .. }) => Ok(None),
        Input::InPlace => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("{what}: in place needs the caller's own receive buffer"),
        )),
        Input::Borrowed(p) | Input::Copied(p) => Ok(Some(*p)),
        Input::Owned(v) if v.len() == len => Ok(Some(v.as_ptr())),
        Input::Owned(v) => Err(Error::new(
            ErrorKind::InvalidCount,
            format!(
                "{what}: the input has {} bytes, the call needs {len}",
                v.len()
            ),
        )),
    }
}

impl Comm {
    /// A collective already complete (NCCL or the flag area ran it) whose result is in `dest`.
    fn done(&self, len: usize, dest: Dest) -> PendingCollective {
        self.pending(Work::Done, Some(len)).to(dest)
    }

    /// Starts an allreduce with `reducer` of `send` (`len` bytes) into `dest` (`len` bytes).
    ///
    /// # Safety
    /// The caller's buffers in `send` and `dest` must be valid for `len` bytes (reads, and
    /// writes for the destination) and must not overlap; the destination and a
    /// [`Input::Borrowed`] input must be left alone until the returned collective has finished
    /// or been dropped (a [`Input::Copied`] one only until this returns).
    pub unsafe fn start_allreduce_to(
        &self,
        send: Input,
        mut dest: Dest,
        len: usize,
        reducer: Reducer,
        mode: Mode,
    ) -> Result<PendingCollective> {
        reducer.check()?;
        reducer.count_of(len)?;
        let recv = recv_buf(&mut dest, len, "allreduce")?;
        let src = source(&send, &dest, len, "allreduce")?;
        #[cfg(feature = "nccl")]
        if let (Mode::Blocking, Reducer::Builtin { op, dtype }) = (mode, &reducer) {
            let count = len / dtype.size();
            // SAFETY: per this function's contract (an owned input lives in `send`).
            let routed = unsafe { self.allreduce_routed(src, recv, count, *dtype, *op) };
            if self.block_on(routed)? {
                return Ok(self.done(len, dest));
            }
        }
        if mode == Mode::Blocking
            && self.flags_plan(Coll::Allreduce, len, reducer.commutative())
            && let Some(area) = self.flag_area()?
        {
            // SAFETY: `recv` is valid for `len` bytes of writes and the input for reads (the
            // contract), no reference to either is alive here; in place the input is `recv`.
            unsafe { self.allreduce_on_flags(&area, src.unwrap_or(recv), recv, len, &reducer)? };
            return Ok(self.done(len, dest));
        }
        let p = match send {
            Input::Owned(v) => self.start_allreduce_owned(v, reducer)?,
            // SAFETY: readable for `len` bytes (the contract); copied by the start.
            Input::Copied(p) => self.start_allreduce_with(unsafe { view(p, len) }, reducer)?,
            // SAFETY: left alone until the collective finishes (the contract); in place the
            // engine reads and writes `recv`.
            Input::Borrowed(_) | Input::InPlace => unsafe {
                self.start_allreduce_borrowed(src.unwrap_or(recv), len, reducer)?
            },
        };
        Ok(p.to(dest))
    }

    /// Whether the plan puts a blocking `coll` call of `bytes` on the flag area.
    fn flags_plan(&self, coll: Coll, bytes: usize, commutative: bool) -> bool {
        let facts = Facts {
            commutative,
            flags_max_bytes: self.inner.flags_max(),
            ..self.inner.facts(coll, bytes)
        };
        self.inner.plan(&facts) == Plan::Flags
    }

    /// Starts a reduce with `reducer` of `send` to `root`, whose result goes into `dest`
    /// (`send.len()` bytes; [`Dest::Nothing`] elsewhere). A blocking one may complete on the
    /// communicator's flag area before this returns.
    pub fn start_reduce_to(
        &self,
        send: &[u8],
        mut dest: Dest,
        reducer: Reducer,
        root: u32,
        mode: Mode,
    ) -> Result<PendingCollective> {
        let len = send.len();
        self.check_root(root)?;
        Self::check_reducer(&reducer, len)?;
        if mode == Mode::Blocking
            && self.flags_plan(Coll::Reduce, len, reducer.commutative())
            && let Some(area) = self.flag_area()?
        {
            if root != self.rank() {
                self.reduce_on_flags(&area, send, None, &reducer, root)?;
                return Ok(self.pending(Work::Done, None).to(dest));
            }
            recv_buf(&mut dest, len, "reduce")?;
            // The root's result is written at the finish: `send` may be its receive buffer.
            let mut result = vec![0; len];
            self.reduce_on_flags(&area, send, Some(&mut result), &reducer, root)?;
            return Ok(self.pending(Work::Ready(result), Some(len)).to(dest));
        }
        Ok(self.start_reduce_with(send, reducer, root)?.to(dest))
    }

    /// Starts a barrier; a blocking one ([`Mode::Blocking`]) may complete on the
    /// communicator's flag area before this returns.
    pub fn start_barrier_to(&self, mode: Mode) -> Result<PendingCollective> {
        if mode == Mode::Blocking
            && self.flags_plan(Coll::Barrier, 0, true)
            && let Some(area) = self.flag_area()?
        {
            self.barrier_on_flags(&area)?;
            return Ok(self.pending(Work::Done, None).to(Dest::Nothing));
        }
        Ok(self.start_barrier()?.to(Dest::Nothing))
    }

    /// Starts a bcast of `len` bytes from `root` into `dest`: at the root, `send` is the data
    /// ([`Input::InPlace`]: already in `dest`); elsewhere `send` is ignored.
    ///
    /// # Safety
    /// As for [`Comm::start_allreduce_to`].
    pub unsafe fn start_bcast_to(
        &self,
        send: Input,
        mut dest: Dest,
        len: usize,
        root: u32,
        mode: Mode,
    ) -> Result<PendingCollective> {
        let recv = recv_buf(&mut dest, len, "bcast")?;
        let is_root = root == self.rank();
        let src = if is_root {
            source(&send, &dest, len, "bcast")?
        } else {
            None
        };
        #[cfg(feature = "nccl")]
        if mode == Mode::Blocking {
            // NCCL broadcasts in place: the root's data goes into its receive buffer first.
            if let Some(s) = src.filter(|_| len > 0) {
                // SAFETY: `len` bytes each, not overlapping (the contract).
                unsafe { std::ptr::copy_nonoverlapping(s, recv, len) };
            }
            // SAFETY: per this function's contract.
            let routed = unsafe { self.bcast_routed(recv, len, root) };
            if self.block_on(routed)? {
                return Ok(self.done(len, dest));
            }
        }
        if mode == Mode::Blocking && self.flags_plan(Coll::Bcast, len, true) {
            self.check_root(root)?;
            if let Some(area) = self.flag_area()? {
                if let Some(s) = src.filter(|&s| len > 0 && s != recv.cast_const()) {
                    // SAFETY: `len` bytes each, not overlapping (the contract).
                    unsafe { std::ptr::copy_nonoverlapping(s, recv, len) };
                }
                // SAFETY: `recv` is valid for `len` bytes of writes (the contract).
                let buf = unsafe { std::slice::from_raw_parts_mut(recv, len) };
                self.bcast_on_flags(&area, buf, root)?;
                return Ok(self.done(len, dest));
            }
        }
        let p = if is_root {
            // SAFETY: readable for `len` bytes (the contract); the start copies it.
            self.start_bcast(unsafe { view(src.unwrap_or(recv), len) }, root)?
        } else {
            // Off the root only the length matters.
            self.start_bcast(&vec![0; len], root)?
        };
        Ok(p.to(dest))
    }

    /// Starts an allgather of `block` bytes per rank from `send` (this rank's block;
    /// [`Input::InPlace`]: already at its place in `dest`) into `dest` (`block * size` bytes).
    /// The own block is copied once, by the start.
    ///
    /// # Safety
    /// As for [`Comm::start_allreduce_to`], with `send` of `block` bytes.
    pub unsafe fn start_allgather_to(
        &self,
        send: Input,
        mut dest: Dest,
        block: usize,
        mode: Mode,
    ) -> Result<PendingCollective> {
        let total = block
            .checked_mul(self.size() as usize)
            .ok_or_else(|| Error::new(ErrorKind::InvalidCount, "allgather: size overflows"))?;
        let recv = recv_buf(&mut dest, total, "allgather")?;
        let src = source(&send, &dest, block, "allgather")?;
        #[cfg(feature = "nccl")]
        if mode == Mode::Blocking {
            // SAFETY: per this function's contract.
            let routed = unsafe { self.allgather_routed(src, recv, block) };
            if self.block_on(routed)? {
                return Ok(self.done(total, dest));
            }
        }
        let _ = mode;
        // In place, this rank's block is already in `recv`, where the result will go: the
        // start copies it before anything is written there.
        // SAFETY: `recv` spans `total` bytes (checked); the own block lies inside it.
        let own = src.unwrap_or_else(|| unsafe { recv.add(self.rank() as usize * block) });
        // SAFETY: `own` is readable for `block` bytes (the contract).
        let p = self.start_allgather(unsafe { view(own, block) }, nexar_proto::Datatype::U8)?;
        Ok(p.to(dest))
    }

    /// Starts a reduce_scatter with `reducer` of `send` (every block: `sum(counts)` reducer
    /// elements; [`Input::InPlace`]: the input is `dest`, which then spans every block and
    /// gets this rank's at its start) whose rank `i` receives `counts[i]` elements in `dest`.
    ///
    /// # Safety
    /// As for [`Comm::start_allreduce_to`].
    pub unsafe fn start_reduce_scatter_to(
        &self,
        send: Input,
        mut dest: Dest,
        counts: &[usize],
        reducer: Reducer,
        mode: Mode,
    ) -> Result<PendingCollective> {
        reducer.check()?;
        let e = reducer.elem_size();
        let overflow = || Error::new(ErrorKind::InvalidCount, "reduce_scatter: size overflows");
        let total = counts
            .iter()
            .try_fold(0usize, |a, &c| a.checked_add(c))
            .and_then(|t| t.checked_mul(e))
            .ok_or_else(overflow)?;
        let mine = counts
            .get(self.rank() as usize)
            .copied()
            .unwrap_or(0)
            .checked_mul(e)
            .ok_or_else(overflow)?;
        let in_place = matches!(send, Input::InPlace);
        let recv = recv_buf(
            &mut dest,
            if in_place { total } else { mine },
            "reduce_scatter",
        )?;
        let src = source(&send, &dest, total, "reduce_scatter")?;
        // NCCL has only equal blocks (the counts are the same on every rank, so is this).
        #[cfg(feature = "nccl")]
        if let (Mode::Blocking, Reducer::Builtin { op, dtype }) = (mode, &reducer)
            && counts.len() == self.size() as usize
            && counts.iter().all(|&c| c == counts[0])
        {
            // SAFETY: per this function's contract.
            let routed =
                unsafe { self.reduce_scatter_block_routed(src, recv, counts[0], *dtype, *op) };
            if self.block_on(routed)? {
                return Ok(self.done(mine, dest));
            }
        }
        let _ = mode;
        let p = match send {
            Input::Owned(v) => self.start_reduce_scatter_with(&v, counts, reducer)?,
            _ => {
                // SAFETY: readable for `total` bytes (the contract); copied by the start.
                let data = unsafe { view(src.unwrap_or(recv), total) };
                self.start_reduce_scatter_with(data, counts, reducer)?
            }
        };
        // In place the result is this rank's block at the start of `dest`.
        let dest = match dest {
            Dest::Caller { ptr, .. } if in_place => Dest::Caller { ptr, len: mine },
            d => d,
        };
        Ok(p.to(dest))
    }
}
