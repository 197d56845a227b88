//! The job secret of a multi-host job: a file every host's `nexarrun` reads (`--secret-file`,
//! else `NEXAR_JOB_SECRET_FILE`). Never printed, never on a command line, never passed to the
//! ranks other than through their secret pipe.

use nexar::security::JobSecret;
use std::path::{Path, PathBuf};

/// The secret file named by `flag`, else by `NEXAR_JOB_SECRET_FILE`.
pub fn resolve(flag: Option<&Path>) -> Result<PathBuf, String> {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("NEXAR_JOB_SECRET_FILE").map(PathBuf::from))
        .ok_or_else(|| {
            "a multi-host job needs a secret file shared by every host: --secret-file PATH \
             (or NEXAR_JOB_SECRET_FILE)"
                .to_string()
        })
}

/// The leader's secret: read from the file, or generated and written to it (mode 0600) when
/// the file does not exist.
pub fn for_leader(flag: Option<&Path>) -> Result<JobSecret, String> {
    let p = resolve(flag)?;
    if !p.exists() {
        let s = JobSecret::generate().map_err(|e| e.message().to_string())?;
        match s.write_file(&p) {
            Ok(()) => return Ok(s),
            // Someone else created it in between: read theirs.
            Err(_) if p.exists() => {}
            Err(e) => return Err(e.message().to_string()),
        }
    }
    JobSecret::read_from_file(&p).map_err(|e| e.message().to_string())
}

/// A joiner's secret: the file must exist (the leader's, copied to this host); without a file
/// named, `NEXAR_JOB_SECRET` (64 hex digits: a leader that started this joiner through `srun`
/// puts it there), which is then removed from the environment so no rank inherits it.
pub fn for_joiner(flag: Option<&Path>) -> Result<JobSecret, String> {
    let named = flag.is_some() || std::env::var_os("NEXAR_JOB_SECRET_FILE").is_some();
    if !named && let Ok(hex) = std::env::var("NEXAR_JOB_SECRET") {
        // SAFETY: nexarrun reads its secret before it starts its runtime or any other thread,
        // so nothing reads the environment concurrently.
        unsafe { std::env::remove_var("NEXAR_JOB_SECRET") };
        return JobSecret::parse(hex.trim().as_bytes())
            .ok()
            .filter(|_| hex.trim().len() == 64)
            .ok_or_else(|| "NEXAR_JOB_SECRET is not 64 hexadecimal digits".to_string());
    }
    let p = resolve(flag)?;
    JobSecret::read_from_file(&p).map_err(|e| e.message().to_string())
}
