//! Errors. [`ErrorKind`] values are stable: they map one-to-one to the C API's status codes and
//! to MPI error classes, and are never reused.

use std::fmt;

/// The category of a failure. The discriminant is the C status code (`0` is success).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum ErrorKind {
    /// An argument is invalid (a NULL pointer, an inconsistent length, ...).
    InvalidArgument = 1,
    /// A rank is outside the communicator.
    InvalidRank = 2,
    /// A root is outside the communicator.
    InvalidRoot = 3,
    /// A count is negative, overflows, or does not match the buffer.
    InvalidCount = 4,
    /// The datatype is unknown.
    InvalidDatatype = 5,
    /// The reduction operator is unknown or not defined for the datatype.
    InvalidOp = 6,
    /// The communicator handle is invalid or freed.
    InvalidComm = 7,
    /// The tag is invalid (negative tags other than the wildcard).
    InvalidTag = 8,
    /// A received message was larger than the receive buffer.
    Truncated = 9,
    /// A peer process failed or became unreachable.
    ProcFailed = 10,
    /// Ranks called mismatched collectives, or a protocol violation was seen.
    Mismatch = 11,
    /// The transport failed (socket, QUIC, shared memory).
    Transport = 12,
    /// Authentication failed: wrong job secret, wrong certificate, or a peer claiming the wrong rank.
    Security = 13,
    /// The job could not be set up (bad environment, rendezvous failure).
    Bootstrap = 14,
    /// An operation timed out.
    Timeout = 15,
    /// The library was finalized.
    Finalized = 16,
    /// The library was not initialized.
    NotInitialized = 17,
    /// The request is still pending (for example, freeing an active request).
    Pending = 18,
    /// The operation is not supported.
    Unsupported = 19,
    /// A resource limit was hit (message too large, queue full, out of memory).
    ResourceExhausted = 20,
    /// The communicator was revoked.
    Revoked = 21,
    /// An internal invariant failed; a bug in nexar.
    Internal = 22,
    /// The request handle is invalid or was already completed and freed.
    InvalidRequest = 23,
    /// A one-sided operation or synchronization call outside the epoch it needs (a put
    /// outside any access epoch, an unlock without a lock, nested locks, ...).
    RmaSync = 24,
    /// A one-sided operation addresses memory outside the target's window.
    RmaRange = 25,
}

impl ErrorKind {
    /// Every kind, in code order.
    pub const ALL: [ErrorKind; 25] = [
        Self::InvalidArgument,
        Self::InvalidRank,
        Self::InvalidRoot,
        Self::InvalidCount,
        Self::InvalidDatatype,
        Self::InvalidOp,
        Self::InvalidComm,
        Self::InvalidTag,
        Self::Truncated,
        Self::ProcFailed,
        Self::Mismatch,
        Self::Transport,
        Self::Security,
        Self::Bootstrap,
        Self::Timeout,
        Self::Finalized,
        Self::NotInitialized,
        Self::Pending,
        Self::Unsupported,
        Self::ResourceExhausted,
        Self::Revoked,
        Self::Internal,
        Self::InvalidRequest,
        Self::RmaSync,
        Self::RmaRange,
    ];

    /// The stable integer code.
    pub const fn code(self) -> i32 {
        self as i32
    }

    /// The kind for a code, if any.
    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.code() == code)
    }

    /// A short, static description (what `nexar_error_string` returns).
    pub const fn describe(self) -> &'static str {
        match self {
            Self::InvalidArgument => "invalid argument",
            Self::InvalidRank => "invalid rank",
            Self::InvalidRoot => "invalid root",
            Self::InvalidCount => "invalid count",
            Self::InvalidDatatype => "invalid datatype",
            Self::InvalidOp => "invalid reduction operator",
            Self::InvalidComm => "invalid communicator",
            Self::InvalidTag => "invalid tag",
            Self::Truncated => "message truncated",
            Self::ProcFailed => "process failed",
            Self::Mismatch => "mismatched collective or protocol violation",
            Self::Transport => "transport failure",
            Self::Security => "authentication failure",
            Self::Bootstrap => "bootstrap failure",
            Self::Timeout => "timed out",
            Self::Finalized => "library finalized",
            Self::NotInitialized => "library not initialized",
            Self::Pending => "request still pending",
            Self::Unsupported => "operation not supported",
            Self::ResourceExhausted => "resource exhausted",
            Self::Revoked => "communicator revoked",
            Self::Internal => "internal error",
            Self::InvalidRequest => "invalid request",
            Self::RmaSync => "one-sided call outside its synchronization epoch",
            Self::RmaRange => "one-sided access outside the target window",
        }
    }
}

/// A failure: its kind, a message for humans, and the failed peer when one is involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    rank: Option<u32>,
}

impl Error {
    /// A new error.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            rank: None,
        }
    }

    /// A [`ErrorKind::ProcFailed`] error naming world rank `rank`.
    pub fn proc_failed(rank: u32, why: impl fmt::Display) -> Self {
        Self {
            kind: ErrorKind::ProcFailed,
            message: format!("rank {rank} failed: {why}"),
            rank: Some(rank),
        }
    }

    /// Shorthand for [`ErrorKind::InvalidArgument`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    /// The kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The failed peer (world rank), for [`ErrorKind::ProcFailed`].
    pub fn failed_rank(&self) -> Option<u32> {
        self.rank
    }

    /// Prefixes the message with context, keeping kind and rank.
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.kind.describe())
    }
}

impl std::error::Error for Error {}

impl From<nexar_proto::ProtoError> for Error {
    fn from(e: nexar_proto::ProtoError) -> Self {
        use nexar_proto::ProtoError as P;
        let kind = match &e {
            P::InvalidArgument(_) => ErrorKind::InvalidArgument,
            P::InvalidOp { .. } => ErrorKind::InvalidOp,
            P::UnexpectedMessage { .. } | P::DuplicateMessage { .. } | P::LengthMismatch { .. } => {
                ErrorKind::Mismatch
            }
            P::NotFinished => ErrorKind::Internal,
        };
        Self::new(kind, e.to_string())
    }
}

/// Result alias used throughout nexar.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_round_trip() {
        for (i, k) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(k.code(), i as i32 + 1);
            assert_eq!(ErrorKind::from_code(k.code()), Some(*k));
        }
        assert_eq!(ErrorKind::from_code(0), None);
    }

    #[test]
    fn proc_failed_names_the_rank() {
        let e = Error::proc_failed(3, "connection lost");
        assert_eq!(e.failed_rank(), Some(3));
        assert!(e.to_string().contains("rank 3"));
    }
}
