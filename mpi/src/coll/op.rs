//! Reduction operations: `MPI_Op_create(_c)`, `MPI_Op_free`, `MPI_Op_commutative` and
//! `MPI_Reduce_local(_c)`, and [`op`], which resolves any `MPI_Op` handle (predefined or user)
//! into an [`OpSpec`] that the reduction collectives turn into an engine [`Reducer`].
//!
//! User ops live in a handle table of their own ([`crate::table::Table`]). The engine combines
//! with a `UserCombiner`, which calls the C function as the standard says: `invec` is the
//! operand that comes first in rank order, `inoutvec` the second, and the function leaves
//! `invec ⊕ inoutvec` in `inoutvec`; `*len` is the number of elements of the caller's datatype
//! and `*datatype` that datatype's handle. A non-commutative op is always combined in rank order
//! (the engine selects only order-preserving algorithms for it). An operation that is running
//! keeps its function after `MPI_Op_free` (the standard lets pending operations complete).

use crate::args::Buf;
use crate::consts::*;
use crate::datatype::layout::Type;
use crate::datatype::pack::{pack, unpack};
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::table::{Table, USER_HANDLES};
use nexar::{CustomOp, Datatype, Order, ReduceOp, Reducer};
use parking_lot::Mutex;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// `MPI_User_function`: `void (*)(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)`.
pub type MPI_User_function =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype);

/// `MPI_User_function_c`: like [`MPI_User_function`] with an `MPI_Count` length.
pub type MPI_User_function_c =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut MPI_Count, *mut MPI_Datatype);

/// `MPI_REPLACE` and `MPI_NO_OP`: predefined (for one-sided accumulates), not for reductions.
const MPI_REPLACE: MPI_Op = 0x3c;
const MPI_NO_OP: MPI_Op = 0x3d;

/// The predefined operation handles (`MPI_OP_NULL` excluded) lie in this range.
const PREDEFINED: std::ops::Range<MPI_Op> = 0x21..0x40;

/// A user function, either flavour.
#[derive(Debug, Clone, Copy)]
enum UserFn {
    /// From `MPI_Op_create`: lengths are `int`.
    Int(MPI_User_function),
    /// From `MPI_Op_create_c`: lengths are `MPI_Count`.
    Count(MPI_User_function_c),
    /// From Fortran's `MPI_OP_CREATE`: lengths are INTEGER, and the datatype is the Fortran
    /// INTEGER handle (every argument by reference).
    Fortran(FortranUserFunction),
}

/// A Fortran user reduction (`SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE)`) as gfortran
/// passes its arguments: all by reference, the datatype an INTEGER handle.
pub type FortranUserFunction =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut c_int);

/// A user operation: its function and whether it commutes.
#[derive(Debug, Clone, Copy)]
pub struct UserOp {
    f: UserFn,
    commute: bool,
}

/// Live user operations.
static OPS: Mutex<Table<UserOp>> = Mutex::new(Table::new(USER_HANDLES));

/// A resolved `MPI_Op` handle.
#[derive(Debug, Clone, Copy)]
pub enum OpSpec {
    /// A predefined operation.
    Builtin(ReduceOp),
    /// A user operation.
    User(UserOp),
}

impl OpSpec {
    /// The engine reducer for a user op over elements of the datatype `dt` (layout `ty`):
    /// the reducer's element is one whole `dt` element in packed form. Predefined ops are
    /// turned into reducers by the caller, which knows the datatype's element type.
    pub fn user_reducer(&self, ty: Arc<Type>, dt: MPI_Datatype) -> Reducer {
        match *self {
            Self::Builtin(op) => Reducer::builtin(op, Datatype::U8),
            Self::User(u) => Reducer::custom(Arc::new(UserCombiner {
                op: u,
                dt,
                elem: ty.size,
                ty,
            })),
        }
    }
}

/// The operation behind handle `h`, or `MPI_ERR_OP` (NULL, freed, unknown, or a predefined op
/// that is not a reduction such as `MPI_REPLACE`).
pub fn op(h: MPI_Op) -> Result<OpSpec> {
    if let Some(o) = crate::handles::op_of(h) {
        return Ok(OpSpec::Builtin(o));
    }
    if let Some(u) = OPS.lock().get(h) {
        return Ok(OpSpec::User(*u));
    }
    Err(MpiError::new(
        MPI_ERR_OP,
        match h {
            MPI_OP_NULL => "operation is MPI_OP_NULL".to_string(),
            MPI_REPLACE | MPI_NO_OP => {
                format!("operation {h:#x} is for one-sided accumulates only")
            }
            _ => format!("invalid or freed operation {h:#x}"),
        },
    ))
}

/// Whether `h` is `MPI_OP_NULL`, a predefined or a live user operation (for `MPI_Op_fromint`).
pub fn op_valid(h: MPI_Op) -> bool {
    h == MPI_OP_NULL || PREDEFINED.contains(&h) || OPS.lock().get(h).is_some()
}

/// The engine's view of a user operation on one datatype.
#[derive(Debug)]
struct UserCombiner {
    op: UserOp,
    /// The caller's datatype handle, passed to the function.
    dt: MPI_Datatype,
    /// Bytes per element of `dt`, packed.
    elem: usize,
    /// The layout of `dt`: the function sees its elements as laid out in memory, so packed
    /// data of a type with holes is unpacked around each call.
    ty: Arc<Type>,
}

/// `len` bytes copied into (or zeroed in) a buffer starting at an `align`-aligned address.
struct AlignedBuf {
    raw: Vec<u8>,
    off: usize,
    len: usize,
}

impl AlignedBuf {
    fn copy_of(src: &[u8], align: usize) -> Self {
        let mut raw = vec![0u8; src.len() + align];
        let off = raw.as_ptr().align_offset(align).min(align);
        raw[off..off + src.len()].copy_from_slice(src);
        Self {
            raw,
            off,
            len: src.len(),
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        &mut self.raw[self.off..self.off + self.len]
    }
}

impl UserCombiner {
    /// The alignment C code may assume for elements of `elem` bytes: the largest power of two
    /// dividing it, at most 16.
    fn align(&self) -> usize {
        (1usize << self.elem.trailing_zeros()).min(16)
    }

    /// Calls the function on whole elements: `inout = input ⊕ inout`, copying either buffer to
    /// an aligned one if needed, in pieces that fit the function's length type.
    fn call(&self, input: &[u8], inout: &mut [u8]) {
        if self.elem > 0 && !self.ty.dense(inout.len() / self.elem) {
            return self.call_expanded(input, inout);
        }
        let align = self.align();
        let misaligned = |p: *const u8| !(p as usize).is_multiple_of(align);
        if misaligned(input.as_ptr()) {
            let mut a = AlignedBuf::copy_of(input, align);
            return self.call(a.bytes(), inout);
        }
        if misaligned(inout.as_ptr()) {
            let mut a = AlignedBuf::copy_of(inout, align);
            self.call(input, a.bytes());
            inout.copy_from_slice(a.bytes());
            return;
        }
        let n = inout.len() / self.elem.max(1);
        // SAFETY: both buffers hold `n` whole elements of `dt`, aligned, `elem` bytes apart.
        unsafe {
            self.invoke(
                input.as_ptr() as usize,
                inout.as_mut_ptr() as usize,
                n,
                self.elem as isize,
            )
        };
    }

    /// Calls the function on `n` elements starting at `input` / `inout`, element `i` at
    /// `i * stride` bytes, in pieces that fit the function's length type.
    ///
    /// # Safety
    /// Both addresses must hold `n` elements of `dt` laid out that way; the function reads
    /// `invec` and writes `inoutvec` only (the MPI contract for user functions).
    unsafe fn invoke(&self, input: usize, inout: usize, n: usize, stride: isize) {
        let max = match self.op.f {
            UserFn::Int(_) | UserFn::Fortran(_) => i32::MAX as usize,
            UserFn::Count(_) => i64::MAX as usize,
        };
        let mut done = 0;
        while done < n {
            let k = (n - done).min(max);
            let off = done as isize * stride;
            let mut dt = self.dt;
            let ip = input.wrapping_add_signed(off) as *mut c_void;
            let op = inout.wrapping_add_signed(off) as *mut c_void;
            // SAFETY: per this function's contract.
            unsafe {
                match self.op.f {
                    UserFn::Int(f) => f(ip, op, &mut (k as c_int), &mut dt),
                    UserFn::Count(f) => f(ip, op, &mut (k as MPI_Count), &mut dt),
                    UserFn::Fortran(f) => f(
                        ip,
                        op,
                        &mut (k as c_int),
                        &mut crate::handles::PMPI_Type_toint(dt),
                    ),
                }
            }
            done += k;
        }
    }
}

impl UserCombiner {
    /// [`Self::call`] for a datatype with holes: both packed operands are unpacked into
    /// 16-byte-aligned memory laid out as the datatype says, the function runs there, and the
    /// result is packed back into `inout`.
    fn call_expanded(&self, input: &[u8], inout: &mut [u8]) {
        let n = inout.len() / self.elem;
        let ty = &*self.ty;
        let last = (n as isize - 1) * ty.extent();
        let lo = ty.true_lb.min(ty.true_lb + last);
        let hi = ty.true_ub.max(ty.true_ub + last);
        let words = ((hi - lo) as usize).div_ceil(16);
        let (mut a, mut b) = (vec![0u128; words], vec![0u128; words]);
        // The address of element 0: `lo` bytes before the start of each allocation.
        let base_a = (a.as_mut_ptr() as usize).wrapping_add_signed(-lo);
        let base_b = (b.as_mut_ptr() as usize).wrapping_add_signed(-lo);
        // SAFETY: each allocation covers the typemap of `n` elements at its base.
        unsafe {
            unpack(input, base_a, n, ty);
            unpack(inout, base_b, n, ty);
        }
        // SAFETY: both allocations hold `n` elements laid out at their bases.
        unsafe { self.invoke(base_a, base_b, n, ty.extent()) };
        let mut out = Vec::with_capacity(inout.len());
        // SAFETY: `b` holds `n` elements laid out at `base_b`.
        unsafe { pack(base_b, n, ty, &mut out) };
        inout.copy_from_slice(&out);
    }
}

impl CustomOp for UserCombiner {
    fn combine(&self, acc: &mut [u8], inc: &[u8], order: Order) {
        match order {
            // acc = inc ⊕ acc: inc is invec, acc the inoutvec.
            Order::IncFirst => self.call(inc, acc),
            // acc = acc ⊕ inc: the result must land in the right operand, so go through a copy.
            Order::AccFirst => {
                let mut right = AlignedBuf::copy_of(inc, self.align());
                self.call(acc, right.bytes());
                acc.copy_from_slice(right.bytes());
            }
        }
    }

    fn elem_size(&self) -> usize {
        self.elem
    }

    fn commutative(&self) -> bool {
        self.op.commute
    }
}

/// Registers a user operation and writes its handle to `*out`.
fn create(f: UserFn, commute: c_int, out: *mut MPI_Op) -> Result<()> {
    non_null(out, "op")?;
    let h = OPS
        .lock()
        .insert(UserOp {
            f,
            commute: commute != 0,
        })
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many user operations"))?;
    // SAFETY: checked non-NULL; the caller's `MPI_Op` out-parameter.
    unsafe { *out = h };
    Ok(())
}

/// Fortran's `MPI_OP_CREATE` (called by its binding in [`crate::fortran_manual`]): as
/// `MPI_Op_create`, for a Fortran function; `commute` is a C truth value.
pub(crate) fn create_from_fortran(
    user_fn: Option<FortranUserFunction>,
    commute: c_int,
    op: *mut MPI_Op,
) -> c_int {
    call("MPI_Op_create", MPI_COMM_WORLD, || {
        let f = user_fn.ok_or_else(|| MpiError::new(MPI_ERR_ARG, "argument `user_fn` is NULL"))?;
        create(UserFn::Fortran(f), commute, op)
    })
}

/// `MPI_Reduce_local(_c)`: `inoutbuf = inbuf ⊕ inoutbuf`.
fn reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    n: MPI_Count,
    dt: MPI_Datatype,
    o: MPI_Op,
) -> Result<()> {
    let spec = op(o)?;
    let input = Buf::new(inbuf, n, dt, "input")?;
    let inout = Buf::new(inoutbuf, n, dt, "in-out")?;
    if inout.len > 0 && std::ptr::eq(input.ptr, inout.ptr) {
        return Err(MpiError::new(
            MPI_ERR_BUFFER,
            "the input and in-out buffers must be distinct",
        ));
    }
    let reducer = match spec {
        OpSpec::Builtin(o) => crate::coll::reducers::builtin(o, &inout.ty, inout.len)?,
        OpSpec::User(_) => spec.user_reducer(inout.ty.to_arc(), dt),
    };
    // SAFETY: `Buf::new` checked the pointers; readable/writable per the MPI contract.
    let i = unsafe { input.send_bytes()? };
    let mut target = inout.recv_target();
    // SAFETY: as above; for a dense layout the target is the user's memory itself.
    let io = unsafe { target.slice() };
    if !inout.is_dense() {
        // SAFETY: readable per the contract.
        io.copy_from_slice(&unsafe { inout.send_bytes()? });
    }
    nexar::reduce_local_with(&reducer, &i, io)?;
    let len = target.len();
    // SAFETY: writable per the contract.
    unsafe { target.finish(len)? };
    Ok(())
}

mpi_fn! {
    /// Creates a user reduction operation (`commute` non-zero if it is commutative).
    fn MPI_Op_create(user_fn: Option<MPI_User_function>, commute: c_int, op: *mut MPI_Op) -> c_int
        => PMPI_Op_create
    {
        call("MPI_Op_create", MPI_COMM_WORLD, || {
            let f = user_fn.ok_or_else(|| MpiError::new(MPI_ERR_ARG, "argument `user_fn` is NULL"))?;
            create(UserFn::Int(f), commute, op)
        })
    }

    /// Creates a user reduction operation whose function takes an `MPI_Count` length.
    fn MPI_Op_create_c(user_fn: Option<MPI_User_function_c>, commute: c_int, op: *mut MPI_Op)
        -> c_int => PMPI_Op_create_c
    {
        call("MPI_Op_create_c", MPI_COMM_WORLD, || {
            let f = user_fn.ok_or_else(|| MpiError::new(MPI_ERR_ARG, "argument `user_fn` is NULL"))?;
            create(UserFn::Count(f), commute, op)
        })
    }

    /// Frees a user operation and sets `*op` to `MPI_OP_NULL`; predefined operations cannot be
    /// freed (`MPI_ERR_OP`).
    fn MPI_Op_free(op: *mut MPI_Op) -> c_int => PMPI_Op_free {
        call("MPI_Op_free", MPI_COMM_WORLD, || {
            non_null(op, "op")?;
            // SAFETY: checked non-NULL; the caller's handle.
            let h = unsafe { *op };
            if h == MPI_OP_NULL || PREDEFINED.contains(&h) {
                return Err(MpiError::new(
                    MPI_ERR_OP,
                    format!("operation {h:#x} is predefined or MPI_OP_NULL and cannot be freed"),
                ));
            }
            OPS.lock().remove(h).ok_or_else(|| {
                MpiError::new(MPI_ERR_OP, format!("invalid or already freed operation {h:#x}"))
            })?;
            // SAFETY: as above.
            unsafe { *op = MPI_OP_NULL };
            Ok(())
        })
    }

    /// Writes 1 to `*commute` if `op` is commutative (every predefined operation is), else 0.
    fn MPI_Op_commutative(op: MPI_Op, commute: *mut c_int) -> c_int => PMPI_Op_commutative {
        call("MPI_Op_commutative", MPI_COMM_WORLD, || {
            non_null(commute, "commute")?;
            let c = if PREDEFINED.contains(&op) {
                true
            } else {
                match self::op(op)? {
                    OpSpec::Builtin(_) => true,
                    OpSpec::User(u) => u.commute,
                }
            };
            // SAFETY: checked non-NULL.
            unsafe { *commute = c_int::from(c) };
            Ok(())
        })
    }

    /// `inoutbuf = inbuf ⊕ inoutbuf` over `count` elements of `datatype`, on this process.
    fn MPI_Reduce_local(inbuf: *const c_void, inoutbuf: *mut c_void, count: c_int,
                        datatype: MPI_Datatype, op: MPI_Op) -> c_int => PMPI_Reduce_local {
        call("MPI_Reduce_local", MPI_COMM_WORLD, || {
            reduce_local(inbuf, inoutbuf, crate::args::count(count), datatype, op)
        })
    }

    /// Large-count [`MPI_Reduce_local`].
    fn MPI_Reduce_local_c(inbuf: *const c_void, inoutbuf: *mut c_void, count: MPI_Count,
                          datatype: MPI_Datatype, op: MPI_Op) -> c_int => PMPI_Reduce_local_c {
        call("MPI_Reduce_local_c", MPI_COMM_WORLD, || {
            reduce_local(inbuf, inoutbuf, count, datatype, op)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Affine maps on pairs of ints: `(a1,b1) ⊕ (a2,b2) = (a1*a2, a2*b1 + b2)`.
    unsafe extern "C" fn affine(
        inv: *mut c_void,
        inout: *mut c_void,
        len: *mut c_int,
        _dt: *mut MPI_Datatype,
    ) {
        // SAFETY: the shim passes `*len` aligned pairs of i32 in each buffer.
        unsafe {
            let n = *len as usize;
            let i = std::slice::from_raw_parts(inv as *const i32, 2 * n);
            let o = std::slice::from_raw_parts_mut(inout as *mut i32, 2 * n);
            for e in 0..n {
                let (a1, b1, a2, b2) = (i[2 * e], i[2 * e + 1], o[2 * e], o[2 * e + 1]);
                o[2 * e] = a1.wrapping_mul(a2);
                o[2 * e + 1] = a2.wrapping_mul(b1).wrapping_add(b2);
            }
        }
    }

    fn pairs(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    #[test]
    fn combiner_orders_operands_and_handles_misalignment() {
        let c = UserCombiner {
            op: UserOp {
                f: UserFn::Int(affine),
                commute: false,
            },
            dt: 0x22b,
            elem: 8,
            ty: crate::datatype::predefined::get(0x22b).unwrap(),
        };
        let (f, g) = ([2, 3], [5, 7]);
        // f ⊕ g = (10, 5*3 + 7) ; g ⊕ f = (10, 2*7 + 3)
        let mut acc = pairs(&f);
        c.combine(&mut acc, &pairs(&g), Order::AccFirst);
        assert_eq!(acc, pairs(&[10, 22]));
        let mut acc = pairs(&f);
        c.combine(&mut acc, &pairs(&g), Order::IncFirst);
        assert_eq!(acc, pairs(&[10, 17]));
        // Misaligned operands are copied to aligned ones first.
        // A heap buffer (16-aligned), so `big[1..]` is misaligned for the i32 pairs.
        let mut big: Vec<u8> = std::iter::repeat_n(0, 17).collect();
        big[1..].copy_from_slice(&pairs(&[2, 3, 1, 1]));
        let inc = pairs(&[5, 7, 3, 4]);
        c.combine(&mut big[1..], &inc, Order::AccFirst);
        assert_eq!(&big[1..], &pairs(&[10, 22, 3, 3 + 4])[..]);
    }
}
