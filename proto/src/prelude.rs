//! The `alloc` names every module uses, which a `#![no_std]` crate must import by hand: one glob
//! import (`use crate::prelude::*;`) instead of a list in each file.

pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::format;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec;
pub(crate) use alloc::vec::Vec;
