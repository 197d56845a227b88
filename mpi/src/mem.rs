//! `MPI_Alloc_mem` / `MPI_Free_mem`: memory from the Rust allocator, 64-byte aligned (a cache
//! line: suits any MPI datatype and vector loads). The layout of every live block is recorded,
//! so freeing a pointer that did not come from `MPI_Alloc_mem` is `MPI_ERR_BASE` instead of
//! undefined behaviour. A zero-byte request gets a distinct one-byte block.

use crate::comm::communicator::MPI_Info;
use crate::consts::*;
use crate::errors::report::{MpiError, Result, call, non_null};
use parking_lot::Mutex;
use std::alloc::Layout;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::LazyLock;

/// `MPI_ERR_BASE`.
pub const MPI_ERR_BASE: c_int = 24;
const ALIGN: usize = 64;

/// Live blocks by address.
static BLOCKS: LazyLock<Mutex<HashMap<usize, Layout>>> = LazyLock::new(Default::default);

fn alloc(size: MPI_Aint) -> Result<*mut u8> {
    let n = usize::try_from(size)
        .map_err(|_| MpiError::new(MPI_ERR_ARG, format!("size {size} is negative")))?;
    let layout = Layout::from_size_align(n.max(1), ALIGN)
        .map_err(|_| MpiError::new(MPI_ERR_NO_MEM, format!("cannot allocate {n} bytes")))?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc(layout) };
    if p.is_null() {
        return Err(MpiError::new(
            MPI_ERR_NO_MEM,
            format!("out of memory allocating {n} bytes"),
        ));
    }
    BLOCKS.lock().insert(p as usize, layout);
    Ok(p)
}

fn free(p: *mut c_void) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    let layout = BLOCKS.lock().remove(&(p as usize)).ok_or_else(|| {
        MpiError::new(
            MPI_ERR_BASE,
            format!("{p:p} was not allocated by MPI_Alloc_mem (or was freed already)"),
        )
    })?;
    // SAFETY: allocated by `alloc` above with this layout, and removed from the table once.
    unsafe { std::alloc::dealloc(p.cast(), layout) };
    Ok(())
}

mpi_fn! {
    /// Allocates `size` bytes (64-byte aligned) and writes the address to `*(void **)baseptr`;
    /// `MPI_ERR_NO_MEM` when that fails. `info` must be `MPI_INFO_NULL` or a valid info (its
    /// hints are not needed).
    fn MPI_Alloc_mem(size: MPI_Aint, info: MPI_Info, baseptr: *mut c_void) -> c_int
        => PMPI_Alloc_mem
    {
        call("MPI_Alloc_mem", MPI_COMM_WORLD, || {
            non_null(baseptr, "baseptr")?;
            crate::comm::info::pairs_or_empty(info)?;
            let p = alloc(size)?;
            // SAFETY: checked for NULL; per the standard `baseptr` is really a `void **`.
            unsafe { baseptr.cast::<*mut u8>().write(p) };
            Ok(())
        })
    }

    /// Frees memory from [`MPI_Alloc_mem`]; `MPI_ERR_BASE` for any other pointer. NULL is
    /// ignored.
    fn MPI_Free_mem(base: *mut c_void) -> c_int => PMPI_Free_mem {
        call("MPI_Free_mem", MPI_COMM_WORLD, || free(base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_and_tracked() {
        let p = alloc(100).unwrap();
        assert_eq!(p as usize % ALIGN, 0);
        let q = alloc(0).unwrap();
        assert_ne!(p, q);
        let mut x = 0u8;
        assert_eq!(free((&raw mut x).cast()).unwrap_err().class, MPI_ERR_BASE);
        free(p.cast()).unwrap();
        assert_eq!(free(p.cast()).unwrap_err().class, MPI_ERR_BASE);
        free(q.cast()).unwrap();
        assert_eq!(alloc(-1).unwrap_err().class, MPI_ERR_ARG);
        assert_eq!(alloc(MPI_Aint::MAX).unwrap_err().class, MPI_ERR_NO_MEM);
    }
}
