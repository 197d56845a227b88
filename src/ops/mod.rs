//! The operations of a [`crate::Comm`]: point-to-point ([`p2p`]), collectives
//! ([`collectives`]), their non-blocking forms ([`nonblocking`]) and blocking twins
//! ([`blocking`]).

pub mod blocking;
pub mod collectives;
pub mod dest;
pub mod direct_allreduce;
pub mod flags;
mod hugepages;
pub mod inter;
mod layout;
pub(crate) mod lend;
pub mod local;
pub mod nonblocking;
pub mod p2p;
pub mod p2p_into;
pub mod p2p_modes;
mod plan;
pub mod progress;
mod raw_starts;
pub mod typed;

use crate::element::Element;
use crate::error::{Error, ErrorKind, Result};

/// Which sender a receive accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Any member (MPI_ANY_SOURCE).
    Any,
    /// Only this comm rank.
    Rank(u32),
}

impl From<u32> for Source {
    fn from(r: u32) -> Self {
        Source::Rank(r)
    }
}

/// Which tag a receive accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagMatch {
    /// Any tag (MPI_ANY_TAG).
    Any,
    /// Only this tag (non-negative).
    Tag(i32),
}

impl From<i32> for TagMatch {
    fn from(t: i32) -> Self {
        TagMatch::Tag(t)
    }
}

/// Shorthand for [`Source::Any`].
pub const ANY_SOURCE: Source = Source::Any;
/// Shorthand for [`TagMatch::Any`].
pub const ANY_TAG: TagMatch = TagMatch::Any;
/// Largest valid tag.
pub const TAG_UB: i32 = i32::MAX;

/// What a completed receive or a probe reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    /// Sender's rank in the communicator.
    pub source: u32,
    /// The message's tag.
    pub tag: i32,
    /// Size of the message in bytes (the full size, even when truncated).
    pub bytes: usize,
}

impl Status {
    /// Number of whole `T` elements in the message, or `None` if it is not a whole number.
    pub fn count<T: Element>(&self) -> Option<usize> {
        let s = std::mem::size_of::<T>();
        self.bytes.is_multiple_of(s).then(|| self.bytes / s)
    }
}

/// Checks a send tag.
pub(crate) fn check_tag(tag: i32) -> Result<()> {
    if tag < 0 {
        return Err(Error::new(
            ErrorKind::InvalidTag,
            format!("tag {tag} is negative"),
        ));
    }
    Ok(())
}

/// Views a typed slice as bytes.
pub(crate) fn bytes_of<T: Element>(s: &[T]) -> &[u8] {
    bytemuck::cast_slice(s)
}

/// Views a typed slice as mutable bytes.
pub(crate) fn bytes_of_mut<T: Element>(s: &mut [T]) -> &mut [u8] {
    bytemuck::cast_slice_mut(s)
}
