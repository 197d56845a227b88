//! Reduction operators and which datatypes each accepts.

use crate::datatype::Datatype;
use core::fmt;

/// A predefined reduction operator. Discriminants are stable (frame headers, C constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ReduceOp {
    /// Sum.
    Sum = 0,
    /// Product.
    Prod = 1,
    /// Minimum (for floats: a NaN operand loses to a number).
    Min = 2,
    /// Maximum (for floats: a NaN operand loses to a number).
    Max = 3,
    /// Logical and (non-zero is true; result 0 or 1).
    Land = 4,
    /// Logical or.
    Lor = 5,
    /// Logical exclusive or.
    Lxor = 6,
    /// Bitwise and.
    Band = 7,
    /// Bitwise or.
    Bor = 8,
    /// Bitwise exclusive or.
    Bxor = 9,
    /// Minimum value and the lowest index holding it (pair types only).
    MinLoc = 10,
    /// Maximum value and the lowest index holding it (pair types only).
    MaxLoc = 11,
}

impl ReduceOp {
    /// Every operator, in discriminant order.
    pub const ALL: [ReduceOp; 12] = [
        Self::Sum,
        Self::Prod,
        Self::Min,
        Self::Max,
        Self::Land,
        Self::Lor,
        Self::Lxor,
        Self::Band,
        Self::Bor,
        Self::Bxor,
        Self::MinLoc,
        Self::MaxLoc,
    ];

    /// Stable lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sum => "sum",
            Self::Prod => "prod",
            Self::Min => "min",
            Self::Max => "max",
            Self::Land => "land",
            Self::Lor => "lor",
            Self::Lxor => "lxor",
            Self::Band => "band",
            Self::Bor => "bor",
            Self::Bxor => "bxor",
            Self::MinLoc => "minloc",
            Self::MaxLoc => "maxloc",
        }
    }

    /// Inverse of `self as u8`.
    pub fn from_u8(v: u8) -> Option<Self> {
        Self::ALL.get(v as usize).copied()
    }

    /// Whether this operator is defined on `dtype` (the MPI rules: arithmetic on numbers, logical
    /// and bitwise on integers, MINLOC/MAXLOC on pairs only).
    pub const fn accepts(self, dtype: Datatype) -> bool {
        match self {
            Self::Sum | Self::Prod | Self::Min | Self::Max => {
                dtype.is_integer() || dtype.is_float()
            }
            Self::Land | Self::Lor | Self::Lxor | Self::Band | Self::Bor | Self::Bxor => {
                dtype.is_integer()
            }
            Self::MinLoc | Self::MaxLoc => dtype.is_pair(),
        }
    }

    /// `Ok` if [`ReduceOp::accepts`], else [`crate::ProtoError::InvalidOp`].
    pub fn check(self, dtype: Datatype) -> Result<(), crate::ProtoError> {
        if self.accepts(dtype) {
            Ok(())
        } else {
            Err(crate::ProtoError::InvalidOp {
                op: self.name(),
                dtype: dtype.name(),
            })
        }
    }
}

impl fmt::Display for ReduceOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
