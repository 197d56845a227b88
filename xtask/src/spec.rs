//! The MPI spec tables under `mpi/spec/`: `types.txt`, `constants.txt` and `functions.txt`.
//!
//! Each file documents its own line format in its header comment. This module parses them into
//! [`Spec`] and checks them for the mistakes a hand edit can introduce (duplicate names, a handle
//! value that is not a number, a typed enum without members); the generators (`mpi.h`, stubs,
//! later the Fortran files) work from [`Spec`] only.

use std::collections::HashSet;
use std::path::Path;

/// What a line of `types.txt` declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// `typedef CTYPE NAME;`, overridable at compile time through `MPI_ABI_<Suffix>`.
    Integer,
    /// A struct with a fixed layout; the definition lists its fields, `;`-separated.
    Struct,
    /// A handle: a pointer to an incomplete struct whose tag is the definition.
    Handle,
    /// A typedef'd enum whose members are a `[enum NAME]` group of `constants.txt`.
    Enum,
    /// A function type: the definition is `RET (PARAMS)`.
    Callback,
    /// `typedef OTHER NAME;`.
    Alias,
}

/// One line of `types.txt`.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// Kind of declaration.
    pub kind: TypeKind,
    /// The C type name.
    pub name: String,
    /// Kind-specific definition (see [`TypeKind`]).
    pub def: String,
    /// A note (`# text` at the end of the line), carried into the header as a comment.
    pub note: Option<String>,
}

/// How a group of constants is written in C.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupKind {
    /// Predefined handles of the given handle type: `#define NAME ((TYPE)0x...)`.
    Handle(String),
    /// Members of an enum: anonymous (`None`) or the named typedef'd enum.
    Enum(Option<String>),
    /// Object-like macros: a literal, another constant's name, or a literal cast to a type.
    Define,
}

/// One constant of `constants.txt`.
#[derive(Debug, Clone)]
pub struct Constant {
    /// The C name.
    pub name: String,
    /// The value as written in the spec (a literal or another constant's name).
    pub value: String,
    /// The type a `[define]` value is cast to, if any.
    pub cast: Option<String>,
    /// A note (`# text`), carried into the header as a comment.
    pub note: Option<String>,
}

/// A `[KIND] Title` group of `constants.txt` and its constants.
#[derive(Debug, Clone)]
pub struct Group {
    /// How the group's constants are written in C.
    pub kind: GroupKind,
    /// The title, emitted as a comment.
    pub title: String,
    /// The constants, in order.
    pub items: Vec<Constant>,
}

/// One C function of `functions.txt`.
#[derive(Debug, Clone)]
pub struct Function {
    /// The `[section]` it belongs to.
    pub section: String,
    /// Whether nexar implements it (otherwise a stub returns `MPI_ERR_UNSUPPORTED_OPERATION`).
    pub implemented: bool,
    /// The MPI version that deprecated it, if any.
    pub deprecated: Option<String>,
    /// The C return type.
    pub ret: String,
    /// The C name (`MPI_...`, or `MPIX_...` for a non-standard extension).
    pub name: String,
    /// The C parameter list, without the parentheses.
    pub params: String,
}

impl Function {
    /// The prototype with `name` in place of the function's own name.
    pub fn prototype_as(&self, name: &str) -> String {
        format!("{} {}({})", self.ret, name, self.params)
    }
}

/// The whole spec table.
#[derive(Debug, Clone)]
pub struct Spec {
    /// `types.txt`, in order.
    pub types: Vec<TypeDef>,
    /// `constants.txt`, in order.
    pub groups: Vec<Group>,
    /// `functions.txt`, in order.
    pub functions: Vec<Function>,
}

/// Splits `text # note` into the text and the note.
fn split_note(line: &str) -> (&str, Option<String>) {
    match line.split_once(" # ") {
        Some((text, note)) => (text.trim_end(), Some(note.trim().to_string())),
        None => (line, None),
    }
}

/// Splits off the first whitespace-separated word: `("word", "rest")`.
fn word(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let end = line.find(char::is_whitespace)?;
    Some((&line[..end], line[end..].trim_start()))
}

/// The lines of a spec file that carry content: no blank lines, no `#` comment lines.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

fn parse_types(text: &str) -> Result<Vec<TypeDef>, String> {
    let mut out = Vec::new();
    for (n, line) in content_lines(text) {
        let (line, note) = split_note(line);
        let Some((kind, (name, def))) = word(line).and_then(|(k, r)| Some((k, word(r)?))) else {
            return Err(format!("types.txt:{n}: expected `KIND NAME DEFINITION`"));
        };
        let kind = match kind {
            "integer" => TypeKind::Integer,
            "struct" => TypeKind::Struct,
            "handle" => TypeKind::Handle,
            "enum" => TypeKind::Enum,
            "callback" => TypeKind::Callback,
            "alias" => TypeKind::Alias,
            other => return Err(format!("types.txt:{n}: unknown kind `{other}`")),
        };
        out.push(TypeDef {
            kind,
            name: name.to_string(),
            def: def.trim().to_string(),
            note,
        });
    }
    Ok(out)
}

fn parse_constants(text: &str) -> Result<Vec<Group>, String> {
    let mut out: Vec<Group> = Vec::new();
    for (n, line) in content_lines(text) {
        if let Some(rest) = line.strip_prefix('[') {
            let (head, title) = rest
                .split_once(']')
                .ok_or_else(|| format!("constants.txt:{n}: unclosed `[`"))?;
            let mut h = head.split_whitespace();
            let kind = match (h.next(), h.next()) {
                (Some("handle"), Some(ty)) => GroupKind::Handle(ty.to_string()),
                (Some("enum"), tag) => GroupKind::Enum(tag.map(str::to_string)),
                (Some("define"), None) => GroupKind::Define,
                _ => return Err(format!("constants.txt:{n}: unknown group `[{head}]`")),
            };
            out.push(Group {
                kind,
                title: title.trim().to_string(),
                items: Vec::new(),
            });
            continue;
        }
        let group = out
            .last_mut()
            .ok_or_else(|| format!("constants.txt:{n}: constant before the first group"))?;
        let (line, note) = split_note(line);
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, value, cast) = match f.as_slice() {
            [name, value] => (*name, *value, None),
            [name, value, cast] if group.kind == GroupKind::Define => {
                (*name, *value, Some(cast.to_string()))
            }
            _ => return Err(format!("constants.txt:{n}: expected `NAME VALUE [CAST]`")),
        };
        group.items.push(Constant {
            name: name.to_string(),
            value: value.to_string(),
            cast,
            note,
        });
    }
    Ok(out)
}

fn parse_functions(text: &str) -> Result<Vec<Function>, String> {
    let mut out = Vec::new();
    let mut section = String::new();
    for (n, line) in content_lines(text) {
        if let Some(title) = line.strip_prefix("[section]") {
            section = title.trim().to_string();
            continue;
        }
        let bad = || format!("functions.txt:{n}: expected `IMPL DEPRECATED RET NAME(PARAMS)`");
        let (implemented, (deprecated, proto)) = word(line)
            .and_then(|(i, r)| Some((i, word(r)?)))
            .ok_or_else(bad)?;
        let implemented = match implemented {
            "yes" => true,
            "no" => false,
            _ => return Err(bad()),
        };
        let proto = proto.trim();
        let (head, params) = proto.split_once('(').ok_or_else(bad)?;
        let params = params.strip_suffix(')').ok_or_else(bad)?;
        let (ret, name) = head.trim().rsplit_once(' ').ok_or_else(bad)?;
        out.push(Function {
            section: section.clone(),
            implemented,
            deprecated: (deprecated != "-").then(|| deprecated.to_string()),
            ret: ret.trim().to_string(),
            name: name.to_string(),
            params: params.to_string(),
        });
    }
    Ok(out)
}

/// Parses an integer literal of the spec (decimal or `0x` hexadecimal, optionally negative).
pub fn parse_int(v: &str) -> Option<i64> {
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v),
    };
    let x = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse().ok()?,
    };
    Some(if neg { -x } else { x })
}

impl Spec {
    /// Parses the three tables from their text and validates them.
    pub fn parse(types: &str, constants: &str, functions: &str) -> Result<Spec, String> {
        let spec = Spec {
            types: parse_types(types)?,
            groups: parse_constants(constants)?,
            functions: parse_functions(functions)?,
        };
        spec.validate()?;
        Ok(spec)
    }

    /// Reads and parses `types.txt`, `constants.txt` and `functions.txt` from `dir`.
    pub fn load(dir: &Path) -> Result<Spec, String> {
        let read = |f: &str| {
            std::fs::read_to_string(dir.join(f))
                .map_err(|e| format!("{}: {e}", dir.join(f).display()))
        };
        Spec::parse(
            &read("types.txt")?,
            &read("constants.txt")?,
            &read("functions.txt")?,
        )
    }

    /// Every constant, in order.
    pub fn constants(&self) -> impl Iterator<Item = &Constant> {
        self.groups.iter().flat_map(|g| g.items.iter())
    }

    fn validate(&self) -> Result<(), String> {
        let mut seen = HashSet::new();
        let names = self
            .types
            .iter()
            .map(|t| t.name.as_str())
            .chain(self.constants().map(|c| c.name.as_str()))
            .chain(self.functions.iter().map(|f| f.name.as_str()));
        for name in names {
            if !seen.insert(name) {
                return Err(format!("mpi/spec: `{name}` is defined twice"));
            }
        }
        let type_of = |name: &str, kind: TypeKind| {
            self.types.iter().any(|t| t.kind == kind && t.name == name)
        };
        for g in &self.groups {
            if g.items.is_empty() {
                return Err(format!("constants.txt: group `{}` is empty", g.title));
            }
            match &g.kind {
                GroupKind::Handle(ty) if !type_of(ty, TypeKind::Handle) => {
                    return Err(format!("constants.txt: `{ty}` is not a handle type"));
                }
                GroupKind::Enum(Some(tag)) if !type_of(tag, TypeKind::Enum) => {
                    return Err(format!("constants.txt: `{tag}` is not an enum type"));
                }
                _ => {}
            }
            for c in &g.items {
                let is_name = c.value.starts_with("MPI");
                let ok = match g.kind {
                    GroupKind::Handle(_) => is_name || parse_int(&c.value).is_some(),
                    GroupKind::Enum(_) => parse_int(&c.value).is_some(),
                    GroupKind::Define => {
                        parse_int(&c.value).is_some() || (is_name && c.cast.is_none())
                    }
                };
                if !ok {
                    return Err(format!("constants.txt: bad value for `{}`", c.name));
                }
                if is_name && !seen.contains(c.value.as_str()) {
                    return Err(format!(
                        "constants.txt: `{}` aliases unknown `{}`",
                        c.name, c.value
                    ));
                }
            }
        }
        for t in self.types.iter().filter(|t| t.kind == TypeKind::Enum) {
            let tag = GroupKind::Enum(Some(t.name.clone()));
            if !self.groups.iter().any(|g| g.kind == tag) {
                return Err(format!("types.txt: enum `{}` has no members", t.name));
            }
        }
        for f in &self.functions {
            // MPIX_: non-standard extensions (ULFM), declared in mpi.h like the others.
            if !f.name.starts_with("MPI_") && !f.name.starts_with("MPIX_") {
                return Err(format!(
                    "functions.txt: `{}` does not start with MPI_ or MPIX_",
                    f.name
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec::load(&crate::root().join("mpi/spec")).expect("mpi/spec parses")
    }

    #[test]
    fn every_large_count_variant_has_its_base_function() {
        let spec = spec();
        let names: HashSet<&str> = spec.functions.iter().map(|f| f.name.as_str()).collect();
        let large: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| n.ends_with("_c"))
            .collect();
        assert!(large.len() > 100, "only {} _c variants", large.len());
        for n in large {
            let base = n.strip_suffix("_c").unwrap_or(n);
            assert!(names.contains(base), "{n} has no {base}");
        }
    }

    #[test]
    fn known_values() {
        let spec = spec();
        let value = |name: &str| {
            let c = spec.constants().find(|c| c.name == name);
            parse_int(&c.unwrap_or_else(|| panic!("{name} missing")).value)
        };
        assert_eq!(value("MPI_COMM_WORLD"), Some(0x101));
        assert_eq!(value("MPI_INT"), Some(0x209));
        assert_eq!(value("MPI_SUM"), Some(0x21));
        assert_eq!(value("MPI_REQUEST_NULL"), Some(0x180));
        assert_eq!(value("MPI_ANY_SOURCE"), Some(-1));
        assert_eq!(value("MPI_ERR_UNSUPPORTED_OPERATION"), Some(55));
    }

    #[test]
    fn rejects_duplicates_and_bad_values() {
        let types = "handle MPI_Comm MPI_ABI_Comm\n";
        let dup = "[handle MPI_Comm] x\nMPI_COMM_NULL 0x100\nMPI_COMM_NULL 0x101\n";
        assert!(Spec::parse(types, dup, "").is_err());
        let bad = "[enum] x\nMPI_A zero\n";
        assert!(Spec::parse(types, bad, "").is_err());
        let ok = "[handle MPI_Comm] x\nMPI_COMM_NULL 0x100\n";
        let f = "[section] s\nno - int MPI_Barrier(MPI_Comm comm)\n";
        let spec = Spec::parse(types, ok, f).expect("valid");
        assert_eq!(
            spec.functions[0].prototype_as("PMPI_Barrier"),
            "int PMPI_Barrier(MPI_Comm comm)"
        );
    }
}
