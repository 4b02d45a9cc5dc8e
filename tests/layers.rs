//! The library's layers: every module under `src/<layer>/` imports only its own layer and the
//! layers below it (error < puzzle < index < bfs < dist < store < analysis < optimal < report <
//! fuzz), so the import
//! graph between layers has no cycle, and nothing in the library uses the CLI.

use std::path::Path;

const LAYERS: [&str; 10] = [
    "error", "puzzle", "index", "bfs", "dist", "store", "analysis", "optimal", "report", "fuzz",
];

fn rank(name: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == name)
}

/// The `.rs` files under `dir`, with their text.
fn rust_files(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.display().to_string(), text));
        }
    }
}

/// `(file, layer it imports)` for every `crate::x` path in the `.rs` files under `dir`.
fn imports(dir: &Path, out: &mut Vec<(String, String)>) {
    let mut files = vec![];
    rust_files(dir, &mut files);
    for (file, text) in files {
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push((file.clone(), name));
        }
    }
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = vec![];
    let mut checked = 0;
    for layer in &LAYERS[1..] {
        let mut found = vec![];
        imports(&src.join(layer), &mut found);
        assert!(
            !found.is_empty() || *layer == "puzzle",
            "{layer}: no imports read"
        );
        for (file, used) in found {
            checked += 1;
            match rank(&used) {
                Some(r) if r <= rank(layer).unwrap() => {}
                _ => violations.push(format!("{file} ({layer}) imports crate::{used}")),
            }
        }
    }
    assert!(checked > 50, "only {checked} imports read");
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn the_library_prints_nothing_and_reads_no_environment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = vec![];
    let mut files = vec![];
    for layer in &LAYERS[1..] {
        rust_files(&src.join(layer), &mut files);
    }
    assert!(files.len() > 20, "only {} files read", files.len());
    for (file, text) in files {
        for bad in ["println!", "eprintln!", "env::var", "process::exit"] {
            if text.contains(bad) {
                offenders.push(format!("{file}: {bad}"));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
