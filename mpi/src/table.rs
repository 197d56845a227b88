//! Generational handle table for user objects (communicators). A user handle is
//! `USER_BASE | generation << 16 | slot`: a positive `int` (so `MPI_Comm_toint` can return it
//! unchanged) and never one of the small predefined handle values. A freed, stale or forged
//! handle is detected instead of dereferenced.

/// Lowest user handle value; every predefined handle is far below it.
pub const USER_BASE: usize = 0x4000_0000;
const SLOT_BITS: usize = 16;
const SLOT_MASK: usize = (1 << SLOT_BITS) - 1;
const GEN_MASK: usize = 0x3fff;

struct Slot<T> {
    generation: usize,
    value: Option<T>,
}

/// The live objects of one kind.
pub struct Table<T> {
    slots: Vec<Slot<T>>,
    free: Vec<usize>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Table<T> {
    /// An empty table.
    pub const fn new() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    fn slot(&self, h: usize) -> Option<usize> {
        if h & !(USER_BASE | (GEN_MASK << SLOT_BITS) | SLOT_MASK) != 0 || h & USER_BASE == 0 {
            return None;
        }
        let i = h & SLOT_MASK;
        let g = (h >> SLOT_BITS) & GEN_MASK;
        match self.slots.get(i) {
            Some(s) if s.generation == g && s.value.is_some() => Some(i),
            _ => None,
        }
    }

    /// Stores `value`; `None` when the table is full.
    pub fn insert(&mut self, value: T) -> Option<usize> {
        let i = match self.free.pop() {
            Some(i) => i,
            None if self.slots.len() <= SLOT_MASK => {
                self.slots.push(Slot {
                    generation: 0,
                    value: None,
                });
                self.slots.len() - 1
            }
            None => return None,
        };
        let s = &mut self.slots[i];
        s.generation = (s.generation + 1) & GEN_MASK;
        s.value = Some(value);
        Some(USER_BASE | (s.generation << SLOT_BITS) | i)
    }

    /// The object behind `h`, if `h` is live.
    pub fn get(&self, h: usize) -> Option<&T> {
        self.slot(h).and_then(|i| self.slots[i].value.as_ref())
    }

    /// The object behind `h`, mutably.
    pub fn get_mut(&mut self, h: usize) -> Option<&mut T> {
        let i = self.slot(h)?;
        self.slots[i].value.as_mut()
    }

    /// Removes the object behind `h`; `h` becomes invalid.
    pub fn remove(&mut self, h: usize) -> Option<T> {
        let i = self.slot(h)?;
        self.free.push(i);
        self.slots[i].value.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_user_range_and_stale_ones_are_rejected() {
        let mut t = Table::new();
        let a = t.insert(1).unwrap();
        assert!(a >= USER_BASE && a <= i32::MAX as usize);
        assert_eq!(t.get(a), Some(&1));
        assert_eq!(t.remove(a), Some(1));
        assert!(t.get(a).is_none());
        let b = t.insert(2).unwrap();
        assert_ne!(a, b);
        assert!(t.get(a).is_none());
        assert!(t.get(0x101).is_none() && t.get(0).is_none() && t.get(b ^ 1).is_none());
        assert!(t.remove(a).is_none());
    }
}
