//! The generational handle table. C callers hold objects only as opaque integers (carried in
//! pointer-typed or `int` handles); a handle encodes a slot index and that slot's generation, so
//! a freed, stale (slot reused since) or forged handle is detected instead of dereferenced.
//! Both C-facing crates need exactly this; what differs is only the bit layout of a handle
//! ([`Layout`]: libnexar tags each kind in the top byte of a 64-bit value, the MPI shim keeps
//! handles positive `int`s above its predefined ones) and what a miss is called, which stays
//! with each crate (here a miss is `None`).

use std::marker::PhantomData;

/// An integer type handles travel in (`u64` for libnexar, `usize` for the MPI shim's
/// pointer-sized handles). Handles are produced within 64 bits, so converting is lossless.
pub trait Handle: Copy {
    /// The handle's bits.
    fn to_bits(self) -> u64;
    /// A handle from bits this table made.
    fn from_bits(bits: u64) -> Self;
}

impl Handle for u64 {
    fn to_bits(self) -> u64 {
        self
    }

    fn from_bits(bits: u64) -> Self {
        bits
    }
}

impl Handle for usize {
    fn to_bits(self) -> u64 {
        self as u64
    }

    fn from_bits(bits: u64) -> Self {
        bits as usize
    }
}

/// The bits of a handle: `tag | generation << index_bits | index`. Every valid handle has
/// exactly the bits of `tag` above the generation field; anything else is rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    tag: u64,
    index_bits: u32,
    generation_bits: u32,
}

impl Layout {
    /// A layout with `index_bits` of slot index (so at most `2^index_bits` live objects) and
    /// `generation_bits` of generation above it, and `tag` in the bits above both.
    ///
    /// # Panics
    /// If the fields do not fit in 64 bits or `tag` has a bit inside them (at compile time when
    /// used in a `const`).
    pub const fn new(tag: u64, index_bits: u32, generation_bits: u32) -> Self {
        assert!(index_bits >= 1 && generation_bits >= 1 && index_bits + generation_bits < 64);
        let layout = Self {
            tag,
            index_bits,
            generation_bits,
        };
        assert!(
            tag & layout.low_mask() == 0,
            "the tag overlaps the index or generation"
        );
        layout
    }

    const fn index_mask(&self) -> u64 {
        (1 << self.index_bits) - 1
    }

    const fn generation_mask(&self) -> u64 {
        (1 << self.generation_bits) - 1
    }

    /// The bits of the index and generation fields.
    const fn low_mask(&self) -> u64 {
        (self.generation_mask() << self.index_bits) | self.index_mask()
    }

    fn encode(&self, index: usize, generation: u64) -> u64 {
        self.tag | ((generation & self.generation_mask()) << self.index_bits) | index as u64
    }

    /// `(index, generation)` of a handle with this layout's tag.
    fn decode(&self, h: u64) -> Option<(usize, u64)> {
        if h & !self.low_mask() != self.tag {
            return None;
        }
        let index = (h & self.index_mask()) as usize;
        let generation = (h >> self.index_bits) & self.generation_mask();
        Some((index, generation))
    }
}

struct Slot<T> {
    generation: u64,
    value: Option<T>,
}

/// The live objects of one kind, behind handles of type `H` laid out by a [`Layout`].
///
/// A slot freed by [`Table::remove`] is reused by a later [`Table::insert`] with its generation
/// advanced (wrapping within the layout's generation bits), so the old handle stays invalid.
pub struct Table<T, H = u64> {
    layout: Layout,
    slots: Vec<Slot<T>>,
    free: Vec<usize>,
    handle: PhantomData<fn(H) -> H>,
}

impl<T, H: Handle> Table<T, H> {
    /// An empty table whose handles have `layout`.
    pub const fn new(layout: Layout) -> Self {
        Self {
            layout,
            slots: Vec::new(),
            free: Vec::new(),
            handle: PhantomData,
        }
    }

    /// The slot `h` names, if `h` is live.
    fn slot(&self, h: H) -> Option<usize> {
        let (index, generation) = self.layout.decode(h.to_bits())?;
        match self.slots.get(index) {
            Some(s) if s.generation == generation && s.value.is_some() => Some(index),
            _ => None,
        }
    }

    /// Stores `value` and returns its handle; `None` when every index is taken.
    pub fn insert(&mut self, value: T) -> Option<H> {
        let index = match self.free.pop() {
            Some(i) => i,
            None if self.slots.len() as u64 <= self.layout.index_mask() => {
                self.slots.push(Slot {
                    generation: 0,
                    value: None,
                });
                self.slots.len() - 1
            }
            None => return None,
        };
        let slot = &mut self.slots[index];
        slot.generation = (slot.generation + 1) & self.layout.generation_mask();
        slot.value = Some(value);
        Some(H::from_bits(self.layout.encode(index, slot.generation)))
    }

    /// The object behind `h`, if `h` is live.
    pub fn get(&self, h: H) -> Option<&T> {
        let i = self.slot(h)?;
        self.slots[i].value.as_ref()
    }

    /// The object behind `h` mutably, if `h` is live.
    pub fn get_mut(&mut self, h: H) -> Option<&mut T> {
        let i = self.slot(h)?;
        self.slots[i].value.as_mut()
    }

    /// Removes and returns the object behind `h`, if `h` is live; `h` becomes invalid.
    pub fn remove(&mut self, h: H) -> Option<T> {
        let i = self.slot(h)?;
        self.free.push(i);
        self.slots[i].value.take()
    }

    /// Every live object, in slot order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|s| s.value.as_ref())
    }

    /// Every live object, mutably, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|s| s.value.as_mut())
    }

    /// Removes every object `keep` refuses; their handles become invalid.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.value.as_ref().is_some_and(|v| !keep(v)) {
                s.value = None;
                self.free.push(i);
            }
        }
    }

    /// Removes every object; every handle becomes invalid.
    pub fn clear(&mut self) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.value.take().is_some() {
                self.free.push(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// libnexar's layout of kind 3.
    const TAGGED: Layout = Layout::new(3 << 56, 24, 32);
    /// The MPI shim's layout.
    const USER: Layout = Layout::new(0x4000_0000, 16, 14);

    #[test]
    fn a_freed_handle_is_rejected() {
        let mut t: Table<i32> = Table::new(TAGGED);
        let a = t.insert(10).unwrap();
        assert_eq!(t.get(a), Some(&10));
        *t.get_mut(a).unwrap() = 12;
        assert_eq!(t.remove(a), Some(12));
        assert!(t.get(a).is_none());
        assert!(t.get_mut(a).is_none());
        assert!(t.remove(a).is_none(), "double free");
    }

    #[test]
    fn a_reused_slot_gets_a_new_generation_and_the_stale_handle_is_rejected() {
        let mut t: Table<&str, usize> = Table::new(USER);
        let a = t.insert("a").unwrap();
        t.remove(a).unwrap();
        let b = t.insert("b").unwrap();
        assert_eq!(a & 0xffff, b & 0xffff, "the slot is reused");
        assert_ne!(a, b, "with another generation");
        assert!(t.get(a).is_none(), "stale");
        assert_eq!(t.get(b), Some(&"b"));
        assert!(t.remove(a).is_none());
        assert_eq!(
            t.get(b),
            Some(&"b"),
            "removing the stale handle left the new one"
        );
    }

    #[test]
    fn retain_frees_the_refused_and_values_mut_sees_the_live() {
        let mut t: Table<i32, usize> = Table::new(USER);
        let hs: Vec<usize> = (0..5).map(|v| t.insert(v).unwrap()).collect();
        t.retain(|v| v % 2 == 0);
        assert!(t.get(hs[1]).is_none() && t.get(hs[3]).is_none());
        for v in t.values_mut() {
            *v += 10;
        }
        assert_eq!(
            [t.get(hs[0]), t.get(hs[2]), t.get(hs[4])],
            [Some(&10), Some(&12), Some(&14)]
        );
        let again = t.insert(7).unwrap();
        assert_ne!(
            again, hs[1],
            "a freed slot comes back with a new generation"
        );
    }

    #[test]
    fn generations_wrap_within_their_bits() {
        let mut t: Table<u8, usize> = Table::new(Layout::new(1 << 10, 4, 2));
        let first = t.insert(0).unwrap();
        t.remove(first).unwrap();
        let mut seen = vec![first];
        for _ in 0..3 {
            let h = t.insert(0).unwrap();
            t.remove(h).unwrap();
            seen.push(h);
        }
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 4, "four generations in two bits, all distinct");
        assert_eq!(t.insert(0), Some(first), "then the generation wraps");
    }

    #[test]
    fn forged_and_foreign_handles_are_rejected() {
        let mut t: Table<i32> = Table::new(TAGGED);
        let a = t.insert(1).unwrap();
        assert_eq!(a >> 56, 3, "the kind is in the top byte");
        assert!(t.get(0).is_none());
        assert!(t.get(a ^ 1).is_none(), "no such slot");
        assert!(t.get(a ^ (1 << 30)).is_none(), "wrong generation");
        let other: Table<i32> = Table::new(Layout::new(4 << 56, 24, 32));
        assert!(other.get(a).is_none(), "another kind's handle");

        let mut u: Table<i32, usize> = Table::new(USER);
        let h = u.insert(1).unwrap();
        assert!(
            (0x4000_0000..=i32::MAX as usize).contains(&h),
            "a positive int"
        );
        assert!(u.get(0x101).is_none(), "a predefined handle");
        assert!(u.get(h | 1 << 31).is_none(), "bits above the tag");
        assert!(u.get(h & !0x4000_0000).is_none(), "without the tag");
    }

    #[test]
    fn a_full_table_refuses_and_clear_frees_every_slot() {
        let mut t: Table<u8, usize> = Table::new(Layout::new(1 << 10, 2, 4));
        let hs: Vec<usize> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        assert_eq!(t.insert(9), None, "four slots");
        t.clear();
        assert!(hs.iter().all(|&h| t.get(h).is_none()));
        let again: Vec<usize> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        assert!(again.iter().all(|h| !hs.contains(h)));
        assert_eq!(t.insert(9), None);
    }
}
