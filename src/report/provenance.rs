//! The build this binary is, recorded at compile time (`build.rs`), so that a run or benchmark
//! record names the binary that was measured.

use serde::Serialize;

/// What was compiled, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Build {
    /// The crate's version.
    pub version: &'static str,
    /// `git rev-parse --short HEAD` of the source built, `-modified` if it had uncommitted
    /// changes, `unknown` outside a git checkout.
    pub revision: &'static str,
    /// `rustc --version` of the compiler that built it.
    pub rustc: &'static str,
    /// The target triple.
    pub target: &'static str,
    /// `release`, or `debug` for every other profile (Cargo's `PROFILE`).
    pub profile: &'static str,
    /// Cargo features enabled, comma-separated.
    pub features: &'static str,
    /// CPU features the code was compiled for (`-C target-cpu`/`target-feature`),
    /// comma-separated.
    pub target_features: &'static str,
}

/// This build.
pub const BUILD: Build = Build {
    version: env!("CARGO_PKG_VERSION"),
    revision: env!("TILESPACE_GIT_REVISION"),
    rustc: env!("TILESPACE_RUSTC"),
    target: env!("TILESPACE_TARGET"),
    profile: env!("TILESPACE_PROFILE"),
    features: env!("TILESPACE_FEATURES"),
    target_features: env!("TILESPACE_TARGET_FEATURES"),
};

impl Build {
    /// `0.1.0 (git 8124b90)`: what `--version` prints.
    pub fn short(&self) -> String {
        format!("{} (git {})", self.version, self.revision)
    }
}
