//! Progress on the calling thread for blocking calls.
//!
//! A blocking call normally parks its thread until another thread (a transport's reader) has
//! delivered the frames it waits for and woken it: two thread hand-offs per message. A
//! transport that implements [`CallerProgress`] lets the blocked thread read the transport
//! itself instead: it polls, spins briefly, yields, and only then sleeps on the transport's own
//! wake-up word (which both incoming traffic and the future's waker ring).

use std::cell::RefCell;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

/// Busy-polling time after the last progress before yielding the CPU.
const SPIN: Duration = Duration::from_micros(3);
/// Yielding time after spinning, before sleeping.
const YIELD: Duration = Duration::from_micros(200);

/// A transport that blocked callers can drive themselves.
pub trait CallerProgress: Send + Sync {
    /// A caller starts blocking (the transport's own progress thread may stand aside).
    fn enter(&self);
    /// The caller stops blocking; `slept` says whether it slept in [`Self::sleep`] (a long
    /// wait, after which the progress thread should resume at once).
    fn exit(&self, slept: bool);
    /// One pass over the transport on this thread; true if anything moved. False also when
    /// another thread is polling at the moment.
    fn poll(&self) -> bool;
    /// Sleeps until traffic arrives, the function from [`Self::ringer`] runs, or `max` (or a
    /// shorter timeout of the transport's) passes; returns at once if `ready()` is true after
    /// the sleep was announced.
    fn sleep(&self, ready: &dyn Fn() -> bool, max: Duration);
    /// A function that wakes threads sleeping in [`Self::sleep`] (it keeps the transport's
    /// memory alive for as long as it lives).
    fn ringer(&self) -> Box<dyn Fn() + Send + Sync>;
    /// Identifies the transport state the ringer wakes: the same value for as long as a ringer
    /// from [`Self::ringer`] lives, and never another transport's (e.g. the address of the
    /// shared state the ringer keeps alive).
    fn id(&self) -> usize;
    /// How long a waiting caller busy-polls before it yields the CPU.
    fn spin_limit(&self) -> Duration {
        SPIN
    }
}

struct CallerWaker {
    /// [`CallerProgress::id`] of the transport `ring` belongs to.
    id: usize,
    woken: AtomicBool,
    ring: Box<dyn Fn() + Send + Sync>,
}

impl Wake for CallerWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        // The blocked thread completing its own wait (it drained the rings and found its
        // message) needs no doorbell: it looks at the flag next.
        if DRIVING.get() != Arc::as_ptr(self) as usize {
            (self.ring)();
        }
    }
}

thread_local! {
    /// The address of the [`CallerWaker`] this thread is blocked with (0: none).
    static DRIVING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };

    /// The last waker this thread blocked with, reused while nobody else holds a clone of it:
    /// a blocking call then allocates nothing for waking.
    static LAST_WAKER: RefCell<Option<Arc<CallerWaker>>> = const { RefCell::new(None) };
}

/// A waker for `p` whose flag starts set (so the future is polled at once).
fn caller_waker(p: &dyn CallerProgress) -> Arc<CallerWaker> {
    let id = p.id();
    let cached = LAST_WAKER.with(|c| {
        c.borrow_mut()
            .take()
            .filter(|w| w.id == id && Arc::strong_count(w) == 1 && Arc::weak_count(w) == 0)
    });
    let w = cached.unwrap_or_else(|| {
        Arc::new(CallerWaker {
            id,
            woken: AtomicBool::new(true),
            ring: p.ringer(),
        })
    });
    w.woken.store(true, Ordering::Relaxed);
    w
}

/// Keeps `w` for the next blocking call of this thread.
fn keep_waker(w: Arc<CallerWaker>) {
    // `try_with`: during thread teardown the slot may be gone; the waker is then just dropped.
    let _ = LAST_WAKER.try_with(|c| *c.borrow_mut() = Some(w));
}

/// Restores the outer [`DRIVING`] mark when a blocking call ends, even by a panic (a blocking
/// call nested in one, from a drop or a waker, puts back the outer call's mark).
struct Driving(usize);

impl Drop for Driving {
    fn drop(&mut self) {
        DRIVING.set(self.0);
    }
}

struct Exit<'a> {
    progress: &'a dyn CallerProgress,
    slept: bool,
}

impl Drop for Exit<'_> {
    fn drop(&mut self) {
        self.progress.exit(self.slept);
    }
}

/// Runs `fut` to completion on this thread, driving `progress` while it waits (or simply
/// parking, as `pollster` does, without one). Must not be called from inside an async task.
pub fn block_on<F: Future>(progress: Option<&dyn CallerProgress>, fut: F) -> F::Output {
    let Some(p) = progress else {
        return pollster::block_on(fut);
    };
    let flag = caller_waker(p);
    let waker = Waker::from(flag.clone());
    let mark = Driving(DRIVING.replace(Arc::as_ptr(&flag) as usize));
    let out = drive(p, &flag, &waker, fut);
    drop(mark);
    drop(waker);
    keep_waker(flag);
    out
}

/// Idle passes between two looks at the clock while spinning (a clock read costs about as much
/// as a pass over idle rings).
const CLOCK_EVERY: u32 = 16;

fn drive<F: Future>(
    p: &dyn CallerProgress,
    flag: &CallerWaker,
    waker: &Waker,
    fut: F,
) -> F::Output {
    let mut cx = Context::from_waker(waker);
    let mut fut = std::pin::pin!(fut);
    p.enter();
    let mut exit = Exit {
        progress: p,
        slept: false,
    };
    let spin = p.spin_limit();
    let mut idle_passes = 0u32;
    let mut last_work = Instant::now();
    loop {
        // Loaded before it is swapped: an idle pass then writes nothing (no locked
        // instruction, no cache-line ownership taken from a waker on another core).
        if flag.woken.load(Ordering::Relaxed)
            && flag.woken.swap(false, Ordering::AcqRel)
            && let Poll::Ready(v) = fut.as_mut().poll(&mut cx)
        {
            return v;
        }
        if p.poll() {
            idle_passes = 0;
            continue;
        }
        if idle_passes == 0 {
            last_work = Instant::now();
        }
        idle_passes = idle_passes.wrapping_add(1);
        if !idle_passes.is_multiple_of(CLOCK_EVERY) {
            std::hint::spin_loop();
            continue;
        }
        let idle = last_work.elapsed();
        if idle < spin {
            std::hint::spin_loop();
        } else if idle < spin + YIELD {
            std::thread::yield_now();
        } else {
            p.sleep(&|| flag.woken.load(Ordering::Acquire), Duration::MAX);
            exit.slept = true;
            idle_passes = 0;
        }
    }
}
