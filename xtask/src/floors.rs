//! The engine's import floors, checked: every top-level module of `src/` sits on one floor, and
//! its code may name only modules of its own floor or a lower one.
//!
//! * foundation: errors, the wire format, security, element types;
//! * core: the engine and its mailboxes, transports, configuration, bootstrap, abort;
//! * features: communicators, operations, the collective driver, failures, devices, RPC, RMA
//!   windows;
//! * top: the frame router, the context that assembles everything (and grows a world into a new
//!   one, spawns processes into one, or meets another group in one through a port), the crate
//!   root.
//!
//! So the core never names a feature (features reach it through `core::feature::Feature`), and
//! nothing under `src/transport/` names `Comm` (a feature). Test code (`#[cfg(test)]` items,
//! `tests.rs` and `*_tests.rs` files) and comments are not checked: tests may build whole worlds.
//! A module missing from [`FLOORS`] fails the check, so a new module must choose its floor.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The floors, lowest first, with their top-level modules of `src/`.
const FLOORS: [(&str, &[&str]); 4] = [
    ("foundation", &["error", "security", "wire", "element"]),
    (
        "core",
        &["core", "abort", "bootstrap", "config", "transport"],
    ),
    (
        "features",
        &[
            "comm",
            "comm_companion",
            "comm_inter",
            "comm_inter_sub",
            "comm_subset",
            "device",
            "driver",
            "fault",
            "ops",
            "request",
            "rma",
            "rpc",
        ],
    ),
    (
        "top",
        &[
            "context", "grow", "port", "spawn", "logging", "router", "lib",
        ],
    ),
];

/// The floor (index into [`FLOORS`]) of top-level module `m`.
fn floor_of(m: &str) -> Option<usize> {
    FLOORS.iter().position(|(_, ms)| ms.contains(&m))
}

/// One forbidden import.
#[derive(Debug, PartialEq, Eq)]
pub struct Violation {
    /// File and line.
    pub at: String,
    /// The importing module and the module it names.
    pub from: String,
    /// The module named.
    pub to: String,
}

/// Checks every file under `src` (but `src/bin`, a separate program); the violations, or an
/// error for a module in no floor.
pub fn check(src: &Path) -> Result<Vec<Violation>, String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).map_err(|e| format!("lib.rs: {e}"))?;
    let reexports = root_reexports(&lib);
    let mut files = Vec::new();
    collect(src, &mut files)?;
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("non-empty");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "bin" {
            continue;
        }
        let name = rel.file_name().unwrap_or_default().to_string_lossy();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let from = floor_of(&module)
            .ok_or_else(|| format!("src/{module} is in no floor: add it to xtask/src/floors.rs"))?;
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (line, named) in imports(&text) {
            let target = if floor_of(&named).is_some() {
                named
            } else if let Some(m) = reexports.get(&named) {
                m.clone()
            } else {
                continue; // an item of the crate root that is no module (a macro, a re-export of another crate)
            };
            let to = floor_of(&target).expect("re-exports resolve to modules");
            if to > from {
                out.push(Violation {
                    at: format!("src/{}:{line}", rel.display()),
                    from: format!("{module} ({})", FLOORS[from].0),
                    to: format!("{target} ({})", FLOORS[to].0),
                });
            }
        }
    }
    Ok(out)
}

/// Every `.rs` file under `dir`, sorted.
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in entries {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    Ok(())
}

/// The crate root's `pub use module::...::{Name, ...}` lines: re-exported name -> module.
fn root_reexports(lib: &str) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let module = rest.split("::").next().unwrap_or_default().to_string();
        if floor_of(&module).is_none() {
            continue;
        }
        let names = match (rest.find('{'), rest.rfind('}')) {
            (Some(a), Some(b)) => rest[a + 1..b].split(',').map(str::trim).collect(),
            _ => vec![rest.rsplit("::").next().unwrap_or_default()],
        };
        for n in names.into_iter().filter(|n| !n.is_empty()) {
            let n = n.rsplit(" as ").next().unwrap_or(n);
            map.insert(n.to_string(), module.clone());
        }
    }
    map
}

/// The first segment of every `crate::` path in the non-test code of `text`, with its line.
fn imports(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut skip_depth: Option<i32> = None;
    let mut pending_test_attr = false;
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        let t = line.trim();
        if let Some(d) = skip_depth.as_mut() {
            *d += braces(&line);
            if *d <= 0 {
                skip_depth = None;
            }
            continue;
        }
        if t.starts_with("#[cfg(test)]") {
            pending_test_attr = true;
            continue;
        }
        if pending_test_attr {
            if t.is_empty() || t.starts_with("#[") {
                continue;
            }
            pending_test_attr = false;
            let d = braces(&line);
            if d > 0 {
                skip_depth = Some(d);
            }
            continue; // the test item's first line (a one-line item ends here)
        }
        out.extend(crate_paths(&line).into_iter().map(|m| (i + 1, m)));
    }
    out
}

/// `line` without a trailing `//` comment and with the contents of its string literals blanked
/// (a message that names a module imports nothing).
fn strip_comment(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_str = false;
    let mut prev = '\0';
    for c in line.chars() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '/' if !in_str && prev == '/' => {
                out.pop();
                return out;
            }
            _ if in_str => {
                out.push(' ');
                prev = c;
                continue;
            }
            _ => {}
        }
        out.push(c);
        prev = c;
    }
    out
}

/// Opening minus closing braces on `line`.
fn braces(line: &str) -> i32 {
    line.chars()
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}

/// The first segment after each `crate::` in `line` (each of a `crate::{a, b::c}` group).
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + "crate::".len()..];
        rest = after;
        if matches!(before, Some(c) if c == '$' || c == '_' || c.is_alphanumeric()) {
            continue; // `$crate::` (a macro) or an identifier ending in "crate"
        }
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                out.push(ident(item.trim()));
            }
        } else {
            out.push(ident(after));
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| *c == '_' || c.is_alphanumeric())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_groups_comments_and_test_items() {
        assert_eq!(crate_paths("use crate::rpc::Tables;"), ["rpc"]);
        assert_eq!(
            crate_paths("use crate::{comm::Comm, error::Error};"),
            ["comm", "error"]
        );
        assert_eq!(
            crate_paths("x = $crate::a::b; y = my_crate::c;"),
            Vec::<String>::new()
        );
        assert_eq!(strip_comment("let a = 1; // crate::rpc"), "let a = 1; ");
        assert_eq!(
            strip_comment(r#"let s = "a//b"; // c"#),
            r#"let s = "    "; "#
        );
        assert!(crate_paths(&strip_comment(r#"f("crate::rpc")"#)).is_empty());
        let text = "use crate::error::Error;\n/// [`crate::rpc`]\n#[cfg(test)]\nuse crate::context;\n\
                    fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::comm::Comm;\n}\n\
                    use crate::ops::x;\n";
        assert_eq!(
            imports(text),
            [(1, "error".to_string()), (10, "ops".to_string())]
        );
    }

    #[test]
    fn re_exports_resolve_to_their_module() {
        let lib = "pub use comm::Comm;\npub use ops::{ANY_SOURCE, Source};\npub use nexar_proto::ReduceOp;";
        let m = root_reexports(lib);
        assert_eq!(m["Comm"], "comm");
        assert_eq!(m["Source"], "ops");
        assert!(!m.contains_key("ReduceOp"));
    }
}
