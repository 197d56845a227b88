//! Fuzz drivers for nexar (see `drivers.rs`); the targets in `fuzz_targets/` call them.

pub mod drivers;
