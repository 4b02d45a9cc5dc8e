//! Records what `tilespace --version` and every benchmark or run record name as the build:
//! the git revision ("unknown" outside a git checkout, "-modified" with uncommitted changes),
//! the compiler, the target and its enabled CPU features, the profile and the Cargo features.
//! A record then names the binary that was measured, not the checkout it was run from.
//!
//! It also lists the published distributions of `data/reference/` (the one copy the reports
//! and the tests read) for `report::published` to embed.

use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// `$OUT_DIR/reference.rs`: every file of `data/reference/` by name, embedded.
fn reference_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/reference");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("data/reference/")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".csv"))
        .collect();
    names.sort();
    let mut text = String::from("&[\n");
    for name in &names {
        text += &format!(
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/data/reference/{name}\"))),\n"
        );
    }
    text += "]\n";
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("reference.rs");
    std::fs::write(out, text).expect("OUT_DIR/reference.rs");
    println!("cargo:rerun-if-changed=data/reference");
}

fn main() {
    reference_files();
    let revision = output("git", &["rev-parse", "--short", "HEAD"]).unwrap_or("unknown".into());
    let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
    let suffix = if dirty { "-modified" } else { "" };
    println!("cargo:rustc-env=TILESPACE_GIT_REVISION={revision}{suffix}");
    let rustc = std::env::var("RUSTC").unwrap_or("rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or("rustc (unknown version)".into());
    println!("cargo:rustc-env=TILESPACE_RUSTC={version}");
    for (name, var) in [
        ("TARGET", "TARGET"),
        ("PROFILE", "PROFILE"),
        ("TARGET_FEATURES", "CARGO_CFG_TARGET_FEATURE"),
    ] {
        let value = std::env::var(var).unwrap_or_default();
        println!("cargo:rustc-env=TILESPACE_{name}={value}");
    }
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| k.strip_prefix("CARGO_FEATURE_").map(|f| f.to_lowercase()))
        .map(|f| f.replace('_', "-"))
        .collect();
    features.sort();
    println!("cargo:rustc-env=TILESPACE_FEATURES={}", features.join(","));
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
    println!("cargo:rerun-if-changed=.git/refs");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
}
