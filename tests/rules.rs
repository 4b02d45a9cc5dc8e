//! Rules of the code that clippy does not hold, read off `src/`: the metric is asked of its type,
//! the puzzle has no public field, and no function takes a tuple (the function length is
//! clippy's `too_many_lines`, the layers and the one test binary are `layers`).

use std::path::Path;

/// `(path under src/, text)` of every `.rs` file of `src/` and of the Python package's crate.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(root).unwrap().display().to_string();
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    walk(&root.join("src"), root, &mut out);
    walk(&root.join("python/src"), root, &mut out);
    assert!(out.len() > 100, "only {} files read", out.len());
    out
}

/// The lines of `text` that are code: comments dropped (a `//` outside a string literal ends a
/// line's code; string literals are kept).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let code = line.trim_start();
        (!code.starts_with("//")).then_some((i + 1, line))
    })
}

/// Where `text` names a metric by a string: a compare with `"single"` or `"multi"`, or the
/// words `"single-tile"`/`"multi-tile"` as a literal of their own (what `Metric::adjective`
/// gives).
fn metric_strings(text: &str) -> Vec<usize> {
    let mut at = vec![];
    for (n, line) in code_lines(text) {
        let compared = ["== \"", "!= \"", "\" =>"].iter().any(|op| {
            ["single", "multi"].iter().any(|m| {
                line.contains(&format!("{op}{m}\"")) || line.contains(&format!("\"{m}{op}"))
            })
        });
        let spelled = ["\"single-tile\"", "\"multi-tile\""]
            .iter()
            .any(|w| line.contains(w));
        if compared || spelled {
            at.push(n);
        }
    }
    at
}

/// A fact of the metric is asked of `Metric` (`puzzle/metric.rs`): no file compares a metric's
/// name or spells its adjective (a report compared `metric == "multi"`, issue 71).
#[test]
fn the_metric_is_asked_of_its_type() {
    let mut found = vec![];
    for (file, text) in sources() {
        if file == "src/puzzle/metric.rs" {
            continue;
        }
        for n in metric_strings(&text) {
            found.push(format!("{file}:{n}"));
        }
    }
    assert!(found.is_empty(), "metrics named by strings: {found:#?}");
    // The reader finds what it must.
    let made_up = "if m == \"multi\" {}\n// m == \"multi\"\nlet w = \"single-tile\";\n\
                   match s { \"single\" => 1 }\nlet ok = \"multi-tile moves\";\n";
    assert_eq!(metric_strings(made_up), [1, 3, 4]);
}

/// The fields of the struct `name` in `text` that are visible outside its module.
fn public_fields(text: &str, name: &str) -> Vec<String> {
    let Some(start) = text.find(&format!("pub struct {name} {{")) else {
        panic!("no struct {name}");
    };
    let body = &text[start..];
    let end = body.find("\n}").expect("the struct ends");
    body[..end]
        .lines()
        .skip(1)
        .map(str::trim_start)
        .filter(|l| l.starts_with("pub"))
        .map(String::from)
        .collect()
}

/// The puzzle and its index are values made once and read through accessors: `Puzzle` and
/// `StateSpace` have no public field (`StateSpace` had `pub metric` and `pub graph`, set after
/// construction, issue 71).
#[test]
fn the_puzzle_has_no_public_field() {
    let files = sources();
    let text = |f: &str| &files.iter().find(|(n, _)| n == f).expect(f).1;
    for (file, name) in [
        ("src/index/puzzle.rs", "Puzzle"),
        ("src/index/space.rs", "StateSpace"),
    ] {
        let public = public_fields(text(file), name);
        assert!(public.is_empty(), "{name}: {public:?}");
    }
    let made_up = "pub struct P {\n    a: u8,\n    pub b: u8,\n}\n";
    assert_eq!(public_fields(made_up, "P"), ["pub b: u8,"]);
}
