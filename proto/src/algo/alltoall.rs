//! alltoall: not written yet.
