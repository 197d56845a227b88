//! A collective mismatch in the program's terms: the engine names collectives, reduction ops
//! and element types in its own words (`allreduce`, `max`, `f64`); the shim's messages name
//! them as an MPI program wrote them (`MPI_Allreduce`, `MPI_MAX`, `MPI_DOUBLE`).
//!
//! Collectives are named by their blocking form (the non-blocking, persistent and `v` forms of
//! one collective share the engine's name). Element types are named by the predefined type of
//! that kind and size (`MPI_INT32_T`: `MPI_INT` and `MPI_INTEGER` are the same to the engine),
//! which the message says.

/// The engine's collective names and the MPI function of each.
const COLLECTIVES: [(&str, &str); 10] = [
    ("barrier", "MPI_Barrier"),
    ("bcast", "MPI_Bcast"),
    ("reduce", "MPI_Reduce"),
    ("allreduce", "MPI_Allreduce"),
    ("allgather", "MPI_Allgather"),
    ("gather", "MPI_Gather"),
    ("scatter", "MPI_Scatter"),
    ("alltoall", "MPI_Alltoall"),
    ("reduce_scatter", "MPI_Reduce_scatter"),
    ("scan", "MPI_Scan"),
];

/// The engine's reduction op names and the predefined MPI ops.
const OPS: [(&str, &str); 12] = [
    ("sum", "MPI_SUM"),
    ("prod", "MPI_PROD"),
    ("min", "MPI_MIN"),
    ("max", "MPI_MAX"),
    ("land", "MPI_LAND"),
    ("lor", "MPI_LOR"),
    ("lxor", "MPI_LXOR"),
    ("band", "MPI_BAND"),
    ("bor", "MPI_BOR"),
    ("bxor", "MPI_BXOR"),
    ("minloc", "MPI_MINLOC"),
    ("maxloc", "MPI_MAXLOC"),
];

/// The engine's element types and the predefined MPI type of that kind and size.
const TYPES: [(&str, &str); 17] = [
    ("i8", "MPI_INT8_T"),
    ("u8", "MPI_UINT8_T"),
    ("i16", "MPI_INT16_T"),
    ("u16", "MPI_UINT16_T"),
    ("i32", "MPI_INT32_T"),
    ("u32", "MPI_UINT32_T"),
    ("i64", "MPI_INT64_T"),
    ("u64", "MPI_UINT64_T"),
    ("f16", "MPIX_C_FLOAT16"),
    ("bf16", "MPIX_BFLOAT16"),
    ("f32", "MPI_FLOAT"),
    ("f64", "MPI_DOUBLE"),
    ("f32i32", "MPI_FLOAT_INT"),
    ("f64i32", "MPI_DOUBLE_INT"),
    ("i32i32", "MPI_2INT"),
    ("i64i32", "MPI_LONG_INT"),
    ("i16i32", "MPI_SHORT_INT"),
];

fn lookup(table: &[(&str, &'static str)], word: &str) -> Option<&'static str> {
    table.iter().find(|(w, _)| *w == word).map(|(_, m)| *m)
}

/// `"{field} A here, B there"` with A and B renamed through `table` (words it does not know,
/// such as "a user-defined op", stay).
fn rename_clause(clause: &str, field: &str, table: &[(&str, &'static str)]) -> Option<String> {
    let rest = clause.strip_prefix(field)?.strip_prefix(' ')?;
    let (here, there) = rest.split_once(" here, ")?;
    // What follows " there" (the error's own description in parentheses) is kept.
    let (there, tail) = there.split_once(" there")?;
    let name = |w: &str| lookup(table, w).map_or_else(|| w.to_string(), str::to_string);
    Some(format!(
        "{field} {} here, {} there{tail}",
        name(here),
        name(there)
    ))
}

/// `msg` (an engine mismatch message) with its collectives, ops and types in MPI's names.
pub fn in_mpi_terms(msg: &str) -> String {
    let mut typed = false;
    let renamed: Vec<String> = msg
        .split("; ")
        .map(|part| {
            // The clauses follow "...: " in the first part.
            let (lead, clause) = match part.rsplit_once(": ") {
                Some((l, c)) => (Some(l), c),
                None => (None, part),
            };
            let new = rename_clause(clause, "collective", &COLLECTIVES)
                .or_else(|| rename_clause(clause, "reduction op", &OPS))
                .or_else(|| {
                    let t = rename_clause(clause, "datatype", &TYPES);
                    typed |= t.is_some();
                    t
                });
            match (lead, new) {
                (Some(l), Some(n)) => format!("{l}: {n}"),
                (None, Some(n)) => n,
                _ => part.to_string(),
            }
        })
        .collect();
    let mut out = renamed.join("; ");
    if typed {
        out.push_str(" (types named by the predefined type of that kind and size)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::in_mpi_terms;

    #[test]
    fn names_collectives_ops_and_types_as_mpi_does() {
        let m = "mismatched collective (call 3 on this communicator) between world ranks 0 and \
                 2: collective reduce here, allreduce there; reduction op max here, min there; \
                 datatype f64 here, i32 there; 8 bytes here, 4 there";
        assert_eq!(
            in_mpi_terms(m),
            "mismatched collective (call 3 on this communicator) between world ranks 0 and 2: \
             collective MPI_Reduce here, MPI_Allreduce there; reduction op MPI_MAX here, \
             MPI_MIN there; datatype MPI_DOUBLE here, MPI_INT32_T there; 8 bytes here, 4 \
             there (types named by the predefined type of that kind and size)"
        );
        // A notice relayed from another rank, a user op and a root: unknown words stay.
        let m = "rank 2 reports a mismatched collective: mismatched collective (call 1 on this \
                 communicator) between world ranks 2 and 3: reduction op a user-defined op \
                 here, sum there; root 0 here, 3 there";
        assert_eq!(
            in_mpi_terms(m),
            "rank 2 reports a mismatched collective: mismatched collective (call 1 on this \
             communicator) between world ranks 2 and 3: reduction op a user-defined op here, \
             MPI_SUM there; root 0 here, 3 there"
        );
        // The error's own description after the last clause stays where it is.
        assert_eq!(
            in_mpi_terms("x: datatype f32 here, i32 there (mismatched collective)"),
            "x: datatype MPI_FLOAT here, MPI_INT32_T there (mismatched collective) (types \
             named by the predefined type of that kind and size)"
        );
        // Anything else is left alone.
        assert_eq!(in_mpi_terms("a timeout"), "a timeout");
    }
}
