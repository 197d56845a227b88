//! The frame router: the one file that names every feature the engine routes frames to.
//!
//! The core (`crate::core`) handles the frames of its own floor itself (point-to-point and
//! acknowledgements, collective calls and their mismatch notices, revocations, aborts) and
//! hands every other kind to the feature that registered it here. Adding a feature with its
//! own frames means one line in [`features`] and an `impl Feature`, nothing in the core.

use crate::core::feature::{Feature, Features};
use std::sync::Arc;

/// The features of a new engine, each with its own state: agreement (`crate::fault`) and
/// remote procedure calls (`crate::rpc`).
pub(crate) fn features() -> Features {
    let list: Vec<Arc<dyn Feature>> = vec![
        Arc::new(crate::fault::state::Agreements::default()),
        Arc::new(crate::rpc::Tables::default()),
    ];
    Features::new(list)
}
