//! Rust element types that map to nexar datatypes, including the value-index pairs MINLOC and
//! MAXLOC reduce.

use nexar_proto::Datatype;

/// A plain-old-data type nexar can send and reduce.
///
/// # Safety
/// `DATATYPE.size()` must equal `size_of::<Self>()` and the layout must match the datatype's
/// (value first, `i32` index at [`Datatype::index_offset`] for pairs).
pub unsafe trait Element: bytemuck::Pod + Send + Sync + 'static {
    /// The matching wire datatype.
    const DATATYPE: Datatype;
}

macro_rules! element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        // SAFETY: primitive types whose size and layout match the datatype (tested below).
        unsafe impl Element for $t {
            const DATATYPE: Datatype = Datatype::$d;
        }
    )*};
}

element!(
    i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32, i64 => I64, u64 => U64,
    half::f16 => F16, half::bf16 => Bf16, f32 => F32, f64 => F64,
);

macro_rules! pair {
    ($(#[$doc:meta])* $name:ident, $v:ty, $d:ident, $($pad:tt)*) => {
        $(#[$doc])*
        #[repr(C)]
        #[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct $name {
            /// The value compared by MINLOC / MAXLOC.
            pub value: $v,
            /// The index carried along (ties go to the lower index).
            pub index: i32,
            $($pad)*
        }

        impl $name {
            /// A value-index pair.
            pub fn new(value: $v, index: i32) -> Self {
                #[allow(clippy::needless_update)]
                Self { value, index, ..Default::default() }
            }
        }

        // SAFETY: #[repr(C)] with value at 0 and the index at the datatype's offset (tested).
        unsafe impl Element for $name {
            const DATATYPE: Datatype = Datatype::$d;
        }
    };
}

pair!(
    /// `{float; int}` (MPI_FLOAT_INT).
    FloatInt, f32, F32I32,
);
pair!(
    /// `{double; int}` (MPI_DOUBLE_INT).
    DoubleInt, f64, F64I32, _pad: [u8; 4],
);
pair!(
    /// `{int; int}` (MPI_2INT).
    IntInt, i32, I32I32,
);
pair!(
    /// `{long; int}` (MPI_LONG_INT).
    LongInt, i64, I64I32, _pad: [u8; 4],
);
/// `{short; int}` (MPI_SHORT_INT): the index sits at offset 4, after two bytes of padding.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ShortInt {
    /// The value compared by MINLOC / MAXLOC.
    pub value: i16,
    _pad: [u8; 2],
    /// The index carried along (ties go to the lower index).
    pub index: i32,
}

impl ShortInt {
    /// A value-index pair.
    pub fn new(value: i16, index: i32) -> Self {
        Self {
            value,
            index,
            ..Default::default()
        }
    }
}

// SAFETY: #[repr(C)] with value at 0 and the index at offset 4, as I16I32 requires (tested).
unsafe impl Element for ShortInt {
    const DATATYPE: Datatype = Datatype::I16I32;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: Element>(index_at: Option<usize>) {
        assert_eq!(
            T::DATATYPE.size(),
            std::mem::size_of::<T>(),
            "{}",
            T::DATATYPE
        );
        assert_eq!(T::DATATYPE.index_offset(), index_at);
    }

    #[test]
    fn layouts_match_datatypes() {
        check::<i8>(None);
        check::<f64>(None);
        check::<half::bf16>(None);
        check::<FloatInt>(Some(std::mem::offset_of!(FloatInt, index)));
        check::<DoubleInt>(Some(std::mem::offset_of!(DoubleInt, index)));
        check::<IntInt>(Some(std::mem::offset_of!(IntInt, index)));
        check::<LongInt>(Some(std::mem::offset_of!(LongInt, index)));
        check::<ShortInt>(Some(std::mem::offset_of!(ShortInt, index)));
    }
}
