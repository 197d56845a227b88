//! allreduce: not written yet.
