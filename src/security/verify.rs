//! Peer verification beyond the TLS handshake. rustls already checked that the peer's chain ends
//! at the job CA (and, on the dialing side, the server name); these helpers check that an
//! authenticated peer's certificate names the rank it claims.

use crate::error::{Error, ErrorKind, Result};
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::server::ParsedCertificate;

/// The end-entity certificate a QUIC peer presented during the handshake.
pub fn peer_certificate(conn: &quinn::Connection) -> Result<CertificateDer<'static>> {
    let identity = conn.peer_identity().ok_or_else(|| {
        Error::new(
            ErrorKind::Security,
            "the peer presented no certificate (client authentication is required)",
        )
    })?;
    let chain = identity
        .downcast::<Vec<CertificateDer<'static>>>()
        .map_err(|_| Error::new(ErrorKind::Internal, "unexpected peer identity type"))?;
    chain
        .into_iter()
        .next()
        .ok_or_else(|| Error::new(ErrorKind::Security, "the peer's certificate chain is empty"))
}

/// Checks that `cert` is valid for the DNS name `name` (subject alternative names).
pub fn verify_cert_name(cert: &CertificateDer<'_>, name: &str) -> Result<()> {
    let server_name = ServerName::try_from(name)
        .map_err(|_| Error::new(ErrorKind::Internal, format!("{name:?} is not a DNS name")))?;
    let parsed = ParsedCertificate::try_from(cert).map_err(|e| {
        Error::new(
            ErrorKind::Security,
            format!("cannot parse the peer's certificate: {e}"),
        )
    })?;
    rustls::client::verify_server_name(&parsed, &server_name).map_err(|e| {
        Error::new(
            ErrorKind::Security,
            format!("peer certificate is not valid for {name}: {e}"),
        )
    })
}

/// Checks that the peer of `conn` presented a certificate valid for `name`.
pub fn verify_peer_name(conn: &quinn::Connection, name: &str) -> Result<()> {
    verify_cert_name(&peer_certificate(conn)?, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::{JobCa, JobSecret};

    #[test]
    fn leaf_matches_only_its_own_name() {
        let ca = JobCa::derive(&JobSecret::from_bytes([3; 32])).unwrap();
        let id = ca.issue("rank-2.abc.nexar").unwrap();
        verify_cert_name(id.cert(), "rank-2.abc.nexar").unwrap();
        let e = verify_cert_name(id.cert(), "rank-1.abc.nexar").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Security);
        assert!(verify_cert_name(id.cert(), "rank-2.abd.nexar").is_err());
    }
}
