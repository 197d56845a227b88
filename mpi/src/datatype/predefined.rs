//! The predefined datatypes of the standard ABI: name, size, alignment and element kind of
//! each handle. C `char` types are 8-bit integers, `long` / `long long` / `wchar_t` follow the
//! platform (LP64), `long double` is the x86-64 80-bit format in 16 bytes. Pair types
//! (`MPI_FLOAT_INT`, ...) are one element laid out as their C struct: where that has padding
//! (`MPI_DOUBLE_INT`, `MPI_SHORT_INT`, `MPI_LONG_INT`, `MPI_LONG_DOUBLE_INT`) the size counts
//! the value and the `int` only (12, 6, 12, 20 bytes) and the extent the whole struct (16, 8,
//! 16, 32), and the packed element is the value then the `int` ([`Red::Pair`]).

use super::ext32::{Ext, Scalar};
use super::layout::{Prim, Red, Type};
use crate::consts::MPI_Datatype;
use nexar::Datatype as D;
use std::ffi::{c_int, c_long, c_longlong, c_short};
use std::sync::{Arc, OnceLock};

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

/// `MPI_CHAR` of the standard ABI.
pub const MPI_CHAR: MPI_Datatype = 0x243;

/// `MPI_UNSIGNED_LONG_LONG` of the standard ABI.
pub const MPI_UNSIGNED_LONG_LONG: MPI_Datatype = 0x20f;

/// `MPI_LONG_DOUBLE_INT` of the standard ABI (a pair nexar has no element type for).
pub const MPI_LONG_DOUBLE_INT: MPI_Datatype = 0x22d;

/// `MPI_BYTE` of the standard ABI (uninterpreted bytes; the shim's stand-in type for empty
/// and raw-byte buffers).
pub const MPI_BYTE: MPI_Datatype = 0x247;

const SHORT: usize = size_of::<c_short>();
const INT: usize = size_of::<c_int>();
const LONG: usize = size_of::<c_long>();
const LLONG: usize = size_of::<c_longlong>();
const AINT: usize = size_of::<isize>();

use Red::{Basic as B, Byte as Y, Complex as C, Opaque as O, Pair as P};

/// `(handle, name, element kind, elements per instance, element size, alignment)`.
type Row = (usize, &'static str, Red, usize, usize, usize);

/// Every predefined datatype (aliases such as `MPI_LONG_LONG_INT` share a handle).
const TABLE: &[Row] = &[
    (0x201, "MPI_AINT", B(int_of(AINT)), 1, AINT, AINT),
    (0x202, "MPI_COUNT", B(D::I64), 1, 8, 8),
    (0x203, "MPI_OFFSET", B(D::I64), 1, 8, 8),
    (0x207, "MPI_PACKED", Y, 1, 1, 1),
    (0x208, "MPI_SHORT", B(int_of(SHORT)), 1, SHORT, SHORT),
    (0x209, "MPI_INT", B(int_of(INT)), 1, INT, INT),
    (0x20a, "MPI_LONG", B(int_of(LONG)), 1, LONG, LONG),
    (0x20b, "MPI_LONG_LONG", B(int_of(LLONG)), 1, LLONG, LLONG),
    (
        0x20c,
        "MPI_UNSIGNED_SHORT",
        B(uint_of(SHORT)),
        1,
        SHORT,
        SHORT,
    ),
    (0x20d, "MPI_UNSIGNED", B(uint_of(INT)), 1, INT, INT),
    (0x20e, "MPI_UNSIGNED_LONG", B(uint_of(LONG)), 1, LONG, LONG),
    (
        0x20f,
        "MPI_UNSIGNED_LONG_LONG",
        B(uint_of(LLONG)),
        1,
        LLONG,
        LLONG,
    ),
    (0x210, "MPI_FLOAT", B(D::F32), 1, 4, 4),
    (0x212, "MPI_C_FLOAT_COMPLEX", C(D::F32), 1, 8, 4),
    (0x213, "MPI_CXX_FLOAT_COMPLEX", C(D::F32), 1, 8, 4),
    (0x214, "MPI_DOUBLE", B(D::F64), 1, 8, 8),
    (0x216, "MPI_C_DOUBLE_COMPLEX", C(D::F64), 1, 16, 8),
    (0x217, "MPI_CXX_DOUBLE_COMPLEX", C(D::F64), 1, 16, 8),
    (0x218, "MPI_LOGICAL", B(D::I32), 1, 4, 4),
    (0x219, "MPI_INTEGER", B(D::I32), 1, 4, 4),
    (0x21a, "MPI_REAL", B(D::F32), 1, 4, 4),
    (0x21b, "MPI_COMPLEX", C(D::F32), 1, 8, 4),
    (0x21c, "MPI_DOUBLE_PRECISION", B(D::F64), 1, 8, 8),
    (0x21d, "MPI_DOUBLE_COMPLEX", C(D::F64), 1, 16, 8),
    (0x21e, "MPI_CHARACTER", B(D::U8), 1, 1, 1),
    (0x220, "MPI_LONG_DOUBLE", O(0x220), 1, 16, 16),
    (0x224, "MPI_C_LONG_DOUBLE_COMPLEX", O(0x224), 1, 32, 16),
    (0x225, "MPI_CXX_LONG_DOUBLE_COMPLEX", O(0x225), 1, 32, 16),
    (0x228, "MPI_FLOAT_INT", B(D::F32I32), 1, 8, 4),
    (0x229, "MPI_DOUBLE_INT", P(D::F64I32), 1, 12, 8),
    (
        0x22a,
        "MPI_LONG_INT",
        if LONG == 8 {
            P(D::I64I32)
        } else {
            B(D::I32I32)
        },
        1,
        LONG + INT,
        LONG,
    ),
    (0x22b, "MPI_2INT", B(D::I32I32), 1, 8, 4),
    (0x22c, "MPI_SHORT_INT", P(D::I16I32), 1, SHORT + INT, 4),
    (0x22d, "MPI_LONG_DOUBLE_INT", O(0x22d), 1, 20, 16),
    (0x230, "MPI_2REAL", B(D::F32), 2, 4, 4),
    (0x231, "MPI_2DOUBLE_PRECISION", B(D::F64), 2, 8, 8),
    (0x232, "MPI_2INTEGER", B(D::I32I32), 1, 8, 4),
    (0x238, "MPI_C_BOOL", B(D::U8), 1, 1, 1),
    (0x239, "MPI_CXX_BOOL", B(D::U8), 1, 1, 1),
    (0x23c, "MPI_WCHAR", B(D::I32), 1, 4, 4),
    (0x240, "MPI_INT8_T", B(D::I8), 1, 1, 1),
    (0x241, "MPI_UINT8_T", B(D::U8), 1, 1, 1),
    (0x243, "MPI_CHAR", B(D::I8), 1, 1, 1),
    (0x244, "MPI_SIGNED_CHAR", B(D::I8), 1, 1, 1),
    (0x245, "MPI_UNSIGNED_CHAR", B(D::U8), 1, 1, 1),
    (0x247, "MPI_BYTE", Y, 1, 1, 1),
    (0x248, "MPI_INT16_T", B(D::I16), 1, 2, 2),
    (0x249, "MPI_UINT16_T", B(D::U16), 1, 2, 2),
    (0x250, "MPI_INT32_T", B(D::I32), 1, 4, 4),
    (0x251, "MPI_UINT32_T", B(D::U32), 1, 4, 4),
    (0x258, "MPI_INT64_T", B(D::I64), 1, 8, 8),
    (0x259, "MPI_UINT64_T", B(D::U64), 1, 8, 8),
    (0x2c0, "MPI_LOGICAL1", B(D::U8), 1, 1, 1),
    (0x2c1, "MPI_INTEGER1", B(D::I8), 1, 1, 1),
    (0x2c8, "MPI_LOGICAL2", B(D::I16), 1, 2, 2),
    (0x2c9, "MPI_INTEGER2", B(D::I16), 1, 2, 2),
    (0x2ca, "MPI_REAL2", B(D::F16), 1, 2, 2),
    (0x2d0, "MPI_LOGICAL4", B(D::I32), 1, 4, 4),
    (0x2d1, "MPI_INTEGER4", B(D::I32), 1, 4, 4),
    (0x2d2, "MPI_REAL4", B(D::F32), 1, 4, 4),
    (0x2d3, "MPI_COMPLEX4", C(D::F16), 1, 4, 2),
    (0x2d8, "MPI_LOGICAL8", B(D::I64), 1, 8, 8),
    (0x2d9, "MPI_INTEGER8", B(D::I64), 1, 8, 8),
    (0x2da, "MPI_REAL8", B(D::F64), 1, 8, 8),
    (0x2db, "MPI_COMPLEX8", C(D::F32), 1, 8, 4),
    (0x2e0, "MPI_LOGICAL16", O(0x2e0), 1, 16, 16),
    (0x2e1, "MPI_INTEGER16", O(0x2e1), 1, 16, 16),
    (0x2e2, "MPI_REAL16", O(0x2e2), 1, 16, 16),
    (0x2e3, "MPI_COMPLEX16", C(D::F64), 1, 16, 8),
    (0x2eb, "MPI_COMPLEX32", O(0x2eb), 1, 32, 16),
];

/// The pair types whose C struct has padding: `(handle, (value bytes, offset of the int,
/// struct extent))`.
const PADDED_PAIRS: &[(usize, (usize, usize, usize))] = &[
    (0x229, (8, 8, 16)),
    (0x22a, (LONG, LONG, 2 * LONG)),
    (0x22c, (SHORT, 4, 8)),
    (0x22d, (16, 16, 32)),
];

/// Predefined handles lie in `FIRST..END`.
const FIRST: usize = 0x200;
const END: usize = 0x400;

fn all() -> &'static [Option<Arc<Type>>] {
    static TYPES: OnceLock<Vec<Option<Arc<Type>>>> = OnceLock::new();
    TYPES.get_or_init(|| {
        let mut v = vec![None; END - FIRST];
        for &(h, name, red, n, size, align) in TABLE {
            let prim = Prim {
                size,
                red,
                ext: ext_form(h, red),
            };
            let t = match PADDED_PAIRS.iter().find(|p| p.0 == h) {
                Some(&(_, shape)) => Type::predefined_pair(name, prim, shape, align),
                None => Type::predefined(name, prim, n, align),
            };
            v[h - FIRST] = Some(Arc::new(t));
        }
        v
    })
}

/// How element `h` converts to `external32` (MPI 4.1 §13.5.2): big-endian at its native
/// size, except `long` (4 bytes), pair types (members in sequence) and `long double` (quad).
fn ext_form(h: usize, red: Red) -> Ext {
    use Scalar::{Long, Swap, X87};
    let long = if LONG == 8 { Long } else { Swap(LONG) };
    match h {
        0x20a => Ext::One(long),
        0x20e => Ext::One(if LONG == 8 { Scalar::ULong } else { Swap(LONG) }),
        // The 80-bit conversion is x86-64's `long double`; elsewhere it has no form here.
        0x220 | 0x224 | 0x225 | 0x22d if !cfg!(target_arch = "x86_64") => Ext::None,
        0x220 | 0x224 | 0x225 => Ext::One(X87),
        0x22d => Ext::Pair(X87, 16, Swap(4)),
        0x22a => Ext::Pair(long, LONG, Swap(4)),
        // REAL16 / COMPLEX32 are IEEE quads already; INTEGER16 / LOGICAL16 are 16-byte ints.
        0x2e0 | 0x2e1 | 0x2e2 | 0x2eb => Ext::One(Swap(16)),
        _ => match red {
            Red::Basic(D::F32I32) => Ext::Pair(Swap(4), 4, Swap(4)),
            Red::Basic(D::F64I32) => Ext::Pair(Swap(8), 8, Swap(4)),
            Red::Basic(D::I32I32) => Ext::Pair(Swap(4), 4, Swap(4)),
            // Padded pairs are packed without their padding: the int follows the value.
            Red::Pair(D::F64I32) => Ext::Pair(Swap(8), 8, Swap(4)),
            Red::Pair(D::I16I32) => Ext::Pair(Swap(2), 2, Swap(4)),
            Red::Basic(d) | Red::Complex(d) => Ext::One(Swap(d.size())),
            Red::Byte => Ext::One(Swap(1)),
            Red::Pair(_) | Red::Opaque(_) => Ext::None,
        },
    }
}

/// The layout of predefined handle `h`, if `h` is one.
pub fn get(h: MPI_Datatype) -> Option<Arc<Type>> {
    borrowed(h).cloned()
}

/// The layout of predefined handle `h`, if `h` is one, borrowed from the process-wide table:
/// no reference count moves (two locked instructions per call saved on every send and
/// receive).
pub fn borrowed(h: MPI_Datatype) -> Option<&'static Arc<Type>> {
    h.checked_sub(FIRST)
        .and_then(|i| all().get(i))
        .and_then(Option::as_ref)
}

/// The predefined type `h` when its instances tile memory with no gap (one run as long as its
/// extent: every predefined type but the padded pairs such as `MPI_DOUBLE_INT`), borrowed: no
/// reference count moves. `n` of them are `n * size` contiguous bytes.
pub fn tiled(h: MPI_Datatype) -> Option<&'static Type> {
    let t = h
        .checked_sub(FIRST)
        .and_then(|i| all().get(i))?
        .as_deref()?;
    let one = t.segs.single()?;
    (one.off == 0 && one.len as isize == t.extent() && t.lb == 0).then_some(t)
}

/// Whether `h` is a predefined datatype handle (not `MPI_DATATYPE_NULL`).
pub fn is_predefined(h: MPI_Datatype) -> bool {
    get(h).is_some()
}

/// Every predefined handle with its name (for tests and `MPI_Type_match_size`).
pub fn handles() -> impl Iterator<Item = (usize, &'static str, usize)> {
    TABLE.iter().map(|r| (r.0, r.1, r.4 * r.3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_c() {
        assert_eq!(get(0x209).unwrap().size, INT);
        assert_eq!(get(0x20a).unwrap().size, LONG);
        assert_eq!(get(0x220).unwrap().size, 16, "long double");
        assert_eq!(get(0x216).unwrap().size, 16, "double complex");
        let di = get(0x229).unwrap();
        assert_eq!(
            (di.size, di.extent()),
            (12, 16),
            "double_int: size without padding"
        );
        assert_eq!(
            di.segs.single(),
            Some(super::super::layout::Seg { off: 0, len: 12 })
        );
        let si = get(0x22c).unwrap();
        assert_eq!(
            (si.size, si.extent(), si.segs.len()),
            (6, 8, 2),
            "short_int"
        );
        let ldi = get(0x22d).unwrap();
        assert_eq!((ldi.size, ldi.extent()), (20, 32), "long_double_int");
        assert_eq!(get(0x22a).unwrap().size, LONG + INT, "long_int");
        assert_eq!(get(0x228).unwrap().extent(), 8, "float_int has no padding");
        assert_eq!(get(0x230).unwrap().size, 8, "2real");
        assert!(get(0x200).is_none() && get(0x215).is_none() && get(5).is_none());
        for (h, name, size) in handles() {
            let t = get(h).unwrap();
            assert_eq!(t.size, size, "{name}");
            assert_eq!(t.name, name);
        }
    }
}
