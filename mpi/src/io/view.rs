//! File views: `MPI_File_set_view`, `MPI_File_get_view`, `MPI_File_get_type_extent`,
//! `MPI_File_get_byte_offset`, and the mapping every data access uses: a position in the
//! view's data stream (etypes from the start of the view) and a byte count onto runs of file
//! bytes, the filetype's typemap tiled from the displacement (adjacent runs coalesced).

use super::file::{FileObj, with_file};
use super::posix::Run;
use super::*;
use crate::comm::communicator::MPI_Info;
use crate::comm::info;
use crate::consts::*;
use crate::datatype::ext32::ext_size;
use crate::datatype::layout::Type;
use crate::datatype::predefined::MPI_BYTE;
use crate::datatype::{predefined, registry};
use crate::errors::report::{MpiError, Result, non_null};
use std::ffi::{CStr, c_char};
use std::sync::Arc;

/// A data representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rep {
    /// `native`: the bytes as in memory.
    Native,
    /// `internal`: nexar's own, which is `native`.
    Internal,
    /// `external32`: big-endian, the standard's portable form.
    External32,
    /// A representation registered with `MPI_Register_datarep` without conversion functions
    /// (stored as `native`; see [`super::datarep`]).
    User(&'static str),
}

impl Rep {
    /// The name `MPI_File_get_view` gives.
    pub fn name(self) -> &'static str {
        match self {
            Rep::Native => "native",
            Rep::Internal => "internal",
            Rep::External32 => "external32",
            Rep::User(name) => name,
        }
    }

    /// The representation named `s`, for a view whose etype is `etype`.
    fn parse(s: &str, etype: MPI_Datatype, et: &Type) -> Result<Self> {
        match s {
            "native" => Ok(Rep::Native),
            "internal" => Ok(Rep::Internal),
            "external32" => Ok(Rep::External32),
            _ => match super::datarep::usable(s, etype, et.extent())? {
                Some(name) => Ok(Rep::User(name)),
                None => Err(MpiError::new(
                    MPI_ERR_UNSUPPORTED_DATAREP,
                    format!(
                        "data representation `{s}` is not native, internal, external32 \
                         or a registered one"
                    ),
                )),
            },
        }
    }
}

/// A file view.
pub struct View {
    /// Displacement in bytes from the start of the file.
    pub disp: u64,
    /// The etype (its handle if predefined, and its layout).
    pub etype: (Option<MPI_Datatype>, Arc<Type>),
    /// The filetype (its handle if predefined, and its layout).
    pub filetype: (Option<MPI_Datatype>, Arc<Type>),
    /// The data representation.
    pub rep: Rep,
}

/// `MPI_ERR_ARG` for a position or size that does not fit the file.
fn overflow(what: &str) -> MpiError {
    MpiError::new(MPI_ERR_ARG, format!("{what} is outside the file's range"))
}

impl View {
    /// The view of a newly opened file: bytes from offset 0, `native`.
    pub fn default_view() -> Self {
        let byte = predefined::get(MPI_BYTE).expect("MPI_BYTE is predefined");
        Self {
            disp: 0,
            etype: (Some(MPI_BYTE), byte.clone()),
            filetype: (Some(MPI_BYTE), byte),
            rep: Rep::Native,
        }
    }

    /// Bytes of one etype.
    pub fn esize(&self) -> u64 {
        self.etype.1.size as u64
    }

    /// The data stream position `etypes` etypes from the start of the view, in bytes.
    pub fn stream_pos(&self, etypes: MPI_Offset) -> Result<u64> {
        u64::try_from(etypes)
            .ok()
            .and_then(|e| e.checked_mul(self.esize()))
            .ok_or_else(|| MpiError::new(MPI_ERR_ARG, format!("offset {etypes} is negative")))
    }

    /// Whether the filetype tiles into one contiguous stream (its data fills its extent).
    fn contiguous(&self) -> bool {
        let ft = &self.filetype.1;
        ft.segs.single().is_some_and(|s| s.len == ft.size) && ft.extent() == ft.size as isize
    }

    /// The file byte runs of `n` data bytes from stream position `pos` (bytes), in stream
    /// order, adjacent runs coalesced.
    pub fn runs(&self, pos: u64, n: usize) -> Result<Vec<Run>> {
        let mut runs: Vec<Run> = Vec::new();
        if n == 0 {
            return Ok(runs);
        }
        let ft = &self.filetype.1;
        if ft.size == 0 {
            return Err(MpiError::new(
                MPI_ERR_ARG,
                "the view's filetype holds no data, so nothing can be accessed through it",
            ));
        }
        if self.contiguous() {
            let start = (self.disp as i64 + ft.segs.first().map_or(0, |s| s.off) as i64)
                .checked_add_unsigned(pos)
                .and_then(|s| u64::try_from(s).ok())
                .ok_or_else(|| overflow("the access"))?;
            return Ok(vec![(start, n)]);
        }
        let size = ft.size as u64;
        let ext = ft.extent() as i128;
        let (mut tile, mut skip) = ((pos / size) as i128, (pos % size) as usize);
        let mut left = n;
        loop {
            let base = self.disp as i128 + tile * ext;
            for s in &ft.segs {
                if skip >= s.len {
                    skip -= s.len;
                    continue;
                }
                let off = u64::try_from(base + s.off as i128 + skip as i128)
                    .map_err(|_| overflow("the access"))?;
                let len = (s.len - skip).min(left);
                skip = 0;
                match runs.last_mut() {
                    Some(last) if last.0 + last.1 as u64 == off => last.1 += len,
                    _ => runs.push((off, len)),
                }
                left -= len;
                if left == 0 {
                    return Ok(runs);
                }
            }
            tile += 1;
        }
    }

    /// The absolute byte offset of stream position `pos` (bytes).
    pub fn byte_offset(&self, pos: u64) -> Result<u64> {
        if self.filetype.1.size == 0 {
            return Ok(self.disp);
        }
        Ok(self.runs(pos, 1)?[0].0)
    }

    /// The size in etypes of the part of the view that lies within a file of `fsize` bytes
    /// (where `MPI_SEEK_END` counts from).
    pub fn end_in_etypes(&self, fsize: u64) -> MPI_Offset {
        let ft = &self.filetype.1;
        let esize = self.esize().max(1);
        if fsize <= self.disp || ft.size == 0 {
            return 0;
        }
        let room = (fsize - self.disp) as i128;
        if self.contiguous() {
            let data = (room - ft.segs.first().map_or(0, |s| s.off) as i128).max(0) as u64;
            return (data / esize) as MPI_Offset;
        }
        let ext = (ft.extent() as i128).max(1);
        // Tiles wholly inside the file count whole; the next ones are clipped run by run.
        let whole = if room >= ft.true_ub as i128 {
            (room - ft.true_ub as i128) / ext + 1
        } else {
            0
        };
        let mut data = whole * ft.size as i128;
        let mut tile = whole;
        while tile * ext + (ft.true_lb as i128) < room {
            for s in &ft.segs {
                let start = tile * ext + s.off as i128;
                data += (room - start).clamp(0, s.len as i128);
            }
            tile += 1;
        }
        (data as u64 / esize) as MPI_Offset
    }

    /// The view's extent of `ty` in its data representation.
    pub fn type_extent(&self, ty: &Type) -> isize {
        match self.rep {
            Rep::External32 if ty.env.combiner == crate::datatype::MPI_COMBINER_NAMED => {
                ext_size(ty).map_or(ty.extent(), |s| s as isize)
            }
            _ => ty.extent(),
        }
    }
}

/// `MPI_ERR_UNSUPPORTED_DATAREP` unless `ty`'s `external32` form has its native size (the
/// file positions of the view are computed from native sizes).
pub fn check_ext32(ty: &Type, what: &str) -> Result<()> {
    match ext_size(ty) {
        Ok(s) if s == ty.size => Ok(()),
        _ => Err(MpiError::new(
            MPI_ERR_UNSUPPORTED_DATAREP,
            format!(
                "the {what} has no external32 form of its native size \
                 (external32 is supported for fixed-size types only)"
            ),
        )),
    }
}

/// `MPI_ERR_IO` (ROMIO's class for it) unless the data of `ty` lies at non-negative,
/// non-decreasing displacements (MPI 4.1 §14.3), and, for a file that may be written
/// (`writable`), without overlaps.
pub fn check_typemap(ty: &Type, what: &str, writable: bool) -> Result<()> {
    let mut prev: Option<(isize, isize)> = None;
    for s in &ty.segs {
        let end = s.off + s.len as isize;
        let why = if s.off < 0 {
            Some("a negative displacement")
        } else if prev.is_some_and(|(off, _)| s.off < off) {
            Some("decreasing displacements")
        } else if writable && prev.is_some_and(|(_, e)| s.off < e) {
            Some("overlapping data (allowed only for files opened read-only)")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(MpiError::new(
                MPI_ERR_IO,
                format!("the {what} of a file view has {why}"),
            ));
        }
        prev = Some((s.off, end));
    }
    Ok(())
}

fn predefined_handle(h: MPI_Datatype) -> Option<MPI_Datatype> {
    predefined::is_predefined(h).then_some(h)
}

fn set_view(
    f: &FileObj,
    disp: MPI_Offset,
    etype: MPI_Datatype,
    filetype: MPI_Datatype,
    datarep: *const c_char,
    info_h: MPI_Info,
) -> Result<()> {
    let local = (|| {
        non_null(datarep, "datarep")?;
        // SAFETY: non-NULL, NUL-terminated per the MPI contract.
        let rep_name = unsafe { CStr::from_ptr(datarep) }.to_string_lossy();
        let et = registry::committed(etype)?;
        let rep = Rep::parse(&rep_name, etype, &et)?;
        let ft = registry::committed(filetype)?;
        if et.size == 0 {
            return Err(MpiError::new(MPI_ERR_TYPE, "the etype holds no data"));
        }
        if ft.size % et.size != 0 || (ft.size > 0 && ft.extent() <= 0) {
            return Err(MpiError::new(
                MPI_ERR_TYPE,
                "the filetype is not made of whole etypes with a positive extent",
            ));
        }
        let writable = f.amode & MPI_MODE_RDONLY == 0;
        check_typemap(&et, "etype", writable)?;
        check_typemap(&ft, "filetype", writable)?;
        if rep == Rep::External32 {
            check_ext32(&et, "etype")?;
            check_ext32(&ft, "filetype")?;
        }
        let disp = if disp == MPI_DISPLACEMENT_CURRENT {
            if !f.sequential() {
                return Err(MpiError::new(
                    MPI_ERR_ARG,
                    "MPI_DISPLACEMENT_CURRENT needs a file opened with MPI_MODE_SEQUENTIAL",
                ));
            }
            let old = f.view();
            old.byte_offset(old.stream_pos(super::shared::position(f)?)?)?
        } else {
            u64::try_from(disp).map_err(|_| {
                MpiError::new(MPI_ERR_ARG, format!("displacement {disp} is negative"))
            })?
        };
        let hints = info::pairs_or_empty(info_h)?;
        Ok((
            View {
                disp,
                etype: (predefined_handle(etype), et),
                filetype: (predefined_handle(filetype), ft),
                rep,
            },
            hints,
        ))
    })();
    let (view, hints) = f.agree("setting the view", local)?;
    {
        let mut st = f.state.lock();
        st.view = Arc::new(view);
        st.pos = 0;
        super::manage::merge_hints(&mut st.hints, hints);
    }
    // The shared pointer restarts at the new view's origin (rank 0 writes it; the agreement
    // is the barrier after which every rank sees it).
    let reset = if f.comm.rank() == 0 {
        super::shared::reset(f)
    } else {
        Ok(())
    };
    f.agree("resetting the shared file pointer", reset)
}

/// A handle for a view's type: the predefined one, or a new handle the caller frees.
fn type_handle(t: &(Option<MPI_Datatype>, Arc<Type>)) -> Result<MPI_Datatype> {
    match t.0 {
        Some(h) => Ok(h),
        None => registry::insert(t.1.clone(), true),
    }
}

mpi_fn! {
    /// Sets the view of `fh`: data starts `disp` bytes into the file and is the typemap of
    /// `filetype` (made of whole `etype`s) repeated; offsets count `etype`s; `datarep` is
    /// `native`, `internal` or `external32`. Collective over the file's group (every rank
    /// passes the same `etype` extent and `datarep`); resets the individual and shared file
    /// pointers. Blocks until every rank has set it. The datatypes stay the caller's (they may
    /// be freed afterwards). Thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_TYPE` (not
    /// committed, or a filetype not made of etypes), `MPI_ERR_UNSUPPORTED_DATAREP`,
    /// `MPI_ERR_ARG` (negative displacement), through the file's error handler.
    fn MPI_File_set_view(fh: MPI_File, disp: MPI_Offset, etype: MPI_Datatype,
        filetype: MPI_Datatype, datarep: *const c_char, info_h: MPI_Info) -> c_int
        => PMPI_File_set_view
    {
        with_file("MPI_File_set_view", fh, |f| set_view(f, disp, etype, filetype, datarep, info_h))
    }

    /// Writes the view of `fh`: displacement, etype, filetype (new handles for derived types,
    /// which the caller frees) and the data representation name (`MPI_MAX_DATAREP_STRING`
    /// bytes). Local, thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (NULL pointer).
    fn MPI_File_get_view(fh: MPI_File, disp: *mut MPI_Offset, etype: *mut MPI_Datatype,
        filetype: *mut MPI_Datatype, datarep: *mut c_char) -> c_int => PMPI_File_get_view
    {
        with_file("MPI_File_get_view", fh, |f| {
            non_null(disp, "disp")?;
            non_null(etype, "etype")?;
            non_null(filetype, "filetype")?;
            non_null(datarep, "datarep")?;
            let v = f.view();
            let (e, t) = (type_handle(&v.etype)?, type_handle(&v.filetype)?);
            let name = v.rep.name();
            // SAFETY: checked for NULL; `datarep` holds MPI_MAX_DATAREP_STRING bytes.
            unsafe {
                disp.write(v.disp as MPI_Offset);
                etype.write(e);
                filetype.write(t);
                std::ptr::copy_nonoverlapping(name.as_ptr(), datarep.cast::<u8>(), name.len());
                datarep.add(name.len()).write(0);
            }
            Ok(())
        })
    }

    /// Writes the extent of `datatype` in the file's data representation. Local,
    /// thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_TYPE`, `MPI_ERR_ARG`.
    fn MPI_File_get_type_extent(fh: MPI_File, datatype: MPI_Datatype, extent: *mut MPI_Aint)
        -> c_int => PMPI_File_get_type_extent
    {
        with_file("MPI_File_get_type_extent", fh, |f| {
            non_null(extent, "extent")?;
            let e = f.view().type_extent(&*registry::layout(datatype)?);
            // SAFETY: checked for NULL.
            unsafe { extent.write(e) };
            Ok(())
        })
    }

    /// Large-count `MPI_File_get_type_extent`.
    fn MPI_File_get_type_extent_c(fh: MPI_File, datatype: MPI_Datatype, extent: *mut MPI_Count)
        -> c_int => PMPI_File_get_type_extent_c
    {
        with_file("MPI_File_get_type_extent_c", fh, |f| {
            non_null(extent, "extent")?;
            let e = f.view().type_extent(&*registry::layout(datatype)?);
            // SAFETY: checked for NULL.
            unsafe { extent.write(e as MPI_Count) };
            Ok(())
        })
    }

    /// Writes the absolute byte position in the file of view offset `offset` (etypes).
    /// Local, thread-safe. Errors: `MPI_ERR_FILE`, `MPI_ERR_ARG` (negative offset, NULL).
    fn MPI_File_get_byte_offset(fh: MPI_File, offset: MPI_Offset, disp: *mut MPI_Offset)
        -> c_int => PMPI_File_get_byte_offset
    {
        with_file("MPI_File_get_byte_offset", fh, |f| {
            non_null(disp, "disp")?;
            f.random_access()?;
            let v = f.view();
            let b = v.byte_offset(v.stream_pos(offset)?)?;
            // SAFETY: checked for NULL.
            unsafe { disp.write(b as MPI_Offset) };
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::layout::Envelope;

    fn vector(count: usize, block: usize, stride: isize) -> Arc<Type> {
        let int = predefined::get(0x209).unwrap();
        let blocks: Vec<_> = (0..count)
            .map(|i| (&int, block, i as isize * stride * 4))
            .collect();
        Arc::new(Type::blocks(&blocks, Envelope::default()).unwrap())
    }

    fn view(ft: Arc<Type>, disp: u64) -> View {
        let int = predefined::get(0x209).unwrap();
        View {
            disp,
            etype: (Some(0x209), int),
            filetype: (None, ft),
            rep: Rep::Native,
        }
    }

    #[test]
    fn strided_filetype_tiles_from_the_displacement() {
        // 2 blocks of 1 int, stride 3 ints: data at bytes 0..4 and 12..16, extent 16.
        let v = view(vector(2, 1, 3), 100);
        assert_eq!(v.runs(0, 8).unwrap(), vec![(100, 4), (112, 4)]);
        assert_eq!(
            v.runs(4, 8).unwrap(),
            vec![(112, 8)],
            "tiles meet and coalesce"
        );
        assert_eq!(v.runs(6, 4).unwrap(), vec![(114, 4)]);
        assert_eq!(v.byte_offset(8).unwrap(), 116);
        // A file of 120 bytes holds tile 0 (8 bytes of data) and 4 bytes of tile 1.
        assert_eq!(v.end_in_etypes(120), 3);
        assert_eq!(v.end_in_etypes(100), 0);
    }

    #[test]
    fn contiguous_view_is_one_run() {
        let v = view(predefined::get(0x209).unwrap(), 8);
        assert_eq!(v.runs(40, 1000).unwrap(), vec![(48, 1000)]);
        assert_eq!(v.end_in_etypes(48), 10);
    }
}
