//! Progress on the calling thread for blocking calls.
//!
//! A blocking call normally parks its thread until another thread (a transport's reader) has
//! delivered the frames it waits for and woken it: two thread hand-offs per message. A
//! transport that implements [`CallerProgress`] lets the blocked thread read the transport
//! itself instead: it polls, spins briefly, yields, and only then sleeps on the transport's own
//! wake-up word (which both incoming traffic and the future's waker ring).

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
    /// Sleeps until traffic arrives, the function from [`Self::ringer`] runs, or a short
    /// timeout; returns at once if `ready()` is true after the sleep was announced.
    fn sleep(&self, ready: &dyn Fn() -> bool);
    /// A function that wakes threads sleeping in [`Self::sleep`] (it keeps the transport's
    /// memory alive for as long as it lives).
    fn ringer(&self) -> Box<dyn Fn() + Send + Sync>;
}

struct CallerWaker {
    woken: AtomicBool,
    ring: Box<dyn Fn() + Send + Sync>,
}

impl Wake for CallerWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        (self.ring)();
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

impl crate::comm::Comm {
    /// Runs `fut` (typically an operation on this communicator) to completion on this thread,
    /// making the transport progress here while waiting when it can (see the module docs). The
    /// `*_blocking` methods use it; bindings that block on engine futures should too.
    pub fn block_on<F: Future>(&self, fut: F) -> F::Output {
        block_on(self.inner.engine.transport().caller_progress(), fut)
    }
}

/// Runs `fut` to completion on this thread, driving `progress` while it waits (or simply
/// parking, as `pollster` does, without one). Must not be called from inside an async task.
pub fn block_on<F: Future>(progress: Option<&dyn CallerProgress>, fut: F) -> F::Output {
    let Some(p) = progress else {
        return pollster::block_on(fut);
    };
    let flag = Arc::new(CallerWaker {
        woken: AtomicBool::new(true),
        ring: p.ringer(),
    });
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut fut = std::pin::pin!(fut);
    p.enter();
    let mut exit = Exit {
        progress: p,
        slept: false,
    };
    let mut last_work = Instant::now();
    loop {
        if flag.woken.swap(false, Ordering::AcqRel)
            && let Poll::Ready(v) = fut.as_mut().poll(&mut cx)
        {
            return v;
        }
        if p.poll() {
            last_work = Instant::now();
            continue;
        }
        let idle = last_work.elapsed();
        if idle < SPIN {
            std::hint::spin_loop();
        } else if idle < SPIN + YIELD {
            std::thread::yield_now();
        } else {
            p.sleep(&|| flag.woken.load(Ordering::Acquire));
            exit.slept = true;
            last_work = Instant::now();
        }
    }
}
