//! scatter: not written yet.
