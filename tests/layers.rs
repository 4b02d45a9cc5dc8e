//! The library's layers: every module under `src/<layer>/` imports only its own layer and the
//! layers below it (error < puzzle < index < bfs < dist < store < analysis < optimal < report <
//! fuzz), so the import
//! graph between layers has no cycle, and nothing in the library uses the CLI; and the CLI's
//! own modules import each other without a cycle.

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

/// The modules of one folder that `file`'s text names as `super::NAME` (its siblings).
fn siblings(dir: &Path, text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .match_indices("super::")
        .map(|(i, _)| {
            text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|n| n != "mod" && dir.join(format!("{n}.rs")).is_file())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A cycle among the sibling modules of `dir` (their `super::` imports), if there is one.
fn sibling_cycle(dir: &Path) -> Option<Vec<String>> {
    let mut graph = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            let text = std::fs::read_to_string(&path).unwrap();
            graph.insert(name, siblings(dir, &text));
        }
    }
    assert!(
        graph.len() > 3,
        "{}: only {} modules",
        dir.display(),
        graph.len()
    );
    // Depth-first from each module, the path so far on a stack: a name met again on it closes
    // a cycle.
    fn walk(
        graph: &std::collections::BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        let here = path.last().unwrap().clone();
        for next in &graph[&here] {
            if let Some(at) = path.iter().position(|p| p == next) {
                let mut cycle = path[at..].to_vec();
                cycle.push(next.clone());
                return Some(cycle);
            }
            if !done.contains(next) {
                path.push(next.clone());
                let found = walk(graph, path, done);
                path.pop();
                if found.is_some() {
                    return found;
                }
            }
        }
        done.insert(here);
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for start in graph.keys() {
        if !done.contains(start) {
            if let Some(c) = walk(&graph, &mut vec![start.clone()], &mut done) {
                return Some(c);
            }
        }
    }
    None
}

/// The CLI's modules import each other without a cycle: the arguments (`args`) are below every
/// command, and no command's parser lives in a command (`metric_choice` had tied `args` and
/// `cmd_atlas` in one). A made-up pair of modules importing each other is found.
#[test]
fn the_cli_modules_import_each_other_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(sibling_cycle(&root.join("src/cli")), None);
    let tmp = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("a", "use super::b::X;"),
        ("b", "fn f() { super::c::g() }"),
        ("c", "use super::a;"),
        ("d", ""),
    ] {
        std::fs::write(tmp.path().join(format!("{name}.rs")), text).unwrap();
    }
    let cycle = sibling_cycle(tmp.path()).expect("a cycle");
    assert_eq!(cycle.len(), 4, "{cycle:?}");
}
