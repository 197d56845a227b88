//! The 32-byte job secret: generation, reading from a pipe or a file, and the job id derived from
//! it. The secret never appears in `Debug` output and is wiped from memory on drop.

use crate::error::{Error, ErrorKind, Result};
use ring::digest;
use ring::rand::{SecureRandom, SystemRandom};
use std::fmt;
use std::io::Read;
use std::os::fd::{FromRawFd, RawFd};
use std::path::Path;
use zeroize::Zeroize;

/// Length of a job secret in bytes.
pub const SECRET_LEN: usize = 32;

/// Domain label for the job id derivation.
const JOB_ID_LABEL: &[u8] = b"nexar job id v1\0";

/// Domain label for the secret of a later epoch of a grown job.
const EPOCH_LABEL: &[u8] = b"nexar epoch secret v1\0";

/// The job secret shared by every rank of a job (and the launcher). Everything else — the job id,
/// the job CA — is derived from it.
#[derive(Clone)]
pub struct JobSecret {
    bytes: [u8; SECRET_LEN],
}

impl JobSecret {
    /// A fresh random secret from the operating system's generator.
    pub fn generate() -> Result<Self> {
        let mut bytes = [0u8; SECRET_LEN];
        SystemRandom::new().fill(&mut bytes).map_err(|_| {
            Error::new(
                ErrorKind::Security,
                "the system random generator failed to produce a job secret",
            )
        })?;
        Ok(Self { bytes })
    }

    /// A secret from raw bytes (tests, embedding applications).
    pub fn from_bytes(bytes: [u8; SECRET_LEN]) -> Self {
        Self { bytes }
    }

    /// Parses a secret from file or pipe contents: exactly 32 raw bytes, or 64 hexadecimal digits
    /// surrounded by optional whitespace.
    pub fn parse(data: &[u8]) -> Result<Self> {
        if data.len() == SECRET_LEN {
            let mut bytes = [0u8; SECRET_LEN];
            bytes.copy_from_slice(data);
            return Ok(Self { bytes });
        }
        let text = data.trim_ascii();
        if text.len() == 2 * SECRET_LEN {
            let mut bytes = [0u8; SECRET_LEN];
            for (i, pair) in text.chunks_exact(2).enumerate() {
                match (hex_val(pair[0]), hex_val(pair[1])) {
                    (Some(h), Some(l)) => bytes[i] = (h << 4) | l,
                    _ => {
                        bytes.zeroize();
                        return Err(bad_secret_format(data.len()));
                    }
                }
            }
            return Ok(Self { bytes });
        }
        Err(bad_secret_format(data.len()))
    }

    /// Reads the secret from an inherited file descriptor (a pipe written by `nexarrun`), then
    /// closes it. The descriptor must be open and owned by nobody else in this process. Exactly
    /// 32 raw bytes are read (so a writer that keeps its end open cannot make this hang), unless
    /// they are all hex digits: then the rest of a 64-digit hex secret is read up to end of file.
    pub fn read_from_fd(fd: RawFd) -> Result<Self> {
        if fd < 0 {
            return Err(Error::new(
                ErrorKind::Bootstrap,
                format!("secret file descriptor {fd} is negative"),
            ));
        }
        // SAFETY: F_GETFD only queries the descriptor table; it has no memory effects.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
            return Err(Error::new(
                ErrorKind::Bootstrap,
                format!("secret file descriptor {fd} is not open"),
            ));
        }
        // SAFETY: the descriptor is open (checked above) and was handed to this process solely
        // to carry the secret; from here on the `File` owns it and closes it on drop.
        let mut file = unsafe { std::fs::File::from_raw_fd(fd) };
        let res = read_secret_bytes(&mut file);
        drop(file);
        let mut buf = match res {
            Ok(b) => b,
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::Bootstrap,
                    format!("cannot read the job secret from file descriptor {fd}: {e}"),
                ));
            }
        };
        let out = Self::parse(&buf);
        buf.zeroize();
        out
    }

    /// Reads the secret from a file that only its owner can read (mode `0600` or stricter); a
    /// file readable or writable by group or others is refused.
    pub fn read_from_file(path: &Path) -> Result<Self> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("cannot read job secret file {}: {e}", path.display()),
            )
        })?;
        if !meta.is_file() {
            return Err(Error::new(
                ErrorKind::Bootstrap,
                format!("job secret file {} is not a regular file", path.display()),
            ));
        }
        let mode = meta.mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(Error::new(
                ErrorKind::Security,
                format!(
                    "job secret file {} has mode {mode:03o}; it must not be accessible by group \
                     or others (use chmod 600)",
                    path.display()
                ),
            ));
        }
        let mut data = std::fs::read(path).map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("cannot read job secret file {}: {e}", path.display()),
            )
        })?;
        let out = Self::parse(&data);
        data.zeroize();
        out
    }

    /// Writes the secret as 64 hex digits to a new file with mode `0600` (for launches by hand:
    /// point every rank's `NEXAR_JOB_SECRET_FILE` at it). Fails if the file exists.
    ///
    /// The file appears whole: the digits go to a temporary file in the same directory, which
    /// is then hard-linked to `path` (a link, unlike a rename, fails if `path` exists). A
    /// reader that waits for the file (a joining host) so never reads it half-written. Where
    /// the file system has no hard links, the file is written in place as before.
    pub fn write_file(&self, path: &Path) -> Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".{}.tmp", std::process::id()));
        let tmp = std::path::PathBuf::from(tmp);
        let linked = self
            .write_new(&tmp)
            .and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
        let res = match linked {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => self.write_new(path),
            other => other,
        };
        res.map_err(|e| {
            Error::new(
                ErrorKind::Bootstrap,
                format!("cannot write job secret file {}: {e}", path.display()),
            )
        })
    }

    /// Writes the hex digits to a new file `path` with mode `0600`.
    fn write_new(&self, path: &Path) -> std::io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut hex = self.to_hex();
        let res = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .and_then(|mut f| {
                f.write_all(hex.as_bytes())?;
                f.write_all(b"\n")
            });
        hex.zeroize();
        res
    }

    /// The raw secret bytes. Handle with care: never log or print them.
    pub fn expose(&self) -> &[u8; SECRET_LEN] {
        &self.bytes
    }

    /// The job id: the first 8 bytes of SHA-256(label || secret) as 16 lowercase hex digits.
    /// Identical on every rank; safe to print.
    pub fn job_id(&self) -> String {
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(JOB_ID_LABEL);
        ctx.update(&self.bytes);
        let d = ctx.finish();
        d.as_ref()[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The secret of epoch `epoch` of this job: SHA-256(label || secret || epoch, big-endian).
    /// A grown world ([`crate::Context::grow`]) runs under the next epoch's secret, so it has
    /// its own job id, job CA and certificates, and credentials of an older epoch are refused
    /// at connect. Epoch 0 is the secret itself.
    pub fn for_epoch(&self, epoch: u32) -> JobSecret {
        if epoch == 0 {
            return self.clone();
        }
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(EPOCH_LABEL);
        ctx.update(&self.bytes);
        ctx.update(&epoch.to_be_bytes());
        let d = ctx.finish();
        let mut bytes = [0u8; SECRET_LEN];
        bytes.copy_from_slice(d.as_ref());
        Self { bytes }
    }

    fn to_hex(&self) -> String {
        self.bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Reads 32 bytes, plus the rest of a hex encoding when those bytes are hex digits.
fn read_secret_bytes(file: &mut std::fs::File) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0u8; SECRET_LEN];
    let mut got = 0;
    while got < SECRET_LEN {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.zeroize();
                return Err(e);
            }
        }
    }
    buf.truncate(got);
    if got == SECRET_LEN && buf.iter().all(u8::is_ascii_hexdigit) {
        let res = file.take(2 * SECRET_LEN as u64).read_to_end(&mut buf);
        if let Err(e) = res {
            buf.zeroize();
            return Err(e);
        }
    }
    Ok(buf)
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn bad_secret_format(len: usize) -> Error {
    Error::new(
        ErrorKind::Bootstrap,
        format!(
            "job secret has {len} bytes; expected {SECRET_LEN} raw bytes or {} hex digits",
            2 * SECRET_LEN
        ),
    )
}

impl Drop for JobSecret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for JobSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JobSecret(job {}, <redacted>)", self.job_id())
    }
}

impl PartialEq for JobSecret {
    fn eq(&self, other: &Self) -> bool {
        // Constant time: no early exit on the first differing byte.
        self.bytes
            .iter()
            .zip(other.bytes.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl Eq for JobSecret {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_secret_file_appears_whole_private_and_only_once() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for i in 0..100u8 {
            let path = dir.path().join(format!("s{i}"));
            let s = JobSecret::from_bytes([i; SECRET_LEN]);
            // A reader that pounces on the file as soon as it exists (a joining host).
            let watcher = {
                let path = path.clone();
                std::thread::spawn(move || {
                    loop {
                        if let Ok(data) = std::fs::read(&path) {
                            return data;
                        }
                        std::thread::yield_now();
                    }
                })
            };
            s.write_file(&path).unwrap();
            let seen = watcher.join().unwrap();
            assert_eq!(
                JobSecret::parse(&seen).unwrap(),
                s,
                "read at once: {seen:?}"
            );
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            let other = JobSecret::from_bytes([0xee; SECRET_LEN]);
            assert!(other.write_file(&path).is_err(), "an existing file is kept");
            assert_eq!(JobSecret::read_from_file(&path).unwrap(), s);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 100, "no temporary file is left behind");
    }

    #[test]
    fn debug_does_not_print_the_secret() {
        let s = JobSecret::from_bytes([0xab; SECRET_LEN]);
        let d = format!("{s:?}");
        assert!(!d.contains("abab"), "{d}");
        assert!(!d.contains("171"), "{d}");
        assert!(d.contains("redacted"));
    }

    #[test]
    fn parses_raw_and_hex() {
        let raw = [7u8; SECRET_LEN];
        let a = JobSecret::parse(&raw).unwrap();
        let hex: String = raw.iter().map(|b| format!("{b:02X}")).collect();
        let b = JobSecret::parse(format!("  {hex}\n").as_bytes()).unwrap();
        assert_eq!(a, b);
        assert!(JobSecret::parse(b"short").is_err());
        assert!(JobSecret::parse(&[b'z'; 64]).is_err());
    }

    #[test]
    fn job_id_is_stable_and_distinct() {
        let a = JobSecret::from_bytes([1; SECRET_LEN]);
        let b = JobSecret::from_bytes([2; SECRET_LEN]);
        assert_eq!(a.job_id(), a.clone().job_id());
        assert_eq!(a.job_id().len(), 16);
        assert_ne!(a.job_id(), b.job_id());
    }

    fn pipe_with(data: &[u8], close_writer: bool) -> (RawFd, RawFd) {
        let mut fds = [0; 2];
        // SAFETY: fds is valid for pipe to fill; the write is from a valid buffer.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            assert_eq!(
                libc::write(fds[1], data.as_ptr().cast(), data.len()),
                data.len() as isize
            );
            if close_writer {
                libc::close(fds[1]);
            }
        }
        (fds[0], fds[1])
    }

    #[test]
    fn reads_32_raw_bytes_from_a_pipe_even_if_its_writer_stays_open() {
        let (r, w) = pipe_with(&[5u8; SECRET_LEN], false);
        let s = JobSecret::read_from_fd(r).unwrap();
        assert_eq!(s, JobSecret::from_bytes([5; SECRET_LEN]));
        // SAFETY: closing the write end this test still owns.
        unsafe { libc::close(w) };
    }

    #[test]
    fn reads_a_hex_secret_from_a_pipe() {
        let hex: String = std::iter::repeat_n("a1", SECRET_LEN).collect();
        let (r, _) = pipe_with(format!("{hex}\n").as_bytes(), true);
        let s = JobSecret::read_from_fd(r).unwrap();
        assert_eq!(s, JobSecret::from_bytes([0xa1; SECRET_LEN]));
        let (r, _) = pipe_with(b"short", true);
        assert!(JobSecret::read_from_fd(r).is_err());
    }

    #[test]
    fn epoch_secrets_are_stable_and_distinct() {
        let s = JobSecret::from_bytes([3; SECRET_LEN]);
        assert_eq!(s.for_epoch(0), s);
        assert_eq!(s.for_epoch(1), s.clone().for_epoch(1));
        assert_ne!(s.for_epoch(1), s);
        assert_ne!(s.for_epoch(1), s.for_epoch(2));
        assert_ne!(s.for_epoch(1).job_id(), s.job_id());
        // Derivation from the epoch-1 secret is not a shortcut to epoch 2.
        assert_ne!(s.for_epoch(1).for_epoch(1), s.for_epoch(2));
    }

    #[test]
    fn generated_secrets_differ() {
        assert_ne!(
            JobSecret::generate().unwrap(),
            JobSecret::generate().unwrap()
        );
    }
}
