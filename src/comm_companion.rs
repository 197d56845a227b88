//! Companion communicators: a channel apart from a communicator's traffic that every member
//! opens on its own, without a message.
//!
//! `dup` and `split` are collective because their contexts come from a counter every member
//! advances together. A binding sometimes needs a private channel that only some members open,
//! at different times: MPI's partitioned communication pairs an `MPI_Psend_init` on one rank
//! with an `MPI_Precv_init` on another, neither collective. A companion's context is derived
//! from the parent's context and a key alone, so the two sides that use the same key reach the
//! same context, and nothing in the parent changes.

use crate::comm::Comm;
use crate::comm_inter::{Inter, derive};

impl Comm {
    /// A communicator with this one's members (and remote group, for an intercommunicator)
    /// whose context is derived from this one's and `key` only. Not collective: whoever asks
    /// with the same key on a member gets the same context, and its traffic never matches this
    /// communicator's (nor another key's). The key says what the channel is for and names
    /// whatever must keep two channels apart (for instance the two ranks, a tag and a count).
    /// Revoking this communicator does not revoke its companions.
    pub fn companion(&self, key: &[u8]) -> Comm {
        let mut kind = b"nexar-companion".to_vec();
        kind.extend_from_slice(key);
        let context = derive(&kind, &[self.inner.context]);
        let engine = self.inner.engine.clone();
        let world = self.inner.members.world().to_vec();
        let inter = self.inner.inter.as_ref().map(|i| {
            let local = Comm::from_parts(
                engine.clone(),
                derive(b"nexar-companion-local", &[context]),
                world.clone(),
            );
            Box::new(Inter::new(i.remote.world().to_vec(), local, context))
        });
        Comm::from_parts_with(engine, context, world, inter)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Source, TagMatch};

    #[test]
    fn a_companion_is_shared_by_key_and_apart_from_its_parent() {
        let mut ctxs = crate::Context::in_process(2).unwrap();
        let (b, a) = (ctxs.pop().unwrap(), ctxs.pop().unwrap());
        let (wa, wb) = (a.world(), b.world());
        let (ca, cb) = (wa.companion(b"test:1"), wb.companion(b"test:1"));
        assert_eq!(ca.context_id(), cb.context_id());
        assert_ne!(ca.context_id(), wa.context_id());
        assert_ne!(ca.context_id(), wa.companion(b"test:2").context_id());
        assert_eq!((ca.size(), ca.rank(), cb.rank()), (2, 0, 1));
        // A message on the companion is not seen by the parent, and the other way round.
        wa.send_blocking(&[1u8], 1, 5).unwrap();
        ca.send_blocking(&[2u8], 1, 5).unwrap();
        let mut got = [0u8];
        cb.recv_blocking(&mut got, Source::Rank(0), TagMatch::Tag(5))
            .unwrap();
        assert_eq!(got, [2]);
        wb.recv_blocking(&mut got, Source::Rank(0), TagMatch::Tag(5))
            .unwrap();
        assert_eq!(got, [1]);
    }
}
