//! Helpers shared by the end-to-end tests: run the binary, read its output and its CSVs.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

pub fn tilespace(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn read_csv(path: &Path) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect();
    (header, rows)
}

/// Builds 3x3's 4-4 pattern databases into `dir/p`.
pub fn pdb_3x3(dir: &Path) {
    let o = tilespace(
        &["pdb", "3x3", "--partition", "4-4", "--out", "p", "-q"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}
