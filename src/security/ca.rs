//! The job CA, derived deterministically from the job secret (so every rank computes the very same
//! certificate without talking to anyone), and the per-process leaf certificates it signs.

use super::secret::JobSecret;
use crate::error::{Error, ErrorKind, Result};
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, PKCS_ED25519, SanType, SerialNumber,
};
use ring::hkdf;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::fmt;
use zeroize::Zeroize;

/// PKCS#8 v1 DER prefix of an Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_V1_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

/// HKDF salt (domain separation) for the CA key seed.
const CA_SEED_SALT: &[u8] = b"nexar job ca v1";
/// HKDF info for the CA key seed.
const CA_SEED_INFO: &[u8] = b"ed25519 seed";

/// The DNS name a rank's certificate carries (also its QUIC server name).
pub fn rank_name(job_id: &str, rank: u32) -> String {
    format!("rank-{rank}.{job_id}.nexar")
}

/// The DNS name the rendezvous (launcher) certificate carries.
pub fn rendezvous_name(job_id: &str) -> String {
    format!("rendezvous.{job_id}.nexar")
}

fn rcgen_err(what: &str) -> impl FnOnce(rcgen::Error) -> Error + '_ {
    move |e| Error::new(ErrorKind::Security, format!("{what}: {e}"))
}

fn fixed_validity(params: &mut CertificateParams) {
    params.not_before = rcgen::date_time_ymd(2020, 1, 1);
    params.not_after = rcgen::date_time_ymd(2200, 1, 1);
}

/// The certificate authority of one job: an Ed25519 key whose seed is derived from the job
/// secret, and a self-signed certificate with fixed parameters. Every rank derives the same one.
pub struct JobCa {
    job_id: String,
    cert: CertificateDer<'static>,
    issuer: Issuer<'static, KeyPair>,
}

impl JobCa {
    /// Derives the job CA from the secret. Deterministic: the same secret gives byte-identical
    /// certificates on every rank.
    pub fn derive(secret: &JobSecret) -> Result<Self> {
        let job_id = secret.job_id();
        let mut seed = [0u8; 32];
        hkdf::Salt::new(hkdf::HKDF_SHA256, CA_SEED_SALT)
            .extract(secret.expose())
            .expand(&[CA_SEED_INFO], hkdf::HKDF_SHA256)
            .and_then(|okm| okm.fill(&mut seed))
            .map_err(|_| Error::new(ErrorKind::Security, "cannot derive the job CA key"))?;
        let mut der = Vec::with_capacity(48);
        der.extend_from_slice(&ED25519_PKCS8_V1_PREFIX);
        der.extend_from_slice(&seed);
        seed.zeroize();
        let pkcs8 = PrivatePkcs8KeyDer::from(der);
        let key = KeyPair::from_pkcs8_der_and_sign_algo(&pkcs8, &PKCS_ED25519)
            .map_err(rcgen_err("cannot build the job CA key"))?;
        drop(pkcs8);

        let mut params = CertificateParams::default();
        fixed_validity(&mut params);
        params.serial_number = Some(SerialNumber::from_slice(&[1]));
        let mut dn = DistinguishedName::new();
        dn.push(DnType::OrganizationName, "nexar");
        dn.push(DnType::CommonName, format!("nexar job {job_id} CA"));
        params.distinguished_name = dn;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params
            .self_signed(&key)
            .map_err(rcgen_err("cannot self-sign the job CA"))?;
        Ok(Self {
            job_id,
            cert: cert.der().clone(),
            issuer: Issuer::new(params, key),
        })
    }

    /// The job id (16 hex digits).
    pub fn job_id(&self) -> &str {
        &self.job_id
    }

    /// The CA certificate (DER), the only trust anchor of the job.
    pub fn cert(&self) -> &CertificateDer<'static> {
        &self.cert
    }

    /// Issues a leaf certificate for `dns_name` with a fresh Ed25519 key pair.
    pub fn issue(&self, dns_name: &str) -> Result<Identity> {
        let key = KeyPair::generate_for(&PKCS_ED25519)
            .map_err(rcgen_err("cannot generate a key pair"))?;
        let mut params = CertificateParams::default();
        fixed_validity(&mut params);
        let san = dns_name
            .to_string()
            .try_into()
            .map_err(rcgen_err("invalid certificate name"))?;
        params.subject_alt_names = vec![SanType::DnsName(san)];
        let mut dn = DistinguishedName::new();
        dn.push(DnType::OrganizationName, "nexar");
        dn.push(DnType::CommonName, dns_name);
        params.distinguished_name = dn;
        params.is_ca = IsCa::ExplicitNoCa;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![
            ExtendedKeyUsagePurpose::ServerAuth,
            ExtendedKeyUsagePurpose::ClientAuth,
        ];
        params.use_authority_key_identifier_extension = true;
        let cert = params
            .signed_by(&key, &self.issuer)
            .map_err(rcgen_err("cannot sign a leaf certificate"))?;
        Ok(Identity {
            name: dns_name.to_string(),
            cert: cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        })
    }
}

impl fmt::Debug for JobCa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JobCa(job {})", self.job_id)
    }
}

/// A leaf certificate and its private key.
pub struct Identity {
    name: String,
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
}

impl Identity {
    /// The DNS name the certificate is valid for.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The certificate (DER).
    pub fn cert(&self) -> &CertificateDer<'static> {
        &self.cert
    }

    /// A copy of the private key, for a TLS configuration.
    pub fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(self.key.clone_key())
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({}, <key redacted>)", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ca_is_deterministic_per_secret() {
        let s = JobSecret::from_bytes([9; 32]);
        let a = JobCa::derive(&s).unwrap();
        let b = JobCa::derive(&s).unwrap();
        assert_eq!(a.cert(), b.cert());
        assert_eq!(a.job_id(), s.job_id());
        let other = JobCa::derive(&JobSecret::from_bytes([8; 32])).unwrap();
        assert_ne!(a.cert(), other.cert());
    }

    #[test]
    fn names() {
        assert_eq!(rank_name("00ff", 3), "rank-3.00ff.nexar");
        assert_eq!(rendezvous_name("00ff"), "rendezvous.00ff.nexar");
    }

    #[test]
    fn leaf_keys_are_fresh() {
        let ca = JobCa::derive(&JobSecret::from_bytes([9; 32])).unwrap();
        let a = ca.issue("rank-0.x.nexar").unwrap();
        let b = ca.issue("rank-0.x.nexar").unwrap();
        assert_ne!(a.cert(), b.cert());
        assert!(!format!("{a:?}").contains("key:"));
    }
}
