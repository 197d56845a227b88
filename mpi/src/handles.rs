//! Predefined datatype and operation handles, their nexar equivalents, and the
//! `MPI_<Handle>_toint` / `MPI_<Handle>_fromint` conversions.
//!
//! Datatypes map by size and kind onto [`nexar::Datatype`] (C `char` types are 8-bit integers,
//! `long` and `long long` follow the platform's sizes, `MPI_BYTE` is `uint8_t`). Types without a
//! nexar equivalent (complex, `long double`, `MPI_PACKED`, ...) are reported as `MPI_ERR_TYPE`.

use crate::consts::*;
use crate::error::{MpiError, Result};
use crate::table::USER_BASE;
use nexar::{Datatype as D, ReduceOp};
use std::ffi::{c_int, c_long, c_longlong, c_short};

/// The signed nexar integer type of `n` bytes.
const fn int_of(n: usize) -> D {
    match n {
        1 => D::I8,
        2 => D::I16,
        4 => D::I32,
        _ => D::I64,
    }
}

/// The unsigned nexar integer type of `n` bytes.
const fn uint_of(n: usize) -> D {
    match n {
        1 => D::U8,
        2 => D::U16,
        4 => D::U32,
        _ => D::U64,
    }
}

const SHORT: usize = size_of::<c_short>();
const INT: usize = size_of::<c_int>();
const LONG: usize = size_of::<c_long>();
const LLONG: usize = size_of::<c_longlong>();

/// The nexar datatype of a predefined `MPI_Datatype` handle, if it has one.
pub fn datatype_of(h: MPI_Datatype) -> Option<D> {
    Some(match h {
        0x201 => int_of(size_of::<MPI_Aint>()), // MPI_AINT
        0x202 | 0x203 => D::I64,                // MPI_COUNT, MPI_OFFSET
        0x208 => int_of(SHORT),                 // MPI_SHORT
        0x209 => int_of(INT),                   // MPI_INT
        0x20a => int_of(LONG),                  // MPI_LONG
        0x20b => int_of(LLONG),                 // MPI_LONG_LONG
        0x20c => uint_of(SHORT),                // MPI_UNSIGNED_SHORT
        0x20d => uint_of(INT),                  // MPI_UNSIGNED
        0x20e => uint_of(LONG),                 // MPI_UNSIGNED_LONG
        0x20f => uint_of(LLONG),                // MPI_UNSIGNED_LONG_LONG
        0x210 => D::F32,                        // MPI_FLOAT
        0x214 => D::F64,                        // MPI_DOUBLE
        0x218 | 0x219 => D::I32,                // MPI_LOGICAL, MPI_INTEGER
        0x21a => D::F32,                        // MPI_REAL
        0x21c => D::F64,                        // MPI_DOUBLE_PRECISION
        0x21e => D::U8,                         // MPI_CHARACTER
        0x228 => D::F32I32,                     // MPI_FLOAT_INT
        0x229 => D::F64I32,                     // MPI_DOUBLE_INT
        0x22a if LONG == 8 => D::I64I32,        // MPI_LONG_INT
        0x22a => D::I32I32,
        0x22b | 0x232 => D::I32I32,     // MPI_2INT, MPI_2INTEGER
        0x22c => D::I16I32,             // MPI_SHORT_INT
        0x238 | 0x239 => D::U8,         // MPI_C_BOOL, MPI_CXX_BOOL
        0x23c => D::I32,                // MPI_WCHAR (32-bit wchar_t)
        0x240 | 0x243 | 0x244 => D::I8, // MPI_INT8_T, MPI_CHAR, MPI_SIGNED_CHAR
        0x241 | 0x245 | 0x247 => D::U8, // MPI_UINT8_T, MPI_UNSIGNED_CHAR, MPI_BYTE
        0x248 => D::I16,                // MPI_INT16_T
        0x249 => D::U16,                // MPI_UINT16_T
        0x250 => D::I32,                // MPI_INT32_T
        0x251 => D::U32,                // MPI_UINT32_T
        0x258 => D::I64,                // MPI_INT64_T
        0x259 => D::U64,                // MPI_UINT64_T
        0x2c1 => D::I8,                 // MPI_INTEGER1
        0x2c9 => D::I16,                // MPI_INTEGER2
        0x2ca => D::F16,                // MPI_REAL2
        0x2d1 => D::I32,                // MPI_INTEGER4
        0x2d2 => D::F32,                // MPI_REAL4
        0x2d9 => D::I64,                // MPI_INTEGER8
        0x2da => D::F64,                // MPI_REAL8
        _ => return None,
    })
}

/// The nexar datatype of `h`, or `MPI_ERR_TYPE`.
pub fn datatype(h: MPI_Datatype) -> Result<D> {
    datatype_of(h).ok_or_else(|| {
        if h == MPI_DATATYPE_NULL {
            MpiError::new(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL")
        } else {
            MpiError::new(
                MPI_ERR_TYPE,
                format!("unsupported or invalid datatype {h:#x}"),
            )
        }
    })
}

/// The nexar operation of a predefined `MPI_Op` handle, if it has one.
pub fn op_of(h: MPI_Op) -> Option<ReduceOp> {
    Some(match h {
        0x21 => ReduceOp::Sum,
        0x22 => ReduceOp::Min,
        0x23 => ReduceOp::Max,
        0x24 => ReduceOp::Prod,
        0x28 => ReduceOp::Band,
        0x29 => ReduceOp::Bor,
        0x2a => ReduceOp::Bxor,
        0x30 => ReduceOp::Land,
        0x31 => ReduceOp::Lor,
        0x32 => ReduceOp::Lxor,
        0x38 => ReduceOp::MinLoc,
        0x39 => ReduceOp::MaxLoc,
        _ => return None,
    })
}

/// The nexar operation of `h`, or `MPI_ERR_OP`.
pub fn op(h: MPI_Op) -> Result<ReduceOp> {
    op_of(h).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_OP,
            format!("unsupported or invalid operation {h:#x}"),
        )
    })
}

/// Predefined handles are below this value (the standard ABI fixes them under 0x400).
const PREDEFINED_END: usize = 0x400;

/// `toint` of any handle: predefined and user handles are positive ints already.
fn to_int(h: usize) -> c_int {
    if h <= i32::MAX as usize {
        h as c_int
    } else {
        -1
    }
}

/// `fromint` given the validity test and the NULL handle of the type.
fn from_int(i: c_int, valid: impl Fn(usize) -> bool, null: usize) -> usize {
    match usize::try_from(i) {
        Ok(h) if valid(h) => h,
        _ => null,
    }
}

fn predefined_in(lo: usize, hi: usize) -> impl Fn(usize) -> bool {
    move |h| (lo..hi).contains(&h)
}

fn comm_valid(h: usize) -> bool {
    matches!(h, MPI_COMM_NULL | MPI_COMM_WORLD | MPI_COMM_SELF)
        || (h >= USER_BASE && crate::state::comm(h).is_ok())
}

macro_rules! int_pair {
    ($($(#[$doc:meta])* $ty:ident: $to:ident / $pto:ident, $from:ident / $pfrom:ident, $valid:expr, $null:expr;)*) => {
        mpi_fn! {$(
            $(#[$doc])*
            fn $to(h: usize) -> c_int => $pto { to_int(h) }
            $(#[$doc])*
            fn $from(i: c_int) -> usize => $pfrom { from_int(i, $valid, $null) }
        )*}
    };
}

int_pair! {
    /// Handle / Fortran integer conversion of `MPI_Comm`.
    Comm: MPI_Comm_toint / PMPI_Comm_toint, MPI_Comm_fromint / PMPI_Comm_fromint,
        comm_valid, MPI_COMM_NULL;
    /// Handle / Fortran integer conversion of `MPI_Datatype` (predefined types).
    Datatype: MPI_Type_toint / PMPI_Type_toint, MPI_Type_fromint / PMPI_Type_fromint,
        predefined_in(0x200, PREDEFINED_END), MPI_DATATYPE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Op` (predefined operations).
    Op: MPI_Op_toint / PMPI_Op_toint, MPI_Op_fromint / PMPI_Op_fromint,
        predefined_in(0x20, 0x40), MPI_OP_NULL;
    /// Handle / Fortran integer conversion of `MPI_Errhandler` (predefined handlers).
    Errhandler: MPI_Errhandler_toint / PMPI_Errhandler_toint,
        MPI_Errhandler_fromint / PMPI_Errhandler_fromint,
        predefined_in(0x140, 0x144), MPI_ERRHANDLER_NULL;
    /// Handle / Fortran integer conversion of `MPI_Group` (predefined and live user groups).
    Group: MPI_Group_toint / PMPI_Group_toint, MPI_Group_fromint / PMPI_Group_fromint,
        crate::group::group_valid, MPI_GROUP_NULL;
    /// Handle / Fortran integer conversion of `MPI_Win` (none exist yet but the NULL one).
    Win: MPI_Win_toint / PMPI_Win_toint, MPI_Win_fromint / PMPI_Win_fromint,
        predefined_in(0x110, 0x111), MPI_WIN_NULL;
    /// Handle / Fortran integer conversion of `MPI_File` (none exist yet but the NULL one).
    File: MPI_File_toint / PMPI_File_toint, MPI_File_fromint / PMPI_File_fromint,
        predefined_in(0x118, 0x119), MPI_FILE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Session` (none exist yet but the NULL one).
    Session: MPI_Session_toint / PMPI_Session_toint, MPI_Session_fromint / PMPI_Session_fromint,
        predefined_in(0x120, 0x121), MPI_SESSION_NULL;
    /// Handle / Fortran integer conversion of `MPI_Message` (predefined and matched messages).
    Message: MPI_Message_toint / PMPI_Message_toint, MPI_Message_fromint / PMPI_Message_fromint,
        |h| predefined_in(0x128, 0x12a)(h) || crate::mprobe::is_live(h), MPI_MESSAGE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Info` (predefined infos).
    Info: MPI_Info_toint / PMPI_Info_toint, MPI_Info_fromint / PMPI_Info_fromint,
        predefined_in(0x130, 0x132), MPI_INFO_NULL;
    /// Handle / Fortran integer conversion of `MPI_Request` (live requests and the NULL one).
    Request: MPI_Request_toint / PMPI_Request_toint, MPI_Request_fromint / PMPI_Request_fromint,
        |h| h == MPI_REQUEST_NULL || crate::request::is_live(h), MPI_REQUEST_NULL;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_c() {
        assert_eq!(datatype_of(0x209).unwrap().size(), INT);
        assert_eq!(datatype_of(0x20a).unwrap().size(), LONG);
        assert_eq!(datatype_of(0x247), Some(D::U8));
        assert_eq!(datatype_of(0x212), None, "complex is not mapped");
        assert_eq!(datatype_of(MPI_DATATYPE_NULL), None);
    }

    #[test]
    fn fromint_of_unknown_values_is_null() {
        assert_eq!(MPI_Type_fromint(0x209), 0x209);
        assert_eq!(MPI_Type_fromint(12345), MPI_DATATYPE_NULL);
        assert_eq!(MPI_Op_fromint(-1), MPI_OP_NULL);
        assert_eq!(MPI_Comm_fromint(0x101), MPI_COMM_WORLD);
        assert_eq!(
            MPI_Comm_fromint(0x4000_0001),
            MPI_COMM_NULL,
            "not initialized"
        );
        assert_eq!(MPI_Errhandler_toint(MPI_ERRORS_RETURN), 0x142);
    }
}
