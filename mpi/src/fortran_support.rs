//! Hand-written support of the Fortran bindings (`mpif.h`, `use mpi`) whose entry points are
//! generated into [`crate::generated::fortran`].
//!
//! * The special addresses: `MPI_IN_PLACE`, `MPI_BOTTOM`, `MPI_STATUS_IGNORE`, ... are Fortran
//!   variables in COMMON blocks. The library defines every block (so the dynamic linker binds
//!   the program's block and the library's to one address) and recognises an argument by its
//!   address, mapping it to the C value.
//! * Strings: Fortran `CHARACTER` arguments come with a hidden length (gfortran: a `usize`
//!   after all other arguments) and no NUL; inputs are trimmed of trailing blanks and
//!   NUL-terminated, outputs are blank-padded.
//! * `LOGICAL`: gfortran's `.TRUE.` is 1, `.FALSE.` is 0; C flags are any nonzero value.

use std::cell::UnsafeCell;
use std::ffi::{CString, c_int, c_void};
use std::sync::OnceLock;

/// The storage of one COMMON block: `N` default INTEGERs, writable (a program's block may be
/// bound to this one), never read or written by the library.
#[repr(transparent)]
pub struct Common<const N: usize>(UnsafeCell<[c_int; N]>);

// SAFETY: the library only takes the block's address; it never reads or writes the contents.
unsafe impl<const N: usize> Sync for Common<N> {}

impl<const N: usize> Common<N> {
    const fn new() -> Self {
        Self(UnsafeCell::new([0; N]))
    }

    fn addr(&self) -> usize {
        self.0.get() as usize
    }
}

/// COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM.
#[unsafe(no_mangle)]
pub static mpi_fortran_bottom_: Common<1> = Common::new();
/// COMMON /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE.
#[unsafe(no_mangle)]
pub static mpi_fortran_in_place_: Common<1> = Common::new();
/// COMMON /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE(MPI_STATUS_SIZE).
#[unsafe(no_mangle)]
pub static mpi_fortran_status_ignore_: Common<8> = Common::new();
/// COMMON /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1).
#[unsafe(no_mangle)]
pub static mpi_fortran_statuses_ignore_: Common<8> = Common::new();
/// COMMON /MPI_FORTRAN_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE(1).
#[unsafe(no_mangle)]
pub static mpi_fortran_errcodes_ignore_: Common<1> = Common::new();
/// COMMON /MPI_FORTRAN_UNWEIGHTED/ MPI_UNWEIGHTED(1).
#[unsafe(no_mangle)]
pub static mpi_fortran_unweighted_: Common<1> = Common::new();
/// COMMON /MPI_FORTRAN_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY(1).
#[unsafe(no_mangle)]
pub static mpi_fortran_weights_empty_: Common<1> = Common::new();

/// COMMON /MPI_FORTRAN_ARGV_NULL/ MPI_ARGV_NULL(1) (CHARACTER*1).
#[unsafe(no_mangle)]
pub static mpi_fortran_argv_null_: Common<1> = Common::new();
/// COMMON /MPI_FORTRAN_ARGVS_NULL/ MPI_ARGVS_NULL(1,1) (CHARACTER*1).
#[unsafe(no_mangle)]
pub static mpi_fortran_argvs_null_: Common<1> = Common::new();

/// The COMMON block symbols the library exports (checked by `cargo xtask symbols --mpi`).
pub const COMMON_BLOCKS: [&str; 9] = [
    "mpi_fortran_bottom_",
    "mpi_fortran_in_place_",
    "mpi_fortran_status_ignore_",
    "mpi_fortran_statuses_ignore_",
    "mpi_fortran_errcodes_ignore_",
    "mpi_fortran_unweighted_",
    "mpi_fortran_weights_empty_",
    "mpi_fortran_argv_null_",
    "mpi_fortran_argvs_null_",
];

/// Which special address an argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Special {
    Bottom,
    InPlace,
    StatusIgnore,
    StatusesIgnore,
    ErrcodesIgnore,
    Unweighted,
    WeightsEmpty,
    ArgvNull,
    ArgvsNull,
}

const SPECIALS: [Special; 9] = [
    Special::Bottom,
    Special::InPlace,
    Special::StatusIgnore,
    Special::StatusesIgnore,
    Special::ErrcodesIgnore,
    Special::Unweighted,
    Special::WeightsEmpty,
    Special::ArgvNull,
    Special::ArgvsNull,
];

/// The addresses of each block: the library's own and the one the dynamic linker resolves
/// the name to (the program's, when the program's block interposes on the library's).
fn addresses() -> &'static [[usize; 2]; 9] {
    static ADDRS: OnceLock<[[usize; 2]; 9]> = OnceLock::new();
    ADDRS.get_or_init(|| {
        let own = [
            mpi_fortran_bottom_.addr(),
            mpi_fortran_in_place_.addr(),
            mpi_fortran_status_ignore_.addr(),
            mpi_fortran_statuses_ignore_.addr(),
            mpi_fortran_errcodes_ignore_.addr(),
            mpi_fortran_unweighted_.addr(),
            mpi_fortran_weights_empty_.addr(),
            mpi_fortran_argv_null_.addr(),
            mpi_fortran_argvs_null_.addr(),
        ];
        let mut out = [[0usize; 2]; 9];
        for (i, name) in COMMON_BLOCKS.iter().enumerate() {
            let c = CString::new(*name).expect("no NUL in a symbol name");
            // SAFETY: dlsym with a valid NUL-terminated name; a missing symbol gives NULL.
            let found = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) } as usize;
            out[i] = [own[i], if found == 0 { own[i] } else { found }];
        }
        out
    })
}

fn special(p: *const c_void) -> Option<Special> {
    let a = p as usize;
    if a == 0 {
        return None;
    }
    addresses()
        .iter()
        .position(|pair| pair.contains(&a))
        .map(|i| SPECIALS[i])
}

/// A choice buffer: `MPI_IN_PLACE` and `MPI_BOTTOM` become their C values.
pub fn buffer(p: *const c_void) -> *mut c_void {
    match special(p) {
        Some(Special::InPlace) => std::ptr::without_provenance_mut(1), // C MPI_IN_PLACE
        Some(Special::Bottom) => std::ptr::null_mut(),
        _ => p as *mut c_void,
    }
}

/// A status or array of statuses: `MPI_STATUS_IGNORE` and `MPI_STATUSES_IGNORE` become NULL
/// (the C value of both). A Fortran status is 8 default INTEGERs, the layout of the C struct.
pub fn status(p: *mut c_int) -> *mut c_void {
    match special(p as *const c_void) {
        Some(Special::StatusIgnore | Special::StatusesIgnore) => std::ptr::null_mut(),
        _ => p.cast(),
    }
}

/// An integer array that may be one of the special arrays (`MPI_ERRCODES_IGNORE`,
/// `MPI_UNWEIGHTED`, `MPI_WEIGHTS_EMPTY`): mapped to their C values.
pub fn int_array(p: *mut c_int) -> *mut c_int {
    match special(p as *const c_void) {
        Some(Special::ErrcodesIgnore) => std::ptr::null_mut(),
        Some(Special::Unweighted) => std::ptr::without_provenance_mut(10), // C MPI_UNWEIGHTED
        Some(Special::WeightsEmpty) => std::ptr::without_provenance_mut(11), // C MPI_WEIGHTS_EMPTY
        _ => p,
    }
}

/// Whether `p` is Fortran's `MPI_ARGV_NULL` (`MPI_Comm_spawn`: no arguments).
pub fn is_argv_null(p: *const u8) -> bool {
    special(p.cast()) == Some(Special::ArgvNull)
}

/// Whether `p` is Fortran's `MPI_ARGVS_NULL` (`MPI_Comm_spawn_multiple`: no arguments).
pub fn is_argvs_null(p: *const u8) -> bool {
    special(p.cast()) == Some(Special::ArgvsNull)
}

/// The value of a by-reference INTEGER argument (0 when the pointer is NULL).
///
/// # Safety
/// `p` is NULL or points to a readable `T`.
pub unsafe fn get<T: Copy + Default>(p: *const T) -> T {
    if p.is_null() {
        T::default()
    } else {
        // SAFETY: the caller's contract.
        unsafe { p.read() }
    }
}

/// Stores `v` through a by-reference argument (nothing when the pointer is NULL).
///
/// # Safety
/// `p` is NULL or points to a writable `T`.
pub unsafe fn set<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: the caller's contract.
        unsafe { p.write(v) }
    }
}

/// A Fortran LOGICAL (gfortran: nonzero is true) as a C flag.
pub fn logical_to_c(v: c_int) -> c_int {
    c_int::from(v != 0)
}

/// A C flag as a gfortran LOGICAL (`.TRUE.` is 1).
pub fn logical_from_c(v: c_int) -> c_int {
    c_int::from(v != 0)
}

/// A Fortran input string (`len` bytes, blank-padded, no NUL) as a C string: trailing blanks
/// are dropped, and the text stops at an embedded NUL if there is one.
///
/// # Safety
/// `p` is NULL or points to `len` readable bytes.
pub unsafe fn string_in(p: *const u8, len: usize) -> CString {
    let bytes: &[u8] = if p.is_null() {
        &[]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(p, len) }
    };
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
    let end = bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    CString::new(&bytes[..end]).expect("no NUL left")
}

/// A C output buffer for a Fortran string of `len` characters: large enough for every MPI
/// string maximum (`MPI_MAX_LIBRARY_VERSION_STRING` is the largest) and for `len`.
pub fn string_buffer(len: usize) -> Vec<u8> {
    vec![0u8; len.max(8192) + 1]
}

/// Copies the C string in `buf` (up to its NUL) into the Fortran string `p` of `len`
/// characters, truncating or padding with blanks.
///
/// # Safety
/// `p` is NULL or points to `len` writable bytes.
pub unsafe fn string_out(p: *mut u8, len: usize, buf: &[u8]) {
    if p.is_null() {
        return;
    }
    let text = buf.split(|&b| b == 0).next().unwrap_or(&[]);
    // SAFETY: the caller's contract.
    let dst = unsafe { std::slice::from_raw_parts_mut(p, len) };
    let n = text.len().min(len);
    dst[..n].copy_from_slice(&text[..n]);
    dst[n..].fill(b' ');
}

/// Converts the 0-based index a C call returned into the Fortran 1-based one
/// (`MPI_UNDEFINED` stays).
pub fn index_from_c(i: c_int) -> c_int {
    if i >= 0 { i + 1 } else { i }
}

/// Defines a Fortran entry point pair: `mpi_x_` calling the C `MPI_X` and `pmpi_x_` calling
/// `PMPI_X`; inside the body, `$c` names the C function to call.
macro_rules! fortran_fn {
    ($(#[$doc:meta])* $f:ident / $pf:ident => $cf:ident / $cpf:ident,
     |$c:ident| ($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $f($($arg: $ty),*) -> $ret {
            let $c = $cf;
            $body
        }

        #[doc = concat!("Profiling entry point of [`", stringify!($f), "`].")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $pf($($arg: $ty),*) -> $ret {
            let $c = $cpf;
            $body
        }
    };
}
pub(crate) use fortran_fn;

/// `use mpi_f08`'s `==` and `/=` on each handle type: the module declares them as external
/// LOGICAL functions of two handles (each a derived type holding one INTEGER, passed by
/// reference), so the module itself has no code.
macro_rules! f08_comparisons {
    ($($eq:ident / $ne:ident: $ty:literal;)*) => {$(
        #[doc = concat!("`mpi_f08`'s `==` on two `", $ty, "` handles.")]
        ///
        /// # Safety
        /// Both pointers are the Fortran caller's (valid INTEGERs).
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $eq(a: *const c_int, b: *const c_int) -> c_int {
            // SAFETY: the caller's contract.
            c_int::from(unsafe { get(a) == get(b) })
        }

        #[doc = concat!("`mpi_f08`'s `/=` on two `", $ty, "` handles.")]
        ///
        /// # Safety
        /// As the `==` twin.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $ne(a: *const c_int, b: *const c_int) -> c_int {
            // SAFETY: the caller's contract.
            c_int::from(unsafe { get(a) != get(b) })
        }
    )*};
}

f08_comparisons! {
    nexar_f08_eq_comm_ / nexar_f08_ne_comm_: "MPI_Comm";
    nexar_f08_eq_datatype_ / nexar_f08_ne_datatype_: "MPI_Datatype";
    nexar_f08_eq_group_ / nexar_f08_ne_group_: "MPI_Group";
    nexar_f08_eq_request_ / nexar_f08_ne_request_: "MPI_Request";
    nexar_f08_eq_op_ / nexar_f08_ne_op_: "MPI_Op";
    nexar_f08_eq_info_ / nexar_f08_ne_info_: "MPI_Info";
    nexar_f08_eq_errhandler_ / nexar_f08_ne_errhandler_: "MPI_Errhandler";
    nexar_f08_eq_win_ / nexar_f08_ne_win_: "MPI_Win";
    nexar_f08_eq_file_ / nexar_f08_ne_file_: "MPI_File";
    nexar_f08_eq_session_ / nexar_f08_ne_session_: "MPI_Session";
    nexar_f08_eq_message_ / nexar_f08_ne_message_: "MPI_Message";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `string_in` of a byte string.
    fn input(s: &[u8]) -> Vec<u8> {
        // SAFETY: `s` is `s.len()` readable bytes.
        unsafe { string_in(s.as_ptr(), s.len()) }.into_bytes()
    }

    /// `string_out` into a Fortran string of `len` characters first filled with `x`.
    fn output(len: usize, c: &[u8]) -> Vec<u8> {
        let mut dst = vec![b'x'; len];
        // SAFETY: `dst` is `len` writable bytes.
        unsafe { string_out(dst.as_mut_ptr(), len, c) };
        dst
    }

    #[test]
    fn input_strings_are_trimmed_and_terminated() {
        assert_eq!(input(b"world   "), b"world");
        assert_eq!(input(b"  a b  "), b"  a b", "leading blanks are kept");
        assert_eq!(input(b"   "), b"");
        assert_eq!(input(b""), b"");
        assert_eq!(input(b"ab\0cd"), b"ab");
        // SAFETY: NULL is allowed.
        assert_eq!(unsafe { string_in(std::ptr::null(), 4) }.as_bytes(), b"");
    }

    #[test]
    fn output_strings_are_blank_padded_or_truncated() {
        assert_eq!(output(8, b"node1\0junk"), b"node1   ");
        assert_eq!(output(3, b"node1\0"), b"nod");
        assert_eq!(output(4, b"\0"), b"    ");
        assert_eq!(output(0, b"abc\0"), b"");
        assert!(string_buffer(10).len() > 8192);
        assert_eq!(string_buffer(10_000).len(), 10_001);
    }

    #[test]
    fn special_addresses_are_recognised() {
        let in_place = mpi_fortran_in_place_.addr() as *const c_void;
        assert_eq!(buffer(in_place) as usize, 1);
        let bottom = mpi_fortran_bottom_.addr() as *const c_void;
        assert!(buffer(bottom).is_null());
        let x = 5i32;
        let p = (&raw const x).cast::<c_void>();
        assert_eq!(buffer(p) as usize, p as usize);
        let st = mpi_fortran_status_ignore_.addr() as *mut c_int;
        assert!(status(st).is_null());
        let sts = mpi_fortran_statuses_ignore_.addr() as *mut c_int;
        assert!(status(sts).is_null());
        let e = mpi_fortran_errcodes_ignore_.addr() as *mut c_int;
        assert!(int_array(e).is_null());
        assert_eq!(logical_to_c(-1), 1);
        assert_eq!(logical_from_c(7), 1);
        assert_eq!(index_from_c(0), 1);
        assert_eq!(index_from_c(-32766), -32766);
    }
}
