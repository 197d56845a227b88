//! Element types nexar can move and reduce.
//!
//! The value-index pair types follow the C layout MPI uses for `MPI_FLOAT_INT`, `MPI_DOUBLE_INT`,
//! `MPI_LONG_INT`, `MPI_2INT` and `MPI_SHORT_INT`: the value at offset 0, the `i32` index at the
//! next 4-byte boundary, the whole padded to the struct's alignment.

use crate::prelude::*;

use core::fmt;

/// An element type. The discriminants are stable: they travel in frame headers and C constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Datatype {
    /// `int8_t`
    I8 = 0,
    /// `uint8_t` (also raw bytes)
    U8 = 1,
    /// `int16_t`
    I16 = 2,
    /// `uint16_t`
    U16 = 3,
    /// `int32_t`
    I32 = 4,
    /// `uint32_t`
    U32 = 5,
    /// `int64_t`
    I64 = 6,
    /// `uint64_t`
    U64 = 7,
    /// IEEE 754 binary16
    F16 = 8,
    /// bfloat16
    Bf16 = 9,
    /// `float`
    F32 = 10,
    /// `double`
    F64 = 11,
    /// `{float; int}` (MPI_FLOAT_INT), 8 bytes
    F32I32 = 12,
    /// `{double; int}` (MPI_DOUBLE_INT), 16 bytes, index at offset 8
    F64I32 = 13,
    /// `{int; int}` (MPI_2INT), 8 bytes
    I32I32 = 14,
    /// `{long; int}` (MPI_LONG_INT), 16 bytes, index at offset 8
    I64I32 = 15,
    /// `{short; int}` (MPI_SHORT_INT), 8 bytes, index at offset 4
    I16I32 = 16,
}

impl Datatype {
    /// Every datatype, in discriminant order.
    pub const ALL: [Datatype; 17] = [
        Self::I8,
        Self::U8,
        Self::I16,
        Self::U16,
        Self::I32,
        Self::U32,
        Self::I64,
        Self::U64,
        Self::F16,
        Self::Bf16,
        Self::F32,
        Self::F64,
        Self::F32I32,
        Self::F64I32,
        Self::I32I32,
        Self::I64I32,
        Self::I16I32,
    ];

    /// Size of one element in bytes (including padding for pair types).
    pub const fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 | Self::F16 | Self::Bf16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::I64 | Self::U64 | Self::F64 => 8,
            Self::F32I32 | Self::I32I32 | Self::I16I32 => 8,
            Self::F64I32 | Self::I64I32 => 16,
        }
    }

    /// Byte offset of the `i32` index inside a pair element, `None` for plain types.
    pub const fn index_offset(self) -> Option<usize> {
        match self {
            Self::F32I32 | Self::I32I32 | Self::I16I32 => Some(4),
            Self::F64I32 | Self::I64I32 => Some(8),
            _ => None,
        }
    }

    /// True for the value-index pair types used by MINLOC / MAXLOC.
    pub const fn is_pair(self) -> bool {
        self.index_offset().is_some()
    }

    /// True for floating-point scalars.
    pub const fn is_float(self) -> bool {
        matches!(self, Self::F16 | Self::Bf16 | Self::F32 | Self::F64)
    }

    /// True for integer scalars.
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            Self::I8
                | Self::U8
                | Self::I16
                | Self::U16
                | Self::I32
                | Self::U32
                | Self::I64
                | Self::U64
        )
    }

    /// Stable lower-case name (`"f32"`, `"f64i32"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::I8 => "i8",
            Self::U8 => "u8",
            Self::I16 => "i16",
            Self::U16 => "u16",
            Self::I32 => "i32",
            Self::U32 => "u32",
            Self::I64 => "i64",
            Self::U64 => "u64",
            Self::F16 => "f16",
            Self::Bf16 => "bf16",
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::F32I32 => "f32i32",
            Self::F64I32 => "f64i32",
            Self::I32I32 => "i32i32",
            Self::I64I32 => "i64i32",
            Self::I16I32 => "i16i32",
        }
    }

    /// Inverse of `self as u8`.
    pub fn from_u8(v: u8) -> Option<Self> {
        Self::ALL.get(v as usize).copied()
    }

    /// Number of whole elements in `bytes`, or an error if `bytes` is not a multiple of the size.
    pub fn count_of(self, bytes: usize) -> Result<usize, crate::ProtoError> {
        if !bytes.is_multiple_of(self.size()) {
            return Err(crate::ProtoError::InvalidArgument(format!(
                "{bytes} bytes is not a whole number of {} elements",
                self.name()
            )));
        }
        Ok(bytes / self.size())
    }

    /// `count * size` with overflow checking.
    pub fn bytes_for(self, count: usize) -> Result<usize, crate::ProtoError> {
        count.checked_mul(self.size()).ok_or_else(|| {
            crate::ProtoError::InvalidArgument(format!(
                "count {count} of {} overflows the address space",
                self.name()
            ))
        })
    }
}

impl fmt::Display for Datatype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discriminants_round_trip() {
        for dt in Datatype::ALL {
            assert_eq!(Datatype::from_u8(dt as u8), Some(dt));
        }
        assert_eq!(Datatype::from_u8(17), None);
    }

    #[test]
    fn pair_layout_matches_c() {
        // The layouts of the C structs MPI defines for the pair types.
        #[repr(C)]
        struct DoubleInt(f64, i32);
        #[repr(C)]
        struct ShortInt(i16, i32);
        assert_eq!(Datatype::F64I32.size(), core::mem::size_of::<DoubleInt>());
        assert_eq!(Datatype::I16I32.size(), core::mem::size_of::<ShortInt>());
        assert_eq!(Datatype::I64I32.size(), core::mem::size_of::<(i64, i32)>());
    }

    #[test]
    fn counting_checks_overflow_and_remainders() {
        assert!(Datatype::F64.bytes_for(usize::MAX).is_err());
        assert!(Datatype::F32.count_of(6).is_err());
        assert_eq!(Datatype::F32.count_of(8).unwrap(), 2);
    }
}
