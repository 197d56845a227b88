//! The attribute-caching model shared by communicators ([`crate::comm::attr`]) and datatypes
//! ([`crate::datatype::attr`]): keyvals with copy and delete callbacks and extra state, and a
//! `void *` value per (object, keyval), each remembering when it was set so that callbacks run
//! in the order the standard asks for. Callbacks run with no lock held, so they may call MPI;
//! an error code they return fails the calling function with that code. A freed keyval stays
//! known while attributes still use it (MPI 4.1 §7.7.2): they can still be read and deleted
//! through it, and their delete callbacks still run; it is released with its last attribute.

use crate::consts::*;
use crate::errors::report::{MpiError, Result, non_null};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};

/// The predefined "do not copy" / "do nothing on delete" callback (`MPI_*_NULL_*_FN`).
pub const NULL_FN: usize = 0;
/// The predefined "copy the value as is" callback (`MPI_*_DUP_FN`).
pub const DUP_FN: usize = 1;
/// `MPI_KEYVAL_INVALID`.
pub const MPI_KEYVAL_INVALID: c_int = 0;

/// A copy callback on objects of handle type `H` (`MPI_Comm_copy_attr_function`, ...).
type CopyFn<H> =
    unsafe extern "C" fn(H, c_int, *mut c_void, *mut c_void, *mut c_void, *mut c_int) -> c_int;
/// A delete callback on objects of handle type `H` (`MPI_Comm_delete_attr_function`, ...).
type DeleteFn<H> = unsafe extern "C" fn(H, c_int, *mut c_void, *mut c_void) -> c_int;

/// A keyval: its callbacks (addresses; [`NULL_FN`] and [`DUP_FN`] are the predefined ones) and
/// extra state.
#[derive(Clone, Copy)]
pub struct Keyval {
    copy: usize,
    delete: usize,
    extra: usize,
    freed: bool,
}

/// Keyvals and values by (object, keyval) for one kind of object; `H` is its handle type.
pub struct AttrStore<H> {
    keyvals: BTreeMap<c_int, Keyval>,
    next: c_int,
    values: BTreeMap<(H, c_int), (usize, u64)>,
    seq: u64,
    /// How messages name this kind's keyvals ("keyval", "datatype keyval").
    noun: &'static str,
}

impl<H: Copy + Ord> AttrStore<H> {
    /// An empty store whose keyvals are numbered from `first` (kinds use disjoint ranges, so
    /// a keyval passed to the wrong kind is caught).
    pub const fn new(first: c_int, noun: &'static str) -> Self {
        Self {
            keyvals: BTreeMap::new(),
            next: first,
            values: BTreeMap::new(),
            seq: 0,
            noun,
        }
    }

    fn set(&mut self, h: H, keyval: c_int, value: usize) {
        self.seq += 1;
        self.values.insert((h, keyval), (value, self.seq));
    }

    /// The value of `keyval` on `h`, if set.
    pub fn get(&self, h: H, keyval: c_int) -> Option<usize> {
        self.values.get(&(h, keyval)).map(|&(v, _)| v)
    }

    /// Keyval `k` if it exists and was not freed.
    pub fn live(&self, k: c_int) -> Option<Keyval> {
        self.keyvals.get(&k).filter(|kv| !kv.freed).copied()
    }

    /// Keyval `k` if it exists: live, or freed but still used by attributes (which may still
    /// be read and deleted through it).
    pub fn known(&self, k: c_int) -> Option<Keyval> {
        self.keyvals.get(&k).copied()
    }

    /// Removes `h`'s value of `k`, and `k` itself if it was freed and this was its last use.
    fn remove_value(&mut self, h: H, k: c_int) {
        self.values.remove(&(h, k));
        self.release_if_unused(k);
    }

    /// Forgets freed keyval `k` once no attribute uses it.
    fn release_if_unused(&mut self, k: c_int) {
        if self.keyvals.get(&k).is_some_and(|kv| kv.freed)
            && !self.values.keys().any(|&(_, used)| used == k)
        {
            self.keyvals.remove(&k);
        }
    }
}

/// One kind's store behind its lock, and the operations on it.
pub type Shared<H> = Mutex<AttrStore<H>>;

fn callback_result(noun: &str, what: &str, keyval: c_int, rc: c_int) -> Result<()> {
    if rc == MPI_SUCCESS {
        return Ok(());
    }
    Err(MpiError::new(
        rc,
        format!("the {what} callback of {noun} {keyval} returned {rc}"),
    ))
}

/// Runs the delete callback of `keyval` (known, freed or not) on `value` attached to `h`.
fn run_delete<H: Copy + Ord>(s: &Shared<H>, h: H, keyval: c_int, value: usize) -> Result<()> {
    let (kv, noun) = {
        let a = s.lock();
        match a.keyvals.get(&keyval) {
            Some(kv) => (*kv, a.noun),
            None => return Ok(()),
        }
    };
    if kv.delete == NULL_FN {
        return Ok(());
    }
    // SAFETY: a function pointer given to the create-keyval call (not 0: checked above; the
    // value 1 is only meaningful as a copy callback and never reaches here as a delete).
    let f: DeleteFn<H> = unsafe { std::mem::transmute::<usize, DeleteFn<H>>(kv.delete) };
    // SAFETY: the C callback's contract.
    let rc = unsafe { f(h, keyval, value as *mut c_void, kv.extra as *mut c_void) };
    callback_result(noun, "delete", keyval, rc)
}

/// The attributes of `h` (keyval, value), in the order they were set.
fn attrs_of<H: Copy + Ord>(s: &Shared<H>, h: H) -> Vec<(c_int, usize)> {
    let a = s.lock();
    let mut v: Vec<(u64, c_int, usize)> = a
        .values
        .range((h, c_int::MIN)..=(h, c_int::MAX))
        .map(|(&(_, k), &(v, seq))| (seq, k, v))
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, k, v)| (k, v)).collect()
}

/// Copies the attributes of `old` onto `new` through their copy callbacks (for the dup
/// functions). On error the attributes copied so far stay on `new`.
pub fn copy_all<H: Copy + Ord>(s: &Shared<H>, old: H, new: H) -> Result<()> {
    for (keyval, value) in attrs_of(s, old) {
        let Some((kv, noun)) = ({
            let a = s.lock();
            a.keyvals.get(&keyval).map(|kv| (*kv, a.noun))
        }) else {
            continue;
        };
        let copied = match kv.copy {
            NULL_FN => None,
            DUP_FN => Some(value),
            f => {
                // SAFETY: a function pointer given to the create-keyval call.
                let f: CopyFn<H> = unsafe { std::mem::transmute::<usize, CopyFn<H>>(f) };
                let (mut out, mut flag): (*mut c_void, c_int) = (std::ptr::null_mut(), 0);
                // SAFETY: the C callback's contract; `out` and `flag` are valid locals.
                let rc = unsafe {
                    f(
                        old,
                        keyval,
                        kv.extra as *mut c_void,
                        value as *mut c_void,
                        (&raw mut out).cast(),
                        &raw mut flag,
                    )
                };
                callback_result(noun, "copy", keyval, rc)?;
                (flag != 0).then_some(out as usize)
            }
        };
        if let Some(v) = copied {
            s.lock().set(new, keyval, v);
        }
    }
    Ok(())
}

/// Deletes every attribute of `h` through its delete callback, newest first (for the free
/// functions). Stops at the first callback error; the attributes not deleted yet stay.
pub fn delete_all<H: Copy + Ord>(s: &Shared<H>, h: H) -> Result<()> {
    for (keyval, value) in attrs_of(s, h).into_iter().rev() {
        run_delete(s, h, keyval, value)?;
        s.lock().remove_value(h, keyval);
    }
    Ok(())
}

/// Creates a keyval with callbacks `copy` and `delete` and `extra` state; writes it to `out`.
pub fn create_keyval<H: Copy + Ord>(
    s: &Shared<H>,
    copy: usize,
    delete: usize,
    out: *mut c_int,
    extra: *mut c_void,
) -> Result<()> {
    let k = {
        let mut a = s.lock();
        let k = a.next;
        let noun = a.noun;
        a.next = a
            .next
            .checked_add(1)
            .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, format!("out of {noun}s")))?;
        a.keyvals.insert(
            k,
            Keyval {
                copy,
                delete,
                extra: extra as usize,
                freed: false,
            },
        );
        k
    };
    // SAFETY: the callers checked `out` for NULL.
    unsafe { out.write(k) };
    Ok(())
}

/// Frees the keyval in `*p` (checked live by the caller) and sets `*p` to
/// [`MPI_KEYVAL_INVALID`]; attributes still attached keep it until they are deleted.
pub fn free_keyval<H: Copy + Ord>(s: &Shared<H>, p: *mut c_int, k: c_int) {
    let mut a = s.lock();
    if let Some(kv) = a.keyvals.get_mut(&k) {
        kv.freed = true;
    }
    a.release_if_unused(k);
    drop(a);
    // SAFETY: the callers checked `p` for NULL.
    unsafe { p.write(MPI_KEYVAL_INVALID) };
}

/// Sets `keyval` (checked live by the caller) on `h` to `value`, running the delete callback
/// on the value it replaces.
pub fn set<H: Copy + Ord>(s: &Shared<H>, h: H, keyval: c_int, value: *mut c_void) -> Result<()> {
    let old = s.lock().get(h, keyval);
    if let Some(old) = old {
        run_delete(s, h, keyval, old)?;
    }
    s.lock().set(h, keyval, value as usize);
    Ok(())
}

/// Removes `keyval` (checked known by the caller: a freed keyval still in use counts) from
/// `h` through its delete callback.
pub fn delete<H: Copy + Ord>(s: &Shared<H>, h: H, keyval: c_int) -> Result<()> {
    let old = s.lock().get(h, keyval);
    if let Some(old) = old {
        run_delete(s, h, keyval, old)?;
        s.lock().remove_value(h, keyval);
    }
    Ok(())
}

/// Writes a get-attribute answer: `*(void **)val = v` and `*flag = 1`, or `*flag = 0`.
pub fn write_answer(val: *mut c_void, flag: *mut c_int, v: Option<usize>) -> Result<()> {
    non_null(val, "attribute_val")?;
    non_null(flag, "flag")?;
    // SAFETY: both checked for NULL; `attribute_val` is really a `void **` for get_attr.
    unsafe {
        if let Some(v) = v {
            val.cast::<usize>().write(v);
        }
        flag.write(c_int::from(v.is_some()));
    }
    Ok(())
}
