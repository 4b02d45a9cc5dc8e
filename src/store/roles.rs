//! The files one run reads and writes, each under its role (`--save-table`, the checkpoint, a
//! report): two roles on one file, where one of them writes it, are refused before any work. A
//! table saved as the checkpoint that the run then removes, a binary table written over the
//! summary, a positions file written over a database the run reads: each would destroy one
//! output with another while the run reported success.
//!
//! A file is known by where it resolves (symlinks and `..` followed as far as the path exists)
//! and, when it exists, by its device and inode (hard links). A directory can be claimed with
//! the names its owner puts there (a checkpoint's files), for files whose names are not known
//! before the run.

use std::path::{Component, Path, PathBuf};

use crate::error::Error;

/// What a role does with its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Reads,
    Writes,
}

/// The files of one run, by role.
#[derive(Debug, Default)]
pub struct Roles {
    claims: Vec<Claim>,
}

#[derive(Debug)]
struct Claim {
    role: String,
    given: PathBuf,
    at: Place,
    access: Access,
}

#[derive(Debug)]
enum Place {
    /// One file: where it resolves, and its (device, inode) if it exists.
    File(PathBuf, Option<(u64, u64)>),
    /// The files of a directory whose names `owns` accepts.
    Names(PathBuf, fn(&str) -> bool),
}

impl Roles {
    /// No files yet.
    pub fn new() -> Roles {
        Roles::default()
    }

    /// `role` reads `path`.
    pub fn reads(&mut self, role: impl Into<String>, path: &Path) -> &mut Roles {
        self.file(role.into(), path, Access::Reads)
    }

    /// `role` writes (or replaces, or removes) `path`.
    pub fn writes(&mut self, role: impl Into<String>, path: &Path) -> &mut Roles {
        self.file(role.into(), path, Access::Writes)
    }

    /// `role` writes, replaces or removes the files of `dir` whose names `owns` accepts.
    pub fn writes_names(
        &mut self,
        role: impl Into<String>,
        dir: &Path,
        owns: fn(&str) -> bool,
    ) -> &mut Roles {
        self.claims.push(Claim {
            role: role.into(),
            given: dir.to_path_buf(),
            at: Place::Names(resolved(dir), owns),
            access: Access::Writes,
        });
        self
    }

    fn file(&mut self, role: String, path: &Path, access: Access) -> &mut Roles {
        self.claims.push(Claim {
            role,
            given: path.to_path_buf(),
            at: Place::File(resolved(path), inode(path)),
            access,
        });
        self
    }

    /// Refuses the first file two roles share where one writes it, naming both roles.
    pub fn check(&self) -> Result<(), Error> {
        for (i, a) in self.claims.iter().enumerate() {
            for b in &self.claims[i + 1..] {
                let writes = a.access == Access::Writes || b.access == Access::Writes;
                if writes && a.role != b.role && a.at.meets(&b.at) {
                    let other = if a.given == b.given {
                        String::new()
                    } else {
                        format!(" ({})", b.given.display())
                    };
                    return Err(Error::Argument(format!(
                        "{} is {} and also {}{other}: one would destroy the other; give another path",
                        a.given.display(),
                        a.role,
                        b.role,
                    )));
                }
            }
        }
        Ok(())
    }
}

impl Place {
    fn meets(&self, other: &Place) -> bool {
        match (self, other) {
            (Place::File(a, ia), Place::File(b, ib)) => a == b || (ia.is_some() && ia == ib),
            (Place::File(f, _), Place::Names(dir, owns))
            | (Place::Names(dir, owns), Place::File(f, _)) => {
                f.parent() == Some(dir.as_path())
                    && f.file_name().and_then(|n| n.to_str()).is_some_and(owns)
            }
            // Two owners of one directory's names: the caller's roles never overlap so.
            (Place::Names(a, _), Place::Names(b, _)) => a == b,
        }
    }
}

/// Where `path` resolves: component by component, each prefix that exists canonicalized
/// (symlinks followed), `.` and `..` taken as the system takes them.
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => {
                out.push(c);
                if let Ok(real) = out.canonicalize() {
                    out = real;
                }
            }
        }
    }
    out
}

#[cfg(unix)]
fn inode(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn inode(_: &Path) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_two_spellings_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::create_dir(d.join("ck")).unwrap();
        let mut r = Roles::new();
        r.writes("the table (--save-table)", &d.join("ck/../ck/./x.tst"))
            .writes("the summary", &d.join("ck/x.tst"));
        let e = r.check().unwrap_err().to_string();
        assert!(
            e.contains("--save-table") && e.contains("the summary"),
            "{e}"
        );
    }

    #[test]
    fn reads_may_share_a_file_and_other_files_pass() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let mut r = Roles::new();
        r.reads("a database", &d.join("a.pdb"))
            .reads("a database too", &d.join("a.pdb"))
            .writes("positions", &d.join("b.csv"));
        assert!(r.check().is_ok());
    }

    #[test]
    fn hard_links_and_symlinks_are_one_file() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::write(d.join("a"), b"x").unwrap();
        std::fs::hard_link(d.join("a"), d.join("b")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.join("a"), d.join("c")).unwrap();
        let mut r = Roles::new();
        r.reads("one", &d.join("a")).writes("two", &d.join("b"));
        assert!(r.check().is_err());
        #[cfg(unix)]
        {
            let mut r = Roles::new();
            r.reads("one", &d.join("c")).writes("two", &d.join("a"));
            assert!(r.check().is_err());
        }
    }

    #[test]
    fn a_directory_claims_only_its_owners_names() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let owns = |n: &str| n == "checkpoint.tsc";
        let mut r = Roles::new();
        r.writes_names("the checkpoint", &d.join("ck"), owns)
            .writes("the table", &d.join("ck/checkpoint.tsc"));
        assert!(r.check().is_err());
        let mut r = Roles::new();
        r.writes_names("the checkpoint", &d.join("ck"), owns)
            .writes("the table", &d.join("ck/table.tst"));
        assert!(r.check().is_ok());
    }
}
