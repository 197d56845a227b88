//! bcast: not written yet.
