//! `MPI_Info` objects: ordered (key, value) string pairs, `MPI_INFO_ENV`, the info hints kept
//! with communicators (`MPI_Comm_set_info` / `MPI_Comm_get_info`), and `MPI_Abi_get_info`.
//!
//! Keys keep the order of their first setting (`MPI_Info_get_nthkey` follows it; setting a key
//! again replaces its value in place). Keys are 1 to `MPI_MAX_INFO_KEY - 1` bytes
//! (`MPI_ERR_INFO_KEY` otherwise), values at most `MPI_MAX_INFO_VAL - 1` bytes
//! (`MPI_ERR_INFO_VALUE`); deleting an absent key is `MPI_ERR_INFO_NOKEY`; an invalid or freed
//! handle is `MPI_ERR_INFO`. `MPI_INFO_ENV` is predefined and read-only. Info functions work
//! before `MPI_Init` and after `MPI_Finalize`, as the standard allows.
//!
//! Communicator hints are stored, not interpreted: nexar has no hint that changes its
//! behaviour. `MPI_Comm_dup` carries them to the new communicator.

use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char, c_int};

/// `MPI_INFO_ENV`: the predefined info describing how the program was started.
pub const MPI_INFO_ENV: MPI_Info = 0x131;
/// `MPI_MAX_INFO_KEY`: room for a key and its NUL.
pub const MPI_MAX_INFO_KEY: usize = 256;
/// `MPI_MAX_INFO_VAL`: room for a value and its NUL.
pub const MPI_MAX_INFO_VAL: usize = 1024;
/// `MPI_ERR_INFO_KEY`.
pub const MPI_ERR_INFO_KEY: c_int = 31;
/// `MPI_ERR_INFO_NOKEY`.
pub const MPI_ERR_INFO_NOKEY: c_int = 32;
/// `MPI_ERR_INFO_VALUE`.
pub const MPI_ERR_INFO_VALUE: c_int = 33;
/// `MPI_ERR_INFO`.
pub const MPI_ERR_INFO: c_int = 34;

/// The pairs of one info object, in key order of first setting.
pub type Pairs = Vec<(String, String)>;

static INFOS: Mutex<Table<Pairs>> = Mutex::new(Table::new(USER_HANDLES));
/// Hints of communicators that were given some (by handle).
static COMM_HINTS: Mutex<BTreeMap<MPI_Comm, Pairs>> = Mutex::new(BTreeMap::new());

/// The pairs of `MPI_INFO_ENV` (MPI 4.0 §11.2.2 keys this implementation knows).
fn env_pairs() -> Pairs {
    let mut args = std::env::args();
    let mut v = Vec::new();
    if let Some(cmd) = args.next() {
        v.push(("command".to_string(), cmd));
    }
    let rest: Vec<String> = args.collect();
    if !rest.is_empty() {
        v.push(("argv".to_string(), rest.join(" ")));
    }
    // From the launch variables, not the world: the same before and after MPI_Init.
    if let Some(n) = nexar::bootstrap::announced_size(&|k| std::env::var(k).ok()) {
        v.push(("maxprocs".to_string(), n.to_string()));
    }
    if let Ok(d) = std::env::current_dir() {
        v.push(("wdir".to_string(), d.display().to_string()));
    }
    v.push(("arch".to_string(), std::env::consts::ARCH.to_string()));
    v.push((
        "thread_level".to_string(),
        "MPI_THREAD_MULTIPLE".to_string(),
    ));
    v
}

fn bad_info(h: MPI_Info) -> MpiError {
    if h == MPI_INFO_NULL {
        MpiError::new(MPI_ERR_INFO, "info is MPI_INFO_NULL")
    } else {
        MpiError::new(MPI_ERR_INFO, format!("invalid or freed info {h:#x}"))
    }
}

/// A copy of the pairs of a live info (or of `MPI_INFO_ENV`).
pub fn pairs(h: MPI_Info) -> Result<Pairs> {
    if h == MPI_INFO_ENV {
        return Ok(env_pairs());
    }
    INFOS.lock().get(h).cloned().ok_or_else(|| bad_info(h))
}

/// The pairs of `h`, or none for `MPI_INFO_NULL` (where an info argument may be NULL).
pub fn pairs_or_empty(h: MPI_Info) -> Result<Pairs> {
    if h == MPI_INFO_NULL {
        Ok(Vec::new())
    } else {
        pairs(h)
    }
}

/// Registers a new info with `p` and writes its handle to `out`.
pub fn store_new(p: Pairs, out: *mut MPI_Info) -> Result<()> {
    non_null(out, "info")?;
    let h = INFOS
        .lock()
        .insert(p)
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live info objects"))?;
    // SAFETY: checked for NULL; writable per the MPI contract.
    unsafe { out.write(h) };
    Ok(())
}

/// Whether `h` is a live user info (for `MPI_Info_fromint`).
pub fn info_valid(h: usize) -> bool {
    matches!(h, MPI_INFO_NULL | MPI_INFO_ENV) || INFOS.lock().get(h).is_some()
}

/// Runs `f` on the pairs of a live user info (not `MPI_INFO_ENV`: read-only).
fn with_mut<R>(h: MPI_Info, f: impl FnOnce(&mut Pairs) -> Result<R>) -> Result<R> {
    if h == MPI_INFO_ENV {
        return Err(MpiError::new(
            MPI_ERR_INFO,
            "MPI_INFO_ENV is predefined and read-only",
        ));
    }
    let mut t = INFOS.lock();
    f(t.get_mut(h).ok_or_else(|| bad_info(h))?)
}

/// A key argument: non-NULL, 1 to `MPI_MAX_INFO_KEY - 1` bytes of UTF-8.
fn key_arg(key: *const c_char) -> Result<String> {
    non_null(key, "key")?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let b = unsafe { CStr::from_ptr(key) }.to_bytes();
    if b.is_empty() || b.len() >= MPI_MAX_INFO_KEY {
        return Err(MpiError::new(
            MPI_ERR_INFO_KEY,
            format!(
                "key of {} bytes (must be 1 to {})",
                b.len(),
                MPI_MAX_INFO_KEY - 1
            ),
        ));
    }
    Ok(String::from_utf8_lossy(b).into_owned())
}

fn value_arg(value: *const c_char) -> Result<String> {
    non_null(value, "value")?;
    // SAFETY: non-NULL, NUL-terminated per the MPI contract.
    let b = unsafe { CStr::from_ptr(value) }.to_bytes();
    if b.len() >= MPI_MAX_INFO_VAL {
        return Err(MpiError::new(
            MPI_ERR_INFO_VALUE,
            format!(
                "value of {} bytes (at most {})",
                b.len(),
                MPI_MAX_INFO_VAL - 1
            ),
        ));
    }
    Ok(String::from_utf8_lossy(b).into_owned())
}

/// Sets `key` to `value` in `p`, in place when the key exists.
pub fn set(p: &mut Pairs, key: &str, value: &str) {
    match p.iter_mut().find(|(k, _)| k == key) {
        Some(e) => e.1 = value.to_string(),
        None => p.push((key.to_string(), value.to_string())),
    }
}

fn lookup(h: MPI_Info, key: &str) -> Result<Option<String>> {
    Ok(pairs(h)?
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v))
}

/// Copies `s` and a NUL into `out` (room for `cap` bytes, `cap >= 1`), truncated to fit.
///
/// # Safety
/// `out` must be writable for `cap` bytes.
unsafe fn copy_out(s: &str, out: *mut c_char, cap: usize) {
    let n = s.len().min(cap - 1);
    // SAFETY: the caller's contract; n < cap.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), out.cast::<u8>(), n);
        out.add(n).write(0);
    }
}

fn write_flag(flag: *mut c_int, v: bool) {
    // SAFETY: checked for NULL by the callers.
    unsafe { flag.write(c_int::from(v)) };
}

/// Stores `info`'s pairs as the hints of communicator `c` (none for `MPI_INFO_NULL`).
pub fn set_comm_hints(c: MPI_Comm, info: MPI_Info) -> Result<()> {
    let p = pairs_or_empty(info)?;
    COMM_HINTS.lock().insert(c, p);
    Ok(())
}

/// Carries `from`'s hints to `to` (`MPI_Comm_dup`).
pub fn copy_comm_hints(from: MPI_Comm, to: MPI_Comm) {
    let mut h = COMM_HINTS.lock();
    if let Some(p) = h.get(&from).cloned() {
        h.insert(to, p);
    }
}

/// Forgets the hints of a freed communicator.
pub fn drop_comm_hints(c: MPI_Comm) {
    COMM_HINTS.lock().remove(&c);
}

mpi_fn! {
    /// A new, empty info object.
    fn MPI_Info_create(info: *mut MPI_Info) -> c_int => PMPI_Info_create {
        call("MPI_Info_create", MPI_COMM_WORLD, || store_new(Vec::new(), info))
    }

    /// A new info describing the hardware resources this process may use for
    /// `MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED)`: the one resource type nexar knows,
    /// `mpi_hw_resource_type` = `mpi_shared_memory` (the ranks of one host).
    fn MPI_Get_hw_resource_info(hw_info: *mut MPI_Info) -> c_int => PMPI_Get_hw_resource_info {
        call("MPI_Get_hw_resource_info", MPI_COMM_WORLD, || {
            let mut p = Vec::new();
            set(&mut p, "mpi_hw_resource_type", "mpi_shared_memory");
            store_new(p, hw_info)
        })
    }

    /// A new info with the contents of `MPI_INFO_ENV` (`argc` / `argv` are not needed: the
    /// command line is read from the process).
    fn MPI_Info_create_env(argc: c_int, argv: *mut *mut c_char, info: *mut MPI_Info) -> c_int
        => PMPI_Info_create_env
    {
        let _ = (argc, argv);
        call("MPI_Info_create_env", MPI_COMM_WORLD, || store_new(env_pairs(), info))
    }

    /// Sets `key` to `value` (replacing an existing value in place).
    fn MPI_Info_set(info: MPI_Info, key: *const c_char, value: *const c_char) -> c_int
        => PMPI_Info_set
    {
        call("MPI_Info_set", MPI_COMM_WORLD, || {
            let (k, v) = (key_arg(key)?, value_arg(value)?);
            with_mut(info, |p| {
                set(p, &k, &v);
                Ok(())
            })
        })
    }

    /// Removes `key`; `MPI_ERR_INFO_NOKEY` when it is not set.
    fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int => PMPI_Info_delete {
        call("MPI_Info_delete", MPI_COMM_WORLD, || {
            let k = key_arg(key)?;
            with_mut(info, |p| match p.iter().position(|(x, _)| *x == k) {
                Some(i) => {
                    p.remove(i);
                    Ok(())
                }
                None => Err(MpiError::new(MPI_ERR_INFO_NOKEY, format!("key \"{k}\" is not set"))),
            })
        })
    }

    /// The value of `key`: with `*buflen == 0`, only its length plus one is written to
    /// `*buflen`; otherwise up to `*buflen - 1` bytes and a NUL go to `value` and `*buflen`
    /// becomes the full length plus one. `*flag` tells whether the key is set.
    fn MPI_Info_get_string(info: MPI_Info, key: *const c_char, buflen: *mut c_int,
        value: *mut c_char, flag: *mut c_int) -> c_int => PMPI_Info_get_string
    {
        call("MPI_Info_get_string", MPI_COMM_WORLD, || {
            non_null(buflen, "buflen")?;
            non_null(flag, "flag")?;
            let k = key_arg(key)?;
            // SAFETY: checked for NULL.
            let cap = unsafe { buflen.read() };
            if cap < 0 {
                return Err(MpiError::new(MPI_ERR_ARG, format!("buflen {cap} is negative")));
            }
            let Some(v) = lookup(info, &k)? else {
                write_flag(flag, false);
                return Ok(());
            };
            if cap > 0 {
                non_null(value, "value")?;
                // SAFETY: `value` holds `*buflen` bytes per the MPI contract.
                unsafe { copy_out(&v, value, cap as usize) };
            }
            // SAFETY: checked for NULL.
            unsafe { buflen.write(v.len() as c_int + 1) };
            write_flag(flag, true);
            Ok(())
        })
    }

    /// Deprecated: the value of `key`, up to `valuelen` bytes and a NUL (`value` holds
    /// `valuelen + 1` bytes).
    fn MPI_Info_get(info: MPI_Info, key: *const c_char, valuelen: c_int, value: *mut c_char,
        flag: *mut c_int) -> c_int => PMPI_Info_get
    {
        call("MPI_Info_get", MPI_COMM_WORLD, || {
            non_null(flag, "flag")?;
            let k = key_arg(key)?;
            if valuelen < 0 {
                return Err(MpiError::new(MPI_ERR_ARG, format!("valuelen {valuelen} is negative")));
            }
            let Some(v) = lookup(info, &k)? else {
                write_flag(flag, false);
                return Ok(());
            };
            non_null(value, "value")?;
            // SAFETY: `value` holds `valuelen + 1` bytes per the MPI contract.
            unsafe { copy_out(&v, value, valuelen as usize + 1) };
            write_flag(flag, true);
            Ok(())
        })
    }

    /// Deprecated: the length of `key`'s value (without the NUL).
    fn MPI_Info_get_valuelen(info: MPI_Info, key: *const c_char, valuelen: *mut c_int,
        flag: *mut c_int) -> c_int => PMPI_Info_get_valuelen
    {
        call("MPI_Info_get_valuelen", MPI_COMM_WORLD, || {
            non_null(valuelen, "valuelen")?;
            non_null(flag, "flag")?;
            let k = key_arg(key)?;
            let v = lookup(info, &k)?;
            if let Some(v) = &v {
                // SAFETY: checked for NULL.
                unsafe { valuelen.write(v.len() as c_int) };
            }
            write_flag(flag, v.is_some());
            Ok(())
        })
    }

    /// The number of keys set.
    fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int => PMPI_Info_get_nkeys {
        call("MPI_Info_get_nkeys", MPI_COMM_WORLD, || {
            non_null(nkeys, "nkeys")?;
            let n = pairs(info)?.len();
            // SAFETY: checked for NULL.
            unsafe { nkeys.write(n as c_int) };
            Ok(())
        })
    }

    /// The `n`-th key (0-based, in order of first setting) into `key`
    /// (`MPI_MAX_INFO_KEY` bytes); `MPI_ERR_ARG` when `n` is out of range.
    fn MPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int
        => PMPI_Info_get_nthkey
    {
        call("MPI_Info_get_nthkey", MPI_COMM_WORLD, || {
            non_null(key, "key")?;
            let p = pairs(info)?;
            let k = usize::try_from(n).ok().and_then(|i| p.get(i)).ok_or_else(|| {
                MpiError::new(MPI_ERR_ARG, format!("n = {n} is out of range ({} keys)", p.len()))
            })?;
            // SAFETY: `key` holds MPI_MAX_INFO_KEY bytes per the MPI contract.
            unsafe { copy_out(&k.0, key, MPI_MAX_INFO_KEY) };
            Ok(())
        })
    }

    /// A new info with the same pairs, in the same order.
    fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int => PMPI_Info_dup {
        call("MPI_Info_dup", MPI_COMM_WORLD, || store_new(pairs(info)?, newinfo))
    }

    /// Frees a user info and sets `*info` to `MPI_INFO_NULL`.
    fn MPI_Info_free(info: *mut MPI_Info) -> c_int => PMPI_Info_free {
        call("MPI_Info_free", MPI_COMM_WORLD, || {
            non_null(info, "info")?;
            // SAFETY: checked for NULL.
            let h = unsafe { info.read() };
            if h == MPI_INFO_ENV {
                return Err(MpiError::new(MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed"));
            }
            INFOS.lock().remove(h).ok_or_else(|| bad_info(h))?;
            // SAFETY: checked for NULL.
            unsafe { info.write(MPI_INFO_NULL) };
            Ok(())
        })
    }

    /// A new info with the sizes of the ABI's integer types, in bytes: `mpi_aint_size`,
    /// `mpi_count_size` and `mpi_offset_size`.
    fn MPI_Abi_get_info(info: *mut MPI_Info) -> c_int => PMPI_Abi_get_info {
        call("MPI_Abi_get_info", MPI_COMM_WORLD, || {
            let p = [
                ("mpi_aint_size", size_of::<MPI_Aint>()),
                ("mpi_count_size", size_of::<MPI_Count>()),
                ("mpi_offset_size", size_of::<i64>()), // MPI_Offset
            ]
            .map(|(k, n)| (k.to_string(), n.to_string()));
            store_new(p.to_vec(), info)
        })
    }

    /// Replaces `comm`'s hints with those of `info` (stored; none changes nexar's behaviour).
    fn MPI_Comm_set_info(comm_h: MPI_Comm, info: MPI_Info) -> c_int => PMPI_Comm_set_info {
        call("MPI_Comm_set_info", comm_h, || {
            crate::state::comm(comm_h)?;
            set_comm_hints(comm_h, info)
        })
    }

    /// A new info with `comm`'s hints (empty when none were given).
    fn MPI_Comm_get_info(comm_h: MPI_Comm, info_used: *mut MPI_Info) -> c_int
        => PMPI_Comm_get_info
    {
        call("MPI_Comm_get_info", comm_h, || {
            crate::state::comm(comm_h)?;
            let p = COMM_HINTS.lock().get(&comm_h).cloned().unwrap_or_default();
            store_new(p, info_used)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_spec() {
        let value = crate::consts::spec_value;
        for (name, v) in [
            ("MPI_INFO_ENV", MPI_INFO_ENV as i64),
            ("MPI_MAX_INFO_KEY", MPI_MAX_INFO_KEY as i64),
            ("MPI_MAX_INFO_VAL", MPI_MAX_INFO_VAL as i64),
            ("MPI_ERR_INFO_KEY", MPI_ERR_INFO_KEY.into()),
            ("MPI_ERR_INFO_NOKEY", MPI_ERR_INFO_NOKEY.into()),
            ("MPI_ERR_INFO_VALUE", MPI_ERR_INFO_VALUE.into()),
            ("MPI_ERR_INFO", MPI_ERR_INFO.into()),
            ("MPI_ERR_BASE", crate::mem::MPI_ERR_BASE.into()),
            ("MPI_CART", crate::comm::topo::MPI_CART.into()),
        ] {
            assert_eq!(value(name), v, "{name}");
        }
    }

    #[test]
    fn set_replaces_in_place_and_keeps_order() {
        let mut p = Vec::new();
        set(&mut p, "b", "1");
        set(&mut p, "a", "2");
        set(&mut p, "b", "3");
        assert_eq!(p, vec![("b".into(), "3".into()), ("a".into(), "2".into())]);
    }
}
