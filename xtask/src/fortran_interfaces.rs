//! The explicit Fortran interfaces of the generated entry points (`mpi/src/generated/fortran.rs`,
//! see [`crate::fortran_wrappers`]): those of the `use mpi` module (routines with a choice
//! buffer) and every one of `use mpi_f08`, written into `fortran/` by `fortran_consts`.

use crate::fortran_wrappers::{Kind, Param, entry_points, function_result};
use crate::spec::{Function, Spec};
use std::fmt::Write as _;

/// The `mpi_f08` derived type of a handle kind's conversion prefix (`Type` is `MPI_Datatype`).
fn f08_type(prefix: &str) -> String {
    match prefix {
        "Type" => "MPI_Datatype".to_string(),
        p => format!("MPI_{p}"),
    }
}

/// The Fortran declaration of parameter `p` in an explicit interface: `use mpi`'s (handles are
/// INTEGERs, a status an INTEGER array) or, with `f08`, `use mpi_f08`'s (handles and statuses
/// are the module's derived types, laid out as those INTEGERs: the same entry points serve).
fn fortran_decl(p: &Param, f08: bool) -> Vec<String> {
    let n = &p.name;
    if f08 {
        let typed = match &p.kind {
            Kind::Handle(h) => Some(format!("type({}) :: {n}", f08_type(h))),
            Kind::HandlePtr(h) if !p.array => Some(format!("type({}) :: {n}", f08_type(h))),
            Kind::HandlePtr(h) | Kind::HandleArray(h, _) => {
                Some(format!("type({}) :: {n}(*)", f08_type(h)))
            }
            Kind::Status if n.contains("statuses") => Some(format!("type(MPI_Status) :: {n}(*)")),
            Kind::Status => Some(format!("type(MPI_Status) :: {n}")),
            _ => None,
        };
        if let Some(line) = typed {
            return vec![line];
        }
    }
    let int = |array: bool| {
        if array {
            format!("integer :: {n}(*)")
        } else {
            format!("integer :: {n}")
        }
    };
    let line = match &p.kind {
        Kind::Int | Kind::Index => int(false),
        Kind::IntPtr | Kind::HandlePtr(_) => int(p.array),
        Kind::Handle(_) => int(false),
        Kind::Indices | Kind::SpecialIntArray | Kind::HandleArray(..) => int(true),
        Kind::LogicalIn | Kind::LogicalOut => format!("logical :: {n}"),
        Kind::LogicalArray => format!("logical :: {n}(*)"),
        Kind::Wide(t) | Kind::WidePtr(t) => {
            let kind = if *t == "isize" {
                "MPI_ADDRESS_KIND"
            } else {
                "MPI_OFFSET_KIND"
            };
            let dims = if p.array { "(*)" } else { "" };
            format!("integer(kind={kind}) :: {n}{dims}")
        }
        Kind::Status if n.contains("statuses") => {
            format!("integer :: {n}(MPI_STATUS_SIZE, *)")
        }
        Kind::Status => format!("integer :: {n}(MPI_STATUS_SIZE)"),
        // gfortran's spelling of "any type, kind and rank" (what Open MPI's `use mpi` does).
        Kind::Buffer => {
            return vec![
                format!("!GCC$ ATTRIBUTES NO_ARG_CHECK :: {n}"),
                format!("type(*), dimension(*) :: {n}"),
            ];
        }
        Kind::StrIn | Kind::StrOut => format!("character(len=*) :: {n}"),
        Kind::Absent => return Vec::new(),
    };
    vec![line]
}

/// One interface block: `use mpi`'s (`f08` false: INTEGER handles, `ierror` required) or
/// `use mpi_f08`'s (derived types, `ierror` optional), the block starting at column `indent`.
fn interface_block(f: &Function, ps: &[Param], f08: bool, indent: usize, out: &mut String) {
    let name = f.name.to_ascii_uppercase();
    let result = function_result(f);
    let mut args: Vec<&str> = ps
        .iter()
        .filter(|p| p.kind != Kind::Absent)
        .map(|p| p.name.as_str())
        .collect();
    if result.is_none() {
        args.push("ierror");
    }
    // Free form allows 132 columns: continue long argument lists on further lines.
    let lines: Vec<String> = args.chunks(6).map(|c| c.join(", ")).collect();
    let list = lines.join(", &\n            ");
    let (outer, head, body) = (
        " ".repeat(indent),
        " ".repeat(indent + 2),
        " ".repeat(indent + 4),
    );
    let _ = writeln!(out, "{outer}interface");
    match result {
        Some(ty) => {
            let _ = writeln!(
                out,
                "{head}{} function {name}({list})",
                ty.to_ascii_lowercase()
            );
        }
        None => {
            let _ = writeln!(out, "{head}subroutine {name}({list})");
        }
    }
    let _ = writeln!(out, "{body}import");
    let _ = writeln!(out, "{body}implicit none");
    for p in ps {
        for line in fortran_decl(p, f08) {
            let _ = writeln!(out, "{body}{line}");
        }
    }
    match result {
        Some(_) => {
            let _ = writeln!(out, "{head}end function {name}");
        }
        None => {
            let ierror = if f08 { "integer, optional" } else { "integer" };
            let _ = writeln!(out, "{body}{ierror} :: ierror");
            let _ = writeln!(out, "{head}end subroutine {name}");
        }
    }
    let _ = writeln!(out, "{outer}end interface");
}

/// Explicit interfaces, for the `use mpi` module, of every wrapped subroutine with a choice
/// buffer: the buffer accepts any type, kind and rank (so one file may pass `REAL(8)` here and
/// `INTEGER` there, which gfortran rejects between two calls of an implicit interface), and
/// every other argument is checked. Routines without a buffer keep implicit interfaces.
pub fn interfaces(spec: &Spec) -> String {
    let mut out = String::new();
    for (f, ps) in entry_points(spec) {
        if function_result(f).is_none() && ps.iter().any(|p| p.kind == Kind::Buffer) {
            interface_block(f, &ps, false, 6, &mut out);
        }
    }
    out
}

/// The `use mpi_f08` interfaces: every wrapped routine, bound to the same gfortran entry
/// point as `use mpi` (`mpi_send_`), with handles and statuses as the module's derived types
/// and `ierror` optional (an absent optional argument is a NULL pointer, which the entry points
/// skip). Buffers take any type, kind and rank (`NO_ARG_CHECK`).
pub fn f08_interfaces(spec: &Spec) -> String {
    let mut out = String::new();
    for (f, ps) in entry_points(spec) {
        interface_block(f, &ps, true, 2, &mut out);
    }
    out
}
