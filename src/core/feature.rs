//! How features above the core receive what the engine cannot handle alone: the frames of
//! their kinds, the news that a peer failed, and the engine's close.
//!
//! The core never names a feature. The router (`crate::router`, above every feature) builds
//! the list once per engine; a feature finds its own state again by type
//! ([`Features::get`]), so the state lives with the feature that owns it, not in the engine.

use super::engine::Engine;
use crate::error::Error;
use crate::wire::{Frame, FrameKind};
use std::any::Any;
use std::sync::Arc;

/// A feature's hooks into the engine. Every method runs on a transport's delivery path or in
/// a failure fan-out: it must not block, and must not call into a transport while holding one
/// of its own locks that the transport's delivery could take.
pub(crate) trait Feature: Any + Send + Sync {
    /// The frame kinds this feature handles (no two features share one).
    fn kinds(&self) -> &'static [FrameKind];

    /// A frame of one of [`Feature::kinds`] arrived for this rank.
    fn on_frame(&self, engine: &Engine, frame: Frame);

    /// World rank `rank` failed (`err` names it): fail what waits on it.
    fn on_peer_failed(&self, _rank: u32, _err: &Error) {}

    /// The engine closed: fail everything still pending with `err`.
    fn on_close(&self, _err: &Error) {}
}

/// The features of one engine.
#[derive(Default)]
pub(crate) struct Features(Vec<Arc<dyn Feature>>);

impl Features {
    /// The features `list` names.
    pub fn new(list: Vec<Arc<dyn Feature>>) -> Self {
        Self(list)
    }

    /// The installed feature of type `T`, if any.
    pub fn get<T: Feature>(&self) -> Option<Arc<T>> {
        self.0.iter().find_map(|f| {
            let any: Arc<dyn Any + Send + Sync> = f.clone();
            any.downcast::<T>().ok()
        })
    }

    /// Hands `frame` (of `kind`) to the feature that handles `kind`; false if none does.
    pub fn route(&self, engine: &Engine, kind: FrameKind, frame: Frame) -> bool {
        match self.0.iter().find(|f| f.kinds().contains(&kind)) {
            Some(f) => {
                f.on_frame(engine, frame);
                true
            }
            None => false,
        }
    }

    /// Tells every feature that world rank `rank` failed.
    pub fn peer_failed(&self, rank: u32, err: &Error) {
        for f in &self.0 {
            f.on_peer_failed(rank, err);
        }
    }

    /// Tells every feature that the engine closed.
    pub fn close(&self, err: &Error) {
        for f in &self.0 {
            f.on_close(err);
        }
    }
}
