//! `docs/ENVIRONMENT.md` names every `NEXAR_*` variable the project reads: the engine, the
//! C API, the MPI shim and its compiler wrappers. A variable read in code but missing from the
//! page fails `cargo xtask check`, so the reference cannot fall behind the code.

use std::collections::BTreeSet;
use std::path::Path;

/// Source folders whose `"NEXAR_..."` string literals are variable names.
const RUST_DIRS: &[&str] = &["src", "mpi/src", "capi/src", "bind/src"];
/// Shell templates whose `$NEXAR_...` / `${NEXAR_...` expansions are variable names.
const SHELL_DIR: &str = "mpi/wrappers";

/// The `NEXAR_[A-Z0-9_]+` names in `text` that directly follow `lead`.
fn names_after(text: &str, lead: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(lead) {
        let rest = &text[i + lead.len()..];
        let Some(tail) = rest.strip_prefix("NEXAR_") else {
            continue;
        };
        let len = tail
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(tail.len());
        if len > 0 {
            out.push(format!("NEXAR_{}", &tail[..len]));
        }
    }
    out
}

/// Variables read in code and missing from the page (names that are C constants of
/// `include/nexar.h`, such as `NEXAR_COMM_WORLD`, are not variables).
pub fn missing(root: &Path) -> Result<Vec<String>, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let header = read(&root.join("include/nexar.h"))?;
    let constants: BTreeSet<String> = names_after(&header, "").into_iter().collect();
    let mut used = BTreeSet::new();
    for dir in RUST_DIRS {
        let mut files = Vec::new();
        crate::floors::collect(&root.join(dir), &mut files)?;
        for f in files {
            for n in names_after(&read(&f)?, "\"") {
                // A literal that continues past the name (`"NEXAR_RDMA=..."`) is a message.
                used.insert(n);
            }
        }
    }
    let shell = std::fs::read_dir(root.join(SHELL_DIR)).map_err(|e| format!("{SHELL_DIR}: {e}"))?;
    for e in shell {
        let text = read(&e.map_err(|e| e.to_string())?.path())?;
        used.extend(names_after(&text, "$"));
        used.extend(names_after(&text, "${"));
    }
    let page = read(&root.join("docs/ENVIRONMENT.md"))?;
    let documented: BTreeSet<String> = names_after(&page, "`").into_iter().collect();
    Ok(used
        .into_iter()
        .filter(|n| !constants.contains(n) && !documented.contains(n))
        .collect())
}
