//! The layout of a datatype: its typemap as contiguous byte runs, its signature (the sequence of
//! primitive elements, run-length encoded), bounds, and the element kind reductions use. Every
//! constructor reduces to [`Type::blocks`]: blocks of `count` instances of a child type at byte
//! displacements.

use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use nexar::Datatype as D;
use std::ffi::c_int;
use std::sync::Arc;

/// How a primitive element reduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Red {
    /// As one nexar element type.
    Basic(D),
    /// A complex number: two elements of this nexar type (SUM element-wise, PROD as complex).
    Complex(D),
    /// A value-index pair whose C struct has padding (`MPI_DOUBLE_INT`, ...), packed as the
    /// value then the `int` without it; it reduces (MINLOC / MAXLOC) as this padded nexar type.
    Pair(D),
    /// Uninterpreted bytes (`MPI_BYTE`, `MPI_PACKED`): bitwise operations only.
    Byte,
    /// No nexar type (data movement, and the reductions of [`crate::coll::reducers`]); the
    /// predefined handle it comes from.
    Opaque(usize),
}

/// A primitive element of a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prim {
    /// Size in bytes.
    pub size: usize,
    /// How it reduces.
    pub red: Red,
    /// How it converts to its `external32` form.
    pub ext: super::ext32::Ext,
}

impl Prim {
    /// How many basic elements `MPI_Get_elements` counts in one: 2 for the value-index pairs
    /// (`MPI_DOUBLE_INT`, `MPI_2INT`, ...: predefined, but made of two basic types), else 1.
    pub fn basic_elements(&self) -> usize {
        match self.red {
            Red::Pair(_) => 2,
            Red::Basic(d) if d.is_pair() => 2,
            Red::Opaque(h) if h == super::predefined::MPI_LONG_DOUBLE_INT => 2,
            _ => 1,
        }
    }
}

/// A contiguous run of bytes of one instance, relative to the instance's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seg {
    /// Offset in bytes (may be negative).
    pub off: isize,
    /// Length in bytes.
    pub len: usize,
}

/// The byte runs of one instance, in typemap order: `pattern` repeated `count` times, each copy
/// `stride` bytes after the one before (a listed typemap is one copy). A vector keeps one
/// block's runs, so `MPI_Type_vector(INT_MAX / 2, ...)` costs one run, not a billion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runs {
    pattern: Vec<Seg>,
    count: usize,
    stride: isize,
}

impl Runs {
    /// The runs `v`, once.
    pub fn listed(v: Vec<Seg>) -> Self {
        Self {
            pattern: v,
            count: 1,
            stride: 0,
        }
    }

    /// How many runs (saturating).
    pub fn len(&self) -> usize {
        self.pattern.len().saturating_mul(self.count)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every run, in order.
    pub fn iter(&self) -> impl Iterator<Item = Seg> + '_ {
        (0..self.count).flat_map(move |k| {
            let shift = (k as isize).wrapping_mul(self.stride);
            self.pattern.iter().map(move |s| Seg {
                off: s.off.wrapping_add(shift),
                len: s.len,
            })
        })
    }

    /// The first run.
    pub fn first(&self) -> Option<Seg> {
        self.iter().next()
    }

    /// The one run, when there is exactly one.
    pub fn single(&self) -> Option<Seg> {
        (self.len() == 1).then(|| self.pattern[0])
    }

    /// Appends a run to a listed typemap, merging it with the last when they touch.
    fn push(&mut self, off: isize, len: usize) {
        debug_assert!(self.count <= 1, "runs are appended to listed typemaps only");
        self.count = 1;
        if len == 0 {
            return;
        }
        if let Some(last) = self.pattern.last_mut()
            && last.off + last.len as isize == off
        {
            last.len += len;
            return;
        }
        self.pattern.push(Seg { off, len });
    }

    /// Lowest byte and one past the highest of all runs.
    fn bounds(&self) -> Option<(isize, isize)> {
        let lo = self.pattern.iter().map(|s| s.off).min()?;
        let hi = self.pattern.iter().map(|s| s.off + s.len as isize).max()?;
        let span = (self.count.max(1) as isize - 1).saturating_mul(self.stride);
        Some((lo + span.min(0), hi + span.max(0)))
    }
}

impl<'a> IntoIterator for &'a Runs {
    type Item = Seg;
    type IntoIter = Box<dyn Iterator<Item = Seg> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// How a datatype was made (`MPI_Type_get_envelope` / `MPI_Type_get_contents`).
#[derive(Debug, Clone, Default)]
pub struct Envelope {
    /// `MPI_COMBINER_*`.
    pub combiner: c_int,
    /// The integer arguments.
    pub ints: Vec<c_int>,
    /// The address arguments.
    pub aints: Vec<MPI_Aint>,
    /// The large-count arguments (constructors' `_c` forms).
    pub counts: Vec<MPI_Count>,
    /// The datatype arguments, kept alive with their layouts.
    pub types: Vec<(MPI_Datatype, Arc<Type>)>,
}

/// A datatype's layout (immutable once built; handles share it).
#[derive(Debug, Clone)]
pub struct Type {
    /// The byte runs of one instance, in typemap order, adjacent runs merged.
    pub segs: Runs,
    /// The signature of one instance: `(element, repetitions)` runs.
    pub sig: Vec<(Prim, usize)>,
    /// Bytes of data in one instance.
    pub size: usize,
    /// Lower bound.
    pub lb: isize,
    /// Upper bound.
    pub ub: isize,
    /// Lowest byte of data.
    pub true_lb: isize,
    /// One past the highest byte of data.
    pub true_ub: isize,
    /// Alignment (struct extents are rounded up to it).
    pub align: usize,
    /// The default name (predefined types: the MPI name).
    pub name: &'static str,
    /// How it was made.
    pub env: Envelope,
}

/// Upper limit on the listed byte runs of one type (keeps hostile constructors from exhausting
/// memory; a vector's runs are not listed, see [`Runs`]).
pub const MAX_SEGS: usize = 1 << 24;

impl Type {
    /// A predefined type of `n` elements `prim`.
    pub fn predefined(name: &'static str, prim: Prim, n: usize, align: usize) -> Self {
        let size = prim.size * n;
        Self {
            segs: Runs::listed(vec![Seg { off: 0, len: size }]),
            sig: vec![(prim, n)],
            size,
            lb: 0,
            ub: size as isize,
            true_lb: 0,
            true_ub: size as isize,
            align,
            name,
            env: Envelope {
                combiner: super::MPI_COMBINER_NAMED,
                types: Vec::new(),
                ..Default::default()
            },
        }
    }

    /// A predefined pair type (`MPI_DOUBLE_INT`, ...) of one element `prim`: a `value`-byte
    /// value at offset 0 and an `int` at `off`, in a C struct of `extent` bytes. Its size
    /// counts the data only, its extent the struct's padding too (MPI 4.1 §6.1.1; MPICH and
    /// Open MPI do the same).
    pub fn predefined_pair(
        name: &'static str,
        prim: Prim,
        (value, off, extent): (usize, usize, usize),
        align: usize,
    ) -> Self {
        let mut t = Self::predefined(name, prim, 1, align);
        t.segs = Runs::listed(Vec::new());
        t.push_seg(0, value);
        t.push_seg(off as isize, size_of::<c_int>());
        t.size = value + size_of::<c_int>();
        t.true_ub = (off + size_of::<c_int>()) as isize;
        t.ub = extent as isize;
        t
    }

    /// `ub - lb`.
    pub fn extent(&self) -> isize {
        self.ub - self.lb
    }

    /// Whether `count` instances occupy exactly `count * size` bytes starting at the buffer
    /// (so the user's memory is already the packed form).
    pub fn dense(&self, count: usize) -> bool {
        let one = self.size == 0
            || self
                .segs
                .single()
                .is_some_and(|s| s.off == 0 && s.len == self.size);
        one && (count <= 1 || self.extent() == self.size as isize)
    }

    /// The basic elements in one instance (a value-index pair counts two).
    pub fn elements(&self) -> usize {
        self.sig.iter().map(|s| s.1 * s.0.basic_elements()).sum()
    }

    /// The one element kind of the whole signature, if it has a single one.
    pub fn uniform(&self) -> Option<Red> {
        let first = self.sig.first()?.0.red;
        self.sig.iter().all(|s| s.0.red == first).then_some(first)
    }

    /// The nexar type data of this type moves as: the uniform element type, else bytes.
    pub fn move_type(&self) -> D {
        match self.uniform() {
            Some(Red::Basic(d) | Red::Complex(d)) => d,
            _ => D::U8,
        }
    }

    /// Blocks of `(child, count, byte displacement)`; `combiner` etc. describe the call.
    pub fn blocks(blocks: &[(&Arc<Type>, usize, isize)], env: Envelope) -> Result<Self> {
        let mut t = Self {
            segs: Runs::listed(Vec::new()),
            sig: Vec::new(),
            size: 0,
            lb: 0,
            ub: 0,
            true_lb: 0,
            true_ub: 0,
            align: 1,
            name: "",
            env,
        };
        let mut bounds: Option<(isize, isize)> = None;
        let mut nsegs = 0usize;
        for &(child, count, disp) in blocks {
            if count == 0 {
                continue;
            }
            let ext = child.extent();
            // A child that is one element kind filling its extent repeats into a single run
            // (no per-instance loop: `MPI_Type_contiguous(INT_MAX, MPI_BYTE)` stays cheap).
            let solid = child
                .segs
                .single()
                .is_some_and(|s| s.len as isize == ext && child.sig.len() == 1);
            let pieces = if solid {
                Some(1)
            } else {
                count.checked_mul(child.segs.len())
            };
            nsegs = pieces
                .and_then(|n| n.checked_add(nsegs))
                .filter(|&n| n <= MAX_SEGS)
                .ok_or_else(|| too_large("the type has too many non-contiguous pieces"))?;
            let span = ext
                .checked_mul(count as isize - 1)
                .ok_or_else(|| too_large("the type's extent overflows"))?;
            let lo = disp + child.lb + span.min(0);
            let hi = disp + child.ub + span.max(0);
            bounds = Some(bounds.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
            t.align = t.align.max(child.align);
            if solid {
                let first = child.segs.first().expect("a solid child has one run");
                let len = count
                    .checked_mul(first.len)
                    .ok_or_else(|| too_large("the type's size overflows"))?;
                t.push_seg(disp + first.off, len);
                let (p, n) = child.sig[0];
                t.push_sig(p, n * count);
            }
            for k in 0..if solid { 0 } else { count } {
                let base = disp + k as isize * ext;
                for s in child.segs.iter() {
                    t.push_seg(base + s.off, s.len);
                }
                for &(p, n) in &child.sig {
                    t.push_sig(p, n);
                }
            }
            t.size = count
                .checked_mul(child.size)
                .and_then(|n| n.checked_add(t.size))
                .ok_or_else(|| too_large("the type's size overflows"))?;
        }
        if let Some((lo, hi)) = bounds {
            (t.lb, t.ub) = (lo, hi);
        }
        t.set_true_bounds();
        Ok(t)
    }

    /// `count` copies of `block` (one block of a vector, made by [`Type::blocks`]), each
    /// `stride` bytes after the one before, described by the block's runs alone. `None` when
    /// that description does not fit (fewer than two copies, copies that touch and would merge,
    /// a block of several element kinds, or one that is itself compact): the caller then lists
    /// the blocks.
    pub fn strided(
        block: &Type,
        count: usize,
        stride: isize,
        env: Envelope,
    ) -> Result<Option<Self>> {
        let (Some(first), Some(last)) = (block.segs.pattern.first(), block.segs.pattern.last())
        else {
            return Ok(None);
        };
        if count < 2
            || block.segs.count != 1
            || block.sig.len() != 1
            || last.off + last.len as isize == first.off + stride
        {
            return Ok(None);
        }
        let (p, m) = block.sig[0];
        let span = isize::try_from(count - 1)
            .ok()
            .and_then(|c| c.checked_mul(stride))
            .ok_or_else(|| too_large("the type's extent overflows"))?;
        let size = block
            .size
            .checked_mul(count)
            .ok_or_else(|| too_large("the type's size overflows"))?;
        let reps = m
            .checked_mul(count)
            .ok_or_else(|| too_large("the type's size overflows"))?;
        let mut t = Self {
            segs: Runs {
                pattern: block.segs.pattern.clone(),
                count,
                stride,
            },
            sig: vec![(p, reps)],
            size,
            lb: block.lb + span.min(0),
            ub: block.ub + span.max(0),
            true_lb: 0,
            true_ub: 0,
            align: block.align,
            name: "",
            env,
        };
        t.set_true_bounds();
        Ok(Some(t))
    }

    fn push_seg(&mut self, off: isize, len: usize) {
        self.segs.push(off, len);
    }

    fn push_sig(&mut self, p: Prim, n: usize) {
        if let Some(last) = self.sig.last_mut()
            && last.0 == p
        {
            last.1 += n;
            return;
        }
        self.sig.push((p, n));
    }

    fn set_true_bounds(&mut self) {
        (self.true_lb, self.true_ub) = self.segs.bounds().unwrap_or((0, 0));
    }

    /// Rounds the extent up to the alignment (what C does for structs).
    pub fn pad_to_alignment(&mut self) {
        let a = self.align as isize;
        let ext = self.extent();
        let rem = ext.rem_euclid(a);
        if rem != 0 {
            self.ub += a - rem;
        }
    }

    /// The same data with bounds `lb` and `lb + extent`.
    pub fn resized(&self, lb: isize, extent: isize, env: Envelope) -> Self {
        Self {
            lb,
            ub: lb + extent,
            name: "",
            env,
            ..self.clone()
        }
    }

    /// Number of basic elements in `bytes` bytes of packed data of this type, or `None` when
    /// `bytes` ends inside a primitive.
    pub fn elements_in(&self, bytes: usize) -> Option<usize> {
        if self.size == 0 {
            return (bytes == 0).then_some(0);
        }
        let mut n = bytes / self.size * self.elements();
        let mut rem = bytes % self.size;
        for &(p, reps) in &self.sig {
            if rem == 0 {
                break;
            }
            let whole = (rem / p.size).min(reps);
            n += whole * p.basic_elements();
            rem -= whole * p.size;
            if whole < reps {
                break;
            }
        }
        (rem == 0).then_some(n)
    }
}

fn too_large(what: &str) -> MpiError {
    MpiError::new(MPI_ERR_ARG, what.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::predefined;

    fn int() -> Arc<Type> {
        predefined::get(0x209).unwrap()
    }

    #[test]
    fn vector_layout_and_bounds() {
        let i = int();
        // vector(3, 2, 4, int)
        let b: Vec<_> = (0..3).map(|k| (&i, 2, k * 16)).collect();
        let t = Type::blocks(&b, Envelope::default()).unwrap();
        assert_eq!(t.size, 24);
        assert_eq!((t.lb, t.ub), (0, 40));
        assert_eq!((t.true_lb, t.true_ub), (0, 40));
        assert_eq!(t.segs.len(), 3);
        assert_eq!(t.segs.iter().nth(1), Some(Seg { off: 16, len: 8 }));
        assert_eq!(t.elements(), 6);
        assert!(!t.dense(1));
        assert_eq!(t.uniform(), Some(Red::Basic(D::I32)));
        assert_eq!(t.elements_in(28), Some(7));
        assert_eq!(t.elements_in(30), None);
    }

    #[test]
    fn contiguous_merges_and_is_dense() {
        let i = int();
        let t = Type::blocks(&[(&i, 5, 0)], Envelope::default()).unwrap();
        assert_eq!(t.segs, Runs::listed(vec![Seg { off: 0, len: 20 }]));
        assert!(t.dense(7));
        let r = t.resized(0, 32, Envelope::default());
        assert!(r.dense(1) && !r.dense(2));
    }

    #[test]
    fn struct_pads_and_mixes() {
        let i = int();
        let d = predefined::get(0x214).unwrap();
        let c = predefined::get(0x243).unwrap();
        let mut t =
            Type::blocks(&[(&i, 1, 0), (&d, 1, 8), (&c, 3, 16)], Envelope::default()).unwrap();
        t.pad_to_alignment();
        assert_eq!((t.size, t.extent()), (15, 24));
        assert_eq!(t.uniform(), None);
        assert_eq!(t.move_type(), D::U8);
        assert_eq!(t.elements(), 5);
        assert_eq!(t.elements_in(12), Some(2));
    }

    /// The listed form of a vector: every block given explicitly.
    fn listed_vector(child: &Arc<Type>, n: usize, bl: usize, stride: isize) -> Type {
        let b: Vec<_> = (0..n).map(|k| (child, bl, k as isize * stride)).collect();
        Type::blocks(&b, Envelope::default()).unwrap()
    }

    #[test]
    fn strided_vectors_match_their_listed_form() {
        let i = int();
        let d = predefined::get(0x214).unwrap();
        let pair = Arc::new(Type::blocks(&[(&i, 1, 0), (&i, 1, 12)], Envelope::default()).unwrap());
        let resized = Arc::new(i.resized(-4, 16, Envelope::default()));
        for child in [&i, &d, &pair, &resized] {
            for (n, bl, stride) in [(2, 1, 16), (5, 2, 40), (3, 1, -24), (7, 3, 100), (4, 1, 4)] {
                let block = Type::blocks(&[(child, bl, 0)], Envelope::default()).unwrap();
                let listed = listed_vector(child, n, bl, stride);
                let Some(t) = Type::strided(&block, n, stride, Envelope::default()).unwrap() else {
                    // Touching copies (or a mixed block) keep the listed form.
                    continue;
                };
                let runs = |t: &Type| t.segs.iter().collect::<Vec<_>>();
                assert_eq!(runs(&t), runs(&listed), "{n} x {bl} at {stride}");
                assert_eq!(t.sig, listed.sig);
                assert_eq!((t.size, t.lb, t.ub), (listed.size, listed.lb, listed.ub));
                assert_eq!((t.true_lb, t.true_ub), (listed.true_lb, listed.true_ub));
                assert_eq!(t.elements(), listed.elements());
            }
        }
    }

    #[test]
    fn a_vector_of_a_billion_blocks_is_one_run_long() {
        // MPICH's datatype/large_count: vector(INT_MAX / 2, 1, 3, contiguous(4, int)).
        let i = int();
        let four = Arc::new(Type::blocks(&[(&i, 4, 0)], Envelope::default()).unwrap());
        let n = (i32::MAX / 2) as usize;
        let block = Type::blocks(&[(&four, 1, 0)], Envelope::default()).unwrap();
        let t = Type::strided(&block, n, 48, Envelope::default())
            .unwrap()
            .unwrap();
        assert_eq!(t.size, 16 * n);
        assert_eq!((t.lb, t.ub), (0, 48 * (n as isize - 1) + 16));
        assert_eq!(t.segs.len(), n);
        assert_eq!(t.segs.pattern.len(), 1);
        assert_eq!(t.elements(), 4 * n);
        assert!(!t.dense(1));
    }
}
