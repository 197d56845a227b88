//! Errors a state machine can report. They describe protocol violations or bad arguments; they
//! never carry I/O failures (proto does no I/O).

use crate::prelude::*;

use crate::types::Rank;

/// What went wrong inside a collective state machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtoError {
    /// An argument was out of range or inconsistent (bad root, count overflow, wrong length).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The (datatype, op) pair has no reduction (for example `band` on `f32`).
    #[error("reduction {op} is not defined for datatype {dtype}")]
    InvalidOp {
        /// Name of the operator.
        op: &'static str,
        /// Name of the datatype.
        dtype: &'static str,
    },
    /// A message arrived that this machine never expects (wrong peer or step).
    #[error("unexpected message from rank {from} at step {step}")]
    UnexpectedMessage {
        /// Sender.
        from: Rank,
        /// Step the sender put on the message.
        step: u32,
    },
    /// The same (peer, step) message arrived twice.
    #[error("duplicate message from rank {from} at step {step}")]
    DuplicateMessage {
        /// Sender.
        from: Rank,
        /// Step.
        step: u32,
    },
    /// A message's length did not match what the algorithm expects: usually ranks called the
    /// collective with different counts.
    #[error("message from rank {from} at step {step} has {got} bytes, expected {expected}")]
    LengthMismatch {
        /// Sender.
        from: Rank,
        /// Step.
        step: u32,
        /// Bytes expected.
        expected: usize,
        /// Bytes received.
        got: usize,
    },
    /// The machine was asked for its result before it finished.
    #[error("collective is not finished")]
    NotFinished,
}
