//! The shim's handle layout for user objects (communicators, requests, datatypes, ...). A user
//! handle is `USER_BASE | generation << 16 | slot`: a positive `int` (so `MPI_Comm_toint` can
//! return it unchanged) and never one of the small predefined handle values. The table itself,
//! which detects a freed, stale or forged handle instead of dereferencing it, is
//! [`nexar_bind::handles::Table`]; every user-object table of the shim is built with
//! [`USER_HANDLES`].

use nexar_bind::handles::Layout;

/// Lowest user handle value; every predefined handle is far below it.
pub const USER_BASE: usize = 0x4000_0000;
/// Bits of slot index (at most 65,536 live objects of a kind).
const SLOT_BITS: u32 = 16;
/// Bits of generation, between the slot and `USER_BASE`'s bit.
const GEN_BITS: u32 = 14;

/// The layout of every user handle.
pub const USER_HANDLES: Layout = Layout::new(USER_BASE as u64, SLOT_BITS, GEN_BITS);

/// The live objects of one kind, behind pointer-sized user handles.
pub type Table<T> = nexar_bind::handles::Table<T, usize>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_user_range_and_stale_ones_are_rejected() {
        let mut t = Table::new(USER_HANDLES);
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
