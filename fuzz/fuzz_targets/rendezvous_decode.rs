//! cargo-fuzz target `rendezvous_decode`: see `nexar_fuzz::drivers::rendezvous_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    nexar_fuzz::drivers::rendezvous_decode(data);
});
