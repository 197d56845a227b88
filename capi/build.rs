//! Gives libnexar.so a real SONAME so programs record `libnexar.so.0`, not the build path.
fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnexar.so.{major}");
}
