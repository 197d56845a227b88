//! `MPI_Alltoallw` and `MPI_Ialltoallw` (and their large-count `_c` forms): an all-to-all
//! exchange where every peer's block has its own count, byte displacement and datatype, on
//! both sides.
//!
//! Each peer's send block is packed with its datatype, the packed blocks move through the
//! engine's byte-level alltoallv, and on completion each received block is unpacked with its
//! datatype at its byte displacement in the receive buffer. Send and receive types need only
//! matching signatures (the packed sizes of the blocks exchanged must agree). `MPI_IN_PLACE`
//! as `sendbuf` takes the data to send from the receive buffer, described by the receive
//! arguments (packed before anything is received).

use crate::args::{Buf, RecvTarget, in_place};
use crate::coll::blocking::Complete;
use crate::coll::blocking::same_len;
use crate::coll::vector::ArrayInt;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::request::table::MPI_Request;
use crate::state::comm;
use nexar::Datatype::U8;
use nexar::{Comm, Dest, PendingCollective};
use std::ffi::{c_int, c_void};

/// Reads `n` entries of the caller's array `what` (checked for NULL).
fn read<T: Copy>(p: *const T, n: usize, what: &str) -> Result<Vec<T>> {
    non_null(p, what)?;
    // SAFETY: checked for NULL; the array holds one entry per rank (the MPI contract).
    Ok((0..n).map(|i| unsafe { p.add(i).read() }).collect())
}

/// One side of an alltoallw: per-peer counts, byte displacements and datatypes.
struct Side {
    bufs: Vec<Buf>,
}

impl Side {
    /// Checks the per-peer blocks of `base` (`what`: "send" or "recv", as in the parameter
    /// names `sendcounts`, `recvtypes`). A block is `counts[i]` instances of `types[i]`
    /// starting `displs[i]` bytes after `base`.
    fn new<C: ArrayInt, D: ArrayInt>(
        base: *const c_void,
        (counts, displs, types): (*const C, *const D, *const MPI_Datatype),
        n: usize,
        what: &str,
    ) -> Result<Self> {
        let cs = read(counts, n, &format!("{what}counts"))?;
        let dname = format!("{}displs", &what[..1]);
        let ds = read(displs, n, &dname)?;
        let ts = read(types, n, &format!("{what}types"))?;
        let bufs = (0..n)
            .map(|i| {
                let c = cs[i].wide();
                if c < 0 {
                    return Err(MpiError::new(
                        MPI_ERR_COUNT,
                        format!("{what}counts[{i}] = {c} is negative"),
                    ));
                }
                let d = isize::try_from(ds[i].wide()).map_err(|_| {
                    MpiError::new(MPI_ERR_ARG, format!("{dname}[{i}] is out of range"))
                })?;
                // An empty block's datatype is still checked (MPI_ERR_TYPE), its address not.
                let p = if c == 0 {
                    base
                } else {
                    base.cast::<u8>().wrapping_offset(d).cast()
                };
                Buf::new(p, c, ts[i], &format!("{what} block {i}")).map_err(|e| match e.class {
                    MPI_ERR_TYPE => {
                        MpiError::new(e.class, format!("{what}types[{i}]: {}", e.message))
                    }
                    _ => e,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self { bufs })
    }

    /// Packed byte counts and offsets of the blocks, and their total.
    fn layout(&self) -> Result<(Vec<usize>, Vec<usize>, usize)> {
        let mut offs = Vec::with_capacity(self.bufs.len());
        let mut total = 0usize;
        for b in &self.bufs {
            offs.push(total);
            total = total
                .checked_add(b.len)
                .ok_or_else(|| MpiError::new(MPI_ERR_COUNT, "block sizes overflow"))?;
        }
        Ok((self.bufs.iter().map(|b| b.len).collect(), offs, total))
    }

    /// The blocks packed one after another.
    fn pack(&self, total: usize) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(total);
        for b in &self.bufs {
            // SAFETY: `Buf::new` checked the block; readable per the MPI contract.
            out.extend_from_slice(&unsafe { b.send_bytes()? });
        }
        Ok(out)
    }
}

/// Where an alltoallw's (or a neighbourhood collective's) result lands: the packed result in
/// `temp`, then each block (at its offset) is unpacked into its target.
pub(crate) struct BlockTargets {
    temp: Vec<u8>,
    targets: Vec<(RecvTarget, usize)>,
}

impl BlockTargets {
    /// `total` packed bytes, landing in `targets` (each with its packed offset).
    pub(crate) fn new(total: usize, targets: Vec<(RecvTarget, usize)>) -> Self {
        Self {
            temp: vec![0; total],
            targets,
        }
    }
}

impl nexar::Target for BlockTargets {
    fn buf(&mut self) -> &mut [u8] {
        &mut self.temp
    }

    fn land(self: Box<Self>) -> nexar::Result<()> {
        for (mut t, off) in self.targets {
            let n = t.len();
            if n == 0 {
                continue;
            }
            // SAFETY: the block was checked at start; the MPI contract keeps the receive
            // buffer valid and untouched until the operation completes.
            unsafe {
                t.slice().copy_from_slice(&self.temp[off..off + n]);
                t.finish(n)?;
            }
        }
        Ok(())
    }
}

/// Starts an alltoallw on `c`.
fn alltoallw<C: ArrayInt, D: ArrayInt>(
    sbuf: *const c_void,
    send: (*const C, *const D, *const MPI_Datatype),
    rbuf: *mut c_void,
    recv: (*const C, *const D, *const MPI_Datatype),
    c: &Comm,
) -> Result<PendingCollective> {
    // An intercommunicator's blocks go to and come from the remote group's ranks.
    let n = c.peer_count() as usize;
    let me = c.rank() as usize;
    let rs = Side::new(rbuf, recv, n, "recv")?;
    let ss = if in_place(sbuf) {
        None
    } else {
        Some(Side::new(sbuf, send, n, "send")?)
    };
    let (rc, rd, rtotal) = rs.layout()?;
    let (sc, sd, data) = match &ss {
        Some(s) => {
            let (sc, sd, total) = s.layout()?;
            (sc, sd, s.pack(total)?)
        }
        // In place: the receive blocks are sent, packed before the exchange overwrites them.
        None => (rc.clone(), rd.clone(), rs.pack(rtotal)?),
    };
    // A rank's block to itself (there is none between the groups of an intercommunicator).
    if !c.is_inter() {
        same_len(sc[me], rc[me])?;
    }
    let p = c.start_alltoallv(&data, &sc, Some(&sd), U8, &rc, Some(&rd), rtotal)?;
    let targets = rs
        .bufs
        .iter()
        .zip(&rd)
        .map(|(b, &off)| (b.recv_target(), off))
        .collect();
    Ok(p.to(Dest::Target(Box::new(BlockTargets::new(rtotal, targets)))))
}

mpi_fn! {
    /// All-to-all exchange with per-peer counts, byte displacements and datatypes on both
    /// sides (`sendbuf` may be `MPI_IN_PLACE`: the receive arguments then describe the data
    /// sent).
    fn MPI_Alltoallw(
        sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const c_int,
        sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int,
        rdispls: *const c_int, recvtypes: *const MPI_Datatype, comm_h: MPI_Comm
    ) -> c_int => PMPI_Alltoallw {
        call("MPI_Alltoallw", comm_h, || {
            let c = comm(comm_h)?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                      (recvcounts, rdispls, recvtypes), &c)?.complete()
        })
    }

    /// Large-count [`MPI_Alltoallw`].
    fn MPI_Alltoallw_c(
        sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint,
        sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count,
        rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm_h: MPI_Comm
    ) -> c_int => PMPI_Alltoallw_c {
        call("MPI_Alltoallw_c", comm_h, || {
            let c = comm(comm_h)?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                      (recvcounts, rdispls, recvtypes), &c)?.complete()
        })
    }

    /// Non-blocking [`MPI_Alltoallw`].
    fn MPI_Ialltoallw(
        sendbuf: *const c_void, sendcounts: *const c_int, sdispls: *const c_int,
        sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const c_int,
        rdispls: *const c_int, recvtypes: *const MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request
    ) -> c_int => PMPI_Ialltoallw {
        call("MPI_Ialltoallw", comm_h, || {
            non_null(request, "request")?;
            let c = comm(comm_h)?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                      (recvcounts, rdispls, recvtypes), &c)?.into_request(comm_h, request)
        })
    }

    /// Large-count [`MPI_Ialltoallw`].
    fn MPI_Ialltoallw_c(
        sendbuf: *const c_void, sendcounts: *const MPI_Count, sdispls: *const MPI_Aint,
        sendtypes: *const MPI_Datatype, recvbuf: *mut c_void, recvcounts: *const MPI_Count,
        rdispls: *const MPI_Aint, recvtypes: *const MPI_Datatype, comm_h: MPI_Comm,
        request: *mut MPI_Request
    ) -> c_int => PMPI_Ialltoallw_c {
        call("MPI_Ialltoallw_c", comm_h, || {
            non_null(request, "request")?;
            let c = comm(comm_h)?;
            alltoallw(sendbuf, (sendcounts, sdispls, sendtypes), recvbuf,
                      (recvcounts, rdispls, recvtypes), &c)?.into_request(comm_h, request)
        })
    }
}
