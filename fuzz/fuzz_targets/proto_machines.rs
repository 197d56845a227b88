//! cargo-fuzz target `proto_machines`: see `nexar_fuzz::drivers::proto_machines`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    nexar_fuzz::drivers::proto_machines(data);
});
