//! TLS and QUIC configurations built from the job CA and a process's identity. The crypto provider
//! is `ring`, passed explicitly (never the process default). TLS 1.3 only, mutual authentication
//! required, the job CA is the only root, and there is no session resumption and no 0-RTT.

use super::ca::{Identity, JobCa, rank_name, rendezvous_name};
use super::secret::JobSecret;
use crate::error::{Error, ErrorKind, Result};
use rustls::RootCertStore;
use rustls::client::Resumption;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use rustls::server::{NoServerSessionStorage, WebPkiClientVerifier};
use std::fmt;
use std::sync::Arc;

/// ALPN of rank-to-rank transport connections.
pub const TRANSPORT_ALPN: &[u8] = b"nexar/1";
/// ALPN of rendezvous connections.
pub const RENDEZVOUS_ALPN: &[u8] = b"nexar-rendezvous/1";
/// ALPN of the TLS-over-TCP bulk lane between ranks.
pub const BULK_TLS_ALPN: &[u8] = b"nexar-bulk/1";

/// The `ring` provider restricted to TLS 1.3 AES-128-GCM: the cheapest AEAD with AES-NI, and
/// enough for bulk data between ranks (the other suites cost throughput and add nothing here).
fn bulk_provider() -> Arc<CryptoProvider> {
    let mut p = rustls::crypto::ring::default_provider();
    p.cipher_suites = vec![rustls::crypto::ring::cipher_suite::TLS13_AES_128_GCM_SHA256];
    Arc::new(p)
}

fn tls_err(what: &str) -> impl FnOnce(rustls::Error) -> Error + '_ {
    move |e| Error::new(ErrorKind::Security, format!("{what}: {e}"))
}

/// What a process needs to talk TLS inside a job: the job CA certificate (the only trust anchor)
/// and its own identity (certificate + key) signed by that CA.
pub struct Credentials {
    job_id: String,
    ca_cert: CertificateDer<'static>,
    identity: Identity,
    provider: Arc<CryptoProvider>,
}

impl Credentials {
    /// Credentials for an identity issued by `ca`.
    pub fn new(ca: &JobCa, identity: Identity) -> Self {
        Self {
            job_id: ca.job_id().to_string(),
            ca_cert: ca.cert().clone(),
            identity,
            provider: Arc::new(rustls::crypto::ring::default_provider()),
        }
    }

    /// Derives the job CA from `secret` and issues a certificate for `dns_name`.
    pub fn issue(secret: &JobSecret, dns_name: &str) -> Result<Self> {
        let ca = JobCa::derive(secret)?;
        let id = ca.issue(dns_name)?;
        Ok(Self::new(&ca, id))
    }

    /// Credentials of world rank `rank` (`rank-<rank>.<jobid>.nexar`).
    pub fn for_rank(secret: &JobSecret, rank: u32) -> Result<Self> {
        Self::issue(secret, &rank_name(&secret.job_id(), rank))
    }

    /// Credentials of the rendezvous server (`rendezvous.<jobid>.nexar`).
    pub fn for_rendezvous(secret: &JobSecret) -> Result<Self> {
        Self::issue(secret, &rendezvous_name(&secret.job_id()))
    }

    /// The job id.
    pub fn job_id(&self) -> &str {
        &self.job_id
    }

    /// The DNS name of this process's certificate.
    pub fn name(&self) -> &str {
        self.identity.name()
    }

    /// The name rank `rank` of this job presents.
    pub fn rank_name(&self, rank: u32) -> String {
        rank_name(&self.job_id, rank)
    }

    /// The name the rendezvous of this job presents.
    pub fn rendezvous_name(&self) -> String {
        rendezvous_name(&self.job_id)
    }

    fn roots(&self) -> Result<Arc<RootCertStore>> {
        let mut roots = RootCertStore::empty();
        roots
            .add(self.ca_cert.clone())
            .map_err(tls_err("the job CA is not a valid trust anchor"))?;
        Ok(Arc::new(roots))
    }

    /// A rustls server configuration: presents this identity, requires a client certificate
    /// chaining to the job CA, offers `alpn`.
    pub fn rustls_server_config(&self, alpn: &[u8]) -> Result<rustls::ServerConfig> {
        self.server_config_with(self.provider.clone(), alpn)
    }

    /// The server configuration of the TLS-over-TCP bulk lane: like
    /// [`Self::rustls_server_config`] (mutual authentication, job CA only, no resumption, no
    /// 0-RTT) with TLS 1.3 AES-128-GCM as the only cipher suite.
    pub fn bulk_tls_server_config(&self) -> Result<rustls::ServerConfig> {
        self.server_config_with(bulk_provider(), BULK_TLS_ALPN)
    }

    /// The client configuration of the TLS-over-TCP bulk lane (see
    /// [`Self::bulk_tls_server_config`]).
    pub fn bulk_tls_client_config(&self) -> Result<rustls::ClientConfig> {
        self.client_config_with(bulk_provider(), BULK_TLS_ALPN)
    }

    fn server_config_with(
        &self,
        provider: Arc<CryptoProvider>,
        alpn: &[u8],
    ) -> Result<rustls::ServerConfig> {
        let verifier = WebPkiClientVerifier::builder_with_provider(self.roots()?, provider.clone())
            .build()
            .map_err(|e| {
                Error::new(
                    ErrorKind::Security,
                    format!("cannot build the client verifier: {e}"),
                )
            })?;
        let mut cfg = rustls::ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(tls_err("TLS 1.3 is not available"))?
            .with_client_cert_verifier(verifier)
            .with_single_cert(vec![self.identity.cert().clone()], self.identity.key())
            .map_err(tls_err("invalid server certificate"))?;
        cfg.alpn_protocols = vec![alpn.to_vec()];
        cfg.max_early_data_size = 0;
        cfg.send_tls13_tickets = 0;
        cfg.session_storage = Arc::new(NoServerSessionStorage {});
        Ok(cfg)
    }

    /// A rustls client configuration: trusts only the job CA, presents this identity, asks for
    /// `alpn`. The server name to check is chosen per connection.
    pub fn rustls_client_config(&self, alpn: &[u8]) -> Result<rustls::ClientConfig> {
        self.client_config_with(self.provider.clone(), alpn)
    }

    fn client_config_with(
        &self,
        provider: Arc<CryptoProvider>,
        alpn: &[u8],
    ) -> Result<rustls::ClientConfig> {
        let mut cfg = rustls::ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(tls_err("TLS 1.3 is not available"))?
            .with_root_certificates(self.roots()?)
            .with_client_auth_cert(vec![self.identity.cert().clone()], self.identity.key())
            .map_err(tls_err("invalid client certificate"))?;
        cfg.alpn_protocols = vec![alpn.to_vec()];
        cfg.enable_early_data = false;
        cfg.resumption = Resumption::disabled();
        Ok(cfg)
    }

    /// A quinn server configuration over [`Self::rustls_server_config`].
    pub fn quic_server_config(
        &self,
        alpn: &[u8],
        transport: Arc<quinn::TransportConfig>,
    ) -> Result<quinn::ServerConfig> {
        let crypto =
            quinn::crypto::rustls::QuicServerConfig::try_from(self.rustls_server_config(alpn)?)
                .map_err(|e| Error::new(ErrorKind::Security, format!("QUIC server config: {e}")))?;
        let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(crypto));
        cfg.transport_config(transport);
        Ok(cfg)
    }

    /// A quinn client configuration over [`Self::rustls_client_config`].
    pub fn quic_client_config(
        &self,
        alpn: &[u8],
        transport: Arc<quinn::TransportConfig>,
    ) -> Result<quinn::ClientConfig> {
        let crypto =
            quinn::crypto::rustls::QuicClientConfig::try_from(self.rustls_client_config(alpn)?)
                .map_err(|e| Error::new(ErrorKind::Security, format!("QUIC client config: {e}")))?;
        let mut cfg = quinn::ClientConfig::new(Arc::new(crypto));
        cfg.transport_config(transport);
        Ok(cfg)
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Credentials({}, <key redacted>)", self.identity.name())
    }
}
