//! `docs/MPI_FUNCTIONS.md`: which MPI functions the shim implements, generated from the spec
//! table so the README's promise and the library cannot drift apart.

use crate::fortran_wrappers;
use crate::spec::{Function, Spec};
use std::collections::BTreeSet;

/// The families the page groups functions into: (title, names after `MPI_`). A name ending in
/// `_` is a prefix; any other matches itself and its `v` / `w`, `_init` and `_c` forms (see
/// [`matches`]). The first family that matches wins; what matches none lands in [`REST`].
const FAMILIES: &[(&str, &[&str])] = &[
    (
        "One-sided communication (RMA)",
        &[
            "Win_",
            "Put",
            "Get_accumulate",
            "Rget_accumulate",
            "Get",
            "Rput",
            "Rget",
            "Accumulate",
            "Raccumulate",
            "Fetch_and_op",
            "Compare_and_swap",
        ],
    ),
    ("Parallel I/O (MPI-IO)", &["File_", "Register_datarep"]),
    ("Tools interface (MPI_T)", &["T_"]),
    (
        "Sessions",
        &[
            "Session_",
            "Group_from_session_pset",
            "Comm_create_from_group",
        ],
    ),
    (
        "Dynamic processes",
        &[
            "Comm_spawn",
            "Comm_spawn_multiple",
            "Open_port",
            "Close_port",
            "Comm_accept",
            "Comm_connect",
            "Publish_name",
            "Unpublish_name",
            "Lookup_name",
            "Comm_join",
            "Comm_get_parent",
            "Comm_disconnect",
        ],
    ),
    (
        "Partitioned communication",
        &[
            "Psend_init",
            "Precv_init",
            "Pready",
            "Pready_range",
            "Pready_list",
            "Parrived",
        ],
    ),
    ("Neighbourhood collectives", &["Neighbor_", "Ineighbor_"]),
    (
        "Collectives",
        &[
            "Barrier",
            "Ibarrier",
            "Bcast",
            "Ibcast",
            "Reduce",
            "Reduce_local",
            "Reduce_scatter",
            "Reduce_scatter_block",
            "Ireduce",
            "Ireduce_scatter",
            "Ireduce_scatter_block",
            "Allreduce",
            "Iallreduce",
            "Gather",
            "Igather",
            "Allgather",
            "Iallgather",
            "Scatter",
            "Iscatter",
            "Alltoall",
            "Ialltoall",
            "Scan",
            "Iscan",
            "Exscan",
            "Iexscan",
            "Op_",
        ],
    ),
    (
        "Point-to-point and requests",
        &[
            "Send",
            "Isend",
            "Bsend",
            "Ibsend",
            "Ssend",
            "Issend",
            "Rsend",
            "Irsend",
            "Recv",
            "Irecv",
            "Mrecv",
            "Imrecv",
            "Probe",
            "Iprobe",
            "Mprobe",
            "Improbe",
            "Sendrecv",
            "Sendrecv_replace",
            "Isendrecv",
            "Isendrecv_replace",
            "Start",
            "Startall",
            "Wait",
            "Waitall",
            "Waitany",
            "Waitsome",
            "Test",
            "Testall",
            "Testany",
            "Testsome",
            "Test_cancelled",
            "Request_",
            "Cancel",
            "Buffer_",
            "Grequest_",
            "Status_",
            "Get_count",
            "Comm_attach_buffer",
            "Comm_detach_buffer",
            "Comm_flush_buffer",
            "Comm_iflush_buffer",
            "Session_attach_buffer",
        ],
    ),
    (
        "Datatypes",
        &[
            "Type_",
            "Pack",
            "Pack_",
            "Unpack",
            "Unpack_",
            "Get_address",
            "Get_elements",
            "Get_elements_x",
            "Aint_",
        ],
    ),
    (
        "Communicators, groups, topologies, attributes",
        &[
            "Comm_",
            "Group_",
            "Intercomm_",
            "Cart_",
            "Cartdim_get",
            "Cartdim_get",
            "Graph_",
            "Graphdims_get",
            "Graphdims_get",
            "Dist_graph_",
            "Topo_test",
            "Dims_create",
            "Keyval_",
            "Attr_",
        ],
    ),
];

/// The catch-all family.
const REST: &str = "Environment, info, errors, handles and the rest";

/// Whether the name `tail` (after `MPI_`) is `entry` or one of its forms.
fn matches(tail: &str, entry: &str) -> bool {
    if entry.ends_with('_') {
        return tail.starts_with(entry);
    }
    let Some(rest) = tail.strip_prefix(entry) else {
        return false;
    };
    let rest = rest.strip_prefix(['v', 'w']).unwrap_or(rest);
    let rest = rest.strip_prefix("_init").unwrap_or(rest);
    rest.is_empty() || rest == "_c"
}

/// The family of `f`, one of [`FAMILIES`]' titles, [`REST`] or the extensions.
fn family(f: &Function) -> &'static str {
    let Some(tail) = f.name.strip_prefix("MPI_") else {
        return "Extensions (MPIX)";
    };
    FAMILIES
        .iter()
        .find(|(_, names)| names.iter().any(|n| matches(tail, n)))
        .map_or(REST, |(title, _)| title)
}

/// Renders the page.
pub fn render(spec: &Spec) -> String {
    let fortran: BTreeSet<String> = fortran_wrappers::render(spec).1.into_iter().collect();
    let mut titles: Vec<&str> = FAMILIES.iter().map(|(t, _)| *t).collect();
    titles.push(REST);
    titles.push("Extensions (MPIX)");

    let total = spec.functions.len();
    let done = spec.functions.iter().filter(|f| f.implemented).count();
    let mut out = String::new();
    out.push_str(
        "<!-- Generated by `cargo xtask gen` from mpi/spec/functions.txt; do not edit. -->\n",
    );
    out.push_str("# MPI functions of the shim\n\n");
    out.push_str(&format!(
        "`libmpi_abi` exports all {total} C functions of the MPI 5.0 standard ABI (and their \
         `PMPI_` twins); {done} are implemented. The others return \
         `MPI_ERR_UNSUPPORTED_OPERATION` through the error handler, naming themselves. \
         \"Fortran\" marks the functions with `mpif.h` / `use mpi` entry points (`mpi_send_`); \
         large-count `_c` forms, handle conversions and MPI_T are C only.\n\n"
    ));
    out.push_str("| family | implemented | of |\n|---|---|---|\n");
    for t in &titles {
        let fs: Vec<&Function> = spec.functions.iter().filter(|f| family(f) == *t).collect();
        if fs.is_empty() {
            continue;
        }
        let n = fs.iter().filter(|f| f.implemented).count();
        out.push_str(&format!("| {t} | {n} | {} |\n", fs.len()));
    }
    for t in &titles {
        let mut fs: Vec<&Function> = spec.functions.iter().filter(|f| family(f) == *t).collect();
        if fs.is_empty() {
            continue;
        }
        fs.sort_by(|a, b| a.name.cmp(&b.name));
        out.push_str(&format!(
            "\n## {t}\n\n| function | implemented | Fortran |\n|---|---|---|\n"
        ));
        for f in fs {
            let has_fortran = fortran.contains(&format!("{}_", f.name.to_lowercase()));
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                f.name,
                if f.implemented { "yes" } else { "no" },
                if has_fortran { "yes" } else { "" }
            ));
        }
    }
    out
}
