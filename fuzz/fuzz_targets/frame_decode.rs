//! cargo-fuzz target `frame_decode`: see `nexar_fuzz::drivers::frame_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    nexar_fuzz::drivers::frame_decode(data);
});
