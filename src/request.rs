//! [`Request`]: a handle on a non-blocking operation running in the engine's runtime.

use crate::error::{Error, ErrorKind, Result};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll, Waker};
use tokio::task::JoinHandle;

/// A future polled by whoever tests or waits on the request.
type InlineFuture<T> = Pin<Box<dyn Future<Output = Result<T>> + Send>>;

enum State<T> {
    Running(JoinHandle<Result<T>>),
    /// Driven by the engine elsewhere (e.g. waiting for a receiver's acknowledgement): polling
    /// it on the caller's thread sees completion the moment it happens, with no task hop.
    Inline(InlineFuture<T>),
    Done(Result<T>),
    Taken,
}

/// A non-blocking operation in progress. It makes progress on its own (no need to call
/// [`Request::test`] for that); [`Request::wait`] blocks until it completes and yields its
/// result, which for receives and collectives includes the buffer the operation owned.
///
/// A `Request` is also a `Future`. Dropping it without waiting lets the operation finish in
/// the background and discards its result.
pub struct Request<T> {
    state: State<T>,
}

impl<T> std::fmt::Debug for Request<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self.state {
            State::Running(_) | State::Inline(_) => "running",
            State::Done(_) => "done",
            State::Taken => "taken",
        };
        f.debug_struct("Request").field("state", &s).finish()
    }
}

fn join_error(e: tokio::task::JoinError) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("non-blocking operation failed: {e}"),
    )
}

impl<T: Send + 'static> Request<T> {
    /// Runs `fut` on `rt` and returns its handle.
    pub(crate) fn spawn<F>(rt: &tokio::runtime::Handle, fut: F) -> Self
    where
        F: Future<Output = Result<T>> + Send + 'static,
    {
        Self {
            state: State::Running(rt.spawn(fut)),
        }
    }

    /// A request whose future is polled on the thread that tests or waits on it, not on the
    /// runtime. Only for futures that need no runtime context and do no work of their own
    /// beyond observing completion (a oneshot receiver, say): then [`Request::test`] reports
    /// completion as soon as the engine signals it.
    pub fn inline<F>(fut: F) -> Self
    where
        F: Future<Output = Result<T>> + Send + 'static,
    {
        Self {
            state: State::Inline(Box::pin(fut)),
        }
    }

    /// A request that is already complete with `r` (for bindings and eager operations).
    pub fn ready(r: Result<T>) -> Self {
        Self {
            state: State::Done(r),
        }
    }

    /// True once the operation has completed (successfully or not). Never blocks.
    pub fn test(&mut self) -> bool {
        if let State::Inline(f) = &mut self.state {
            let mut cx = TaskContext::from_waker(Waker::noop());
            match f.as_mut().poll(&mut cx) {
                Poll::Ready(r) => self.state = State::Done(r),
                Poll::Pending => return false,
            }
        }
        if let State::Running(h) = &mut self.state {
            if !h.is_finished() {
                return false;
            }
            let mut cx = TaskContext::from_waker(Waker::noop());
            match Pin::new(h).poll(&mut cx) {
                Poll::Ready(r) => {
                    self.state = State::Done(r.unwrap_or_else(|e| Err(join_error(e))))
                }
                Poll::Pending => return false,
            }
        }
        true
    }

    /// Blocks the calling thread until the operation completes and returns its result.
    pub fn wait(self) -> Result<T> {
        pollster::block_on(self)
    }
}

// The result is never pinned in place: it is moved out when ready.
impl<T> Unpin for Request<T> {}

impl<T> Future for Request<T> {
    type Output = Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Result<T>> {
        let this = &mut *self;
        match &mut this.state {
            State::Running(h) => match Pin::new(h).poll(cx) {
                Poll::Ready(r) => {
                    this.state = State::Taken;
                    Poll::Ready(r.unwrap_or_else(|e| Err(join_error(e))))
                }
                Poll::Pending => Poll::Pending,
            },
            State::Inline(f) => match f.as_mut().poll(cx) {
                Poll::Ready(r) => {
                    this.state = State::Taken;
                    Poll::Ready(r)
                }
                Poll::Pending => Poll::Pending,
            },
            State::Done(_) => match std::mem::replace(&mut this.state, State::Taken) {
                State::Done(r) => Poll::Ready(r),
                _ => unreachable!("just matched Done"),
            },
            State::Taken => Poll::Ready(Err(Error::new(
                ErrorKind::InvalidRequest,
                "the request's result was already taken",
            ))),
        }
    }
}

/// Waits for every request, returning each one's result in order.
pub fn wait_all<T: Send + 'static>(
    requests: impl IntoIterator<Item = Request<T>>,
) -> Vec<Result<T>> {
    requests.into_iter().map(Request::wait).collect()
}
