//! `mpi/src/generated/fortran.rs`: the gfortran entry points (`mpi_x_`, `pmpi_x_`) of every
//! implemented MPI function whose C parameters map mechanically onto the `mpif.h` / `use mpi`
//! binding. Every argument comes by reference; subroutines end with `ierror`; CHARACTER
//! arguments add a hidden `usize` length after all others. Functions that do not map
//! (callbacks, attribute values, varargs, ...) are listed in the file's header.

use crate::spec::{Function, Spec};
use std::fmt::Write as _;

/// What a C parameter is in Fortran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `int` by value: INTEGER.
    Int,
    /// `int` by value that is a LOGICAL (`reorder`, ...).
    LogicalIn,
    /// `int *flag`-like: LOGICAL out.
    LogicalOut,
    /// `int *` / `int []`: passed through.
    IntPtr,
    /// `int periods[]`-like: an array of LOGICALs in Fortran, passed through (gfortran's
    /// LOGICAL is a 4-byte 1 or 0, which C reads as a truth value and writes as one).
    LogicalArray,
    /// `int *indx`: 0-based in C, 1-based in Fortran.
    Index,
    /// `int array_of_indices[]`: as [`Kind::Index`], `*outcount` entries.
    Indices,
    /// `int array_of_errcodes[]`, `int sourceweights[]`...: special arrays mapped.
    SpecialIntArray,
    /// `MPI_Aint` / `MPI_Count` / `MPI_Offset` by value: INTEGER(KIND=8). The C type.
    Wide(&'static str),
    /// Pointer or array of those: passed through. The C type.
    WidePtr(&'static str),
    /// A handle by value: the handle type's fromint/toint prefix (`Comm`, `Type`, ...).
    Handle(&'static str),
    /// A pointer to one handle (in/out).
    HandlePtr(&'static str),
    /// An array of handles; `const` means no copy back.
    HandleArray(&'static str, bool),
    /// `MPI_Status *` (one or an array).
    Status,
    /// A choice buffer.
    Buffer,
    /// `const char *`.
    StrIn,
    /// `char *` (written by the call).
    StrOut,
    /// `int *argc` / `char ***argv` of MPI_Init: absent in Fortran, NULL in C.
    Absent,
}

/// One parsed C parameter.
#[derive(Debug, Clone)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    /// Declared as a C array (`x[]`): an array in Fortran too.
    pub(crate) array: bool,
}

/// Handle types and their `MPI_<X>_fromint` / `toint` prefix.
const HANDLES: &[(&str, &str)] = &[
    ("MPI_Comm", "Comm"),
    ("MPI_Datatype", "Type"),
    ("MPI_Group", "Group"),
    ("MPI_Request", "Request"),
    ("MPI_Op", "Op"),
    ("MPI_Info", "Info"),
    ("MPI_Errhandler", "Errhandler"),
    ("MPI_Win", "Win"),
    ("MPI_File", "File"),
    ("MPI_Session", "Session"),
    ("MPI_Message", "Message"),
];

/// Names of `void *` parameters that are choice buffers.
const BUFFERS: &[&str] = &[
    "buf",
    "buffer",
    "sendbuf",
    "recvbuf",
    "inbuf",
    "outbuf",
    "inoutbuf",
    "origin_addr",
    "result_addr",
    "compare_addr",
    "location",
    "base",
];

/// Names of `int` parameters that are LOGICALs in Fortran.
const LOGICALS: &[&str] = &[
    "flag",
    "reorder",
    "weighted",
    "periods",
    "remain_dims",
    "info_used",
];

/// Count parameters that give the length of a handle array.
const COUNTS: &[&str] = &["count", "incount", "n", "nc", "max_datatypes"];

/// Splits a C parameter into (type words, stars, array suffix, name).
fn split_param(p: &str) -> Option<(Vec<&str>, usize, bool, &str)> {
    let p = p.trim();
    let (p, array) = match p.find('[') {
        Some(i) => (&p[..i], true),
        None => (p, false),
    };
    let stars = p.matches('*').count();
    let words: Vec<&str> = p
        .split(|c: char| c.is_whitespace() || c == '*')
        .filter(|w| !w.is_empty() && *w != "const")
        .collect();
    let (name, ty) = words.split_last()?;
    Some((ty.to_vec(), stars, array, name))
}

/// Classifies a C parameter, or says why it does not map.
fn classify(f: &Function, p: &str) -> Result<Param, String> {
    if p.trim() == "..." {
        return Err("variadic".into());
    }
    let (ty, stars, array, name) =
        split_param(p).ok_or_else(|| format!("cannot parse parameter `{p}`"))?;
    let constant = p.trim_start().starts_with("const");
    let ptr = stars + usize::from(array);
    let ty = ty.join(" ");
    let kind = match (ty.as_str(), ptr) {
        ("int", 1) if name == "argc" && f.name.starts_with("MPI_Init") => Kind::Absent,
        ("char", 3) if name == "argv" && f.name.starts_with("MPI_Init") => Kind::Absent,
        ("int", 0) if LOGICALS.contains(&name) => Kind::LogicalIn,
        ("int", 0) => Kind::Int,
        ("int", 1) if name == "flag" => Kind::LogicalOut,
        ("int", 1) if LOGICALS.contains(&name) && !array => Kind::LogicalOut,
        ("int", 1) if LOGICALS.contains(&name) => Kind::LogicalArray,
        ("int", 1) if name == "indx" => Kind::Index,
        ("int", 1) if name == "array_of_indices" => Kind::Indices,
        ("int", 1) if name.contains("errcodes") || name.contains("weights") => {
            Kind::SpecialIntArray
        }
        ("int", 1) => Kind::IntPtr,
        ("MPI_Aint", 0) => Kind::Wide("isize"),
        ("MPI_Count" | "MPI_Offset", 0) => Kind::Wide("i64"),
        ("MPI_Aint", 1) => Kind::WidePtr("isize"),
        ("MPI_Count" | "MPI_Offset", 1) => Kind::WidePtr("i64"),
        ("MPI_Status", 1) => Kind::Status,
        ("void", 1) if BUFFERS.contains(&name) => Kind::Buffer,
        ("char", 1) if constant => Kind::StrIn,
        ("char", 1) => Kind::StrOut,
        (t, n) => match HANDLES.iter().find(|(h, _)| *h == t) {
            Some((_, conv)) if n == 0 => Kind::Handle(conv),
            Some((_, conv)) if n == 1 && !array => Kind::HandlePtr(conv),
            Some((_, conv)) if n == 1 => Kind::HandleArray(conv, constant),
            _ => {
                return Err(format!(
                    "parameter `{}` has no mechanical mapping",
                    p.trim()
                ));
            }
        },
    };
    Ok(Param {
        name: name.to_string(),
        kind,
        array,
    })
}

/// Whether `f` gets Fortran wrappers at all: implemented, and not a large-count `_c` variant,
/// a handle conversion or an MPI_T function (the F08 binding and tools use those from C).
pub fn wrapped(f: &Function) -> bool {
    f.implemented
        && !f.name.ends_with("_c")
        && !f.name.starts_with("MPI_T_")
        && !f.name.starts_with("MPIX_")
        && !f.name.ends_with("_toint")
        && !f.name.ends_with("_fromint")
        && !f.name.contains("f2c")
        && !f.name.contains("c2f")
        && !f.name.contains("f08")
}

/// The Fortran result type of a wrapped function that is a Fortran function, `None` for a
/// subroutine.
pub fn function_result(f: &Function) -> Option<&'static str> {
    match f.ret.as_str() {
        "double" => Some("DOUBLE PRECISION"),
        "MPI_Aint" => Some("INTEGER(KIND=MPI_ADDRESS_KIND)"),
        _ => None,
    }
}

/// The parsed parameters of `f`, or why it is skipped.
fn params(f: &Function) -> Result<Vec<Param>, String> {
    if !matches!(f.ret.as_str(), "int" | "double" | "MPI_Aint") {
        return Err(format!("returns {}", f.ret));
    }
    if f.name.contains("_idup") {
        // The new handle is written when the request completes, after the wrapper returned.
        return Err("writes its output handle when the request completes".into());
    }
    let list = f.params.trim();
    if list == "void" || list.is_empty() {
        return Ok(Vec::new());
    }
    list.split(',').map(|p| classify(f, p)).collect()
}

/// A Rust-safe identifier for a C parameter name.
fn ident(name: &str) -> String {
    match name {
        "type" | "ref" | "in" | "fn" | "match" | "loop" | "move" | "use" | "mod" | "self" => {
            format!("{name}_")
        }
        _ => name.to_string(),
    }
}

/// The generated code of one function.
struct Code {
    /// Rust parameters of the entry point.
    fparams: Vec<String>,
    /// Hidden CHARACTER lengths (after all other parameters).
    lens: Vec<String>,
    /// C parameters of the extern declaration.
    cparams: Vec<String>,
    /// Statements before the call.
    pre: Vec<String>,
    /// C call arguments.
    args: Vec<String>,
    /// Statements after the call (`rc` holds its result).
    post: Vec<String>,
}

/// The length of a per-rank datatype array of `MPI_(I)Alltoallw(_init)` (one entry per rank of
/// `comm`), as an expression of the generated code: the communicator's size (0 when the handle
/// is invalid; the C call then reports it), and 0 for `sendtypes` with `MPI_IN_PLACE`, which the
/// standard lets the caller leave undefined.
fn per_rank_len(f: &Function, param: &str) -> Option<String> {
    let family = f.name.trim_end_matches("_c").trim_end_matches("_init");
    if !matches!(family, "MPI_Alltoallw" | "MPI_Ialltoallw") {
        return None;
    }
    let size = "crate::state::comm(PMPI_Comm_fromint(fs::get(comm)))\
                .map_or(0, |c| c.size() as usize)";
    match param {
        "recvtypes" => Some(size.to_string()),
        "sendtypes" => Some(format!(
            "if fs::buffer(sendbuf) as usize == 1 {{ 0 }} else {{ {size} }}"
        )),
        _ => None,
    }
}

fn render_fn(f: &Function, ps: &[Param], out: &mut String) -> Result<(), String> {
    let mut c = Code {
        fparams: Vec::new(),
        lens: Vec::new(),
        cparams: Vec::new(),
        pre: Vec::new(),
        args: Vec::new(),
        post: Vec::new(),
    };
    let count_of = |i: usize| -> Result<String, String> {
        ps[..i]
            .iter()
            .rev()
            .find(|p| p.kind == Kind::Int && COUNTS.contains(&p.name.as_str()))
            .map(|p| ident(&p.name))
            .ok_or_else(|| format!("no count for array `{}`", ps[i].name))
    };
    let function = function_result(f).is_some();
    for (i, p) in ps.iter().enumerate() {
        let n = ident(&p.name);
        let fp = |c: &mut Code, t: &str| c.fparams.push(format!("{n}: {t}"));
        match &p.kind {
            Kind::Int => {
                fp(&mut c, "*const c_int");
                c.cparams.push(format!("{n}: c_int"));
                c.args.push(format!("fs::get({n})"));
            }
            Kind::LogicalIn => {
                fp(&mut c, "*const c_int");
                c.cparams.push(format!("{n}: c_int"));
                c.args.push(format!("fs::logical_to_c(fs::get({n}))"));
            }
            Kind::LogicalOut => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_int"));
                c.pre.push(format!("let mut l_{n}: c_int = 0;"));
                c.args.push(format!("&mut l_{n}"));
                c.post.push(format!(
                    "if rc == 0 {{ fs::set({n}, fs::logical_from_c(l_{n})); }}"
                ));
            }
            Kind::IntPtr | Kind::LogicalArray => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_int"));
                c.args.push(n.clone());
            }
            Kind::Index => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_int"));
                c.args.push(n.clone());
                c.post.push(format!(
                    "if rc == 0 {{ fs::set({n}, fs::index_from_c(fs::get({n}))); }}"
                ));
            }
            Kind::Indices => {
                let outcount = ps
                    .iter()
                    .find(|p| p.name == "outcount")
                    .ok_or_else(|| "array_of_indices without outcount".to_string())?;
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_int"));
                c.args.push(n.clone());
                c.post.push(format!(
                    "if rc == 0 && !{n}.is_null() {{ for i in 0..fs::get({o}).max(0) as usize \
                     {{ let q = {n}.add(i); q.write(fs::index_from_c(q.read())); }} }}",
                    o = ident(&outcount.name)
                ));
            }
            Kind::SpecialIntArray => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_int"));
                c.args.push(format!("fs::int_array({n})"));
            }
            Kind::Wide(t) => {
                fp(&mut c, "*const i64");
                c.cparams.push(format!("{n}: {t}"));
                // Fortran passes INTEGER(KIND=8); MPI_Aint is pointer-sized.
                c.args.push(match *t {
                    "i64" => format!("fs::get({n})"),
                    _ => format!("fs::get({n}) as {t}"),
                });
            }
            Kind::WidePtr(t) => {
                fp(&mut c, "*mut i64");
                c.cparams.push(format!("{n}: *mut {t}"));
                c.args.push(format!("{n}.cast()"));
            }
            Kind::Handle(h) => {
                fp(&mut c, "*const c_int");
                c.cparams.push(format!("{n}: usize"));
                c.args.push(format!("PMPI_{h}_fromint(fs::get({n}))"));
            }
            Kind::HandlePtr(h) => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut usize"));
                c.pre
                    .push(format!("let mut h_{n} = PMPI_{h}_fromint(fs::get({n}));"));
                c.args.push(format!("&mut h_{n}"));
                c.post.push(format!("fs::set({n}, PMPI_{h}_toint(h_{n}));"));
            }
            Kind::HandleArray(h, constant) => {
                let len = match count_of(i) {
                    Ok(len) => format!("fs::get({len}).max(0) as usize"),
                    Err(e) => per_rank_len(f, &p.name).ok_or(e)?,
                };
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut usize"));
                c.pre.push(format!(
                    "let mut v_{n}: Vec<usize> = (0..{len})\
                     .map(|i| PMPI_{h}_fromint({n}.add(i).read())).collect();"
                ));
                c.args.push(format!("v_{n}.as_mut_ptr()"));
                if !constant {
                    c.post.push(format!(
                        "for (i, h) in v_{n}.iter().enumerate() {{ \
                         {n}.add(i).write(PMPI_{h}_toint(*h)); }}"
                    ));
                }
            }
            Kind::Status => {
                fp(&mut c, "*mut c_int");
                c.cparams.push(format!("{n}: *mut c_void"));
                c.args.push(format!("fs::status({n})"));
            }
            Kind::Buffer => {
                fp(&mut c, "*const c_void");
                c.cparams.push(format!("{n}: *mut c_void"));
                c.args.push(format!("fs::buffer({n})"));
            }
            Kind::StrIn => {
                fp(&mut c, "*const u8");
                c.lens.push(format!("{n}_len: usize"));
                c.cparams.push(format!("{n}: *const c_char"));
                c.pre
                    .push(format!("let s_{n} = fs::string_in({n}, {n}_len);"));
                c.args.push(format!("s_{n}.as_ptr()"));
            }
            Kind::StrOut => {
                fp(&mut c, "*mut u8");
                c.lens.push(format!("{n}_len: usize"));
                c.cparams.push(format!("{n}: *mut c_char"));
                c.pre
                    .push(format!("let mut s_{n} = fs::string_buffer({n}_len);"));
                c.args.push(format!("s_{n}.as_mut_ptr().cast()"));
                c.post.push(format!(
                    "if rc == 0 {{ fs::string_out({n}, {n}_len, &s_{n}); }}"
                ));
            }
            Kind::Absent => {
                c.cparams.push(format!("{n}: *mut c_void"));
                c.args.push("std::ptr::null_mut()".into());
            }
        }
    }
    if array_needs_vec(ps) && function {
        return Err("a function with a handle array".into());
    }
    let (ret, cret) = match f.ret.as_str() {
        "double" => ("f64", "f64"),
        "MPI_Aint" => ("i64", "isize"),
        _ => ("()", "c_int"),
    };
    if !function {
        c.fparams.push("ierror: *mut c_int".into());
    }
    c.fparams.extend(c.lens.iter().cloned());
    let lower = f.name.to_ascii_lowercase();
    let _ = writeln!(
        out,
        "unsafe extern \"C\" {{\n    fn {n}({p}) -> {cret};\n    fn P{n}({p}) -> {cret};\n}}",
        n = f.name,
        p = c.cparams.join(", ")
    );
    let _ = writeln!(
        out,
        "fortran_fn! {{\n    /// Fortran binding of `{n}`.\n    \
         {lower}_ / p{lower}_ => {n} / P{n},\n    |c| ({fp}) -> {ret} {{",
        n = f.name,
        fp = c.fparams.join(", ")
    );
    let _ = writeln!(
        out,
        "        // SAFETY: the arguments are the Fortran caller's, valid as the binding states.\n        unsafe {{"
    );
    for s in &c.pre {
        let _ = writeln!(out, "            {s}");
    }
    let call = format!("c({})", c.args.join(", "));
    if function {
        let conv = if ret == "i64" { " as i64" } else { "" };
        let _ = writeln!(out, "            {call}{conv}");
    } else {
        let _ = writeln!(out, "            let rc = {call};");
        for s in &c.post {
            let _ = writeln!(out, "            {s}");
        }
        let _ = writeln!(out, "            fs::set(ierror, rc);");
    }
    let _ = writeln!(out, "        }}\n    }}\n}}\n");
    Ok(())
}

fn array_needs_vec(ps: &[Param]) -> bool {
    ps.iter().any(|p| matches!(p.kind, Kind::HandleArray(..)))
}

/// Functions without a mechanical mapping whose Fortran bindings are written by hand in
/// `mpi/src/fortran_manual/` (their entry points are expected in the library too).
const MANUAL: &[&str] = &[
    "MPI_Alloc_mem",
    "MPI_Attr_get",
    "MPI_Attr_put",
    "MPI_Buffer_detach",
    "MPI_Comm_create_errhandler",
    "MPI_Comm_create_keyval",
    "MPI_Comm_detach_buffer",
    "MPI_Comm_get_attr",
    "MPI_Comm_idup",
    "MPI_Comm_idup_with_info",
    "MPI_Comm_spawn",
    "MPI_Comm_spawn_multiple",
    "MPI_Comm_set_attr",
    "MPI_File_create_errhandler",
    "MPI_Grequest_start",
    "MPI_Info_create_env",
    "MPI_Ineighbor_alltoallw",
    "MPI_Keyval_create",
    "MPI_Neighbor_alltoallw",
    "MPI_Neighbor_alltoallw_init",
    "MPI_Op_create",
    "MPI_Pcontrol",
    "MPI_Register_datarep",
    "MPI_Session_create_errhandler",
    "MPI_Session_detach_buffer",
    "MPI_Type_create_keyval",
    "MPI_Type_get_attr",
    "MPI_Type_set_attr",
    "MPI_Win_allocate",
    "MPI_Win_allocate_shared",
    "MPI_Win_create_errhandler",
    "MPI_Win_create_keyval",
    "MPI_Win_get_attr",
    "MPI_Win_set_attr",
    "MPI_Win_shared_query",
];

/// The text of `mpi/src/generated/fortran.rs` and the entry point names the library defines
/// for Fortran (generated here and hand-written, [`MANUAL`]).
pub fn render(spec: &Spec) -> (String, Vec<String>) {
    let mut body = String::new();
    let mut skipped = Vec::new();
    let mut symbols = Vec::new();
    let mut entry_points = |name: &str| {
        let lower = name.to_ascii_lowercase();
        symbols.push(format!("{lower}_"));
        symbols.push(format!("p{lower}_"));
    };
    for f in spec.functions.iter().filter(|f| wrapped(f)) {
        let mut code = String::new();
        match params(f).and_then(|ps| render_fn(f, &ps, &mut code)) {
            Ok(()) => {
                body.push_str(&code);
                entry_points(&f.name);
            }
            Err(_) if MANUAL.contains(&f.name.as_str()) => {
                entry_points(&f.name);
                skipped.push(format!(
                    "//! * `{}`: bound by hand in `crate::fortran_manual`",
                    f.name
                ));
            }
            Err(why) => skipped.push(format!("//! * `{}`: {why}", f.name)),
        }
    }
    let mut out = String::from(
        "//! gfortran entry points (`mpi_x_`, `pmpi_x_`) of the implemented MPI functions for\n\
         //! `mpif.h` and `use mpi` programs: arguments by reference, `ierror` last, CHARACTER\n\
         //! lengths hidden after it. Generated from mpi/spec by `cargo xtask gen`; do not edit.\n\
         //!\n\
         //! Implemented functions without a generated Fortran binding (no mechanical mapping):\n",
    );
    if skipped.is_empty() {
        out.push_str("//! * none\n");
    }
    for s in &skipped {
        out.push_str(s);
        out.push('\n');
    }
    out.push_str(
        "\n#![allow(unused_imports, clippy::too_many_arguments, clippy::unused_unit)]\n\n\
         use crate::fortran_support::{self as fs, fortran_fn};\n\
         use crate::handles::*;\n\
         use std::ffi::{c_char, c_int, c_void};\n\n",
    );
    out.push_str(&body);
    (out, symbols)
}

/// The wrapped functions with a Fortran entry point, and their parameters.
pub(crate) fn entry_points(spec: &Spec) -> impl Iterator<Item = (&Function, Vec<Param>)> {
    spec.functions
        .iter()
        .filter(|f| wrapped(f))
        .filter_map(|f| {
            let ps = params(f).ok()?;
            render_fn(f, &ps, &mut String::new()).ok()?;
            Some((f, ps))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real spec with every function marked implemented: what the generator meets once
    /// every function is flipped to `yes`.
    fn all_yes() -> Spec {
        let mut spec = Spec::load(&crate::root().join("mpi/spec")).expect("mpi/spec parses");
        for f in &mut spec.functions {
            f.implemented = true;
        }
        spec
    }

    #[test]
    fn every_function_maps_or_is_listed() {
        let spec = all_yes();
        let (text, symbols) = render(&spec);
        if let Ok(path) = std::env::var("NEXAR_DUMP_FORTRAN") {
            std::fs::write(path, &text).expect("dump");
        }
        for name in [
            "mpi_send_",
            "pmpi_send_",
            "mpi_info_set_",
            "mpi_type_create_struct_",
            "mpi_cart_create_",
            "mpi_waitall_",
            "mpi_wtime_",
        ] {
            assert!(symbols.iter().any(|s| s == name), "{name} not generated");
        }
        for name in ["mpi_send_c_", "mpi_comm_toint_", "mpi_t_init_thread_"] {
            assert!(!symbols.iter().any(|s| s == name), "{name} generated");
        }
        assert!(text.contains("//! * `MPI_Comm_idup`: bound by hand"));
        assert!(text.contains("//! * `MPI_Op_create`: bound by hand"));
        assert!(
            symbols.iter().any(|s| s == "mpi_op_create_"),
            "hand-bound symbol missing"
        );
        assert!(
            text.contains("//! * `MPI_Abi_get_fortran_booleans`: parameter `void *logical_true`")
        );
        assert_eq!(symbols.len() % 2, 0);
    }

    #[test]
    fn strings_logicals_and_indices_are_converted() {
        let spec = all_yes();
        let (text, _) = render(&spec);
        let body = |name: &str| {
            let start = text
                .find(&format!("Fortran binding of `{name}`."))
                .unwrap_or_else(|| panic!("{name} missing"));
            let end = text[start..]
                .find("\n}\n")
                .map_or(text.len(), |e| start + e);
            text[start..end].to_string()
        };
        let info_set = body("MPI_Info_set");
        assert!(info_set.contains("ierror: *mut c_int, key_len: usize, value_len: usize"));
        assert!(info_set.contains("fs::string_in(key, key_len)"));
        let get_name = body("MPI_Comm_get_name");
        assert!(get_name.contains("fs::string_out(comm_name, comm_name_len, &s_comm_name)"));
        let test = body("MPI_Test");
        assert!(test.contains("fs::logical_from_c(l_flag)"));
        assert!(test.contains("fs::status(status)"));
        let waitany = body("MPI_Waitany");
        assert!(waitany.contains("fs::index_from_c(fs::get(indx))"));
        let waitall = body("MPI_Waitall");
        assert!(waitall.contains("PMPI_Request_fromint") && waitall.contains("PMPI_Request_toint"));
        let cart = body("MPI_Cart_create");
        assert!(cart.contains("fs::logical_to_c(fs::get(reorder))"));
        let allreduce = body("MPI_Allreduce");
        assert!(allreduce.contains("fs::buffer(sendbuf)"));
        let init = body("MPI_Init");
        assert!(init.contains("|c| (ierror: *mut c_int) -> ()"));
        // Alltoallw's datatype arrays have one entry per rank; none with MPI_IN_PLACE.
        let w = body("MPI_Alltoallw");
        assert!(w.contains("(0..crate::state::comm(PMPI_Comm_fromint(fs::get(comm)))"));
        assert!(w.contains("if fs::buffer(sendbuf) as usize == 1 { 0 }"));
        // The neighbourhood form's arrays are sized by the topology: bound by hand.
        assert!(text.contains("//! * `MPI_Neighbor_alltoallw`: bound by hand"));
    }
}
