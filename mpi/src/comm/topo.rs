//! Cartesian process topologies (`MPI_Cart_*`, `MPI_Dims_create`, `MPI_Topo_test`) and the
//! topology store shared with the graph topologies ([`crate::comm::topo_graph`]).
//!
//! A topology is kept with its communicator handle (carried over by `MPI_Comm_dup`, dropped by
//! `MPI_Comm_free`). Ranks are laid out in row-major order (the last dimension varies fastest)
//! and `reorder` is ignored, so the rank in the Cartesian communicator equals the rank in the
//! old one. The new communicators are made with the engine's member-only creation
//! ([`nexar::Comm::create_subset`]): every member knows the member list from the arguments, so
//! nothing is exchanged.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::state::{comm, errhandler_of, insert_comm};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::c_int;

/// `MPI_CART`.
pub const MPI_CART: c_int = 211;
/// Tag of the communicators `MPI_Cart_create` makes (above every user tag).
const CART_TAG: u64 = 2 << 32;
/// Tag of the communicators `MPI_Cart_sub` makes.
const CART_SUB_TAG: u64 = 3 << 32;

/// A Cartesian grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Cart {
    dims: Vec<c_int>,
    periods: Vec<bool>,
}

impl Cart {
    /// Number of grid points.
    fn size(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    /// Coordinates of `rank` (row-major).
    fn coords(&self, rank: usize) -> Vec<c_int> {
        let mut c = vec![0; self.dims.len()];
        let mut r = rank;
        for i in (0..self.dims.len()).rev() {
            let d = self.dims[i] as usize;
            c[i] = (r % d) as c_int;
            r /= d;
        }
        c
    }

    /// The rank at `coords` (wrapped in periodic dimensions), `None` outside a non-periodic
    /// one.
    fn rank(&self, coords: &[c_int]) -> Option<usize> {
        let mut r = 0usize;
        for (i, &c) in coords.iter().enumerate() {
            let d = self.dims[i];
            let c = if self.periods[i] {
                c.rem_euclid(d)
            } else if (0..d).contains(&c) {
                c
            } else {
                return None;
            };
            r = r * d as usize + c as usize;
        }
        Some(r)
    }
}

/// The topology of a communicator.
#[derive(Clone, Debug)]
pub enum Topology {
    /// A Cartesian grid.
    Cart(Cart),
    /// A graph (`MPI_Graph_create`), as given: `index` and `edges`.
    Graph {
        /// Cumulative degrees: node i's neighbours are `edges[index[i-1]..index[i]]`.
        index: Vec<c_int>,
        /// The neighbours of every node, in node order.
        edges: Vec<c_int>,
    },
    /// A distributed graph: this process's in- and out-neighbours.
    Dist(crate::comm::topo_graph::DistGraph),
}

static TOPOLOGIES: Mutex<BTreeMap<MPI_Comm, Topology>> = Mutex::new(BTreeMap::new());

/// The topology of `h`, if it has one (a valid communicator is checked).
pub fn topology_of(h: MPI_Comm) -> Result<Option<Topology>> {
    comm(h)?;
    Ok(TOPOLOGIES.lock().get(&h).cloned())
}

/// Carries `from`'s topology to `to` (`MPI_Comm_dup`).
pub fn copy_topology(from: MPI_Comm, to: MPI_Comm) {
    let mut t = TOPOLOGIES.lock();
    if let Some(c) = t.get(&from).cloned() {
        t.insert(to, c);
    }
}

/// Forgets the topology of a freed communicator.
pub fn drop_topology(c: MPI_Comm) {
    TOPOLOGIES.lock().remove(&c);
}

/// The Cartesian topology of a valid communicator, or `MPI_ERR_TOPOLOGY`.
/// A process's neighbours for the neighbourhood collectives.
pub struct Neighbours {
    /// In-neighbours (communicator ranks, or `MPI_PROC_NULL`), in receive-block order.
    pub sources: Vec<c_int>,
    /// Out-neighbours, in send-block order.
    pub destinations: Vec<c_int>,
    /// Whether the topology is Cartesian: there the block sent one step up arrives as the
    /// receiver's block from one step down (and the other way round), which matters when
    /// both are the same process (a periodic dimension of size 1 or 2); elsewhere blocks
    /// between two processes pair up in list order.
    pub cartesian: bool,
}

/// This process's neighbours, in the order the neighbourhood collectives use them: on a
/// Cartesian grid, for each dimension the neighbour one step down then the one a step up
/// (`MPI_PROC_NULL` off the edge of a non-periodic dimension), the same list both ways; on a
/// graph, the node's neighbours both ways; on a distributed graph, its sources and
/// destinations. `MPI_ERR_TOPOLOGY` without a topology.
pub fn neighbour_lists(h: MPI_Comm) -> Result<Neighbours> {
    let me = comm(h)?.rank() as c_int;
    match topology_of(h)? {
        Some(Topology::Cart(cart)) => {
            let here = cart.coords(me as usize);
            let mut list = Vec::with_capacity(2 * cart.dims.len());
            for d in 0..cart.dims.len() {
                for step in [-1, 1] {
                    let mut c = here.clone();
                    c[d] += step;
                    list.push(cart.rank(&c).map_or(MPI_PROC_NULL, |r| r as c_int));
                }
            }
            Ok(Neighbours {
                sources: list.clone(),
                destinations: list,
                cartesian: true,
            })
        }
        Some(Topology::Graph { index, edges }) => {
            let n = crate::comm::topo_graph::graph_neighbours(&index, &edges, me)?;
            Ok(Neighbours {
                sources: n.clone(),
                destinations: n,
                cartesian: false,
            })
        }
        Some(Topology::Dist(d)) => {
            let (sources, destinations) = d.lists();
            Ok(Neighbours {
                sources,
                destinations,
                cartesian: false,
            })
        }
        None => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            format!("communicator {h:#x} has no topology (neighbourhood collectives need one)"),
        )),
    }
}

fn cart_of(h: MPI_Comm) -> Result<Cart> {
    match topology_of(h)? {
        Some(Topology::Cart(c)) => Ok(c),
        _ => Err(MpiError::new(
            MPI_ERR_TOPOLOGY,
            format!("communicator {h:#x} has no Cartesian topology"),
        )),
    }
}

/// `n` ints from a C array (empty when `n == 0`, where the pointer may be anything).
pub fn ints(p: *const c_int, n: usize, name: &str) -> Result<Vec<c_int>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    non_null(p, name)?;
    // SAFETY: non-NULL, `n` ints per the MPI contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) }.to_vec())
}

/// Writes `v` to the C array `p` (non-NULL unless `v` is empty).
pub fn put(p: *mut c_int, v: &[c_int], name: &str) -> Result<()> {
    if v.is_empty() {
        return Ok(());
    }
    non_null(p, name)?;
    // SAFETY: non-NULL, room for `v.len()` ints per the MPI contract.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, v.len()) };
    Ok(())
}

fn ndims_arg(ndims: c_int) -> Result<usize> {
    usize::try_from(ndims)
        .map_err(|_| MpiError::new(MPI_ERR_DIMS, format!("ndims {ndims} is negative")))
}

/// The grid given by `dims` / `periods`, checked (`MPI_ERR_DIMS` for a non-positive extent).
fn grid(ndims: c_int, dims: *const c_int, periods: *const c_int) -> Result<Cart> {
    let n = ndims_arg(ndims)?;
    let dims = ints(dims, n, "dims")?;
    if let Some((i, d)) = dims.iter().enumerate().find(|(_, d)| **d <= 0) {
        return Err(MpiError::new(
            MPI_ERR_DIMS,
            format!("dims[{i}] = {d} is not positive"),
        ));
    }
    let periods = ints(periods, n, "periods")?
        .iter()
        .map(|&p| p != 0)
        .collect();
    let cart = Cart { dims, periods };
    if cart
        .dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d as usize))
        .is_none()
    {
        return Err(MpiError::new(MPI_ERR_DIMS, "the grid size overflows"));
    }
    Ok(cart)
}

/// The communicator behind `h`, which must be an intracommunicator: MPI defines topologies
/// on intracommunicators only (`MPI_ERR_COMM` otherwise).
pub fn intra(h: MPI_Comm) -> Result<nexar::Comm> {
    let c = comm(h)?;
    if c.is_inter() {
        return Err(MpiError::new(
            MPI_ERR_COMM,
            "a topology needs an intracommunicator, not an intercommunicator",
        ));
    }
    Ok(c)
}

/// Makes the communicator of parent ranks `ranks` with topology `topo` (member-only) and
/// writes its handle, or `MPI_COMM_NULL` for a non-member, to `out`.
pub fn store_topo(
    parent: MPI_Comm,
    ranks: &[u32],
    tag: u64,
    topo: Topology,
    out: *mut MPI_Comm,
) -> Result<()> {
    let parent_comm = intra(parent)?;
    let new = if ranks.is_empty() {
        None
    } else {
        parent_comm.create_subset(ranks, tag)?
    };
    let h = match new {
        Some(c) => register(c, parent, topo)?,
        None => MPI_COMM_NULL,
    };
    // SAFETY: checked for NULL by the caller.
    unsafe { out.write(h) };
    Ok(())
}

/// Registers `c` (made from `parent`, whose error handler it inherits) with topology `topo`.
pub fn register(c: nexar::Comm, parent: MPI_Comm, topo: Topology) -> Result<MPI_Comm> {
    let h = insert_comm(c, errhandler_of(parent))?;
    TOPOLOGIES.lock().insert(h, topo);
    Ok(h)
}

/// The balanced factorisation of `m` into `k` factors, non-increasing: the one with the smallest
/// spread (largest factor minus smallest), and among those the one whose smallest factor is
/// largest, then the next smallest, and so on (MPICH's choice, which its test suite checks:
/// 5040 in 3 dimensions is 21 x 16 x 15, not 20 x 18 x 14). `None` when `k == 0` and `m != 1`.
pub fn balanced(m: u64, k: usize) -> Option<Vec<u64>> {
    if k == 0 {
        return (m == 1).then(Vec::new);
    }
    /// Whether `a` beats `b`: a smaller spread, then larger factors from the smallest up.
    fn better(a: &[u64], b: &[u64]) -> bool {
        let (sa, sb) = (a[0] - a[a.len() - 1], b[0] - b[b.len() - 1]);
        sa < sb || (sa == sb && a.iter().rev().cmp(b.iter().rev()).is_gt())
    }
    /// The largest `r` with `r^k <= m` (the most the smallest of `k >= 1` factors of `m` can
    /// be).
    fn root(m: u64, k: usize) -> u64 {
        let mut r = (m as f64).powf(1.0 / k as f64).round() as u64;
        while r > 1 && r.checked_pow(k as u32).is_none_or(|p| p > m) {
            r -= 1;
        }
        while (r + 1).checked_pow(k as u32).is_some_and(|p| p <= m) {
            r += 1;
        }
        r.max(1)
    }
    // Depth-first over non-increasing factorisations, largest factor first; a branch whose
    // spread cannot beat the best one found is cut (its smallest factor is at most the k-th
    // root of what remains).
    fn search(
        m: u64,
        k: usize,
        cap: u64,
        divisors: &[u64],
        cur: &mut Vec<u64>,
        best: &mut Option<Vec<u64>>,
    ) {
        if k == 0 {
            if m == 1 && best.as_ref().is_none_or(|b| better(cur, b)) {
                *best = Some(cur.clone());
            }
            return;
        }
        for &f in divisors
            .iter()
            .rev()
            .filter(|&&f| f <= cap && m.is_multiple_of(f))
        {
            // The other k - 1 factors are at most f: f^k must reach m.
            if f.checked_pow(k as u32).is_some_and(|p| p < m) {
                break;
            }
            let first = cur.first().copied().unwrap_or(f);
            // The smallest factor: f itself when it is the last one.
            let floor = if k == 1 { f } else { root(m / f, k - 1).min(f) };
            if let Some(b) = best.as_ref()
                && first - floor.min(first) > b[0] - b[b.len() - 1]
            {
                continue;
            }
            cur.push(f);
            search(m / f, k - 1, f, divisors, cur, best);
            cur.pop();
        }
    }
    let mut divisors: Vec<u64> = (1..)
        .take_while(|i| i * i <= m)
        .filter(|i| m.is_multiple_of(*i))
        .collect();
    let big: Vec<u64> = divisors
        .iter()
        .rev()
        .map(|d| m / d)
        .filter(|&d| d * d != m)
        .collect();
    divisors.extend(big);
    let mut best = None;
    search(
        m,
        k,
        m.max(1),
        &divisors,
        &mut Vec::with_capacity(k),
        &mut best,
    );
    best
}

mpi_fn! {
    /// A communicator with an `ndims`-dimensional grid of extents `dims` (periodic where
    /// `periods[i]` is true) over the first `dims[0] * ... * dims[ndims-1]` ranks of
    /// `comm_old`; the others get `MPI_COMM_NULL`. `reorder` is ignored (ranks keep their
    /// order). `MPI_ERR_DIMS` for a non-positive extent, `MPI_ERR_TOPOLOGY` when the grid is
    /// larger than `comm_old`.
    fn MPI_Cart_create(comm_old: MPI_Comm, ndims: c_int, dims: *const c_int,
        periods: *const c_int, reorder: c_int, comm_cart: *mut MPI_Comm) -> c_int
        => PMPI_Cart_create
    {
        let _ = reorder;
        call("MPI_Cart_create", comm_old, || {
            non_null(comm_cart, "comm_cart")?;
            let c = comm(comm_old)?;
            let cart = grid(ndims, dims, periods)?;
            let n = cart.size();
            if n > c.size() as usize {
                return Err(MpiError::new(
                    MPI_ERR_TOPOLOGY,
                    format!("a grid of {n} ranks does not fit a communicator of {}", c.size()),
                ));
            }
            let ranks: Vec<u32> = (0..n as u32).collect();
            store_topo(comm_old, &ranks, CART_TAG, Topology::Cart(cart), comm_cart)
        })
    }

    /// The rank that `MPI_Cart_create` would give this process: its rank, or `MPI_UNDEFINED`
    /// when it is outside the grid.
    fn MPI_Cart_map(comm_h: MPI_Comm, ndims: c_int, dims: *const c_int, periods: *const c_int,
        newrank: *mut c_int) -> c_int => PMPI_Cart_map
    {
        call("MPI_Cart_map", comm_h, || {
            non_null(newrank, "newrank")?;
            let c = comm(comm_h)?;
            let n = grid(ndims, dims, periods)?.size();
            if n > c.size() as usize {
                return Err(MpiError::new(
                    MPI_ERR_TOPOLOGY,
                    format!("a grid of {n} ranks does not fit a communicator of {}", c.size()),
                ));
            }
            let r = if (c.rank() as usize) < n { c.rank() as c_int } else { MPI_UNDEFINED };
            put(newrank, &[r], "newrank")
        })
    }

    /// The number of dimensions of `comm`'s grid.
    fn MPI_Cartdim_get(comm_h: MPI_Comm, ndims: *mut c_int) -> c_int => PMPI_Cartdim_get {
        call("MPI_Cartdim_get", comm_h, || {
            non_null(ndims, "ndims")?;
            put(ndims, &[cart_of(comm_h)?.dims.len() as c_int], "ndims")
        })
    }

    /// The extents, periodicity and this process's coordinates (`maxdims` entries room each).
    fn MPI_Cart_get(comm_h: MPI_Comm, maxdims: c_int, dims: *mut c_int, periods: *mut c_int,
        coords: *mut c_int) -> c_int => PMPI_Cart_get
    {
        call("MPI_Cart_get", comm_h, || {
            let cart = cart_of(comm_h)?;
            let n = cart.dims.len();
            if maxdims < n as c_int {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("maxdims {maxdims} is less than the {n} dimensions"),
                ));
            }
            put(dims, &cart.dims, "dims")?;
            let p: Vec<c_int> = cart.periods.iter().map(|&p| c_int::from(p)).collect();
            put(periods, &p, "periods")?;
            put(coords, &cart.coords(comm(comm_h)?.rank() as usize), "coords")
        })
    }

    /// The rank at `coords`, wrapped in periodic dimensions; `MPI_ERR_RANK` outside a
    /// non-periodic one.
    fn MPI_Cart_rank(comm_h: MPI_Comm, coords: *const c_int, rank: *mut c_int) -> c_int
        => PMPI_Cart_rank
    {
        call("MPI_Cart_rank", comm_h, || {
            non_null(rank, "rank")?;
            let cart = cart_of(comm_h)?;
            let c = ints(coords, cart.dims.len(), "coords")?;
            let r = cart.rank(&c).ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_RANK,
                    format!("coordinates {c:?} are outside the grid {:?}", cart.dims),
                )
            })?;
            put(rank, &[r as c_int], "rank")
        })
    }

    /// The coordinates of `rank` (`maxdims` entries of room).
    fn MPI_Cart_coords(comm_h: MPI_Comm, rank: c_int, maxdims: c_int, coords: *mut c_int)
        -> c_int => PMPI_Cart_coords
    {
        call("MPI_Cart_coords", comm_h, || {
            let cart = cart_of(comm_h)?;
            let n = cart.dims.len();
            if maxdims < n as c_int {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    format!("maxdims {maxdims} is less than the {n} dimensions"),
                ));
            }
            let r = usize::try_from(rank).ok().filter(|&r| r < cart.size()).ok_or_else(|| {
                MpiError::new(MPI_ERR_RANK, format!("rank {rank} is outside the grid"))
            })?;
            put(coords, &cart.coords(r), "coords")
        })
    }

    /// The ranks `disp` steps behind (`rank_source`) and ahead (`rank_dest`) of this process
    /// along `direction`; `MPI_PROC_NULL` past the edge of a non-periodic dimension.
    fn MPI_Cart_shift(comm_h: MPI_Comm, direction: c_int, disp: c_int, rank_source: *mut c_int,
        rank_dest: *mut c_int) -> c_int => PMPI_Cart_shift
    {
        call("MPI_Cart_shift", comm_h, || {
            non_null(rank_source, "rank_source")?;
            non_null(rank_dest, "rank_dest")?;
            let cart = cart_of(comm_h)?;
            let d = usize::try_from(direction).ok().filter(|&d| d < cart.dims.len()).ok_or_else(
                || MpiError::new(
                    MPI_ERR_ARG,
                    format!("direction {direction} is not a dimension (0 to {})", cart.dims.len() as c_int - 1),
                ),
            )?;
            let me = cart.coords(comm(comm_h)?.rank() as usize);
            let at = |delta: i64| {
                let mut c = me.clone();
                let v = i64::from(c[d]) + delta;
                // Far outside any grid: clamp so it stays an int and stays outside.
                c[d] = v.clamp(i64::from(c_int::MIN), i64::from(c_int::MAX)) as c_int;
                cart.rank(&c).map_or(MPI_PROC_NULL, |r| r as c_int)
            };
            put(rank_source, &[at(-i64::from(disp))], "rank_source")?;
            put(rank_dest, &[at(i64::from(disp))], "rank_dest")
        })
    }

    /// Splits the grid into subgrids that keep the dimensions where `remain_dims[i]` is true;
    /// each process gets the subgrid through it, ranked in row-major order.
    fn MPI_Cart_sub(comm_h: MPI_Comm, remain_dims: *const c_int, newcomm: *mut MPI_Comm) -> c_int
        => PMPI_Cart_sub
    {
        call("MPI_Cart_sub", comm_h, || {
            non_null(newcomm, "newcomm")?;
            let cart = cart_of(comm_h)?;
            let keep: Vec<bool> =
                ints(remain_dims, cart.dims.len(), "remain_dims")?.iter().map(|&k| k != 0).collect();
            let me = cart.coords(comm(comm_h)?.rank() as usize);
            let same_fixed = |c: &[c_int]| (0..c.len()).all(|i| keep[i] || c[i] == me[i]);
            let ranks: Vec<u32> =
                (0..cart.size()).filter(|&r| same_fixed(&cart.coords(r))).map(|r| r as u32).collect();
            let pick = |v: &[c_int]| -> Vec<c_int> {
                v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
            };
            let sub = Cart {
                dims: pick(&cart.dims),
                periods: cart.periods.iter().zip(&keep).filter(|(_, k)| **k).map(|(p, _)| *p).collect(),
            };
            store_topo(comm_h, &ranks, CART_SUB_TAG, Topology::Cart(sub), newcomm)
        })
    }

    /// `MPI_CART`, `MPI_GRAPH` or `MPI_DIST_GRAPH` after the communicator's topology,
    /// `MPI_UNDEFINED` when it has none.
    fn MPI_Topo_test(comm_h: MPI_Comm, status: *mut c_int) -> c_int => PMPI_Topo_test {
        call("MPI_Topo_test", comm_h, || {
            non_null(status, "status")?;
            let t = match topology_of(comm_h)? {
                Some(Topology::Cart(_)) => MPI_CART,
                Some(Topology::Graph { .. }) => crate::comm::topo_graph::MPI_GRAPH,
                Some(Topology::Dist(_)) => crate::comm::topo_graph::MPI_DIST_GRAPH,
                None => MPI_UNDEFINED,
            };
            put(status, &[t], "status")
        })
    }

    /// Fills the zero entries of `dims` with a balanced factorisation of `nnodes` divided by
    /// the product of the nonzero entries (non-increasing, as close to each other as
    /// possible). `MPI_ERR_DIMS` when that product does not divide `nnodes` or an entry is
    /// negative; `MPI_ERR_ARG` for a non-positive `nnodes`.
    fn MPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> c_int
        => PMPI_Dims_create
    {
        call("MPI_Dims_create", MPI_COMM_WORLD, || {
            let n = ndims_arg(ndims)?;
            if nnodes <= 0 {
                return Err(MpiError::new(MPI_ERR_ARG, format!("nnodes {nnodes} is not positive")));
            }
            let mut d = ints(dims, n, "dims")?;
            if let Some((i, v)) = d.iter().enumerate().find(|(_, v)| **v < 0) {
                return Err(MpiError::new(MPI_ERR_DIMS, format!("dims[{i}] = {v} is negative")));
            }
            let fixed: u64 = d.iter().filter(|&&v| v > 0).map(|&v| v as u64).product();
            let nn = nnodes as u64;
            if !nn.is_multiple_of(fixed) {
                return Err(MpiError::new(
                    MPI_ERR_DIMS,
                    format!("the fixed dims (product {fixed}) do not divide nnodes {nnodes}"),
                ));
            }
            let free = d.iter().filter(|&&v| v == 0).count();
            let f = balanced(nn / fixed, free).ok_or_else(|| {
                MpiError::new(
                    MPI_ERR_DIMS,
                    format!("the fixed dims (product {fixed}) are not nnodes {nnodes} and none is free"),
                )
            })?;
            let mut it = f.into_iter();
            for v in d.iter_mut().filter(|v| **v == 0) {
                *v = it.next().expect("one factor per free entry") as c_int;
            }
            put(dims, &d, "dims")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_factorisations() {
        assert_eq!(balanced(12, 2), Some(vec![4, 3]));
        assert_eq!(balanced(16, 2), Some(vec![4, 4]));
        assert_eq!(balanced(24, 3), Some(vec![4, 3, 2]));
        assert_eq!(balanced(7, 3), Some(vec![7, 1, 1]));
        assert_eq!(balanced(1, 2), Some(vec![1, 1]));
        assert_eq!(balanced(64, 3), Some(vec![4, 4, 4]));
        assert_eq!(balanced(36, 2), Some(vec![6, 6]));
        assert_eq!(balanced(5, 0), None);
        assert_eq!(balanced(1, 0), Some(vec![]));
        // MPICH's choices (its topo/dims5 test): smallest spread, then the largest smallest
        // factor.
        for (m, k, want) in [
            (72, 2, vec![9, 8]),
            (5040, 3, vec![21, 16, 15]),
            (6240, 3, vec![26, 16, 15]),
            (10800, 3, vec![27, 20, 20]),
            (228072, 3, vec![86, 52, 51]),
            (149760, 4, vec![26, 20, 18, 16]),
            (712656, 5, vec![101, 14, 9, 8, 7]),
            (117936, 5, vec![14, 13, 9, 9, 8]),
        ] {
            assert_eq!(balanced(m, k), Some(want), "{m} in {k} dimensions");
        }
        // Many dimensions of a power of two, and a large prime, stay quick.
        assert_eq!(balanced(1 << 30, 30), Some(vec![2; 30]));
        assert_eq!(balanced(2_147_483_647, 3), Some(vec![2_147_483_647, 1, 1]));
    }

    #[test]
    fn coords_and_ranks_roundtrip() {
        let c = Cart {
            dims: vec![2, 3],
            periods: vec![false, true],
        };
        for r in 0..6 {
            assert_eq!(c.rank(&c.coords(r)), Some(r));
        }
        assert_eq!(c.coords(5), vec![1, 2]);
        assert_eq!(c.rank(&[0, -1]), Some(2), "periodic wrap");
        assert_eq!(c.rank(&[2, 0]), None, "outside a non-periodic dimension");
    }
}
