//! Generational handle tables. A handle is an opaque non-zero integer (carried in a pointer-typed
//! C handle) encoding its kind, a slot index and the slot's generation, so a freed, stale or
//! forged handle is detected instead of dereferenced.

use nexar::{Error, ErrorKind, Result};

const INDEX_BITS: u64 = 24;
const GEN_BITS: u64 = 32;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A table of live objects of one kind.
pub struct Table<T> {
    kind: u8,
    what: &'static str,
    invalid: ErrorKind,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

impl<T> Table<T> {
    /// An empty table whose handles carry `kind` (1..=255) and whose errors say `what`.
    pub const fn new(kind: u8, what: &'static str, invalid: ErrorKind) -> Self {
        Self {
            kind,
            what,
            invalid,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    fn encode(&self, index: u32, generation: u32) -> u64 {
        ((self.kind as u64) << (INDEX_BITS + GEN_BITS))
            | ((generation as u64 & GEN_MASK) << INDEX_BITS)
            | (index as u64 & INDEX_MASK)
    }

    fn decode(&self, h: u64) -> Result<usize> {
        let bad = || {
            Error::new(
                self.invalid,
                format!("invalid or freed {} handle {h:#x}", self.what),
            )
        };
        if h >> (INDEX_BITS + GEN_BITS) != self.kind as u64 {
            return Err(bad());
        }
        let index = (h & INDEX_MASK) as usize;
        let generation = ((h >> INDEX_BITS) & GEN_MASK) as u32;
        match self.slots.get(index) {
            Some(s) if s.generation == generation && s.value.is_some() => Ok(index),
            _ => Err(bad()),
        }
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: T) -> Result<u64> {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                if self.slots.len() as u64 > INDEX_MASK {
                    return Err(Error::new(
                        ErrorKind::ResourceExhausted,
                        format!("too many live {} handles", self.what),
                    ));
                }
                self.slots.push(Slot {
                    generation: 0,
                    value: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.generation = slot.generation.wrapping_add(1);
        slot.value = Some(value);
        let generation = slot.generation;
        Ok(self.encode(index, generation))
    }

    /// The object behind `h`.
    pub fn get(&self, h: u64) -> Result<&T> {
        let i = self.decode(h)?;
        Ok(self.slots[i].value.as_ref().expect("decode checked"))
    }

    /// The object behind `h`, mutably.
    pub fn get_mut(&mut self, h: u64) -> Result<&mut T> {
        let i = self.decode(h)?;
        Ok(self.slots[i].value.as_mut().expect("decode checked"))
    }

    /// Removes and returns the object behind `h`; `h` becomes invalid.
    pub fn remove(&mut self, h: u64) -> Result<T> {
        let i = self.decode(h)?;
        self.free.push(i as u32);
        Ok(self.slots[i].value.take().expect("decode checked"))
    }

    /// Removes every object.
    pub fn clear(&mut self) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.value.take().is_some() {
                self.free.push(i as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_forged_and_foreign_handles_are_rejected() {
        let mut t = Table::new(3, "thing", ErrorKind::InvalidArgument);
        let a = t.insert(10).unwrap();
        assert_eq!(*t.get(a).unwrap(), 10);
        assert_eq!(t.remove(a).unwrap(), 10);
        assert!(t.get(a).is_err(), "freed");
        let b = t.insert(11).unwrap();
        assert_ne!(a, b, "slot reuse changes the generation");
        assert!(t.get(a).is_err());
        assert!(t.get(0).is_err());
        assert!(t.get(b ^ 1).is_err());
        let other: Table<i32> = Table::new(4, "other", ErrorKind::InvalidArgument);
        assert!(other.get(b).is_err(), "kind is checked");
        assert!(t.remove(a).is_err(), "double free");
    }
}
