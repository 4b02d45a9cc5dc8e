//! The library's layers: every module under `src/<layer>/` imports only its own layer and the
//! layers below it (error < puzzle < graph < index < bfs < dist < store < analysis < optimal < report <
//! fuzz), so the import
//! graph between layers has no cycle, and nothing in the library uses the CLI; and no file of
//! `src/` imports from itself through a chain of imports.

use std::path::Path;

const LAYERS: [&str; 12] = [
    "units", "error", "puzzle", "graph", "index", "bfs", "dist", "store", "analysis", "optimal",
    "report", "fuzz",
];

/// The layers that are folders of `src/` (the first two are files: `units.rs`, `error.rs`).
const FOLDERS: std::ops::RangeFrom<usize> = 2..;

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
    for layer in &LAYERS[FOLDERS] {
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
    for layer in &LAYERS[FOLDERS] {
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

/// The import graph between the files of one crate under `src/`: an edge from a file to the
/// file defining what it names (`crate::`, `super::` and `self::` paths, in `use` trees and in
/// code, followed through the re-exports of `mod.rs` and `lib.rs` to the file the item is
/// written in). Test modules (`#[cfg(test)] mod tests { … }`) are left out.
mod graph {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Module path → (file, text without comments and tests).
    pub type Modules = BTreeMap<Vec<String>, (String, String)>;

    /// The modules of the crate whose root is `root` (`lib.rs` or `main.rs`), under `dir`,
    /// leaving out `skip` (the other crate's folders).
    pub fn modules(src: &Path, root: &str, skip: &[&str]) -> Modules {
        let mut out = Modules::new();
        out.insert(vec![], read(&src.join(root)));
        fn walk(dir: &Path, path: Vec<String>, skip: &[&str], out: &mut Modules) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let p = entry.unwrap().path();
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                if path.is_empty() && skip.contains(&name.as_str()) {
                    continue;
                }
                let mut here = path.clone();
                if p.is_dir() {
                    here.push(name);
                    walk(&p, here, skip, out);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    if path.is_empty() && (name == "lib" || name == "main") {
                        continue;
                    }
                    if name != "mod" {
                        here.push(name);
                    }
                    out.insert(here, read(&p));
                }
            }
        }
        walk(src, vec![], skip, &mut out);
        out
    }

    fn read(path: &Path) -> (String, String) {
        let text = std::fs::read_to_string(path).unwrap();
        let text = match text.find("#[cfg(test)]\nmod tests {") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        let code: Vec<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect();
        (path.display().to_string(), code.join("\n"))
    }

    /// The paths of the `use` trees of `text` (`a::{b, c::d as e}` → `a::b`, `a::c::d`), each
    /// with the name it binds, and whether the `use` is public.
    pub fn uses(text: &str) -> Vec<(Vec<String>, String, bool)> {
        let mut out = vec![];
        let mut at = 0;
        while let Some(i) = text[at..].find("use ") {
            let start = at + i;
            at = start + 4;
            let before = text[..start].trim_end();
            let public = before.ends_with("pub") || before.ends_with(')');
            let boundary =
                text[..start].ends_with(|c: char| c.is_whitespace() || c == '{') || start == 0;
            if !boundary {
                continue;
            }
            let Some(end) = text[at..].find(';') else {
                break;
            };
            let tree: String = text[at..at + end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let mut paths = vec![];
            expand("", &tree, &mut paths);
            for p in paths {
                let (path, name) = match p.split_once(" as ") {
                    Some((path, alias)) => (path.to_string(), alias.trim().to_string()),
                    None => (p.clone(), p.rsplit("::").next().unwrap().to_string()),
                };
                let segs: Vec<String> = path.split("::").map(|s| s.trim().to_string()).collect();
                out.push((segs, name, public));
            }
        }
        out
    }

    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        match tree.find('{') {
            None => {
                if !tree.is_empty() {
                    out.push(format!("{prefix}{tree}"));
                }
            }
            Some(open) => {
                let close = tree.rfind('}').unwrap();
                let head = format!("{prefix}{}", &tree[..open]);
                let (mut depth, mut from) = (0, open + 1);
                for (k, c) in tree[open + 1..close].char_indices() {
                    let k = k + open + 1;
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            expand(&head, &tree[from..k], out);
                            from = k + 1;
                        }
                        _ => {}
                    }
                }
                expand(&head, &tree[from..close], out);
            }
        }
    }

    /// The paths written in code outside `use` statements (`crate::a::b(…)`); a visibility's
    /// (`pub(in crate::a)`) names no item.
    fn inline(text: &str) -> Vec<Vec<String>> {
        let mut out = vec![];
        for lead in ["crate::", "super::", "self::"] {
            for (i, _) in text.match_indices(lead) {
                let line_start = text[..i].rfind('\n').map_or(0, |k| k + 1);
                if text[line_start..i].trim_start().starts_with("use ")
                    || text[line_start..i].contains("use ")
                    || text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
                    || text[..i].ends_with("(in ")
                {
                    continue;
                }
                let path: String = text[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                out.push(
                    path.split("::")
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect(),
                );
            }
        }
        out
    }

    /// The file that defines what `path` names, from the module `from` (`None`: another crate).
    fn resolve(
        modules: &Modules,
        from: &[String],
        path: &[String],
        depth: usize,
    ) -> Option<String> {
        let mut base: Vec<String> = match path.first().map(String::as_str) {
            Some("crate") => vec![],
            Some("super") => from[..from.len().checked_sub(1)?].to_vec(),
            Some("self") => from.to_vec(),
            Some(first) if modules.contains_key(&[from, &[first.to_string()]].concat()) => {
                from.to_vec()
            }
            _ => return None,
        };
        let mut rest = match path.first().map(String::as_str) {
            Some("crate" | "super" | "self") => &path[1..],
            _ => path,
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        while let Some(seg) = rest.first() {
            let next = [&base[..], std::slice::from_ref(seg)].concat();
            if !modules.contains_key(&next) {
                break;
            }
            base = next;
            rest = &rest[1..];
        }
        // An item re-exported here is written where the re-export points.
        if let (Some(item), true) = (rest.first(), depth < 8) {
            for (p, name, public) in uses(&modules[&base].1) {
                if public && &name == item && p.last().is_some_and(|l| l != "self") {
                    if let Some(f) = resolve(modules, &base, &p, depth + 1) {
                        return Some(f);
                    }
                }
            }
        }
        Some(modules[&base].0.clone())
    }

    /// file → the files it imports from.
    pub fn edges(modules: &Modules) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph = BTreeMap::new();
        for (path, (file, text)) in modules {
            let mut to = BTreeSet::new();
            let named = uses(text)
                .into_iter()
                .map(|(p, _, _)| p)
                .chain(inline(text));
            for p in named {
                if let Some(f) = resolve(modules, path, &p, 0) {
                    if &f != file {
                        to.insert(f);
                    }
                }
            }
            graph.insert(file.clone(), to);
        }
        graph
    }

    /// A cycle in `graph`, if there is one.
    pub fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
        fn walk(
            graph: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            let here = path.last().unwrap().clone();
            for next in graph.get(&here).into_iter().flatten() {
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
        let mut done = BTreeSet::new();
        for start in graph.keys() {
            if !done.contains(start) {
                if let Some(c) = walk(graph, &mut vec![start.clone()], &mut done) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// Every cycle's files, one cycle each, found by taking out an edge of each cycle met.
    pub fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
        let mut graph = graph.clone();
        let mut all = vec![];
        while let Some(c) = cycle(&graph) {
            graph
                .get_mut(&c[c.len() - 2])
                .unwrap()
                .remove(&c[c.len() - 1]);
            all.push(c);
        }
        all
    }
}

/// No file of `src/` imports, through any chain of imports, from itself: in the library and in
/// the CLI, each file is below those it imports from. Checked on made-up files too: a trait in
/// a `mod.rs` that its implementations import while it dispatches to them is a cycle.
#[test]
fn no_file_of_src_imports_from_itself() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (root, skip) in [("lib.rs", &["cli"][..]), ("main.rs", &LAYERS[..])] {
        let modules = graph::modules(&src, root, skip);
        assert!(modules.len() > 15, "{root}: only {} modules", modules.len());
        let edges = graph::edges(&modules);
        let count: usize = edges.values().map(|e| e.len()).sum();
        assert!(count > 40, "{root}: only {count} imports read");
        let cycles = graph::cycles(&edges);
        assert!(
            cycles.is_empty(),
            "{root}: {} cycles: {cycles:#?}",
            cycles.len()
        );
    }
    // Made up: `kinds/mod.rs` holds a trait its implementation imports, and dispatches to the
    // implementation (a cycle); `user.rs` names the implementation through the re-export, and
    // `calm.rs` imports from `user.rs` in code, outside any `use` (no cycle of theirs), and
    // `kinds/two.rs` names its parent only in a visibility, which imports nothing.
    let tmp = tempfile::tempdir().unwrap();
    let files = [
        ("lib.rs", "pub mod kinds;\npub mod user;\npub mod calm;\n"),
        (
            "kinds/mod.rs",
            "mod one;\nmod two;\npub use one::One;\npub trait Kind {}\npub fn run() { One::go() }\n",
        ),
        ("kinds/two.rs", "pub(in crate::kinds) fn two() {}\n"),
        (
            "kinds/one.rs",
            "use super::Kind;\npub struct One;\nimpl Kind for One {}\n",
        ),
        ("user.rs", "use crate::kinds::{One, self};\n"),
        (
            "calm.rs",
            "fn f() { crate::user::g() }\n// crate::calm is not read\n",
        ),
    ];
    for (name, text) in files {
        let path = tmp.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let edges = graph::edges(&graph::modules(tmp.path(), "lib.rs", &[]));
    let short = |f: &String| f[tmp.path().display().to_string().len() + 1..].to_string();
    let named = |from: &str| -> Vec<String> {
        let key = tmp.path().join(from).display().to_string();
        edges[&key].iter().map(short).collect()
    };
    assert_eq!(named("user.rs"), ["kinds/mod.rs", "kinds/one.rs"]);
    assert_eq!(named("calm.rs"), ["user.rs"]);
    assert!(named("kinds/two.rs").is_empty());
    let cycles: Vec<Vec<String>> = graph::cycles(&edges)
        .iter()
        .map(|c| c.iter().map(short).collect())
        .collect();
    assert_eq!(cycles, [["kinds/mod.rs", "kinds/one.rs", "kinds/mod.rs"]]);
}

/// The names a public (or crate- or parent-visible) type, trait or alias of `text` is given.
fn type_names(text: &str) -> Vec<String> {
    let mut names = vec![];
    for line in text.lines().map(str::trim_start) {
        let Some(rest) = ["pub ", "pub(crate) ", "pub(super) "]
            .iter()
            .find_map(|v| line.strip_prefix(v))
        else {
            continue;
        };
        for kind in ["struct ", "enum ", "trait ", "type "] {
            if let Some(name) = rest.strip_prefix(kind) {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
    }
    names
}

/// One meaning a type name: no two types, traits or aliases visible beyond their module share
/// a name anywhere in `src/` (three `Distribution`s, two `OnDisk`, two `Journal`s, two
/// `Found`s and two `Slides` did, issue 48).
#[test]
fn no_two_types_share_a_name() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    rust_files(&src, &mut files);
    let mut seen = std::collections::BTreeMap::<String, Vec<String>>::new();
    for (file, text) in &files {
        for name in type_names(text) {
            seen.entry(name).or_default().push(file.clone());
        }
    }
    assert!(seen.len() > 100, "only {} type names read", seen.len());
    let twice: Vec<_> = seen.iter().filter(|(_, files)| files.len() > 1).collect();
    assert!(twice.is_empty(), "{twice:#?}");
    // The reader finds what it must.
    let made_up = "pub struct A;\n    pub(crate) enum B {}\npub(super) trait C {}\nstruct D;\n";
    assert_eq!(type_names(made_up), ["A", "B", "C"]);
}

/// The integration tests are one binary (`autotests = false`): every file of `tests/` is a
/// module of `tests/tests.rs` (a file left out would never run), and Cargo.toml declares no
/// test binary but it and `fallback` (which switches the bit instructions off for its whole
/// process).
#[test]
fn every_test_file_is_a_module_of_the_one_test_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("\nautotests = false\n"),
        "Cargo.toml: autotests = false"
    );
    let binaries: Vec<&str> = manifest
        .split("[[test]]")
        .skip(1)
        .filter_map(|t| t.lines().find_map(|l| l.strip_prefix("name = ")))
        .collect();
    assert_eq!(binaries, ["\"tests\"", "\"fallback\""]);
    let tests = std::fs::read_to_string(root.join("tests/tests.rs")).unwrap();
    let mut missing = vec![];
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if !["tests", "fallback"].contains(&module) && !tests.contains(&format!("mod {module};")) {
            missing.push(name.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "not modules of tests/tests.rs: {missing:?}"
    );
}
