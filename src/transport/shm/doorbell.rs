//! A doorbell in shared memory: a futex word plus a "sleeping" flag, so a sender issues the
//! wake-up system call only when the receiver's progress thread actually sleeps.
//!
//! `sleeping` counts sleepers (the progress thread and blocked callers may sleep at once).
//! `polling` counts the owner's threads that are reading the rings right now (blocked callers
//! busy-polling): while there is one, traffic needs no wake-up system call
//! ([`Doorbell::ring_traffic`]) because that thread will see it; a poller that stops re-checks
//! the rings after saying so ([`Doorbell::stop_polling`]), so nothing is left unnoticed.
//! Sleeper: load `seq`, count itself in `sleeping`, re-check for work, then `FUTEX_WAIT` on `seq` (which
//! returns at once if `seq` moved). Waker: publish work, fence, and only if `sleeping` is set
//! bump `seq` and `FUTEX_WAKE`. The sequentially consistent fences guarantee that either the
//! sleeper's re-check sees the work or the waker sees the flag.

use std::sync::atomic::{AtomicU32, Ordering, fence};
use std::time::Duration;

/// A view of a doorbell (three u32 words, 64 bytes apart) in a shared mapping.
#[derive(Clone, Copy, Debug)]
pub struct Doorbell {
    seq: *const AtomicU32,
    sleeping: *const AtomicU32,
    polling: *const AtomicU32,
}

// SAFETY: the pointers refer to atomics in a shared mapping that outlives the view.
unsafe impl Send for Doorbell {}
// SAFETY: as above.
unsafe impl Sync for Doorbell {}

impl Doorbell {
    /// The doorbell whose words lie at `base`, `base + 64` and `base + 128`.
    ///
    /// # Safety
    /// `base` must be 4-byte aligned and valid for 132 bytes for as long as the view is used.
    pub unsafe fn from_raw(base: *mut u8) -> Self {
        Self {
            seq: base as *const AtomicU32,
            // SAFETY: inside the region the caller vouches for.
            sleeping: unsafe { base.add(64) } as *const AtomicU32,
            // SAFETY: as above.
            polling: unsafe { base.add(128) } as *const AtomicU32,
        }
    }

    fn polling(&self) -> &AtomicU32 {
        // SAFETY: see from_raw.
        unsafe { &*self.polling }
    }

    /// Owner: a thread starts reading the rings continuously (traffic needs no wake-up).
    pub fn start_polling(&self) {
        self.polling().fetch_add(1, Ordering::SeqCst);
    }

    /// Owner: a polling thread stops. Afterwards the caller must look at the rings once more
    /// (or [`Self::ring`] for whoever sleeps) if it leaves work behind: a sender may have
    /// skipped its wake-up while this thread was polling.
    pub fn stop_polling(&self) {
        self.polling().fetch_sub(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
    }

    fn seq(&self) -> &AtomicU32 {
        // SAFETY: see from_raw.
        unsafe { &*self.seq }
    }

    fn sleeping(&self) -> &AtomicU32 {
        // SAFETY: see from_raw.
        unsafe { &*self.sleeping }
    }

    /// Sleeper, step 1: announces the intent to sleep and returns the ticket to wait on.
    /// The caller must re-check for work afterwards and call [`Self::wait`] only if none.
    pub fn prepare(&self) -> u32 {
        let ticket = self.seq().load(Ordering::SeqCst);
        self.sleeping().fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        ticket
    }

    /// Sleeper, step 2: sleeps until woken, `seq` moved past `ticket`, or `timeout`.
    pub fn wait(&self, ticket: u32, timeout: Duration) {
        let ts = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: FUTEX_WAIT on a valid, aligned u32 in a shared mapping (not the private
        // variant: the waker is another process); the timespec outlives the call.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.seq,
                libc::FUTEX_WAIT,
                ticket,
                &ts as *const libc::timespec,
                std::ptr::null::<u32>(),
                0u32,
            );
        }
    }

    /// Sleeper, step 3 (also after a re-check found work): no longer sleeping.
    pub fn done(&self) {
        self.sleeping().fetch_sub(1, Ordering::SeqCst);
    }

    /// Sender of traffic (ring slots, acknowledgements): like [`Self::ring`], but no wake-up
    /// while one of the owner's threads is polling the rings (it will see the traffic; see
    /// [`Self::stop_polling`]).
    pub fn ring_traffic(&self) {
        fence(Ordering::SeqCst);
        // `sleeping` first: it changes only when a thread goes to sleep or wakes, so while
        // nobody sleeps the line stays cached on both sides; `polling` changes on every
        // blocking call of the owner and would cost a cache-line transfer per message.
        if self.sleeping().load(Ordering::Relaxed) != 0
            && self.polling().load(Ordering::Relaxed) == 0
        {
            self.wake();
        }
    }

    /// Waker: wakes the sleeper if it sleeps (or is about to). Cheap when it does not.
    pub fn ring(&self) {
        fence(Ordering::SeqCst);
        self.ring_now();
    }

    fn ring_now(&self) {
        if self.sleeping().load(Ordering::Relaxed) != 0 {
            self.wake();
        }
    }

    fn wake(&self) {
        self.seq().fetch_add(1, Ordering::SeqCst);
        // SAFETY: FUTEX_WAKE on a valid, aligned u32 in a shared mapping.
        unsafe {
            libc::syscall(libc::SYS_futex, self.seq, libc::FUTEX_WAKE, i32::MAX);
        }
    }
}

/// Sleeps while `word == val` (a process-private futex), at most `timeout`.
pub fn wait_private(word: &AtomicU32, val: u32, timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: FUTEX_WAIT_PRIVATE on a valid, aligned u32 of this process; the timespec outlives
    // the call.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word as *const AtomicU32,
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            val,
            &ts as *const libc::timespec,
            std::ptr::null::<u32>(),
            0u32,
        );
    }
}

/// Bumps `word` and wakes every thread in [`wait_private`] on it.
pub fn wake_private(word: &AtomicU32) {
    word.fetch_add(1, Ordering::SeqCst);
    // SAFETY: FUTEX_WAKE_PRIVATE on a valid, aligned u32 of this process.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word as *const AtomicU32,
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            i32::MAX,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    #[test]
    fn a_ring_wakes_a_sleeper_and_a_timeout_ends_a_wait() {
        let mem: Arc<Vec<AtomicU32>> = Arc::new((0..33).map(|_| AtomicU32::new(0)).collect());
        // SAFETY: 33 words cover the three fields; `mem` outlives the views (held by both
        // threads).
        let bell = unsafe { Doorbell::from_raw(mem.as_ptr() as *mut u8) };
        let t = Instant::now();
        let ticket = bell.prepare();
        bell.wait(ticket, Duration::from_millis(30));
        bell.done();
        assert!(
            t.elapsed() >= Duration::from_millis(25),
            "timed out, not early"
        );

        let flag = Arc::new(AtomicBool::new(false));
        let (f2, m2) = (flag.clone(), mem.clone());
        let sleeper = std::thread::spawn(move || {
            let _keep = m2;
            let t = Instant::now();
            loop {
                let ticket = bell.prepare();
                if f2.load(Ordering::SeqCst) {
                    bell.done();
                    return t.elapsed();
                }
                bell.wait(ticket, Duration::from_secs(10));
                bell.done();
            }
        });
        std::thread::sleep(Duration::from_millis(20));
        flag.store(true, Ordering::SeqCst);
        bell.ring();
        assert!(sleeper.join().unwrap() < Duration::from_secs(5));
    }
}
