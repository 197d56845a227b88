//! The destination of a collective, handed to the engine when the call starts.
//!
//! A binding (the C API, the MPI shim) gives a started collective its receive buffer at once
//! ([`PendingCollective::to`]) and then only waits: [`PendingCollective::wait`] on the calling
//! thread, or [`PendingCollective::finish`] inside a request. Writing the result, through a host
//! stand-in when the buffer is device memory, is the engine's alone.

use super::collectives::{PendingCollective, Work};
use crate::comm::Comm;
use crate::error::{Error, ErrorKind, Result};

/// Where a collective's result goes.
#[derive(Debug)]
pub enum Dest {
    /// Not given yet: [`PendingCollective::finish_into`] names the buffer at the end.
    Unset,
    /// The caller's buffer of `len` bytes at `ptr` (see [`Dest::caller`]).
    Caller {
        /// First byte.
        ptr: *mut u8,
        /// Length in bytes.
        len: usize,
    },
    /// `len` bytes of engine scratch, dropped when the call finishes: a rank whose result the
    /// caller does not want (a scatter root that keeps its block in place).
    Scratch(usize),
    /// This rank receives nothing (a barrier, a reduction's non-root).
    Nothing,
    /// A binding's own target: the engine writes into its buffer, then lets it move the
    /// result where it belongs (the MPI shim unpacking a derived datatype's layout).
    Target(Box<dyn Target>),
}

/// A binding's receive target (see [`Dest::Target`]).
pub trait Target: Send {
    /// The contiguous bytes the engine writes the result into.
    fn buf(&mut self) -> &mut [u8];

    /// Called once, after the result is in [`Target::buf`].
    fn land(self: Box<Self>) -> Result<()>;
}

impl std::fmt::Debug for dyn Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Target")
    }
}

/// The input of a collective a binding starts with raw buffers (see `ops::raw_starts`).
#[derive(Debug)]
pub enum Input {
    /// The input is in the destination itself (`MPI_IN_PLACE`, `NEXAR_IN_PLACE`); only with a
    /// [`Dest::Caller`] destination.
    InPlace,
    /// The caller's buffer at this address (its length is the call's), left alone by the
    /// caller until the collective finishes: the engine may read it in place (MPI's rule for
    /// send buffers, blocking or not).
    Borrowed(*const u8),
    /// The caller's buffer at this address, which the caller may reuse as soon as the start
    /// returns: copied by the start (the C API's non-blocking calls).
    Copied(*const u8),
    /// Bytes the binding made for this call (a packed derived layout): taken, not copied.
    Owned(Vec<u8>),
}

// SAFETY: `Borrowed` and `Copied` are addresses the caller keeps valid (the raw starts'
// contracts).
unsafe impl Send for Input {}

// SAFETY: `Caller` is a plain address the caller promised (in `Dest::caller`) to keep valid
// and untouched until the collective finishes, from whichever thread finishes it.
unsafe impl Send for Dest {}

impl Dest {
    /// The caller's `len` bytes at `ptr` (any pointer when `len` is 0).
    ///
    /// # Safety
    /// `ptr` must be valid for writes of `len` bytes, and neither read nor written by anyone
    /// else, until the collective it is given to has finished or been dropped.
    pub unsafe fn caller(ptr: *mut u8, len: usize) -> Self {
        Self::Caller { ptr, len }
    }
}

/// Whether a call blocks until it is done or returns a request at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A blocking call: the plan may send it through NCCL.
    Blocking,
    /// A non-blocking or persistent call: never through NCCL (MPI never matches a blocking
    /// collective with a non-blocking one, so the two may take different paths, and a routed
    /// call is several engine collectives that a start cannot issue).
    Request,
}

impl PendingCollective {
    /// Gives the collective its destination (right after its start: the binding then only
    /// waits). A destination given here replaces one given before.
    pub fn to(mut self, dest: Dest) -> Self {
        self.dest = dest;
        self
    }

    /// The communicator the collective runs on.
    pub fn comm(&self) -> &Comm {
        &self.comm
    }

    /// Completes the collective into the destination given with [`PendingCollective::to`].
    pub async fn finish(mut self) -> Result<()> {
        match std::mem::replace(&mut self.dest, Dest::Unset) {
            // Done at start (NCCL wrote the destination's buffer): only a target moves it on.
            Dest::Target(t) if matches!(self.work, Work::Done) => t.land(),
            _ if matches!(self.work, Work::Done) => Ok(()),
            Dest::Target(mut t) => {
                self.finish_into(t.buf()).await?;
                t.land()
            }
            // A result with nowhere to go is the caller's mistake, named as such (the
            // collective still completes, so the other ranks are not left waiting).
            Dest::Unset if self.recv_len.is_some_and(|n| n > 0) => {
                let n = self.recv_len.unwrap_or(0);
                self.finish_into(&mut vec![0; n]).await?;
                Err(Error::new(
                    ErrorKind::InvalidArgument,
                    "a collective with a result was finished without a destination \
                     (give one with PendingCollective::to, or use finish_into)",
                ))
            }
            Dest::Unset | Dest::Nothing => self.finish_into(&mut []).await,
            Dest::Scratch(len) => self.finish_into(&mut vec![0; len]).await,
            Dest::Caller { len: 0, .. } => self.finish_into(&mut []).await,
            Dest::Caller { ptr, len } => {
                // SAFETY: valid for `len` bytes and left to this call (`Dest::caller`).
                let buf = unsafe { std::slice::from_raw_parts_mut(ptr, len) };
                self.finish_into(buf).await
            }
        }
    }

    /// Whether the collective was complete when its start returned (no byte to move, one
    /// rank, or a blocking call the flag area or NCCL ran): finishing it only writes the
    /// destination and never waits, so a binding may finish it at once instead of making it
    /// a request that runs in the background.
    pub fn complete_at_start(&self) -> bool {
        matches!(self.work, Work::Done | Work::Ready(_) | Work::Alone { .. })
    }

    /// The collective as a [`crate::Request`] that finishes it in the background and then
    /// yields `value` (the bindings' non-blocking calls). One complete at its start
    /// ([`PendingCollective::complete_at_start`]) is finished here, and the request is
    /// complete: no future, no task.
    pub fn finish_in_background<T: Send + 'static>(self, value: T) -> crate::Request<T> {
        if self.complete_at_start() {
            return crate::Request::ready(self.wait().map(|()| value));
        }
        self.comm.clone().spawn(async move {
            self.finish().await?;
            Ok(value)
        })
    }

    /// [`PendingCollective::finish`] on the calling thread, driving the transport here while
    /// it waits where the transport allows (see [`Comm::block_on`]).
    pub fn wait(self) -> Result<()> {
        if self.complete_at_start() {
            // Nothing to wait for: one poll finishes it, with no trip through the blocking
            // machinery (nor pollster's thread-local signal: about 160 of the 2,300
            // instructions of an 8 B flag-area `MPI_Allreduce` in callgrind).
            let mut fut = std::pin::pin!(self.finish());
            let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
            return match fut.as_mut().poll(&mut cx) {
                std::task::Poll::Ready(r) => r,
                std::task::Poll::Pending => pollster::block_on(fut),
            };
        }
        let comm = self.comm.clone();
        comm.block_on(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_without_a_destination_is_named_and_a_given_one_is_written() {
        let ctx = crate::Context::in_process(1).unwrap().remove(0);
        let w = ctx.world();
        let data = 7i32.to_ne_bytes();
        let p = w.start_allreduce(
            &data,
            nexar_proto::Datatype::I32,
            nexar_proto::ReduceOp::Sum,
        );
        let e = p.unwrap().wait().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.to_string().contains("without a destination"), "{e}");
        // The same call with its destination given writes the result there.
        let mut out = [0u8; 4];
        let p = w.start_allreduce(
            &data,
            nexar_proto::Datatype::I32,
            nexar_proto::ReduceOp::Sum,
        );
        // SAFETY: `out` outlives the wait below and nothing else touches it.
        let p = p
            .unwrap()
            .to(unsafe { Dest::caller(out.as_mut_ptr(), out.len()) });
        p.wait().unwrap();
        assert_eq!(i32::from_ne_bytes(out), 7);
    }

    #[test]
    fn a_one_rank_allreduce_gives_its_input_in_place_out_of_place_and_empty() {
        let ctx = crate::Context::in_process(1).unwrap().remove(0);
        let w = ctx.world();
        let red =
            || crate::Reducer::builtin(nexar_proto::ReduceOp::Sum, nexar_proto::Datatype::I32);
        let input: Vec<u8> = (1..=4i32).flat_map(i32::to_ne_bytes).collect();
        for mode in [Mode::Blocking, Mode::Request] {
            // Out of place, borrowed and copied inputs: the input lands in the destination.
            for borrowed in [true, false] {
                let mut out = vec![0u8; input.len()];
                let send = if borrowed {
                    Input::Borrowed(input.as_ptr())
                } else {
                    Input::Copied(input.as_ptr())
                };
                // SAFETY: `input` and `out` outlive the wait and are distinct.
                let p = unsafe {
                    w.start_allreduce_to(
                        send,
                        Dest::caller(out.as_mut_ptr(), out.len()),
                        input.len(),
                        red(),
                        mode,
                    )
                };
                p.unwrap().wait().unwrap();
                assert_eq!(out, input, "{mode:?} borrowed={borrowed}");
            }
            // In place: the buffer keeps its contents.
            let mut buf = input.clone();
            // SAFETY: `buf` outlives the wait.
            let p = unsafe {
                w.start_allreduce_to(
                    Input::InPlace,
                    Dest::caller(buf.as_mut_ptr(), buf.len()),
                    buf.len(),
                    red(),
                    mode,
                )
            };
            p.unwrap().wait().unwrap();
            assert_eq!(buf, input);
            // Empty, with no buffer at all.
            // SAFETY: nothing is read or written for zero bytes.
            let p = unsafe {
                w.start_allreduce_to(
                    Input::Borrowed(std::ptr::null()),
                    Dest::caller(std::ptr::null_mut(), 0),
                    0,
                    red(),
                    mode,
                )
            };
            p.unwrap().wait().unwrap();
        }
        // The typed call, and a bad length still refused.
        let mut v = [3i32, 4];
        pollster::block_on(w.allreduce(&mut v, nexar_proto::ReduceOp::Max)).unwrap();
        assert_eq!(v, [3, 4]);
        // SAFETY: 3 bytes of `input` are readable; the length is refused before any access.
        let bad = unsafe {
            w.start_allreduce_to(
                Input::Borrowed(input.as_ptr()),
                Dest::Scratch(3),
                3,
                red(),
                Mode::Blocking,
            )
        };
        assert!(bad.is_err());
        // Nothing runs, but a revoked communicator still refuses, in place or not.
        let d = pollster::block_on(w.dup()).unwrap();
        d.revoke().unwrap();
        let mut v = [1i32];
        let e = pollster::block_on(d.allreduce(&mut v, nexar_proto::ReduceOp::Sum)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Revoked);
        let mut out = [0u8; 4];
        // SAFETY: `input` and `out` outlive the call, which fails before touching them.
        let e = unsafe {
            d.start_allreduce_to(
                Input::Copied(input.as_ptr()),
                Dest::caller(out.as_mut_ptr(), 4),
                4,
                red(),
                Mode::Blocking,
            )
        }
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Revoked);
    }
}
