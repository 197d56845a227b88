//! Predefined datatype and operation handles, their nexar equivalents, and the
//! `MPI_<Handle>_toint` / `MPI_<Handle>_fromint` conversions.
//!
//! Datatype layouts (predefined and derived) are in [`crate::datatype`].

use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use crate::table::USER_BASE;
use nexar::{Datatype as D, ReduceOp};
use std::ffi::c_int;

/// The nexar element type data of datatype `h` moves as (its uniform element type, else
/// bytes), or `MPI_ERR_TYPE` for NULL, freed or unknown handles. Layouts are in
/// [`crate::datatype`].
pub fn datatype(h: MPI_Datatype) -> Result<D> {
    Ok(crate::datatype::registry::layout(h)?.move_type())
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
    /// Handle / Fortran integer conversion of `MPI_Datatype` (predefined and live user types).
    Datatype: MPI_Type_toint / PMPI_Type_toint, MPI_Type_fromint / PMPI_Type_fromint,
        |h| h == MPI_DATATYPE_NULL || crate::datatype::registry::is_valid(h), MPI_DATATYPE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Op` (predefined and live user operations).
    Op: MPI_Op_toint / PMPI_Op_toint, MPI_Op_fromint / PMPI_Op_fromint,
        crate::coll::op::op_valid, MPI_OP_NULL;
    /// Handle / Fortran integer conversion of `MPI_Errhandler` (predefined and user handlers).
    Errhandler: MPI_Errhandler_toint / PMPI_Errhandler_toint,
        MPI_Errhandler_fromint / PMPI_Errhandler_fromint,
        |h| (0x140..0x144).contains(&h) || crate::errors::handlers::user_errhandler(h).is_some(),
        MPI_ERRHANDLER_NULL;
    /// Handle / Fortran integer conversion of `MPI_Group` (predefined and live user groups).
    Group: MPI_Group_toint / PMPI_Group_toint, MPI_Group_fromint / PMPI_Group_fromint,
        crate::comm::group::group_valid, MPI_GROUP_NULL;
    /// Handle / Fortran integer conversion of `MPI_Win` (live windows and the NULL one).
    Win: MPI_Win_toint / PMPI_Win_toint, MPI_Win_fromint / PMPI_Win_fromint,
        crate::win::win_valid, MPI_WIN_NULL;
    /// Handle / Fortran integer conversion of `MPI_File` (open files and the NULL one).
    File: MPI_File_toint / PMPI_File_toint, MPI_File_fromint / PMPI_File_fromint,
        |h| h == MPI_FILE_NULL || crate::io::file::is_live(h), MPI_FILE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Session` (live sessions and the NULL one).
    Session: MPI_Session_toint / PMPI_Session_toint, MPI_Session_fromint / PMPI_Session_fromint,
        crate::session::session_valid, MPI_SESSION_NULL;
    /// Handle / Fortran integer conversion of `MPI_Message` (predefined and matched messages).
    Message: MPI_Message_toint / PMPI_Message_toint, MPI_Message_fromint / PMPI_Message_fromint,
        |h| predefined_in(0x128, 0x12a)(h) || crate::p2p::matched_probe::is_live(h), MPI_MESSAGE_NULL;
    /// Handle / Fortran integer conversion of `MPI_Info` (predefined and live user infos).
    Info: MPI_Info_toint / PMPI_Info_toint, MPI_Info_fromint / PMPI_Info_fromint,
        crate::comm::info::info_valid, MPI_INFO_NULL;
    /// Handle / Fortran integer conversion of `MPI_Request` (live requests and the NULL one).
    Request: MPI_Request_toint / PMPI_Request_toint, MPI_Request_fromint / PMPI_Request_fromint,
        |h| h == MPI_REQUEST_NULL || crate::request::table::is_live(h), MPI_REQUEST_NULL;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_types() {
        assert_eq!(datatype(0x209).unwrap(), D::I32);
        assert_eq!(
            datatype(0x216).unwrap(),
            D::F64,
            "double complex moves as f64"
        );
        assert_eq!(
            datatype(0x220).unwrap(),
            D::U8,
            "long double moves as bytes"
        );
        assert!(datatype(MPI_DATATYPE_NULL).is_err());
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
