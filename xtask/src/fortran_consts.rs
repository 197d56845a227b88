//! `include/mpif.h` and `fortran/mpi.f90` (the `use mpi` module): the MPI constants as
//! Fortran INTEGER PARAMETERs, the special addresses as COMMON block variables, and the
//! declarations of the functions that are Fortran functions rather than subroutines.
//!
//! The shared body is valid in fixed and free form: statements start in column 7, no line is
//! longer than 72 columns, and comments start with `!` in column 1.

use crate::fortran_wrappers::{function_result, wrapped};
use crate::spec::{GroupKind, Spec, parse_int};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Integer constants added for Fortran (not in the C spec table).
const FORTRAN_ONLY: &[(&str, &str)] = &[
    ("MPI_ADDRESS_KIND", "8"),
    ("MPI_OFFSET_KIND", "8"),
    ("MPI_COUNT_KIND", "8"),
    ("MPI_INTEGER_KIND", "4"),
];

/// The special addresses: (variable, dimensions, COMMON block). They must match the blocks
/// `mpi/src/fortran_support.rs` defines.
const SPECIAL: &[(&str, &str, &str)] = &[
    ("MPI_BOTTOM", "", "MPI_FORTRAN_BOTTOM"),
    ("MPI_IN_PLACE", "", "MPI_FORTRAN_IN_PLACE"),
    (
        "MPI_STATUS_IGNORE",
        "(MPI_STATUS_SIZE)",
        "MPI_FORTRAN_STATUS_IGNORE",
    ),
    (
        "MPI_STATUSES_IGNORE",
        "(MPI_STATUS_SIZE,1)",
        "MPI_FORTRAN_STATUSES_IGNORE",
    ),
    ("MPI_ERRCODES_IGNORE", "(1)", "MPI_FORTRAN_ERRCODES_IGNORE"),
    ("MPI_UNWEIGHTED", "(1)", "MPI_FORTRAN_UNWEIGHTED"),
    ("MPI_WEIGHTS_EMPTY", "(1)", "MPI_FORTRAN_WEIGHTS_EMPTY"),
];

/// The COMMON block symbols as gfortran names them (lower case, one trailing underscore).
pub fn common_symbols() -> Vec<String> {
    SPECIAL
        .iter()
        .chain(SPECIAL_STRINGS)
        .map(|(_, _, block)| format!("{}_", block.to_ascii_lowercase()))
        .collect()
}

/// Appends `INTEGER NAME` / `PARAMETER (NAME=VALUE)`.
fn parameter(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "      INTEGER {name}");
    let _ = writeln!(out, "      PARAMETER ({name}={value})");
}

/// The integer constants of the spec a Fortran program uses, with their values (decimal or an
/// earlier name), grouped under their titles: `emit(out, name, value, handle type)` writes one
/// (the handle type is the C type of a predefined-handle group), `title(out, title)` heads a
/// group that has some.
fn each_constant(
    spec: &Spec,
    out: &mut String,
    emit: impl Fn(&mut String, &str, i64, Option<&str>),
    title: impl Fn(&mut String, &str),
) {
    let mut done: HashSet<String> = HashSet::new();
    let mut values: HashMap<&str, i64> = HashMap::new();
    for g in &spec.groups {
        let skip_group = g.title.starts_with("MPI_T")
            || g.title.starts_with("Fortran 1977")
            || g.title.starts_with("ROMIO") // C preprocessor feature tests
            || matches!(&g.kind, GroupKind::Enum(Some(tag)) if tag.starts_with("MPI_T"));
        if skip_group {
            continue;
        }
        let handle = match &g.kind {
            GroupKind::Handle(t) => Some(t.as_str()),
            _ => None,
        };
        let mut body = String::new();
        for c in &g.items {
            if c.cast.is_some() || c.name.starts_with("MPI_T_") {
                continue; // pointers (special addresses are COMMON variables) and MPI_T
            }
            let value = match parse_int(&c.value) {
                Some(v) => v,
                None => match values.get(c.value.as_str()) {
                    Some(&v) => v,
                    None => continue, // aliases a constant Fortran does not have
                },
            };
            if i32::try_from(value).is_err() || !done.insert(c.name.to_ascii_uppercase()) {
                continue;
            }
            values.insert(&c.name, value);
            emit(&mut body, &c.name, value, handle);
        }
        if !body.is_empty() {
            title(out, &g.title);
            out.push_str(&body);
        }
    }
}

/// `use mpi` / `mpif.h`: every constant an INTEGER PARAMETER, titles cut to fixed form.
fn constants(spec: &Spec, out: &mut String) {
    each_constant(
        spec,
        out,
        |body, name, value, _| parameter(body, name, &value.to_string()),
        |out, title| {
            // Titles are comments: cut to the fixed-form line length.
            let title: String = title.chars().take(70).collect();
            let _ = writeln!(out, "! {}", title.trim_end());
        },
    );
}

/// The Fortran status size and indices (1-based) from the C spec's `MPI_F_*` values.
fn status_indices(spec: &Spec, out: &mut String) {
    let value = |name: &str| {
        spec.constants()
            .find(|c| c.name == name)
            .and_then(|c| parse_int(&c.value))
            .unwrap_or_else(|| panic!("mpi/spec lacks {name}"))
    };
    let _ = writeln!(out, "! Status size and indices (1-based)");
    parameter(
        out,
        "MPI_STATUS_SIZE",
        &value("MPI_F_STATUS_SIZE").to_string(),
    );
    for (f, c) in [
        ("MPI_SOURCE", "MPI_F_SOURCE"),
        ("MPI_TAG", "MPI_F_TAG"),
        ("MPI_ERROR", "MPI_F_ERROR"),
    ] {
        parameter(out, f, &(value(c) + 1).to_string());
    }
    let _ = writeln!(
        out,
        "! Kinds of address, offset, count and default integers"
    );
    for (name, v) in FORTRAN_ONLY {
        parameter(out, name, v);
    }
}

/// The special CHARACTER arrays (`MPI_Comm_spawn`'s "no arguments"), in COMMON blocks of
/// their own as [`SPECIAL`]'s.
const SPECIAL_STRINGS: &[(&str, &str, &str)] = &[
    ("MPI_ARGV_NULL", "(1)", "MPI_FORTRAN_ARGV_NULL"),
    ("MPI_ARGVS_NULL", "(1,1)", "MPI_FORTRAN_ARGVS_NULL"),
];

fn specials(out: &mut String) {
    let _ = writeln!(out, "! Special addresses (recognised by the library)");
    for (name, dims, block) in SPECIAL {
        let _ = writeln!(out, "      INTEGER {name}{dims}");
        let _ = writeln!(out, "      COMMON /{block}/ {name}");
    }
    for (name, dims, block) in SPECIAL_STRINGS {
        let _ = writeln!(out, "      CHARACTER*1 {name}{dims}");
        let _ = writeln!(out, "      COMMON /{block}/ {name}");
    }
}

/// Type and EXTERNAL declarations of the wrapped functions that return a value.
fn functions(spec: &Spec, out: &mut String) {
    let mut first = true;
    for f in spec.functions.iter().filter(|f| wrapped(f)) {
        let Some(ty) = function_result(f) else {
            continue;
        };
        if first {
            let _ = writeln!(out, "! Functions");
            first = false;
        }
        let name = f.name.to_ascii_uppercase();
        let _ = writeln!(out, "      {ty} {name}");
        let _ = writeln!(out, "      EXTERNAL {name}");
    }
}

/// The predefined callbacks, Fortran subroutines the library defines
/// (`mpi/src/fortran_manual/`): passed by name to the keyval constructors and to
/// `MPI_REGISTER_DATAREP`.
pub const PREDEFINED_CALLBACKS: [&str; 13] = [
    "MPI_COMM_NULL_COPY_FN",
    "MPI_COMM_DUP_FN",
    "MPI_COMM_NULL_DELETE_FN",
    "MPI_TYPE_NULL_COPY_FN",
    "MPI_TYPE_DUP_FN",
    "MPI_TYPE_NULL_DELETE_FN",
    "MPI_WIN_NULL_COPY_FN",
    "MPI_WIN_DUP_FN",
    "MPI_WIN_NULL_DELETE_FN",
    "MPI_NULL_COPY_FN",
    "MPI_DUP_FN",
    "MPI_NULL_DELETE_FN",
    "MPI_CONVERSION_FN_NULL",
];

/// The library symbols of [`PREDEFINED_CALLBACKS`] (gfortran's names).
pub fn callback_symbols() -> Vec<String> {
    PREDEFINED_CALLBACKS
        .iter()
        .map(|n| format!("{}_", n.to_ascii_lowercase()))
        .collect()
}

/// EXTERNAL declarations of [`PREDEFINED_CALLBACKS`].
fn callbacks(out: &mut String) {
    let _ = writeln!(out, "! Predefined callbacks");
    for name in PREDEFINED_CALLBACKS {
        let _ = writeln!(out, "      EXTERNAL {name}");
    }
}

/// The shared body: constants, COMMON blocks, function declarations. Fails on a line that
/// fixed form would cut (longer than 72 columns).
fn body(spec: &Spec) -> Result<String, String> {
    let mut out = String::new();
    status_indices(spec, &mut out);
    constants(spec, &mut out);
    specials(&mut out);
    functions(spec, &mut out);
    callbacks(&mut out);
    match out.lines().enumerate().find(|(_, l)| l.len() > 72) {
        Some((i, line)) => Err(format!(
            "mpif.h line {} is longer than 72 columns: {line}",
            i + 1
        )),
        None => Ok(out),
    }
}

const NOTE: &str = "! Generated from mpi/spec by `cargo xtask gen`; do not edit.\n";

/// The text of `include/mpif.h`.
pub fn mpif_h(spec: &Spec) -> Result<String, String> {
    Ok(format!(
        "! mpif.h: the MPI constants for Fortran programs of nexar's MPI library\n\
         ! (libmpi_abi; `include 'mpif.h'`, fixed or free form).\n\
         ! Handles are default INTEGERs; MPI_STATUS_SIZE INTEGERs make a status.\n\
         {NOTE}{}",
        body(spec)?
    ))
}

/// The text of `fortran/mpi.f90`, the `use mpi` module (no code: constants, COMMON blocks,
/// implicit interfaces for the routines).
pub fn mpi_module(spec: &Spec) -> Result<String, String> {
    let mut out = format!(
        "! mpi.f90: the `use mpi` module of nexar's MPI library (libmpi_abi).\n\
         ! Constants and special addresses as in mpif.h. Routines with a choice buffer have\n\
         ! explicit interfaces whose buffer takes any type, kind and rank (gfortran's\n\
         ! NO_ARG_CHECK); the others have implicit interfaces.\n\
         {NOTE}\
         module mpi\n      implicit none\n      public\n"
    );
    out.push_str(&body(spec)?);
    out.push_str("! Explicit interfaces of the routines with a choice buffer\n");
    out.push_str(&crate::fortran_interfaces::interfaces(spec));
    out.push_str("end module mpi\n");
    Ok(out)
}

/// The handle types of `use mpi_f08` (derived types holding the `use mpi` INTEGER handle).
pub const F08_TYPES: &[&str] = &[
    "MPI_Comm",
    "MPI_Datatype",
    "MPI_Group",
    "MPI_Request",
    "MPI_Op",
    "MPI_Info",
    "MPI_Errhandler",
    "MPI_Win",
    "MPI_File",
    "MPI_Session",
    "MPI_Message",
];

/// The library symbols behind `mpi_f08`'s `==` and `/=` on each handle type (gfortran names).
pub fn f08_operator_symbols() -> Vec<String> {
    F08_TYPES
        .iter()
        .flat_map(|t| {
            let t = t.trim_start_matches("MPI_").to_ascii_lowercase();
            [format!("nexar_f08_eq_{t}_"), format!("nexar_f08_ne_{t}_")]
        })
        .collect()
}

/// The constants of `mpi_f08`: INTEGER ones as in `use mpi` (but the status indices, which
/// are components there), handles as PARAMETERs of their derived types.
fn f08_constants(spec: &Spec, out: &mut String) {
    each_constant(
        spec,
        out,
        |body, name, value, handle| match handle.filter(|t| F08_TYPES.contains(t)) {
            Some(t) => {
                let _ = writeln!(body, "  type({t}), parameter :: {name} = {t}({value})");
            }
            None => {
                let _ = writeln!(body, "  integer, parameter :: {name} = {value}");
            }
        },
        |out, title| {
            let _ = writeln!(out, "  ! {}", title.trim_end());
        },
    );
}

/// The text of `fortran/mpi_f08.f90`, the `use mpi_f08` module: derived handle types and
/// `MPI_Status`, the constants, the special addresses in the same COMMON blocks as `use mpi`,
/// `==` / `/=` on handles, and interfaces of every routine with a Fortran entry point (no code
/// of its own: the routines are libmpi_abi's `mpi_x_`, as for `use mpi`).
pub fn mpi_f08_module(spec: &Spec) -> Result<String, String> {
    let value = |name: &str| {
        spec.constants()
            .find(|c| c.name == name)
            .and_then(|c| parse_int(&c.value))
            .ok_or_else(|| format!("mpi/spec lacks {name}"))
    };
    let size = value("MPI_F_STATUS_SIZE")?;
    let fields = [
        value("MPI_F_SOURCE")?,
        value("MPI_F_TAG")?,
        value("MPI_F_ERROR")?,
    ];
    if fields != [0, 1, 2] || size < 3 {
        return Err("mpi_f08's MPI_Status assumes SOURCE, TAG, ERROR first".into());
    }
    let mut out = format!(
        "! mpi_f08.f90: the `use mpi_f08` module of nexar's MPI library (libmpi_abi).\n\
         ! Handles are derived types holding the `use mpi` INTEGER (MPI_VAL); MPI_Status has\n\
         ! MPI_SOURCE, MPI_TAG and MPI_ERROR; `ierror` is optional. The routines are the same\n\
         ! gfortran entry points as `use mpi` (mpi_send_), declared with these types: the\n\
         ! module has no code. Choice buffers take any type, kind and rank (NO_ARG_CHECK).\n\
         {NOTE}\
         module mpi_f08\n  use, intrinsic :: iso_c_binding, only: c_int, c_ptr\n  implicit none\n  \
         private :: c_int\n  public\n"
    );
    for t in F08_TYPES {
        let _ = writeln!(
            out,
            "  type, bind(C) :: {t}\n    integer(c_int) :: MPI_VAL\n  end type {t}"
        );
    }
    let _ = writeln!(
        out,
        "  type, bind(C) :: MPI_Status\n    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n    \
         integer(c_int) :: nexar_internal({})\n  end type MPI_Status",
        size - 3
    );
    let _ = writeln!(out, "  integer, parameter :: MPI_STATUS_SIZE = {size}");
    for (name, v) in FORTRAN_ONLY {
        let _ = writeln!(out, "  integer, parameter :: {name} = {v}");
    }
    f08_constants(spec, &mut out);
    let _ = writeln!(
        out,
        "  ! Special addresses (the COMMON blocks of use mpi and mpif.h)"
    );
    for (name, _, block) in SPECIAL {
        let decl = match *name {
            "MPI_STATUS_IGNORE" => "type(MPI_Status) :: MPI_STATUS_IGNORE".to_string(),
            "MPI_STATUSES_IGNORE" => "type(MPI_Status) :: MPI_STATUSES_IGNORE(1)".to_string(),
            "MPI_BOTTOM" | "MPI_IN_PLACE" => format!("integer :: {name}"),
            _ => format!("integer :: {name}(1)"),
        };
        let _ = writeln!(out, "  {decl}\n  common /{block}/ {name}");
    }
    for (name, dims, block) in SPECIAL_STRINGS {
        let _ = writeln!(
            out,
            "  character(len=1) :: {name}{dims}\n  common /{block}/ {name}"
        );
    }
    for (op, word) in [("==", "eq"), ("/=", "ne")] {
        let _ = writeln!(out, "  interface operator({op})");
        for t in F08_TYPES {
            let short = t.trim_start_matches("MPI_").to_ascii_lowercase();
            let _ = writeln!(
                out,
                "    logical function nexar_f08_{word}_{short}(a, b)\n      import\n      \
                 type({t}), intent(in) :: a, b\n    end function nexar_f08_{word}_{short}"
            );
        }
        let _ = writeln!(out, "  end interface");
    }
    out.push_str(&crate::fortran_interfaces::f08_interfaces(spec));
    out.push_str(&crate::fortran_f08_manual::interfaces());
    out.push_str("end module mpi_f08\n");
    Ok(out)
}
