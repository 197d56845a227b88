//! scan: not written yet.
