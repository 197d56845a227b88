//! Graph topologies: the general graph of `MPI_Graph_create` (every process knows the whole
//! graph) and the distributed graph of `MPI_Dist_graph_create(_adjacent)` (every process knows
//! its own neighbours). Stored with the communicator like the Cartesian ones ([`crate::comm::topo`]);
//! `reorder` is ignored.
//!
//! `MPI_Graph_create` keeps the first `nnodes` ranks (member-only creation, no messages);
//! the distributed graphs span all of `comm_old` (a dup). `MPI_Dist_graph_create_adjacent`
//! needs no communication either; `MPI_Dist_graph_create`, where any process may name any
//! edge, gathers every edge to every process (allgatherv) and keeps its own.

use crate::comm::communicator::MPI_Info;
use crate::comm::topo::{Topology, ints, put, register, store_topo, topology_of};
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::comm;
use std::ffi::c_int;

/// `MPI_GRAPH`.
pub const MPI_GRAPH: c_int = 212;
/// `MPI_DIST_GRAPH`.
pub const MPI_DIST_GRAPH: c_int = 213;
/// `MPI_UNWEIGHTED` (a pointer constant of the standard ABI).
const UNWEIGHTED: usize = 10;
/// `MPI_WEIGHTS_EMPTY`.
const WEIGHTS_EMPTY: usize = 11;
/// Tag of the communicators `MPI_Graph_create` makes.
const GRAPH_TAG: u64 = 4 << 32;

/// This process's neighbours in a distributed graph.
#[derive(Clone, Debug, PartialEq)]
pub struct DistGraph {
    sources: Vec<c_int>,
    source_weights: Vec<c_int>,
    destinations: Vec<c_int>,
    dest_weights: Vec<c_int>,
    weighted: bool,
}

fn arg(msg: String) -> MpiError {
    MpiError::new(MPI_ERR_ARG, msg)
}

/// Checks a graph of `nnodes` nodes given as `index` / `edges`.
fn check_graph(index: &[c_int], edges: &[c_int]) -> Result<()> {
    let n = index.len() as c_int;
    let mut prev = 0;
    for (i, &x) in index.iter().enumerate() {
        if x < prev {
            return Err(arg(format!("index[{i}] = {x} is less than the one before")));
        }
        prev = x;
    }
    if let Some((i, e)) = edges.iter().enumerate().find(|(_, e)| !(0..n).contains(*e)) {
        return Err(arg(format!(
            "edges[{i}] = {e} is not a node (0 to {})",
            n - 1
        )));
    }
    Ok(())
}

/// The `index` / `edges` arguments of `nnodes` nodes, checked.
fn graph_args(
    nnodes: c_int,
    index: *const c_int,
    edges: *const c_int,
) -> Result<(Vec<c_int>, Vec<c_int>)> {
    let n = usize::try_from(nnodes).map_err(|_| arg(format!("nnodes {nnodes} is negative")))?;
    let index = ints(index, n, "index")?;
    let nedges = index.last().copied().unwrap_or(0);
    let nedges = usize::try_from(nedges).map_err(|_| {
        arg(format!(
            "index[{}] = {nedges} is negative",
            n.saturating_sub(1)
        ))
    })?;
    let edges = ints(edges, nedges, "edges")?;
    check_graph(&index, &edges)?;
    Ok((index, edges))
}

fn graph_of(h: MPI_Comm) -> Result<(Vec<c_int>, Vec<c_int>)> {
    match topology_of(h)? {
        Some(Topology::Graph { index, edges }) => Ok((index, edges)),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            format!("communicator {h:#x} has no graph topology"),
        )),
    }
}

fn dist_of(h: MPI_Comm) -> Result<DistGraph> {
    match topology_of(h)? {
        Some(Topology::Dist(d)) => Ok(d),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            format!("communicator {h:#x} has no distributed graph topology"),
        )),
    }
}

/// The neighbours of `rank` in a graph.
fn neighbours(index: &[c_int], edges: &[c_int], rank: c_int) -> Result<Vec<c_int>> {
    let r = usize::try_from(rank)
        .ok()
        .filter(|&r| r < index.len())
        .ok_or_else(|| {
            MpiError::new(
                MPI_ERR_RANK,
                format!("rank {rank} is not a node of the graph"),
            )
        })?;
    let lo = if r == 0 { 0 } else { index[r - 1] as usize };
    Ok(edges[lo..index[r] as usize].to_vec())
}

/// Node `rank`'s neighbours in the graph `index` / `edges` (for neighbourhood collectives).
pub(crate) fn graph_neighbours(
    index: &[c_int],
    edges: &[c_int],
    rank: c_int,
) -> Result<Vec<c_int>> {
    neighbours(index, edges, rank)
}

impl DistGraph {
    /// This process's (sources, destinations), in the order they were given.
    pub(crate) fn lists(&self) -> (Vec<c_int>, Vec<c_int>) {
        (self.sources.clone(), self.destinations.clone())
    }
}

/// Weights of `n` edges: `None` when `MPI_UNWEIGHTED`, zeros for `MPI_WEIGHTS_EMPTY` or none.
fn weights(p: *const c_int, n: usize, name: &str) -> Result<Option<Vec<c_int>>> {
    match p as usize {
        UNWEIGHTED => Ok(None),
        WEIGHTS_EMPTY => Ok(Some(vec![0; n])),
        _ if n == 0 => Ok(Some(Vec::new())),
        _ => Ok(Some(ints(p, n, name)?)),
    }
}

/// Ranks of `comm_old` (of `size`), checked.
fn check_ranks(v: &[c_int], size: u32, name: &str) -> Result<()> {
    match v
        .iter()
        .enumerate()
        .find(|(_, r)| !(0..size as c_int).contains(*r))
    {
        Some((i, r)) => Err(MpiError::new(
            MPI_ERR_RANK,
            format!("{name}[{i}] = {r} is not a rank"),
        )),
        None => Ok(()),
    }
}

fn degree(n: c_int, name: &str) -> Result<usize> {
    usize::try_from(n).map_err(|_| arg(format!("{name} {n} is negative")))
}

/// Writes the distributed-graph communicator (a dup of `comm_old`) to `out`.
fn store_dist(comm_old: MPI_Comm, d: DistGraph, out: *mut MPI_Comm) -> Result<()> {
    let c = crate::comm::topo::intra(comm_old)?.dup_blocking()?;
    let h = register(c, comm_old, Topology::Dist(d))?;
    // SAFETY: checked for NULL by the caller.
    unsafe { out.write(h) };
    Ok(())
}

mpi_fn! {
    /// A communicator of the first `nnodes` ranks of `comm_old` with the graph `index` /
    /// `edges`; the other ranks get `MPI_COMM_NULL` (all of them when `nnodes` is 0).
    fn MPI_Graph_create(comm_old: MPI_Comm, nnodes: c_int, index: *const c_int,
        edges: *const c_int, reorder: c_int, comm_graph: *mut MPI_Comm) -> c_int
        => PMPI_Graph_create
    {
        let _ = reorder;
        call("MPI_Graph_create", comm_old, || {
            non_null(comm_graph, "comm_graph")?;
            let c = comm(comm_old)?;
            let (index, edges) = graph_args(nnodes, index, edges)?;
            if index.len() > c.size() as usize {
                return Err(arg(format!("nnodes {nnodes} exceeds the communicator size {}", c.size())));
            }
            let ranks: Vec<u32> = (0..index.len() as u32).collect();
            store_topo(comm_old, &ranks, GRAPH_TAG, Topology::Graph { index, edges }, comm_graph)
        })
    }

    /// The rank this process would have in `MPI_Graph_create`'s communicator, or
    /// `MPI_UNDEFINED`.
    fn MPI_Graph_map(comm_h: MPI_Comm, nnodes: c_int, index: *const c_int, edges: *const c_int,
        newrank: *mut c_int) -> c_int => PMPI_Graph_map
    {
        call("MPI_Graph_map", comm_h, || {
            non_null(newrank, "newrank")?;
            let c = comm(comm_h)?;
            let (index, _) = graph_args(nnodes, index, edges)?;
            if index.len() > c.size() as usize {
                return Err(arg(format!("nnodes {nnodes} exceeds the communicator size {}", c.size())));
            }
            let r = if (c.rank() as usize) < index.len() { c.rank() as c_int } else { MPI_UNDEFINED };
            put(newrank, &[r], "newrank")
        })
    }

    /// The number of nodes and edges of `comm`'s graph.
    fn MPI_Graphdims_get(comm_h: MPI_Comm, nnodes: *mut c_int, nedges: *mut c_int) -> c_int
        => PMPI_Graphdims_get
    {
        call("MPI_Graphdims_get", comm_h, || {
            non_null(nnodes, "nnodes")?;
            non_null(nedges, "nedges")?;
            let (index, edges) = graph_of(comm_h)?;
            put(nnodes, &[index.len() as c_int], "nnodes")?;
            put(nedges, &[edges.len() as c_int], "nedges")
        })
    }

    /// The first `maxindex` entries of `index` and `maxedges` of `edges`.
    fn MPI_Graph_get(comm_h: MPI_Comm, maxindex: c_int, maxedges: c_int, index: *mut c_int,
        edges: *mut c_int) -> c_int => PMPI_Graph_get
    {
        call("MPI_Graph_get", comm_h, || {
            let (i, e) = graph_of(comm_h)?;
            let (mi, me) = (degree(maxindex, "maxindex")?, degree(maxedges, "maxedges")?);
            put(index, &i[..i.len().min(mi)], "index")?;
            put(edges, &e[..e.len().min(me)], "edges")
        })
    }

    /// The number of neighbours of `rank`.
    fn MPI_Graph_neighbors_count(comm_h: MPI_Comm, rank: c_int, nneighbors: *mut c_int) -> c_int
        => PMPI_Graph_neighbors_count
    {
        call("MPI_Graph_neighbors_count", comm_h, || {
            non_null(nneighbors, "nneighbors")?;
            let (i, e) = graph_of(comm_h)?;
            put(nneighbors, &[neighbours(&i, &e, rank)?.len() as c_int], "nneighbors")
        })
    }

    /// The first `maxneighbors` neighbours of `rank`.
    fn MPI_Graph_neighbors(comm_h: MPI_Comm, rank: c_int, maxneighbors: c_int,
        neighbors: *mut c_int) -> c_int => PMPI_Graph_neighbors
    {
        call("MPI_Graph_neighbors", comm_h, || {
            let (i, e) = graph_of(comm_h)?;
            let n = neighbours(&i, &e, rank)?;
            let m = degree(maxneighbors, "maxneighbors")?;
            put(neighbors, &n[..n.len().min(m)], "neighbors")
        })
    }

    /// A distributed graph over all of `comm_old` where each process names its own in- and
    /// out-neighbours (and weights, or `MPI_UNWEIGHTED`). `info` is not needed.
    fn MPI_Dist_graph_create_adjacent(comm_old: MPI_Comm, indegree: c_int,
        sources: *const c_int, sourceweights: *const c_int, outdegree: c_int,
        destinations: *const c_int, destweights: *const c_int, info: MPI_Info, reorder: c_int,
        comm_dist_graph: *mut MPI_Comm) -> c_int => PMPI_Dist_graph_create_adjacent
    {
        let _ = reorder;
        call("MPI_Dist_graph_create_adjacent", comm_old, || {
            non_null(comm_dist_graph, "comm_dist_graph")?;
            crate::comm::info::pairs_or_empty(info)?;
            let size = comm(comm_old)?.size();
            let (ni, no) = (degree(indegree, "indegree")?, degree(outdegree, "outdegree")?);
            let sources = ints(sources, ni, "sources")?;
            let destinations = ints(destinations, no, "destinations")?;
            check_ranks(&sources, size, "sources")?;
            check_ranks(&destinations, size, "destinations")?;
            let sw = weights(sourceweights, ni, "sourceweights")?;
            let dw = weights(destweights, no, "destweights")?;
            // A side of degree 0 may pass any pointer: only a weighted list with entries
            // against MPI_UNWEIGHTED on the other side is a contradiction.
            let weighted = match (&sw, &dw) {
                (Some(_), Some(_)) => true,
                (None, None) => false,
                (Some(w), None) | (None, Some(w)) if w.is_empty() => false,
                _ => {
                    return Err(arg(
                        "sourceweights and destweights must both be MPI_UNWEIGHTED or neither"
                            .into(),
                    ));
                }
            };
            let d = DistGraph {
                weighted,
                source_weights: sw.unwrap_or_else(|| vec![0; ni]),
                dest_weights: dw.unwrap_or_else(|| vec![0; no]),
                sources,
                destinations,
            };
            store_dist(comm_old, d, comm_dist_graph)
        })
    }

    /// A distributed graph over all of `comm_old` from edges any process may name: source
    /// `sources[i]` has `degrees[i]` edges, to the next entries of `destinations` (weights in
    /// `weights`, or `MPI_UNWEIGHTED`). Collective: every edge reaches its two ends.
    fn MPI_Dist_graph_create(comm_old: MPI_Comm, n: c_int, sources: *const c_int,
        degrees: *const c_int, destinations: *const c_int, weights_p: *const c_int,
        info: MPI_Info, reorder: c_int, comm_dist_graph: *mut MPI_Comm) -> c_int
        => PMPI_Dist_graph_create
    {
        let _ = reorder;
        call("MPI_Dist_graph_create", comm_old, || {
            non_null(comm_dist_graph, "comm_dist_graph")?;
            crate::comm::info::pairs_or_empty(info)?;
            let c = comm(comm_old)?;
            let n = degree(n, "n")?;
            let srcs = ints(sources, n, "sources")?;
            let degs = ints(degrees, n, "degrees")?;
            check_ranks(&srcs, c.size(), "sources")?;
            let mut total = 0usize;
            for (i, &d) in degs.iter().enumerate() {
                total += degree(d, &format!("degrees[{i}]"))?;
            }
            let dsts = ints(destinations, total, "destinations")?;
            check_ranks(&dsts, c.size(), "destinations")?;
            let w = weights(weights_p, total, "weights")?;
            // My edges as (source, destination, weight) triples, then everyone's.
            let mut mine = Vec::with_capacity(3 * total);
            let mut k = 0;
            for (s, &d) in srcs.iter().zip(&degs) {
                for _ in 0..d {
                    mine.extend([*s, dsts[k], w.as_ref().map_or(0, |w| w[k])]);
                    k += 1;
                }
            }
            let mut counts = vec![0u64; c.size() as usize];
            c.allgather_blocking(&[mine.len() as u64], &mut counts)?;
            let counts: Vec<usize> = counts.iter().map(|&x| x as usize).collect();
            let mut all = vec![0i32; counts.iter().sum()];
            c.allgatherv_blocking(&mine, &mut all, &counts, None)?;
            // Weighted unless the weights are MPI_UNWEIGHTED: a weights array of no entries
            // and MPI_WEIGHTS_EMPTY mean weighted too, also without any edge (MPI 4.1 §8.5.4).
            // Everyone agrees on it.
            let gave = w.is_some();
            let mut flag = [i32::from(gave)];
            c.allreduce_blocking(&mut flag, nexar::ReduceOp::Max)?;
            let me = c.rank() as c_int;
            let mut d = DistGraph {
                sources: Vec::new(),
                source_weights: Vec::new(),
                destinations: Vec::new(),
                dest_weights: Vec::new(),
                weighted: flag[0] != 0,
            };
            for e in all.chunks_exact(3) {
                if e[1] == me {
                    d.sources.push(e[0]);
                    d.source_weights.push(e[2]);
                }
                if e[0] == me {
                    d.destinations.push(e[1]);
                    d.dest_weights.push(e[2]);
                }
            }
            store_dist(comm_old, d, comm_dist_graph)
        })
    }

    /// This process's in- and out-degree and whether the graph is weighted.
    fn MPI_Dist_graph_neighbors_count(comm_h: MPI_Comm, indegree: *mut c_int,
        outdegree: *mut c_int, weighted: *mut c_int) -> c_int
        => PMPI_Dist_graph_neighbors_count
    {
        call("MPI_Dist_graph_neighbors_count", comm_h, || {
            non_null(indegree, "indegree")?;
            non_null(outdegree, "outdegree")?;
            non_null(weighted, "weighted")?;
            let d = dist_of(comm_h)?;
            put(indegree, &[d.sources.len() as c_int], "indegree")?;
            put(outdegree, &[d.destinations.len() as c_int], "outdegree")?;
            put(weighted, &[c_int::from(d.weighted)], "weighted")
        })
    }

    /// This process's first `maxindegree` sources and `maxoutdegree` destinations, with their
    /// weights when the graph is weighted (weights arrays may be `MPI_UNWEIGHTED`).
    fn MPI_Dist_graph_neighbors(comm_h: MPI_Comm, maxindegree: c_int, sources: *mut c_int,
        sourceweights: *mut c_int, maxoutdegree: c_int, destinations: *mut c_int,
        destweights: *mut c_int) -> c_int => PMPI_Dist_graph_neighbors
    {
        call("MPI_Dist_graph_neighbors", comm_h, || {
            let d = dist_of(comm_h)?;
            let mi = d.sources.len().min(degree(maxindegree, "maxindegree")?);
            let mo = d.destinations.len().min(degree(maxoutdegree, "maxoutdegree")?);
            put(sources, &d.sources[..mi], "sources")?;
            put(destinations, &d.destinations[..mo], "destinations")?;
            let real = |p: *mut c_int| !matches!(p as usize, UNWEIGHTED | WEIGHTS_EMPTY) && !p.is_null();
            if d.weighted && real(sourceweights) {
                put(sourceweights, &d.source_weights[..mi], "sourceweights")?;
            }
            if d.weighted && real(destweights) {
                put(destweights, &d.dest_weights[..mo], "destweights")?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_checks_and_neighbours() {
        let index = [2, 3, 4];
        let edges = [1, 2, 0, 0];
        check_graph(&index, &edges).unwrap();
        assert_eq!(neighbours(&index, &edges, 0).unwrap(), vec![1, 2]);
        assert_eq!(neighbours(&index, &edges, 2).unwrap(), vec![0]);
        assert_eq!(
            neighbours(&index, &edges, 3).unwrap_err().class,
            MPI_ERR_RANK
        );
        assert_eq!(check_graph(&[1, 0], &[0]).unwrap_err().class, MPI_ERR_ARG);
        assert_eq!(check_graph(&[1], &[1]).unwrap_err().class, MPI_ERR_ARG);
    }

    #[test]
    fn constants_match_the_spec() {
        for (name, v) in [
            ("MPI_GRAPH", MPI_GRAPH as usize),
            ("MPI_DIST_GRAPH", MPI_DIST_GRAPH as usize),
            ("MPI_UNWEIGHTED", UNWEIGHTED),
            ("MPI_WEIGHTS_EMPTY", WEIGHTS_EMPTY),
        ] {
            assert_eq!(crate::consts::spec_value(name), v as i64, "{name}");
        }
    }
}
