#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilespace::fuzz::run("disk_files", data));
