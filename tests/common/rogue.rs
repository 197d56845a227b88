//! Hostile clients for the security tests (tests/security_join.rs, tests/security_endpoint.rs):
//! junk datagrams, QUIC clients that trust any server and present no certificate or a chosen
//! one, and a client of this job claiming another rank. Loaded with `#[path]` by those tests
//! (next to their `mod common`).

#![allow(dead_code)] // each test uses a part

use nexar::security::{Credentials, Identity, JobCa, JobSecret, TRANSPORT_ALPN, rank_name};
use nexar::transport::quic::{QuicTransport, endpoint};
use nexar::wire::{FrameHeader, FrameKind, encode_header};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::time::Duration;

/// Sends `n` datagrams of junk (lengths 1..=1400, a few shaped like QUIC long headers).
pub fn spray_garbage(to: SocketAddr, n: usize) {
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut x: u32 = 0x9e37_79b9;
    for i in 0..n {
        let len = 1 + (i * 37) % 1400;
        let mut buf: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        if i % 4 == 0 && len > 8 {
            // A long-header "Initial" of QUIC version 1 with a nonsense body.
            buf[0] = 0xc0;
            buf[1..5].copy_from_slice(&1u32.to_be_bytes());
        }
        let _ = sock.send_to(&buf, to);
    }
}

/// A server verifier that accepts any certificate: the client below must get as far as the
/// server's own check of the client.
#[derive(Debug)]
struct AnyServer(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for AnyServer {
    fn verify_server_cert(
        &self,
        _: &rustls::pki_types::CertificateDer<'_>,
        _: &[rustls::pki_types::CertificateDer<'_>],
        _: &rustls::pki_types::ServerName<'_>,
        _: &[u8],
        _: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        m: &[u8],
        c: &rustls::pki_types::CertificateDer<'_>,
        d: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(m, c, d, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        m: &[u8],
        c: &rustls::pki_types::CertificateDer<'_>,
        d: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(m, c, d, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// Connects to `to` (a rendezvous or a rank, by `alpn`) accepting any server certificate and
/// presenting `identity` (None: no client certificate), so that the server's own check of the
/// client decides; returns how the attempt ended (it must never be answered).
pub async fn rogue_connect(to: SocketAddr, alpn: &[u8], identity: Option<Identity>) -> String {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyServer(provider)));
    let mut tls = match identity {
        None => builder.with_no_client_auth(),
        Some(id) => builder
            .with_client_auth_cert(vec![id.cert().clone()], id.key())
            .unwrap(),
    };
    tls.alpn_protocols = vec![alpn.to_vec()];
    let crypto = quinn::crypto::rustls::QuicClientConfig::try_from(tls).unwrap();
    let client = quinn::ClientConfig::new(Arc::new(crypto));
    let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
    let attempt = async {
        let conn = ep.connect_with(client, to, "impostor")?.await?;
        // TLS 1.3: the server checks the client's certificate after the client's handshake
        // finished; the refusal arrives as a close.
        let (mut send, mut recv) = conn.open_bi().await?;
        send.write_all(b"let me in").await?;
        let _ = send.finish();
        let got = recv.read_to_end(1 << 16).await?;
        Ok::<_, Box<dyn std::error::Error>>(format!("answered {} bytes", got.len()))
    };
    let how = match tokio::time::timeout(Duration::from_secs(10), attempt).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => format!("refused: {e}"),
        Err(_) => "timed out".into(),
    };
    ep.close(0u32.into(), b"done");
    how
}

/// Connects to `target` (rank 0) with this job's certificate for `cert_rank` and says hello as
/// `claimed`; returns how the connection was closed.
pub async fn claim_rank(
    s: &JobSecret,
    cert_rank: u32,
    claimed: u32,
    target: &QuicTransport,
) -> String {
    let creds = Credentials::for_rank(s, cert_rank).unwrap();
    let tcfg = endpoint::transport_config(&crate::common::test_config(), 0).unwrap();
    let client = creds.quic_client_config(TRANSPORT_ALPN, tcfg).unwrap();
    let ep = endpoint::make_endpoint(IpAddr::V4(Ipv4Addr::LOCALHOST), 0, None).unwrap();
    let to = target.local_addr().unwrap();
    let conn = ep
        .connect_with(client, to, &creds.rank_name(0))
        .unwrap()
        .await
        .unwrap();
    let mut send = conn.open_uni().await.unwrap();
    let hello = encode_header(&FrameHeader::new(FrameKind::Hello, claimed));
    let _ = send.write_all(&hello).await;
    let why = tokio::time::timeout(Duration::from_secs(10), conn.closed()).await;
    ep.close(0u32.into(), b"done");
    match why {
        Ok(e) => e.to_string(),
        Err(_) => "not closed within 10 s".into(),
    }
}

/// A certificate for `rank` issued by the CA of the job with `secret`.
pub fn identity(secret: &JobSecret, rank: u32) -> Identity {
    let ca = JobCa::derive(secret).unwrap();
    ca.issue(&rank_name(ca.job_id(), rank)).unwrap()
}
