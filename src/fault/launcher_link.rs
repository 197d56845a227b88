//! This rank's declarations to the launcher over the rendezvous connection.

use crate::core::engine::Engine;

impl Engine {
    /// Tells the launcher (if one watches this job) whether this rank returns errors to its
    /// program: a rank that does is left running when a peer dies and gets the failure as an
    /// error; one that does not is terminated with the job. No effect without a rendezvous
    /// connection (a singleton, or after finalize).
    pub(crate) fn declare_returns_errors(&self, on: bool) {
        if let Some((Some(link), _)) = self.rendezvous.lock().as_ref() {
            link.declare_returns_errors(on);
        }
    }
}
