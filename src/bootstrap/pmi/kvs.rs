//! The process manager's key-value space, as the start-up exchange uses it: one interface over
//! PMI-1's text protocol ([`super::client`]) and the PMIx client library ([`super::pmix`]).

use super::client::PmiClient;
use crate::error::Result;

/// What the exchange needs from a process manager. Calls block (each bounded by the
/// connection's timeout).
pub trait Kvs: Send + std::fmt::Debug {
    /// Publishes `key` = `value` (printable text) for every rank to read after the next
    /// [`Self::barrier`].
    fn put(&mut self, key: &str, value: &str) -> Result<()>;
    /// Makes what this rank put visible and waits until every rank of the job is here.
    fn barrier(&mut self) -> Result<()>;
    /// The value rank `owner` put under `key` before the last barrier (an error when none).
    fn get(&mut self, owner: u32, key: &str) -> Result<String>;
    /// Leaves the process manager cleanly.
    fn finalize(&mut self) -> Result<()>;
    /// Asks the process manager to end the job with exit status `code`.
    fn abort(&mut self, code: i32) -> Result<()>;
}

/// PMI-1: one key-value space for the job, named by the process manager; keys are global, so
/// the owner of a key is not needed to read it.
#[derive(Debug)]
pub struct SimpleKvs {
    /// The connection.
    pub client: PmiClient,
    /// The job's key-value space (`cmd=get_my_kvsname`).
    pub kvsname: String,
}

impl Kvs for SimpleKvs {
    fn put(&mut self, key: &str, value: &str) -> Result<()> {
        self.client.put(&self.kvsname, key, value)
    }

    fn barrier(&mut self) -> Result<()> {
        self.client.barrier()
    }

    fn get(&mut self, _owner: u32, key: &str) -> Result<String> {
        self.client.get(&self.kvsname, key)
    }

    fn finalize(&mut self) -> Result<()> {
        self.client.finalize()
    }

    fn abort(&mut self, code: i32) -> Result<()> {
        self.client.abort(code)
    }
}
