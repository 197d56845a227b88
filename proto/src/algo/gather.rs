//! gather: not written yet.
