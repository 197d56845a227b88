//! Project automation.
//!
//! * `cargo xtask gen`: writes every generated, checked-in file (`include/nexar.h`, and from the
//!   MPI spec table under `mpi/spec/`: `include/mpi.h`, `mpi/spec/stubs.txt`, the stubs, and the
//!   Fortran binding: `include/mpif.h`, `fortran/mpi.f90`, `mpi/src/generated/fortran.rs`;
//!   the table of implemented functions, `docs/MPI_FUNCTIONS.md`).
//! * `cargo xtask check`: regenerates them in memory and fails on any difference, and fails when
//!   a module of the engine imports from a floor above its own (see `floors`) or when the code
//!   reads a `NEXAR_*` variable `docs/ENVIRONMENT.md` does not name (see `env_docs`).
//!   `gen` and `check` also check that the IMPL flags of `mpi/spec/functions.txt` agree with the
//!   hand-written sources of `mpi/src` (see `mpi_stubs`).
//! * `cargo xtask symbols LIB`: fails unless LIB (a shared library) exports only `nexar_*`
//!   functions (reads `nm -D --defined-only`).
//! * `cargo xtask symbols --mpi LIB`: fails unless LIB exports exactly `MPI_X` and `PMPI_X` for
//!   every function of the MPI spec table, the Fortran entry points (`mpi_x_`, `pmpi_x_`) and
//!   COMMON blocks of `fortran_wrappers` / `fortran_consts`, and nothing else.

mod env_docs;
mod floors;
mod fortran_consts;
mod fortran_f08_manual;
mod fortran_interfaces;
mod fortran_wrappers;
mod mpi_docs;
mod mpi_header;
mod mpi_stubs;
mod spec;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .into()
}

/// Every generated file: (path relative to the root, generator).
fn generated() -> Result<Vec<(PathBuf, String)>, String> {
    let mpi = spec::Spec::load(&root().join("mpi/spec"))?;
    mpi_stubs::check_impl_flags(&mpi, &root().join("mpi/src"))?;
    Ok(vec![
        (PathBuf::from("include/nexar.h"), nexar_header()?),
        (PathBuf::from("include/mpi.h"), mpi_header::render(&mpi)),
        (PathBuf::from("mpi/spec/stubs.txt"), mpi_header::stubs(&mpi)),
        (
            PathBuf::from("mpi/src/generated/stubs.rs"),
            mpi_stubs::render(&mpi)?,
        ),
        (
            PathBuf::from("include/mpif.h"),
            fortran_consts::mpif_h(&mpi)?,
        ),
        (
            PathBuf::from("fortran/mpi.f90"),
            fortran_consts::mpi_module(&mpi)?,
        ),
        (
            PathBuf::from("fortran/mpi_f08.f90"),
            fortran_consts::mpi_f08_module(&mpi)?,
        ),
        (
            PathBuf::from("mpi/src/generated/fortran.rs"),
            fortran_wrappers::render(&mpi).0,
        ),
        (
            PathBuf::from("docs/MPI_FUNCTIONS.md"),
            mpi_docs::render(&mpi),
        ),
    ])
}

fn nexar_header() -> Result<String, String> {
    let crate_dir = root().join("capi");
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .map_err(|e| format!("capi/cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    let text = String::from_utf8(out).map_err(|e| e.to_string())?;
    Ok(parenthesize_macros(&text))
}

/// Wraps every object-like macro value that is not a plain non-negative literal or name in
/// parentheses, so `x-NEXAR_ANY_SOURCE` or a cast constant used in an expression parses as
/// intended.
fn parenthesize_macros(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        let simple = |v: &str| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match line
            .strip_prefix("#define ")
            .and_then(|r| r.split_once(' '))
        {
            Some((name, value)) if !name.contains('(') && !simple(value.trim()) => {
                out.push_str(&format!("#define {name} ({})", value.trim()));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn gen_all() -> Result<(), String> {
    for (path, text) in generated()? {
        let full = root().join(&path);
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(&full, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn check_all() -> Result<(), String> {
    check_floors()?;
    check_env_docs()?;
    let mut stale = Vec::new();
    for (path, text) in generated()? {
        let on_disk = std::fs::read_to_string(root().join(&path)).unwrap_or_default();
        if on_disk != text {
            stale.push(path.display().to_string());
        }
    }
    if stale.is_empty() {
        println!("generated files are up to date");
        Ok(())
    } else {
        Err(format!(
            "generated files are stale (run `cargo xtask gen`): {}",
            stale.join(", ")
        ))
    }
}

/// Every `NEXAR_*` variable the code reads is documented (`env_docs`).
fn check_env_docs() -> Result<(), String> {
    let missing = env_docs::missing(&root())?;
    if missing.is_empty() {
        println!("docs/ENVIRONMENT.md names every NEXAR_* variable the code reads");
        return Ok(());
    }
    Err(format!(
        "variables read in code but missing from docs/ENVIRONMENT.md: {}",
        missing.join(", ")
    ))
}

/// The engine's import floors (`floors`): fails listing every import from a higher floor.
fn check_floors() -> Result<(), String> {
    let v = floors::check(&root().join("src"))?;
    if v.is_empty() {
        println!("the engine's import floors hold");
        return Ok(());
    }
    let list: Vec<String> = v
        .iter()
        .map(|v| format!("  {}: {} imports {}", v.at, v.from, v.to))
        .collect();
    Err(format!(
        "a module imports from a floor above its own (xtask/src/floors.rs):\n{}",
        list.join("\n")
    ))
}

/// The defined dynamic symbols of `lib` that count (code and data; not version markers).
fn exported_symbols(lib: &str) -> Result<Vec<String>, String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only", lib])
        .output()
        .map_err(|e| format!("cannot run nm: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "nm failed on {lib}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut names = Vec::new();
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let (Some(_addr), Some(kind), Some(name)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        // Only code and data symbols count; absolute version markers (kind A) do not.
        if kind.eq_ignore_ascii_case("a") {
            continue;
        }
        names.push(name.to_string());
    }
    Ok(names)
}

fn check_symbols(lib: &str, prefixes: &[&str]) -> Result<(), String> {
    let names = exported_symbols(lib)?;
    let exported = names.len();
    let bad: Vec<String> = names
        .into_iter()
        .filter(|name| !prefixes.iter().any(|p| name.starts_with(p)))
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "{lib} exports symbols outside {prefixes:?}: {}",
            bad.join(", ")
        ));
    }
    if exported == 0 {
        return Err(format!("{lib} exports nothing"));
    }
    println!("{lib}: {exported} exported symbols, all with an allowed prefix");
    Ok(())
}

/// The MPI library must export `MPI_X` and `PMPI_X` for every spec function, and nothing else.
fn check_mpi_symbols(lib: &str) -> Result<(), String> {
    let mpi = spec::Spec::load(&root().join("mpi/spec"))?;
    let want: std::collections::BTreeSet<String> = mpi
        .functions
        .iter()
        .flat_map(|f| [f.name.clone(), format!("P{}", f.name)])
        .chain(fortran_wrappers::render(&mpi).1)
        .chain(fortran_consts::common_symbols())
        .chain(fortran_consts::callback_symbols())
        .chain(fortran_consts::f08_operator_symbols())
        .collect();
    let have: std::collections::BTreeSet<String> = exported_symbols(lib)?.into_iter().collect();
    let missing: Vec<&String> = want.difference(&have).collect();
    let extra: Vec<&String> = have.difference(&want).collect();
    if !missing.is_empty() || !extra.is_empty() {
        return Err(format!(
            "{lib}: {} missing ({}), {} unexpected ({})",
            missing.len(),
            missing
                .iter()
                .take(20)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            extra.len(),
            extra
                .iter()
                .take(20)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    println!(
        "{lib}: exports exactly MPI_X and PMPI_X for all {} spec functions ({} symbols)",
        mpi.functions.len(),
        have.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["gen"] => gen_all(),
        ["check"] => check_all(),
        ["symbols", "--mpi", lib] => check_mpi_symbols(lib),
        ["symbols", lib] => check_symbols(lib, &["nexar_"]),
        _ => Err("usage: cargo xtask gen | check | symbols [--mpi] LIB".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
