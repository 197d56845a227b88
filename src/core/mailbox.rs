//! A collective call's mailbox: frames and failures for one running collective, queued by
//! whichever thread delivers them and taken by the call that waits.
//!
//! One small allocation per collective and a mutex-guarded queue: cheaper than a general
//! channel on the small-message path, where a collective receives only a frame or two.

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

struct State<T> {
    queue: VecDeque<T>,
    waker: Option<Waker>,
}

/// The shared queue; the engine holds a [`Sender`] while the collective is open.
pub(crate) struct Mailbox<T> {
    state: Mutex<State<T>>,
}

/// Delivers into a mailbox (cheap to clone).
pub(crate) struct Sender<T>(Arc<Mailbox<T>>);

/// Takes from a mailbox: the running collective owns it.
pub(crate) struct Receiver<T>(Arc<Mailbox<T>>);

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// A new mailbox.
pub(crate) fn mailbox<T>() -> (Sender<T>, Receiver<T>) {
    let m = Arc::new(Mailbox {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            waker: None,
        }),
    });
    (Sender(m.clone()), Receiver(m))
}

impl<T> Sender<T> {
    /// Queues `item` and wakes the receiver if it waits.
    pub fn send(&self, item: T) {
        let waker = {
            let mut st = self.0.state.lock();
            st.queue.push_back(item);
            st.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl<T> Receiver<T> {
    /// The next item if one is queued (never waits).
    pub fn try_recv(&mut self) -> Option<T> {
        self.0.state.lock().queue.pop_front()
    }

    /// Waits for the next item.
    pub fn recv(&mut self) -> Recv<'_, T> {
        Recv(self)
    }
}

/// The future of [`Receiver::recv`].
pub(crate) struct Recv<'a, T>(&'a mut Receiver<T>);

impl<T> Future for Recv<'_, T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut st = self.0.0.state.lock();
        match st.queue.pop_front() {
            Some(item) => Poll::Ready(item),
            None => {
                if !st.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    st.waker = Some(cx.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_arrive_in_order_across_threads() {
        let (tx, mut rx) = mailbox::<u32>();
        let t = std::thread::spawn(move || {
            for i in 0..1000 {
                tx.send(i);
            }
        });
        let got: Vec<u32> = (0..1000).map(|_| pollster::block_on(rx.recv())).collect();
        t.join().unwrap();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
    }
}
