//! Gives libmpi_abi.so the SONAME the MPI 5.0 standard ABI fixes (`libmpi_abi.so.1`), so
//! programs record it instead of the build path.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpi_abi.so.1");
}
