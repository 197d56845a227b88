//! Rooted collective entry points (bcast, reduce, gather(v), scatter(v)), each blocking and as
//! `nexar_i*` returning a request; one argument handler per collective in `coll_start.rs`.
//!
//! Common to all: collective over `comm` (every member calls it, in the same order as every
//! other collective on `comm`, with matching root, op, datatype and counts). Counts and
//! displacements are in elements of `datatype`. Send buffers are copied before the call returns.

use crate::boundary::call;
use crate::coll_start as start;
use crate::request::into_request;
use crate::types::{nexar_comm_t, nexar_datatype_t, nexar_op_t, nexar_request_t};
use std::ffi::{c_int, c_void};

/// Copies `count` elements of `datatype` from `buf` at rank `root` into `buf` at every rank. `buf`
/// holds `count` elements on every rank.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Built with `nccl`: may run through NCCL (automatic routing, decided per communicator;
/// docs/GPU.md); the `nexar_i*` form never does, and the two never match across ranks.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_bcast(
    buf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_bcast", || {
        start::bcast(buf, count, datatype, root, comm, nexar::Mode::Blocking)?.wait()
    })
}

/// Non-blocking `nexar_bcast`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_bcast` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ibcast(
    buf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ibcast", || {
        into_request(request, || {
            start::bcast(buf, count, datatype, root, comm, nexar::Mode::Request)
        })
    })
}

/// Reduces `count` elements from every rank's `sendbuf` with `op` into `recvbuf` at `root`
/// (`recvbuf` is ignored elsewhere and may be NULL). At the root, `sendbuf` may be
/// `NEXAR_IN_PLACE` (input taken from `recvbuf`). Buffers hold `count` elements.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`, `NEXAR_ERR_OP` (unknown op, or not defined for the
/// datatype).
#[unsafe(no_mangle)]
pub extern "C" fn nexar_reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_reduce", || {
        start::reduce(
            sendbuf,
            recvbuf,
            count,
            datatype,
            op,
            root,
            comm,
            nexar::Mode::Blocking,
        )?
        .wait()
    })
}

/// Non-blocking `nexar_reduce`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_reduce` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_ireduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    op: nexar_op_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_ireduce", || {
        into_request(request, || {
            start::reduce(
                sendbuf,
                recvbuf,
                count,
                datatype,
                op,
                root,
                comm,
                nexar::Mode::Request,
            )
        })
    })
}

/// Gathers `count` elements from every rank's `sendbuf` into `recvbuf` at `root`, in rank order
/// (`recvbuf` holds `size * count` elements at the root and is ignored elsewhere). At the root,
/// `sendbuf` may be `NEXAR_IN_PLACE` (its block is already in place).
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_gather(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_gather", || {
        start::gather(sendbuf, recvbuf, count, datatype, root, comm)?.wait()
    })
}

/// Non-blocking `nexar_gather`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_gather` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_igather(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_igather", || {
        into_request(request, || {
            start::gather(sendbuf, recvbuf, count, datatype, root, comm)
        })
    })
}

/// Gathers `sendcount` elements from every rank into `recvbuf` at `root`: rank `i`'s block goes to
/// `displs[i]` (elements; packed in rank order if `displs` is NULL) and must be `recvcounts[i]`
/// long. `recvcounts`, `displs` and `recvbuf` are read at the root only. At the root, `sendbuf`
/// may be `NEXAR_IN_PLACE`. Count arrays hold `size` entries.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_gatherv(
    sendbuf: *const c_void,
    sendcount: usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_gatherv", || {
        start::gatherv(
            sendbuf, sendcount, recvbuf, recvcounts, displs, datatype, root, comm,
        )?
        .wait()
    })
}

/// Non-blocking `nexar_gatherv`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_gatherv` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_igatherv(
    sendbuf: *const c_void,
    sendcount: usize,
    recvbuf: *mut c_void,
    recvcounts: *const usize,
    displs: *const usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_igatherv", || {
        into_request(request, || {
            start::gatherv(
                sendbuf, sendcount, recvbuf, recvcounts, displs, datatype, root, comm,
            )
        })
    })
}

/// Splits the root's `sendbuf` (`size * count` elements, read at the root only) into blocks of
/// `count`; rank `i` receives block `i` in `recvbuf`. At the root, `recvbuf` may be
/// `NEXAR_IN_PLACE` (the root keeps its block where it is).
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array,
/// `sendbuf` overlapping `recvbuf` other than as `NEXAR_IN_PLACE`),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_scatter", || {
        start::scatter(sendbuf, recvbuf, count, datatype, root, comm)?.wait()
    })
}

/// Non-blocking `nexar_scatter`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_scatter` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iscatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iscatter", || {
        into_request(request, || {
            start::scatter(sendbuf, recvbuf, count, datatype, root, comm)
        })
    })
}

/// Sends `sendcounts[i]` elements from `displs[i]` of the root's `sendbuf` (packed if `displs` is
/// NULL) to rank `i`, which receives `recvcount` elements into `recvbuf`. `sendbuf`, `sendcounts`
/// and `displs` are read at the root only. At the root, `recvbuf` may be `NEXAR_IN_PLACE`. Count
/// arrays hold `size` entries.
///
/// Blocking: yes, until this rank's part is complete. Thread safety: any thread.
/// Errors: `NEXAR_ERR_ARG` (a NULL buffer with a non-zero count, a NULL count array),
/// `NEXAR_ERR_COUNT` (overflowing or inconsistent counts), `NEXAR_ERR_DATATYPE`, `NEXAR_ERR_COMM`,
/// `NEXAR_ERR_PROC_FAILED`, `NEXAR_ERR_MISMATCH` (ranks disagree), `NEXAR_ERR_NOT_INITIALIZED`,
/// `NEXAR_ERR_FINALIZED`, `NEXAR_ERR_ROOT`.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_scatterv(
    sendbuf: *const c_void,
    sendcounts: *const usize,
    displs: *const usize,
    recvbuf: *mut c_void,
    recvcount: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
) -> c_int {
    call("nexar_scatterv", || {
        start::scatterv(
            sendbuf, sendcounts, displs, recvbuf, recvcount, datatype, root, comm,
        )?
        .wait()
    })
}

/// Non-blocking `nexar_scatterv`: starts it and writes a request to `*request` (complete it with
/// `nexar_wait` / `nexar_test`). Receive buffers must stay valid and untouched until the request
/// completes; send buffers are copied before the call returns. Calls are matched across ranks in
/// the order they are started.
///
/// Blocking: no. Thread safety: any thread.
/// Errors: those of `nexar_scatterv` found before starting, plus `NEXAR_ERR_ARG` for a NULL
/// `request`; later failures are reported by the request.
#[unsafe(no_mangle)]
pub extern "C" fn nexar_iscatterv(
    sendbuf: *const c_void,
    sendcounts: *const usize,
    displs: *const usize,
    recvbuf: *mut c_void,
    recvcount: usize,
    datatype: nexar_datatype_t,
    root: c_int,
    comm: nexar_comm_t,
    request: *mut nexar_request_t,
) -> c_int {
    call("nexar_iscatterv", || {
        into_request(request, || {
            start::scatterv(
                sendbuf, sendcounts, displs, recvbuf, recvcount, datatype, root, comm,
            )
        })
    })
}
