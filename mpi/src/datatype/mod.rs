//! MPI datatypes: predefined and derived.
//!
//! * [`predefined`]: the layout of every predefined handle of the standard ABI.
//! * [`layout`]: a datatype's layout ([`Type`]): byte runs, signature, bounds, element kind.
//! * [`registry`]: handles (user ones in a generational table), commit, free, names.
//! * [`attr`]: attributes cached on datatypes (`MPI_Type_create_keyval`, `_set_attr`, ...).
//! * [`constructors`]: `MPI_Type_contiguous`, `_vector`, `_create_struct`, ... and `_c` forms.
//! * [`darray`]: `MPI_Type_create_darray`, block and cyclic distributions.
//! * [`subarray`]: `MPI_Type_create_subarray`, built from [`layout`].
//! * [`pack`]: the copy between a typed user buffer and the packed bytes every data path
//!   moves; `MPI_Pack` / `MPI_Unpack` / `MPI_Pack_size`.
//! * [`ext32`]: the `external32` form of each element (sizes, byte order, conversions).
//! * [`external`]: `MPI_Pack_external` and friends (`external32`, big-endian).
//! * [`f90`]: `MPI_Type_create_f90_integer` / `_real` / `_complex` (cached derived handles).
//! * [`query`]: size, extents, names, envelope / contents, `MPI_Get_elements`,
//!   `MPI_Get_address`, `MPI_Type_match_size`.
//!
//! Data moves packed: a send packs the typemap into a dense buffer (types that are already
//! dense, e.g. predefined ones, stay zero-copy) and a receive unpacks on completion. A type
//! is reducible when its signature is one nexar element type repeated (complex types reduce
//! as pairs of floats, `MPI_SUM` only); see [`crate::args::Buf`].

pub mod attr;
pub mod constructors;
pub mod darray;
pub mod ext32;
pub mod external;
pub mod f90;
pub mod layout;
pub mod pack;
pub mod predefined;
pub mod query;
pub mod registry;
pub mod subarray;

pub use layout::{Red, Type};

use std::ffi::c_int;

/// `MPI_COMBINER_*` values of the standard ABI.
pub const MPI_COMBINER_NAMED: c_int = 101;
#[allow(missing_docs)]
pub const MPI_COMBINER_DUP: c_int = 102;
#[allow(missing_docs)]
pub const MPI_COMBINER_CONTIGUOUS: c_int = 103;
#[allow(missing_docs)]
pub const MPI_COMBINER_VECTOR: c_int = 104;
#[allow(missing_docs)]
pub const MPI_COMBINER_HVECTOR: c_int = 105;
#[allow(missing_docs)]
pub const MPI_COMBINER_INDEXED: c_int = 106;
#[allow(missing_docs)]
pub const MPI_COMBINER_HINDEXED: c_int = 107;
#[allow(missing_docs)]
pub const MPI_COMBINER_INDEXED_BLOCK: c_int = 108;
#[allow(missing_docs)]
pub const MPI_COMBINER_HINDEXED_BLOCK: c_int = 109;
#[allow(missing_docs)]
pub const MPI_COMBINER_STRUCT: c_int = 110;
#[allow(missing_docs)]
pub const MPI_COMBINER_SUBARRAY: c_int = 111;
#[allow(missing_docs)]
pub const MPI_COMBINER_DARRAY: c_int = 112;
#[allow(missing_docs)]
pub const MPI_COMBINER_F90_INTEGER: c_int = 113;
#[allow(missing_docs)]
pub const MPI_COMBINER_F90_REAL: c_int = 114;
#[allow(missing_docs)]
pub const MPI_COMBINER_F90_COMPLEX: c_int = 115;
#[allow(missing_docs)]
pub const MPI_COMBINER_RESIZED: c_int = 116;

/// `MPI_ORDER_C` / `MPI_ORDER_FORTRAN`.
pub const MPI_ORDER_C: c_int = 0xC;
/// See [`MPI_ORDER_C`].
pub const MPI_ORDER_FORTRAN: c_int = 0xF;

/// `MPI_TYPECLASS_*` (for `MPI_Type_match_size`).
pub const MPI_TYPECLASS_INTEGER: c_int = 192;
/// See [`MPI_TYPECLASS_INTEGER`].
pub const MPI_TYPECLASS_REAL: c_int = 193;
/// See [`MPI_TYPECLASS_INTEGER`].
pub const MPI_TYPECLASS_COMPLEX: c_int = 194;
