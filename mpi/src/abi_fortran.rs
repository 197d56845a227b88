//! The standard ABI's Fortran descriptions (MPI 5.0): `MPI_Abi_get_fortran_info` says what the
//! Fortran types are (sizes of the default kinds, which sized types exist),
//! `MPI_Abi_get_fortran_booleans` how `.TRUE.` and `.FALSE.` are written; the `set` twins let a
//! Fortran binding layer built elsewhere declare its own (once each; later calls fail).
//!
//! nexar's own Fortran binding is gfortran's: default INTEGER, LOGICAL and REAL of 4 bytes,
//! DOUBLE PRECISION of 8, `.TRUE.` 1 and `.FALSE.` 0 at every LOGICAL size. "supported" for a
//! sized type (`mpi_integer8_supported`, ...) is whether it is one of the predefined datatypes.

use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use parking_lot::Mutex;
use std::ffi::{c_int, c_void};

/// The sized Fortran types `MPI_Abi_get_fortran_info` reports on (`MPI_<NAME>` each).
const SIZED: &[&str] = &[
    "logical1",
    "logical2",
    "logical4",
    "logical8",
    "logical16",
    "integer1",
    "integer2",
    "integer4",
    "integer8",
    "integer16",
    "real2",
    "real4",
    "real8",
    "real16",
    "complex4",
    "complex8",
    "complex16",
    "complex32",
    "double_complex",
];

/// What `MPI_Abi_set_fortran_info` declared, if it was called.
static SET_INFO: Mutex<Option<crate::comm::info::Pairs>> = Mutex::new(None);

/// `.TRUE.` and `.FALSE.` of one LOGICAL size, as declared: (size, true bytes, false bytes).
type Booleans = (usize, Vec<u8>, Vec<u8>);

/// `.TRUE.` / `.FALSE.` declared per LOGICAL size (`MPI_Abi_set_fortran_booleans`).
static SET_BOOLEANS: Mutex<Vec<Booleans>> = Mutex::new(Vec::new());

/// The description `MPI_Abi_get_fortran_info` gives: gfortran's, or what was set.
fn fortran_info() -> crate::comm::info::Pairs {
    if let Some(p) = SET_INFO.lock().clone() {
        return p;
    }
    let mut p: crate::comm::info::Pairs = [
        ("mpi_logical_size", "4"),
        ("mpi_integer_size", "4"),
        ("mpi_real_size", "4"),
        ("mpi_double_precision_size", "8"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .to_vec();
    for name in SIZED {
        let mpi_name = format!("MPI_{}", name.to_ascii_uppercase());
        let supported = crate::datatype::predefined::handles().any(|(_, n, _)| n == mpi_name);
        p.push((format!("mpi_{name}_supported"), supported.to_string()));
    }
    p
}

/// Checks a LOGICAL size (1, 2, 4, 8 or 16 bytes).
fn logical_size(n: c_int) -> Result<usize> {
    match n {
        1 | 2 | 4 | 8 | 16 => Ok(n as usize),
        _ => Err(MpiError::new(
            MPI_ERR_ARG,
            format!("logical_size is {n}: a LOGICAL has 1, 2, 4, 8 or 16 bytes"),
        )),
    }
}

mpi_fn! {
    /// A new info describing the Fortran types (see the module docs); the caller frees it.
    fn MPI_Abi_get_fortran_info(info: *mut MPI_Info) -> c_int => PMPI_Abi_get_fortran_info {
        call("MPI_Abi_get_fortran_info", MPI_COMM_WORLD, || {
            crate::comm::info::store_new(fortran_info(), info)
        })
    }

    /// Declares the Fortran types (the pairs of `info`, kept as they are); once only
    /// (`MPI_ERR_OTHER` after).
    fn MPI_Abi_set_fortran_info(info: MPI_Info) -> c_int => PMPI_Abi_set_fortran_info {
        call("MPI_Abi_set_fortran_info", MPI_COMM_WORLD, || {
            let pairs = crate::comm::info::pairs(info)?;
            let mut set = SET_INFO.lock();
            if set.is_some() {
                return Err(MpiError::new(MPI_ERR_OTHER, "the Fortran info was set already"));
            }
            *set = Some(pairs);
            Ok(())
        })
    }

    /// Writes `.TRUE.` and `.FALSE.` of a LOGICAL of `logical_size` bytes; `*is_set` says
    /// whether `MPI_Abi_set_fortran_booleans` declared them (otherwise gfortran's 1 and 0).
    fn MPI_Abi_get_fortran_booleans(logical_size_: c_int, logical_true: *mut c_void,
        logical_false: *mut c_void, is_set: *mut c_int) -> c_int
        => PMPI_Abi_get_fortran_booleans
    {
        call("MPI_Abi_get_fortran_booleans", MPI_COMM_WORLD, || {
            let n = logical_size(logical_size_)?;
            non_null(logical_true, "logical_true")?;
            non_null(logical_false, "logical_false")?;
            non_null(is_set, "is_set")?;
            let set = SET_BOOLEANS.lock().iter().find(|(s, ..)| *s == n).cloned();
            let (t, f, declared) = match set {
                Some((_, t, f)) => (t, f, true),
                None => {
                    let mut one = vec![0u8; n];
                    one[0] = 1; // little-endian 1
                    (one, vec![0u8; n], false)
                }
            };
            // SAFETY: checked for NULL; each holds `logical_size` bytes per the MPI contract.
            unsafe {
                std::ptr::copy_nonoverlapping(t.as_ptr(), logical_true.cast::<u8>(), n);
                std::ptr::copy_nonoverlapping(f.as_ptr(), logical_false.cast::<u8>(), n);
                is_set.write(c_int::from(declared));
            }
            Ok(())
        })
    }

    /// Declares `.TRUE.` and `.FALSE.` of a LOGICAL of `logical_size` bytes; once per size
    /// (`MPI_ERR_OTHER` after).
    fn MPI_Abi_set_fortran_booleans(logical_size_: c_int, logical_true: *mut c_void,
        logical_false: *mut c_void) -> c_int => PMPI_Abi_set_fortran_booleans
    {
        call("MPI_Abi_set_fortran_booleans", MPI_COMM_WORLD, || {
            let n = logical_size(logical_size_)?;
            non_null(logical_true, "logical_true")?;
            non_null(logical_false, "logical_false")?;
            let mut set = SET_BOOLEANS.lock();
            if set.iter().any(|(s, ..)| *s == n) {
                return Err(MpiError::new(
                    MPI_ERR_OTHER,
                    format!("the booleans of LOGICAL*{n} were set already"),
                ));
            }
            // SAFETY: checked for NULL; each holds `logical_size` bytes per the MPI contract.
            let (t, f) = unsafe {
                (
                    std::slice::from_raw_parts(logical_true.cast::<u8>(), n).to_vec(),
                    std::slice::from_raw_parts(logical_false.cast::<u8>(), n).to_vec(),
                )
            };
            set.push((n, t, f));
            Ok(())
        })
    }
}
