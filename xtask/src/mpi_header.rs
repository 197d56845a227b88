//! Generates `include/mpi.h` (the MPI 5.0 standard ABI header) and `mpi/spec/stubs.txt` from
//! the spec table ([`crate::spec::Spec`]).
//!
//! Order of the header: integer types, `MPI_Status` and the handle types; then every constant
//! group (macros and enums; macros need no type at definition, and the typed enums must come
//! before the callbacks that use them); then the callback types; then the `MPI_` prototypes and
//! their `PMPI_` twins.

use crate::spec::{Constant, Group, GroupKind, Spec, TypeKind, parse_int};
use std::fmt::Write;

const BANNER: &str = "\
/* mpi.h: the MPI 5.0 standard ABI (ABI version 1.0), as implemented by nexar.
 *
 * Generated from mpi/spec by `cargo xtask gen`; do not edit. Handles are pointers to incomplete
 * structs, predefined handles have the small fixed values the standard ABI assigns, and
 * MPI_Status is 32 bytes, so binaries built against any conforming ABI header run on nexar's
 * libmpi_abi. */
";

fn comment(note: &Option<String>) -> String {
    note.as_ref()
        .map(|n| format!(" /* {n} */"))
        .unwrap_or_default()
}

/// A `#define` value: aliases and non-negative literals bare, everything else parenthesized.
fn define_value(c: &Constant) -> String {
    match &c.cast {
        Some(cast) => format!("(({cast}){})", c.value),
        None if c.value.starts_with('-') => format!("({})", c.value),
        None => c.value.clone(),
    }
}

fn write_group(out: &mut String, g: &Group) {
    let _ = writeln!(out, "\n/* {} */", g.title);
    match &g.kind {
        GroupKind::Handle(ty) => {
            for c in &g.items {
                let value = match parse_int(&c.value) {
                    Some(v) => format!("(({ty})0x{v:08x})"),
                    None => c.value.clone(),
                };
                let _ = writeln!(out, "#define {:<32} {value}{}", c.name, comment(&c.note));
            }
        }
        GroupKind::Define => {
            for c in &g.items {
                let v = define_value(c);
                let _ = writeln!(out, "#define {:<32} {v}{}", c.name, comment(&c.note));
            }
        }
        GroupKind::Enum(tag) => {
            match tag {
                Some(t) => {
                    let _ = writeln!(out, "typedef enum {t} {{");
                }
                None => out.push_str("enum {\n"),
            }
            let last = g.items.len() - 1;
            for (i, c) in g.items.iter().enumerate() {
                let sep = if i == last { "" } else { "," };
                let _ = writeln!(
                    out,
                    "    {:<36} = {}{sep}{}",
                    c.name,
                    c.value,
                    comment(&c.note)
                );
            }
            match tag {
                Some(t) => {
                    let _ = writeln!(out, "}} {t};");
                }
                None => out.push_str("};\n"),
            }
        }
    }
}

fn write_types(out: &mut String, spec: &Spec, callbacks: bool) {
    for t in &spec.types {
        let note = comment(&t.note);
        match (t.kind, callbacks) {
            (TypeKind::Integer, false) => {
                let m = format!("MPI_ABI_{}", t.name.trim_start_matches("MPI_"));
                let _ = writeln!(
                    out,
                    "#if !defined({m})\n#define {m} {}\n#endif\ntypedef {m} {};\n#undef {m}{note}",
                    t.def, t.name
                );
            }
            (TypeKind::Struct, false) => {
                out.push_str("typedef struct {\n");
                for field in t.def.split(';').map(str::trim).filter(|f| !f.is_empty()) {
                    let _ = writeln!(out, "    {field};");
                }
                let _ = writeln!(out, "}} {};{note}", t.name);
            }
            (TypeKind::Handle, false) => {
                let _ = writeln!(out, "typedef struct {} *{};{note}", t.def, t.name);
            }
            (TypeKind::Callback, true) => {
                let (ret, params) = t.def.split_once(' ').unwrap_or((&t.def, "(void)"));
                let _ = writeln!(out, "typedef {ret} ({}){};{note}", t.name, params.trim());
            }
            (TypeKind::Alias, true) => {
                let _ = writeln!(out, "typedef {} {};{note}", t.def, t.name);
            }
            _ => {}
        }
    }
}

fn write_functions(out: &mut String, spec: &Spec, prefix: &str) {
    let mut section = None;
    for f in &spec.functions {
        if section != Some(&f.section) {
            let title = match f.section.strip_prefix("MPI") {
                Some(rest) => format!("{prefix}{rest}"),
                None if prefix == "PMPI" => format!("PMPI: {}", f.section),
                None => f.section.clone(),
            };
            let _ = writeln!(out, "\n/* {title} */");
            section = Some(&f.section);
        }
        let name = format!("{prefix}{}", f.name.trim_start_matches("MPI"));
        let dep = f
            .deprecated
            .as_ref()
            .map(|d| format!(" /* deprecated: {d} */"))
            .unwrap_or_default();
        let _ = writeln!(out, "{};{dep}", f.prototype_as(&name));
    }
}

/// The text of `include/mpi.h`.
pub fn render(spec: &Spec) -> String {
    let mut out = String::from(BANNER);
    out.push_str(
        "\n#ifndef NEXAR_MPI_H\n#define NEXAR_MPI_H\n\n#include <stdint.h>\n\n\
         #if defined(__cplusplus)\nextern \"C\" {\n#endif\n\n/* Types */\n",
    );
    write_types(&mut out, spec, false);
    for g in &spec.groups {
        write_group(&mut out, g);
    }
    out.push_str("\n/* Callback function types */\n");
    write_types(&mut out, spec, true);
    write_functions(&mut out, spec, "MPI");
    out.push_str("\n/* Profiling interface: every function again under the PMPI_ prefix */");
    write_functions(&mut out, spec, "PMPI");
    out.push_str("\n#if defined(__cplusplus)\n}\n#endif\n\n#endif /* NEXAR_MPI_H */\n");
    out
}

/// The text of `mpi/spec/stubs.txt`: the functions not implemented yet, one name a line.
pub fn stubs(spec: &Spec) -> String {
    let mut out = String::from(
        "# MPI functions nexar does not implement yet (IMPL `no` in functions.txt): their\n\
         # generated stubs return MPI_ERR_UNSUPPORTED_OPERATION.\n\
         # Generated from mpi/spec by `cargo xtask gen`; do not edit.\n",
    );
    for f in spec.functions.iter().filter(|f| !f.implemented) {
        let _ = writeln!(out, "{}", f.name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_has_its_pmpi_twin() {
        let spec = Spec::load(&crate::root().join("mpi/spec")).expect("mpi/spec parses");
        let h = render(&spec);
        for f in &spec.functions {
            let twin = format!(" P{}(", f.name);
            let own = format!(" {}(", f.name);
            assert!(h.contains(&own), "{} missing", f.name);
            assert!(h.contains(&twin), "P{} missing", f.name);
        }
    }

    #[test]
    fn handles_and_negative_defines_are_parenthesized() {
        let types = "handle MPI_Comm MPI_ABI_Comm\ninteger MPI_Offset int64_t\n";
        let consts = "[handle MPI_Comm] c\nMPI_COMM_WORLD 0x101\n[define] d\nMPI_X -1 MPI_Offset\n";
        let spec = Spec::parse(types, consts, "").expect("valid");
        let h = render(&spec);
        assert!(h.contains("((MPI_Comm)0x00000101)"));
        assert!(h.contains("((MPI_Offset)-1)"));
        assert!(h.contains("typedef struct MPI_ABI_Comm *MPI_Comm;"));
    }
}
