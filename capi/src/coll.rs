//! Collective entry points without a root (barrier, allreduce, allgather(v), alltoall(v),
//! reduce_scatter(_block), scan, exscan), each blocking and as `nexar_i*` returning a request;
//! one argument handler per collective in `coll_start.rs`.
//!
//! Common to all: collective over `comm` (every member calls it, in the same order as every
//! other collective on `comm`, with matching root, op, datatype and counts). Counts and
//! displacements are in elements of `datatype`. Send buffers are copied before the call returns.

use crate::boundary::call;
use crate::coll_start as start;
use crate::request::into_request;
use crate::types::{nexar_comm_t, nexar_datatype_t, nexar_op_t, nexar_request_t};
use nexar::Mode::{Blocking, Request};
use std::ffi::{c_int, c_void};

/// Waits until every rank of `comm` has entered the barrier.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// On one host it runs on the communicator's shared flag area (the calling threads meet in
/// shared memory); as in MPI it matches only `nexar_barrier` on the other ranks, never
/// `nexar_ibarrier` (mixing the two fails with `NEXAR_ERR_MISMATCH`).
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_barrier(comm: nexar_comm_t) -> c_int {
    call("nexar_barrier", || {
        start::barrier(comm, nexar::Mode::Blocking)?.wait()
    })
}

/// Non-blocking `nexar_barrier`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_barrier` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ibarrier(comm: nexar_comm_t, request: *mut nexar_request_t) -> c_int {
    call("nexar_ibarrier", || {
        into_request(request, || start::barrier(comm, nexar::Mode::Request))
    })
}

/// Reduces `count` elements from every rank's `sendbuf` with `op`; every rank gets the result in
/// `recvbuf`, bitwise identical everywhere. `sendbuf` may be `NEXAR_IN_PLACE`. Buffers hold
/// `count` elements.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Up to 1 KiB (`NEXAR_FLAGS_MAX`) on one host it runs on the communicator's shared flag area;
/// built with `nccl` it may run through NCCL (automatic routing, decided per communicator;
/// docs/GPU.md). The `nexar_i*` form does neither, and the two never match across ranks (as in
/// MPI; mixing them fails with `NEXAR_ERR_MISMATCH`).
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_OP` (unknown op, or not defined for the datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_allreduce", || {
        start::allreduce(sendbuf, recvbuf, count, datatype, op, comm, Blocking)?.wait()
    })
}

/// Non-blocking `nexar_allreduce`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_allreduce` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iallreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iallreduce", || {
        into_request(request, || {
            start::allreduce(sendbuf, recvbuf, count, datatype, op, comm, Request)
        })
    })
}

/// Gathers `count` elements from every rank's `sendbuf` into every rank's `recvbuf` (`size *
/// count` elements, rank order). `sendbuf` may be `NEXAR_IN_PLACE` (each rank's block already sits
/// at its place in `recvbuf`).
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Up to 1 KiB (`NEXAR_FLAGS_MAX`) on one host it runs on the communicator's shared flag area;
/// built with `nccl` it may run through NCCL (automatic routing, decided per communicator;
/// docs/GPU.md). The `nexar_i*` form does neither, and the two never match across ranks (as in
/// MPI; mixing them fails with `NEXAR_ERR_MISMATCH`).
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_allgather(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_allgather", || {
        start::allgather(sendbuf, recvbuf, count, datatype, comm, Blocking)?.wait()
    })
}

/// Non-blocking `nexar_allgather`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_allgather` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iallgather(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iallgather", || {
        into_request(request, || {
            start::allgather(sendbuf, recvbuf, count, datatype, comm, Request)
        })
    })
}

/// Gathers `sendcount` elements from every rank into every rank's `recvbuf`: rank `i`'s block
/// (`recvcounts[i]` elements) lands at `displs[i]` (packed if `displs` is NULL). `sendbuf` may be
/// `NEXAR_IN_PLACE`. Count arrays hold `size` entries.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_allgatherv(
    sendbuf: *const c_void,
    sendcount: usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_allgatherv", || {
        start::allgatherv(
            sendbuf, sendcount, recvbuf, recvcounts, displs, datatype, comm,
        )?
        .wait()
    })
}

/// Non-blocking `nexar_allgatherv`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_allgatherv` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iallgatherv(
    sendbuf: *const c_void,
    sendcount: usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iallgatherv", || {
        into_request(request, || {
            start::allgatherv(
                sendbuf, sendcount, recvbuf, recvcounts, displs, datatype, comm,
            )
        })
    })
}

/// Every rank sends block `j` (`count` elements) of `sendbuf` to rank `j` and receives block `i`
/// of `recvbuf` from rank `i`. `sendbuf` may be `NEXAR_IN_PLACE` (data taken from `recvbuf`).
/// Buffers hold `size * count` elements.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_alltoall(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_alltoall", || {
        start::alltoall(sendbuf, recvbuf, count, datatype, comm)?.wait()
    })
}

/// Non-blocking `nexar_alltoall`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_alltoall` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ialltoall(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ialltoall", || {
        into_request(request, || {
            start::alltoall(sendbuf, recvbuf, count, datatype, comm)
        })
    })
}

/// Every rank sends `sendcounts[j]` elements from `sdispls[j]` of `sendbuf` to rank `j` and
/// receives `recvcounts[i]` elements at `rdispls[i]` of `recvbuf` from rank `i` (displacement
/// arrays may be NULL for packed blocks). `sendbuf` may be `NEXAR_IN_PLACE` (send layout = receive
/// layout, data taken from `recvbuf`). Count arrays hold `size` entries.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const usize,
    sdispls: *const usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    rdispls: *const usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_alltoallv", || {
        start::alltoallv(
            sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, datatype, comm,
        )?
        .wait()
    })
}

/// Non-blocking `nexar_alltoallv`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_alltoallv` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ialltoallv(
    sendbuf: *const c_void,
    sendcounts: *const usize,
    sdispls: *const usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    rdispls: *const usize,
    datatype: nexar_datatype_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ialltoallv", || {
        into_request(request, || {
            start::alltoallv(
                sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, datatype, comm,
            )
        })
    })
}

/// Reduces `sum(recvcounts)` elements of every rank's `sendbuf` with `op`; rank `i` receives block
/// `i` (`recvcounts[i]` elements) in `recvbuf`. `sendbuf` may be `NEXAR_IN_PLACE` (input is the
/// whole of `recvbuf`; the result is written at its start). `recvcounts` holds `size` entries.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Up to 1 KiB (`NEXAR_FLAGS_MAX`) on one host it runs on the communicator's shared flag area;
/// built with `nccl` it may run through NCCL (automatic routing, decided per communicator;
/// docs/GPU.md). The `nexar_i*` form does neither, and the two never match across ranks (as in
/// MPI; mixing them fails with `NEXAR_ERR_MISMATCH`).
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_OP` (unknown op, or not defined for the datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_reduce_scatter", || {
        start::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, Blocking)?.wait()
    })
}

/// Non-blocking `nexar_reduce_scatter`: starts it and writes a request to `*request` (complete it
/// with `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the
/// request completes; send buffers are copied before the call returns. Calls are matched across
/// ranks in the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_reduce_scatter` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ireduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ireduce_scatter", || {
        into_request(request, || {
            start::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, Request)
        })
    })
}

/// `nexar_reduce_scatter` with `recvcount` elements for every rank (`sendbuf` holds `size *
/// recvcount`).
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Up to 1 KiB (`NEXAR_FLAGS_MAX`) on one host it runs on the communicator's shared flag area;
/// built with `nccl` it may run through NCCL (automatic routing, decided per communicator;
/// docs/GPU.md). The `nexar_i*` form does neither, and the two never match across ranks (as in
/// MPI; mixing them fails with `NEXAR_ERR_MISMATCH`).
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_OP` (unknown op, or not defined for the datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_reduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_reduce_scatter_block", || {
        start::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, Blocking)?
            .wait()
    })
}

/// Non-blocking `nexar_reduce_scatter_block`: starts it and writes a request to `*request`
/// (complete it with `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched
/// until the request completes; send buffers are copied before the call returns. Calls are matched
/// across ranks in the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_reduce_scatter_block` found before starting, plus `NEXAR_ERR_ARG` for a
/// NULL `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ireduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ireduce_scatter_block", || {
        into_request(request, || {
            start::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, Request)
        })
    })
}

/// Inclusive prefix reduction: rank `r` gets `sendbuf_0 op ... op sendbuf_r` (`count` elements) in
/// `recvbuf`. `sendbuf` may be `NEXAR_IN_PLACE`.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_OP` (unknown op, or not defined for the datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_scan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_scan", || {
        start::scan(sendbuf, recvbuf, count, datatype, op, comm, false)?.wait()
    })
}

/// Non-blocking `nexar_scan`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_scan` found before starting, plus `NEXAR_ERR_ARG` for a NULL `request`;
/// later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iscan", || {
        into_request(request, || {
            start::scan(sendbuf, recvbuf, count, datatype, op, comm, false)
        })
    })
}

/// Exclusive prefix reduction: rank `r > 0` gets `sendbuf_0 op ... op sendbuf_{r-1}` in `recvbuf`;
/// rank 0's `recvbuf` is left untouched. `sendbuf` may be `NEXAR_IN_PLACE`.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_OP` (unknown op, or not defined for the datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_exscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_exscan", || {
        start::scan(sendbuf, recvbuf, count, datatype, op, comm, true)?.wait()
    })
}

/// Non-blocking `nexar_exscan`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_exscan` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iexscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iexscan", || {
        into_request(request, || {
            start::scan(sendbuf, recvbuf, count, datatype, op, comm, true)
        })
    })
}
