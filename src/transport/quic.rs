//! QUIC transport (quinn + rustls): one connection per peer pair, separate streams for small and
//! bulk traffic.
