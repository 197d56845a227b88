//! Job secret, job CA and per-rank certificates.
