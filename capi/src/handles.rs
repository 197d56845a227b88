//! libnexar's handles: which table each handle kind lives in and what an invalid one is called.
//! A handle is an opaque non-zero `u64` (carried in a pointer-typed C handle): its kind in the
//! top byte, then a 32-bit generation and a 24-bit slot index, so a freed, stale, forged or
//! other-kind handle is detected instead of dereferenced. The table itself is
//! [`nexar_bind::handles::Table`]; this module turns its misses into engine errors.

use nexar::{Error, ErrorKind, Result};
use nexar_bind::handles::{Layout, Table};

/// Bits of slot index in a handle.
const INDEX_BITS: u32 = 24;
/// Bits of generation above the index; the kind sits above both (bits 56..64).
const GEN_BITS: u32 = 32;

/// The live objects of one handle kind, whose misses are `invalid` errors naming `what`.
pub struct Handles<T> {
    table: Table<T>,
    what: &'static str,
    invalid: ErrorKind,
}

impl<T> Handles<T> {
    /// An empty table whose handles carry `kind` (1..=255) and whose errors say `what`.
    pub const fn new(kind: u8, what: &'static str, invalid: ErrorKind) -> Self {
        Self {
            table: Table::new(Layout::new(
                (kind as u64) << (INDEX_BITS + GEN_BITS),
                INDEX_BITS,
                GEN_BITS,
            )),
            what,
            invalid,
        }
    }

    /// The error for handle `h`, which is not live (built only on a miss).
    fn bad(what: &str, invalid: ErrorKind, h: u64) -> Error {
        Error::new(invalid, format!("invalid or freed {what} handle {h:#x}"))
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: T) -> Result<u64> {
        self.table.insert(value).ok_or_else(|| {
            Error::new(
                ErrorKind::ResourceExhausted,
                format!("too many live {} handles", self.what),
            )
        })
    }

    /// The object behind `h`.
    pub fn get(&self, h: u64) -> Result<&T> {
        let (what, invalid) = (self.what, self.invalid);
        self.table.get(h).ok_or_else(|| Self::bad(what, invalid, h))
    }

    /// The object behind `h`, mutably.
    pub fn get_mut(&mut self, h: u64) -> Result<&mut T> {
        let (what, invalid) = (self.what, self.invalid);
        self.table
            .get_mut(h)
            .ok_or_else(|| Self::bad(what, invalid, h))
    }

    /// Removes and returns the object behind `h`; `h` becomes invalid.
    pub fn remove(&mut self, h: u64) -> Result<T> {
        let (what, invalid) = (self.what, self.invalid);
        self.table
            .remove(h)
            .ok_or_else(|| Self::bad(what, invalid, h))
    }

    /// Removes every object.
    pub fn clear(&mut self) {
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_forged_and_foreign_handles_are_rejected() {
        let mut t = Handles::new(3, "thing", ErrorKind::InvalidArgument);
        let a = t.insert(10).unwrap();
        assert_eq!(a >> 56, 3, "the kind is in the top byte");
        assert_eq!(*t.get(a).unwrap(), 10);
        assert_eq!(t.remove(a).unwrap(), 10);
        assert!(t.get(a).is_err(), "freed");
        let b = t.insert(11).unwrap();
        assert_ne!(a, b, "slot reuse changes the generation");
        let e = t.get(a).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.message().contains("invalid or freed thing handle"), "{e}");
        assert!(t.get(0).is_err());
        assert!(t.get(b ^ 1).is_err());
        let other: Handles<i32> = Handles::new(4, "other", ErrorKind::InvalidArgument);
        assert!(other.get(b).is_err(), "kind is checked");
        assert!(t.remove(a).is_err(), "double free");
    }
}
