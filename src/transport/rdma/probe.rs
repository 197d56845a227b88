//! Which RDMA device this process would use, or why none: asked once per process and cached.
//!
//! With the `rdma` feature the answer comes from `ibv.rs` (libibverbs: the device list, then
//! opening the first device and allocating its protection domain); without it the answer is
//! always "built without the rdma feature".

use super::setup::QpFactory;
use std::sync::{Arc, OnceLock};

/// What the probe found.
#[derive(Clone)]
pub struct Found {
    /// The device used (its libibverbs name, e.g. `mlx5_0` or `rxe0`).
    pub device: String,
    /// Every device libibverbs listed.
    pub all: Vec<String>,
    /// Makes queue pairs on the device.
    pub factory: Arc<dyn QpFactory>,
}

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Found")
            .field("device", &self.device)
            .field("all", &self.all)
            .finish_non_exhaustive()
    }
}

static PROBE: OnceLock<Result<Found, String>> = OnceLock::new();

/// The device of this process, or the reason there is none (the first call asks libibverbs;
/// later calls return the cached answer).
pub fn device() -> Result<&'static Found, &'static str> {
    PROBE
        .get_or_init(probe_now)
        .as_ref()
        .map_err(String::as_str)
}

/// `Ok(())` when a device is usable, else the reason (what the set-up decisions take).
pub fn usable() -> Result<(), &'static str> {
    device().map(|_| ())
}

#[cfg(feature = "rdma")]
fn probe_now() -> Result<Found, String> {
    super::ibv::probe()
}

#[cfg(not(feature = "rdma"))]
fn probe_now() -> Result<Found, String> {
    Err("nexar was built without the rdma feature".to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_answer_is_cached_and_explained() {
        let first = super::device().map(|f| f.device.clone());
        let again = super::device().map(|f| f.device.clone());
        assert_eq!(first, again);
        if let Err(why) = first {
            // No device here: the reason must say something a user can act on.
            assert!(!why.is_empty());
            if !cfg!(feature = "rdma") {
                assert!(why.contains("built without the rdma feature"), "{why}");
            }
        }
    }
}
