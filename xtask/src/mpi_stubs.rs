//! `mpi/src/generated/stubs.rs`: the exported stubs of every MPI function whose IMPL flag is
//! `no`, and the check that the IMPL flags agree with the hand-written sources under `mpi/src`.

use crate::spec::Spec;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// The text of `mpi/src/generated/stubs.rs`. Fails if a function not returning `int` is not
/// implemented (a stub without parameters must still return the right type, so those are
/// written by hand).
pub fn render(spec: &Spec) -> Result<String, String> {
    let mut out = String::from(
        "//! Stubs of the MPI functions nexar does not implement yet (IMPL `no` in\n\
         //! `mpi/spec/functions.txt`): each raises `MPI_ERR_UNSUPPORTED_OPERATION` naming the\n\
         //! function. Generated from mpi/spec by `cargo xtask gen`; do not edit.\n\n",
    );
    let mut bad = Vec::new();
    for f in spec.functions.iter().filter(|f| !f.implemented) {
        if f.ret != "int" {
            bad.push(format!("{} (returns {})", f.name, f.ret));
            continue;
        }
        let _ = writeln!(out, "stub!({}, P{});", f.name, f.name);
    }
    if !bad.is_empty() {
        return Err(format!(
            "functions not returning int must be implemented by hand (IMPL yes): {}",
            bad.join(", ")
        ));
    }
    Ok(out)
}

/// Every `PMPI_X` (or `PMPIX_X`) named as a whole word in the code lines of the hand-written sources of `src_dir` (everything
/// but `generated/`).
fn defined_names(src_dir: &Path) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    let mut dirs = vec![src_dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "generated") {
                    dirs.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            // Code lines only: comments may mention functions without defining them.
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let mut rest = line;
                // `PMPI_X`, or `PMPIX_X` for the non-standard MPIX extensions.
                while let Some(i) = rest
                    .find("PMPI_")
                    .into_iter()
                    .chain(rest.find("PMPIX_"))
                    .min()
                {
                    let before_ok = !rest[..i].ends_with(is_ident);
                    let tail = &rest[i..];
                    let end = tail.find(|c: char| !is_ident(c)).unwrap_or(tail.len());
                    if before_ok {
                        names.insert(tail[1..end].to_string());
                    }
                    rest = &tail[end..];
                }
            }
        }
    }
    Ok(names)
}

/// Checks that the functions with IMPL `yes` are exactly those whose `PMPI_X` twin the
/// hand-written sources under `src_dir` name, so no function is both stubbed and implemented
/// (a duplicate symbol) or neither (a missing symbol).
pub fn check_impl_flags(spec: &Spec, src_dir: &Path) -> Result<(), String> {
    let defined = defined_names(src_dir)?;
    let mut problems = Vec::new();
    for f in &spec.functions {
        match (f.implemented, defined.contains(&f.name)) {
            (true, false) => {
                problems.push(format!("{} is IMPL yes but not defined in mpi/src", f.name))
            }
            (false, true) => problems.push(format!("{} is defined in mpi/src but IMPL no", f.name)),
            _ => {}
        }
    }
    let known: BTreeSet<&str> = spec.functions.iter().map(|f| f.name.as_str()).collect();
    for name in &defined {
        if !known.contains(name.as_str()) {
            problems.push(format!("mpi/src defines P{name}, which is not in the spec"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec::load(&crate::root().join("mpi/spec")).expect("mpi/spec parses")
    }

    #[test]
    fn impl_flags_match_the_sources() {
        check_impl_flags(&spec(), &crate::root().join("mpi/src")).expect("flags agree");
    }

    #[test]
    fn every_stub_is_generated_once_and_no_implemented_one() {
        let s = spec();
        let text = render(&s).expect("renders");
        for f in &s.functions {
            let line = format!("stub!({}, P{});", f.name, f.name);
            assert_eq!(text.contains(&line), !f.implemented, "{}", f.name);
        }
    }

    #[test]
    fn a_stubbed_double_function_is_refused() {
        let funcs = "[section] s\nno - double MPI_Wtime(void)\n";
        let s = Spec::parse("", "", funcs).expect("valid");
        assert!(render(&s).is_err());
    }

    #[test]
    fn both_and_neither_are_reported() {
        let dir = tempdir();
        std::fs::write(dir.join("a.rs"), "fn MPI_A() => PMPI_A {}\n").unwrap();
        let funcs = "[section] s\nno - int MPI_A(void)\nyes - int MPI_B(void)\n";
        let s = Spec::parse("", "", funcs).expect("valid");
        let err = check_impl_flags(&s, &dir).unwrap_err();
        assert!(
            err.contains("MPI_A is defined in mpi/src but IMPL no"),
            "{err}"
        );
        assert!(err.contains("MPI_B is IMPL yes but not defined"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    fn tempdir() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("xtask-stubs-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
