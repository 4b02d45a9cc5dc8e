#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilespace::fuzz::run("token_checkpoint", data));
