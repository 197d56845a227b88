//! reduce_scatter: not written yet.
