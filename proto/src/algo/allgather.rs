//! allgather: not written yet.
