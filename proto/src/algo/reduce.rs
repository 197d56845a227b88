//! reduce: not written yet.
