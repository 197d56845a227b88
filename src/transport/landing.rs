//! A posted receive's buffer, lent to a transport to fill straight from the wire.
//!
//! A transport that reads a payload itself (a shared-memory one-copy announcement: the
//! receiver reads the sender's buffer with `process_vm_readv`) asks its sink for the receive
//! that will take it
//! ([`super::FrameSink::claim_landing`]) and writes the payload into that receive's buffer, so
//! the bytes are copied once, with no landing buffer of the transport's own. The transport
//! then ends the landing: filled, to come again (the read failed and the sender will resend),
//! or failed. A landing dropped without an end fails its receive: a receive is never left
//! waiting for bytes that will not come.

use crate::error::Error;

/// How a [`Landing`] ended.
#[derive(Debug)]
pub enum LandingEnd {
    /// The payload is in the buffer: the receive completes.
    Filled,
    /// The payload could not be read and will come again: the receive waits again, in its
    /// place, as if never claimed.
    Again,
    /// The payload will never come (its sender was lost mid-message): the receive fails.
    Failed(Error),
}

/// What the sink does when a landing ends.
type OnEnd = Box<dyn FnOnce(LandingEnd) + Send>;

/// A claimed receive's buffer (see the module docs).
///
/// (Assembling a frame of several ring slots straight into a claimed receive was measured and
/// not kept: 256-512 KiB streams ran at half their speed.)
pub struct Landing {
    dst: *mut u8,
    len: usize,
    /// World rank of the payload's sender (named by the error of a dropped landing).
    src: u32,
    on_end: Option<OnEnd>,
}

// SAFETY: the buffer is lent to whoever holds the landing (`Landing::new`'s contract), and the
// end callback is `Send`.
unsafe impl Send for Landing {}

impl Landing {
    /// A landing over the `len` bytes at `dst` for a payload from world rank `src`; `on_end`
    /// runs once, when it ends (or is dropped: with [`LandingEnd::Failed`]).
    ///
    /// # Safety
    /// `dst` must be valid for writes of `len` bytes (it may be dangling when `len` is 0), and
    /// nobody else may access them, until `on_end` has run.
    pub unsafe fn new(dst: *mut u8, len: usize, src: u32, on_end: OnEnd) -> Self {
        Self {
            dst,
            len,
            src,
            on_end: Some(on_end),
        }
    }

    /// The bytes to fill: as many as the receive keeps of the payload (fewer than the payload
    /// when the receive's buffer is smaller: the rest is dropped, and the receive reports
    /// truncation).
    pub fn buffer(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: per `Landing::new`; borrowed mutably from the one holder.
        unsafe { std::slice::from_raw_parts_mut(self.dst, self.len) }
    }

    /// Ends the landing.
    pub fn end(mut self, how: LandingEnd) {
        if let Some(f) = self.on_end.take() {
            f(how);
        }
    }
}

impl Drop for Landing {
    fn drop(&mut self) {
        if let Some(f) = self.on_end.take() {
            f(LandingEnd::Failed(Error::proc_failed(
                self.src,
                "the transport stopped reading its message midway (the sender was lost)",
            )));
        }
    }
}

impl std::fmt::Debug for Landing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Landing")
            .field("len", &self.len)
            .field("src", &self.src)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn landing(buf: &mut [u8], seen: &Arc<Mutex<Vec<String>>>) -> Landing {
        let seen = seen.clone();
        let on_end: OnEnd = Box::new(move |end| seen.lock().unwrap().push(format!("{end:?}")));
        // SAFETY: the tests keep `buf` alive and untouched until the landing ends.
        unsafe { Landing::new(buf.as_mut_ptr(), buf.len(), 3, on_end) }
    }

    #[test]
    fn a_landing_ends_once_and_a_dropped_one_fails_naming_the_sender() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut buf = [0u8; 4];
        let mut l = landing(&mut buf, &seen);
        l.buffer().copy_from_slice(&[1, 2, 3, 4]);
        l.end(LandingEnd::Filled);
        assert_eq!(buf, [1, 2, 3, 4]);
        drop(landing(&mut buf, &seen));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen[0], "Filled");
        assert!(
            seen[1].starts_with("Failed") && seen[1].contains("rank: Some(3)"),
            "{seen:?}"
        );
    }
}
