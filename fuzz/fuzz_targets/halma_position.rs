#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::targets::halma_position(data));
