//! Rules of the code that clippy does not hold, read off `src/`: the metric is asked of its type,
//! the puzzle has no public field, no function takes a tuple, and a folder's doc names every
//! module in it (the function length is
//! clippy's `too_many_lines`, the layers and the one test binary are `layers`).

use std::path::Path;

/// `(path, text)` of every `.rs` file under the folders `roots` of the package (paths from its
/// root).
fn sources_under(roots: &[&str]) -> Vec<(String, String)> {
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
    for dir in roots {
        walk(&root.join(dir), root, &mut out);
    }
    out
}

/// Every `.rs` file of `src/` and of the Python package's crate.
fn sources() -> Vec<(String, String)> {
    let out = sources_under(&["src", "python/src"]);
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

/// The index just past the bracket that closes the one `text` opens at its first byte: `(` with
/// `)`, `<` with `>` (an arrow's `>` does not close).
fn closing(text: &[u8]) -> Option<usize> {
    let (open, close) = (text[0], if text[0] == b'(' { b')' } else { b'>' });
    let mut depth = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == open {
            depth += 1;
        } else if b == close && !(close == b'>' && i > 0 && text[i - 1] == b'-') {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// `list` split at its commas outside brackets.
fn top_level(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (vec![], 0i32, 0);
    let bytes = list.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&list[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[from..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether a parameter (`pattern: type`) takes a tuple: its pattern destructures one or its
/// type is one (`(A, B)`, `&(A, B)`; not `()`, nor `&(dyn ..)` or `(impl ..)`).
fn takes_a_tuple(param: &str) -> bool {
    let bytes = param.as_bytes();
    let colon = (0..bytes.len()).find(|&i| {
        bytes[i] == b':'
            && bytes.get(i + 1) != Some(&b':')
            && (i == 0 || bytes[i - 1] != b':')
            && top_level(&param[..i]).len() == 1
            && closing_all(&param[..i])
    });
    let Some(colon) = colon else {
        return false;
    };
    let (pattern, ty) = (param[..colon].trim(), param[colon + 1..].trim());
    let mut ty = ty.trim_start_matches('&').trim_start();
    if ty.starts_with('\'') {
        ty = ty.split_once(' ').map_or("", |(_, t)| t);
    }
    let ty = ty.strip_prefix("mut ").unwrap_or(ty).trim_start();
    let tuple_type = ty.starts_with('(')
        && !ty.starts_with("()")
        && !ty.starts_with("(dyn")
        && !ty.starts_with("(impl");
    pattern.starts_with('(') || tuple_type
}

/// Whether every bracket `text` opens it closes (a colon after it is at the top level).
fn closing_all(text: &str) -> bool {
    let open = text.matches(['(', '[', '<']).count();
    let shut = text.matches([')', ']', '>']).count() - text.matches("->").count();
    open == shut
}

/// `name:line` of each function of `text` (its code, comments left out) with a parameter that
/// takes a tuple.
fn tuple_parameters(text: &str) -> Vec<String> {
    let mut lines = vec![""; text.lines().count()];
    for (n, line) in code_lines(text) {
        lines[n - 1] = line;
    }
    let code = lines.join("\n");
    let bytes = code.as_bytes();
    let mut found = vec![];
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let rest = &code[at + 3..];
        let name_end = rest
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let mut i = at + 3 + name_end;
        if bytes.get(i) == Some(&b'<') {
            let Some(end) = closing(&bytes[i..]) else {
                continue;
            };
            i += end;
        }
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'(') {
            continue;
        }
        let Some(end) = closing(&bytes[i..]) else {
            continue;
        };
        let params = &code[i + 1..i + end - 1];
        if top_level(params).into_iter().any(takes_a_tuple) {
            let line = code[..at].matches('\n').count() + 1;
            found.push(format!("{}:{line}", &rest[..name_end]));
        }
    }
    found
}

/// No function takes a tuple: values that go together are a named struct, each field with its
/// doc (23 functions took tuples, most packed to pass clippy's argument limit, issue 71). Read
/// off the library, the Python crate, the tests and the benchmarks.
#[test]
fn no_function_takes_a_tuple() {
    let mut found = vec![];
    for (file, text) in sources_under(&["src", "python/src", "tests", "benches"]) {
        if file == "tests/rules.rs" {
            continue;
        }
        for f in tuple_parameters(&text) {
            found.push(format!("{file}: {f}"));
        }
    }
    assert!(found.is_empty(), "tuple parameters: {found:#?}");
    // The reader finds what it must, and only that.
    let made_up = "fn a((x, y): (u8, u8)) {}\nfn b(p: &(u8, String)) {}\n\
                   fn c<T: Into<u8>>(t: T, q: &'a mut (u8, u8)) -> u8 {}\n\
                   fn d(f: &(dyn Fn(u8) -> (u8, u8) + Sync), g: impl Fn((u8, u8))) {}\n\
                   // fn e(p: (u8, u8)) {}\nfn f(m: HashMap<(u8, u8), u8>, u: ()) {}\n\
                   let g = |(a, b): (u8, u8)| a;\nfn h(\n    x: u8,\n    y: (u8, u8),\n) {}\n";
    assert_eq!(tuple_parameters(made_up), ["a:1", "b:2", "c:3", "h:8"]);
}

/// The modules a `mod.rs` (or `lib.rs`) declares, but for its unit tests.
fn declared_modules(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub(crate) ")
                .or(l.strip_prefix("pub "))
                .unwrap_or(l);
            l.strip_prefix("mod ")?.strip_suffix(';')
        })
        .filter(|m| *m != "tests")
        .collect()
}

/// A folder's module doc (its `mod.rs`, or `lib.rs` for the library) names each module of the
/// folder, in backticks: a reader learns from it where a thing lives (`report/mod.rs` once
/// listed half its modules).
#[test]
fn a_folder_names_its_modules() {
    let mut unnamed = vec![];
    for (path, text) in sources_under(&["src"]) {
        if !(path.ends_with("mod.rs") || path == "src/lib.rs") {
            continue;
        }
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join(" ");
        for module in declared_modules(&text) {
            let named = [
                format!("`{module}`"),
                format!("`{module}::"),
                format!("`{module}("),
            ];
            if !named.iter().any(|n| doc.contains(n.as_str())) {
                unnamed.push(format!("{path}: {module}"));
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "modules their folder's doc does not name: {unnamed:#?}"
    );
}
