//! The staging pipeline: a device buffer moves through two pinned host bounce buffers in
//! chunks, so that the copy engine works on chunk `k+1` while the host works on chunk `k`.
//!
//! The pipeline is written against the [`CopyEngine`] trait and knows nothing about CUDA: the
//! real engine (feature `cuda`) drives the driver's asynchronous copies on two streams, and the
//! unit tests drive a host-memory fake that checks the ordering rules.

use crate::error::Result;

/// Number of bounce buffers (and copy streams) the pipeline alternates between.
pub const SLOTS: usize = 2;

/// Something that copies between device memory and a fixed set of [`SLOTS`] host bounce
/// buffers asynchronously, one copy in flight per slot at most.
///
/// The pipeline promises: it starts a copy on a slot only when no copy is in flight there (it
/// has waited for the previous one), and it reads or writes a bounce buffer only while no copy
/// on it is in flight.
pub trait CopyEngine {
    /// Size in bytes of each bounce buffer (the chunk size).
    fn chunk(&self) -> usize;
    /// Starts copying `len` bytes from device address `src` into bounce buffer `slot`.
    fn start_download(&mut self, slot: usize, src: u64, len: usize) -> Result<()>;
    /// Starts copying the first `len` bytes of bounce buffer `slot` to device address `dst`.
    fn start_upload(&mut self, slot: usize, dst: u64, len: usize) -> Result<()>;
    /// Waits until the copy last started on `slot` (if any) has completed.
    fn wait(&mut self, slot: usize) -> Result<()>;
    /// Bounce buffer `slot`, [`CopyEngine::chunk`] bytes long.
    fn bounce(&mut self, slot: usize) -> &mut [u8];
}

/// Offset and length of chunk `k` of a `total`-byte transfer in `chunk`-byte pieces.
fn span(k: usize, chunk: usize, total: usize) -> (usize, usize) {
    let off = k * chunk;
    (off, chunk.min(total - off))
}

/// Waits for every slot, keeping the first error: after a failure the bounce buffers must not
/// be handed out again while a copy into them may still run.
fn drain(eng: &mut impl CopyEngine, used: usize) -> Result<()> {
    let mut first = Ok(());
    for slot in 0..used.min(SLOTS) {
        let r = eng.wait(slot);
        if first.is_ok() {
            first = r;
        }
    }
    first
}

/// Copies `total` bytes starting at device address `src` to the host, handing each chunk to
/// `consume(offset, bytes)` in order. The download of chunk `k+1` is in flight while
/// `consume` handles chunk `k`.
pub fn download(
    eng: &mut impl CopyEngine,
    src: u64,
    total: usize,
    mut consume: impl FnMut(usize, &[u8]) -> Result<()>,
) -> Result<()> {
    let chunk = eng.chunk();
    assert!(
        chunk > 0,
        "a copy engine must have non-empty bounce buffers"
    );
    let n = total.div_ceil(chunk);
    if n == 0 {
        return Ok(());
    }
    let mut run = || -> Result<()> {
        eng.start_download(0, src, span(0, chunk, total).1)?;
        for k in 0..n {
            if k + 1 < n {
                let (off, len) = span(k + 1, chunk, total);
                eng.start_download((k + 1) % SLOTS, src + off as u64, len)?;
            }
            let slot = k % SLOTS;
            eng.wait(slot)?;
            let (off, len) = span(k, chunk, total);
            consume(off, &eng.bounce(slot)[..len])?;
        }
        Ok(())
    };
    let r = run();
    let d = drain(eng, n);
    r.and(d)
}

/// Copies `total` bytes from the host to device address `dst`: `produce(offset, bounce)` fills
/// each chunk in order, and the upload of chunk `k` is in flight while `produce` fills chunk
/// `k+1`. Returns once every byte has reached the device.
pub fn upload(
    eng: &mut impl CopyEngine,
    dst: u64,
    total: usize,
    mut produce: impl FnMut(usize, &mut [u8]) -> Result<()>,
) -> Result<()> {
    let chunk = eng.chunk();
    assert!(
        chunk > 0,
        "a copy engine must have non-empty bounce buffers"
    );
    let n = total.div_ceil(chunk);
    let mut run = || -> Result<()> {
        for k in 0..n {
            let slot = k % SLOTS;
            if k >= SLOTS {
                // The slot's previous upload must be done before its buffer is refilled.
                eng.wait(slot)?;
            }
            let (off, len) = span(k, chunk, total);
            produce(off, &mut eng.bounce(slot)[..len])?;
            eng.start_upload(slot, dst + off as u64, len)?;
        }
        Ok(())
    };
    let r = run();
    let d = drain(eng, n);
    r.and(d)
}

#[cfg(test)]
mod tests;
