//! The file-access thread of collective buffering ([`super::two_phase`]): an aggregator hands
//! it its windows, in order, to write or to read, so that the disk works while the ranks
//! exchange the next window's bytes.

use super::access::Dir;
use super::posix::{self, Run};
use crate::consts::MPI_ERR_INTERN;
use crate::errors::report::{MpiError, Result};
use std::collections::VecDeque;
use std::io;
use std::os::fd::BorrowedFd;
use std::sync::mpsc::{Receiver, Sender, channel};

/// A window for the file-access thread: its bytes (byte 0 at file offset `base`) and the
/// runs of it to write, or to read.
pub struct Job {
    /// The window's bytes.
    pub buf: Vec<u8>,
    /// The file offset of its byte 0.
    pub base: u64,
    /// The runs to write from it, or to read into it (ascending, within the window).
    pub spans: Vec<Run>,
}

/// Does a job: writes its runs from the window, or reads them into it (zeros past the end of
/// the file, and in a run that failed); gives the first error. `behind` follows the writes of
/// the whole call.
fn access(
    fd: BorrowedFd<'_>,
    dir: Dir,
    job: &mut Job,
    behind: &mut posix::WriteBehind,
) -> Option<io::Error> {
    let mut err = None;
    for &(o, l) in &job.spans {
        let w = (o - job.base) as usize;
        let r = match dir {
            Dir::Write => {
                posix::pwrite_all(fd, &job.buf[w..w + l], o).map(|()| behind.wrote(fd, o, l))
            }
            Dir::Read => posix::pread_full(fd, &mut job.buf[w..w + l], o)
                .map(|n| job.buf[w + n..w + l].fill(0)),
        };
        if let Err(e) = r {
            if dir == Dir::Read {
                // Zeros go out, not what the reused window held before.
                job.buf[w..w + l].fill(0);
            }
            err.get_or_insert(e);
        }
    }
    err
}

/// An aggregator's file access, on a helper thread, so that the disk works while the ranks
/// exchange: a write's window `k` is written while window `k + 1` is exchanged and gathered,
/// a read's window `k + 1` is read while window `k` is exchanged. Jobs are done in order.
/// With one window there is nothing to overlap: the jobs are done at once on the caller's
/// thread (starting a thread and handing over to it cost a one-round call 3-5x its time).
pub struct Worker<'scope> {
    /// Where the jobs are done.
    how: How<'scope>,
    /// Windows free to fill.
    pub free: Vec<Vec<u8>>,
    /// Jobs with the thread.
    pub out: usize,
}

/// Where a [`Worker`]'s jobs are done.
enum How<'scope> {
    /// On the helper thread: jobs go out on `jobs` (closed to end it) and come back on `done`
    /// with the first error of each.
    Thread {
        jobs: Option<Sender<Job>>,
        done: Receiver<(Job, Option<io::Error>)>,
    },
    /// At once, on `fd` in direction `dir`; `done` holds them until asked for.
    Inline {
        fd: BorrowedFd<'scope>,
        dir: Dir,
        done: VecDeque<(Job, Option<io::Error>)>,
    },
}

/// The error of a helper thread that ended early (it panicked).
fn worker_gone() -> MpiError {
    MpiError::new(
        MPI_ERR_INTERN,
        "the collective-buffering file-access thread ended",
    )
}

impl<'scope> Worker<'scope> {
    /// Starts the thread in `scope` (if `windows`, the number of windows the call has, is
    /// more than 1), accessing `fd` in direction `dir`; `free` are the windows to reuse.
    pub fn start(
        scope: &'scope std::thread::Scope<'scope, '_>,
        fd: BorrowedFd<'scope>,
        dir: Dir,
        free: Vec<Vec<u8>>,
        windows: usize,
    ) -> Self {
        if windows <= 1 {
            let done = VecDeque::new();
            return Self {
                how: How::Inline { fd, dir, done },
                free,
                out: 0,
            };
        }
        let (jobs, todo) = channel::<Job>();
        let (give, done) = channel();
        scope.spawn(move || {
            let mut behind = posix::WriteBehind::default();
            for mut job in todo {
                let err = access(fd, dir, &mut job, &mut behind);
                if give.send((job, err)).is_err() {
                    break;
                }
            }
        });
        Self {
            how: How::Thread {
                jobs: Some(jobs),
                done,
            },
            free,
            out: 0,
        }
    }

    /// A window to fill: a free one, or a new one.
    pub fn window(&mut self) -> Vec<u8> {
        self.free.pop().unwrap_or_default()
    }

    /// Hands a job to the thread.
    pub fn submit(&mut self, mut job: Job) -> Result<()> {
        match &mut self.how {
            How::Thread { jobs, .. } => {
                let jobs = jobs.as_ref().expect("open until finish");
                jobs.send(job).map_err(|_| worker_gone())?;
            }
            How::Inline { fd, dir, done } => {
                // One window: at most one job, so nothing to follow across jobs.
                let err = access(*fd, *dir, &mut job, &mut posix::WriteBehind::default());
                done.push_back((job, err));
            }
        }
        self.out += 1;
        Ok(())
    }

    /// Waits for the oldest job the thread has.
    pub fn oldest(&mut self) -> Result<(Job, Option<io::Error>)> {
        let got = match &mut self.how {
            How::Thread { done, .. } => done.recv().map_err(|_| worker_gone())?,
            How::Inline { done, .. } => done.pop_front().ok_or_else(worker_gone)?,
        };
        self.out -= 1;
        Ok(got)
    }

    /// Waits for every job; gives the windows and the first error.
    pub fn finish(mut self) -> Result<(Vec<Vec<u8>>, Option<io::Error>)> {
        if let How::Thread { jobs, .. } = &mut self.how {
            *jobs = None;
        }
        let mut failed = None;
        while self.out > 0 {
            let (job, err) = self.oldest()?;
            self.free.push(job.buf);
            failed = failed.or(err);
        }
        Ok((self.free, failed))
    }
}
