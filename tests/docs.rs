//! The documents show what the tool prints: the console examples of the README and of the
//! guide's quick commands are run, and the lines they show must be the tool's output, in
//! order (`...` marks lines left out; a figure of time or rate may differ), and the README's
//! table is the `table` of the committed results.

use std::path::Path;

use crate::common::{stderr, stdout, tilespace};

/// The words of a shell command as the documents write them: double quotes group, a `#`
/// after a space starts a comment.
fn words(command: &str) -> Vec<String> {
    let command = command.split(" #").next().unwrap_or(command);
    let (mut words, mut word, mut quoted) = (vec![], String::new(), false);
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A line with its figures of time and speed masked (`0.007 s`, `25.9 M states/s`): each run
/// of digits one `#`, so that a slower machine's `8.3 M states/s` reads as the document's
/// `25.9` (no outcome may depend on the machine's speed).
fn masked(line: &str) -> String {
    if !line.contains(" s on ") {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// Every `$ tilespace ...` example of `text`'s console blocks whose subcommand is in `run`
/// (but pipelines, redirections and `--pdb`): the command and the lines shown after it.
fn examples(text: &str, run: &[&str]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = vec![];
    let mut in_console = false;
    let mut current: Option<(Vec<String>, Vec<String>)> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            out.extend(current.take());
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            let w = words(command);
            // Pipelines, redirections and pattern databases (minutes to build) are not run.
            let plain = !w.iter().any(|w| ["|", ">", "--pdb"].contains(&w.as_str()));
            if plain
                && w.first().map(String::as_str) == Some("tilespace")
                && w.get(1).is_some_and(|c| run.contains(&c.as_str()))
            {
                current = Some((w[1..].to_vec(), vec![]));
            }
        } else if let Some((_, shown)) = current.as_mut() {
            shown.push(line.to_string());
        }
    }
    out.extend(current);
    out
}

/// Runs the examples in one directory, in order (a table saved by one is read by the next),
/// and checks that each shows lines of its output, in order.
fn run_examples(doc: &str, examples: Vec<(Vec<String>, Vec<String>)>, dir: &Path) -> usize {
    let n = examples.len();
    for (args, shown) in examples {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = tilespace(&args, dir);
        assert!(o.status.success(), "{doc}: {args:?}: {}", stderr(&o));
        let actual: Vec<String> = stdout(&o).lines().map(masked).collect();
        let mut at = 0;
        for line in shown.iter().filter(|l| l.trim() != "...") {
            let want = masked(line);
            match actual[at..].iter().position(|a| *a == want) {
                Some(k) => at += k + 1,
                None => panic!(
                    "{doc}: `tilespace {}` does not print, in this order,\n{line}\nIt prints:\n{}",
                    args.join(" "),
                    actual.join("\n")
                ),
            }
        }
    }
    n
}

/// The README's tour: the commands that answer in a moment, run as shown.
#[test]
fn readme_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = [
        "solvable",
        "count",
        "random",
        "analyze",
        "theorem",
        "distance",
        "solve",
        "atlas",
        "antipodes",
    ];
    let found = examples(&readme, &run);
    assert!(found.len() >= 7, "{found:?}");
    run_examples("README.md", found, tmp.path());
}

/// The tour leaves a clone as it was: its commands read the committed reports
/// (`--results docs/results`) only with commands that write nothing there.
#[test]
fn the_readme_tour_writes_nothing_into_the_committed_reports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let readers = ["check", "table"];
    for line in readme.lines() {
        let Some(command) = line.strip_prefix("$ tilespace ") else {
            continue;
        };
        if command.contains("docs/results") {
            let verb = command.split_whitespace().next().unwrap_or("");
            assert!(
                readers.contains(&verb),
                "`{line}` writes its reports into docs/results: use results/"
            );
        }
    }
}

/// The guide's examples of the commands that answer for boards of any size.
#[test]
fn guide_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let found = examples(&guide, &["solvable", "count", "random"]);
    assert!(found.len() >= 3, "{found:?}");
    run_examples("docs/GUIDE.md", found, tmp.path());
}

/// The guide's example of a table of tokens: saved by `analyze --goal`, asked by `distance`
/// and `solve`.
#[test]
fn guide_token_table_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut found = examples(&guide, &["analyze", "distance", "solve"]);
    found.retain(|(args, _)| args.iter().any(|a| a == "colours.tst"));
    assert_eq!(found.len(), 3, "{found:?}");
    run_examples("docs/GUIDE.md", found, tmp.path());
}

/// The corner goals of the committed results in each metric (2x7's multi-tile corner is the
/// atlas's cell 1,1), as `scripts/reports.sh` lists them for `docs/results/table.md`.
const CORNERS: &str = "2x2,2x3,2x4,3x3,2x5,2x6,3x4,2x7,2x2-multi,2x3-multi,2x4-multi,3x3-multi,\
                       2x5-multi,2x6-multi,3x4-multi,2x7-blank-1-1-multi";
/// The boards of `docs/results/table.md`: the corners, and 3x3's other cells and other class.
const TABLE: &str = "2x2,2x3,2x4,3x3,3x3-blank-1-1,3x3-blank-2-2,3x3-from-1-2-3-4-5-6-8-7-0,\
                     2x5,2x6,3x4,2x7,2x2-multi,2x3-multi,2x4-multi,3x3-multi,2x5-multi,\
                     2x6-multi,3x4-multi,2x7-blank-1-1-multi";

/// The documents' tables are the tool's output on the committed results, not typed by hand:
/// the corners in both metrics, the atlas (`table --atlas`) and the graphs (`table --graphs`)
/// in the README, `docs/results/table.md`
/// and the counting theorem (`table --theorem`) in the guide.
#[test]
fn document_tables_are_generated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let results = root.join("docs/results");
    let results = results.to_str().unwrap();
    let pebbles = format!("{results}/pebbles");
    for (doc, args) in [
        (
            "README.md",
            &["table", "--results", results, "--reports", CORNERS][..],
        ),
        ("README.md", &["table", "--results", results, "--atlas"][..]),
        (
            "README.md",
            &["table", "--results", results, "--graphs"][..],
        ),
        (
            "docs/GUIDE.md",
            &["table", "--results", results, "--reports", TABLE][..],
        ),
        (
            "docs/GUIDE.md",
            &["table", "--results", results, "--theorem"][..],
        ),
        (
            "docs/GUIDE.md",
            &["table", "--results", &pebbles, "--tokens"][..],
        ),
    ] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let o = tilespace(args, root);
        assert!(o.status.success(), "{}", stderr(&o));
        let table = stdout(&o);
        assert!(table.lines().count() > 5, "{table}");
        assert!(
            text.contains(&table),
            "{doc} does not hold the output of {args:?}:\n{table}"
        );
    }
    // The guide's table is the committed `docs/results/table.md`.
    let committed = std::fs::read_to_string(root.join("docs/results/table.md")).unwrap();
    let o = tilespace(&["table", "--results", results, "--reports", TABLE], root);
    assert_eq!(stdout(&o), committed);
}

/// The README's links work where it is read: tilespace is not published, so no link goes to
/// its crates.io or docs.rs pages (they were dead); a relative link names a file of the
/// repository that the package holds too (not one `Cargo.toml` leaves out).
#[test]
fn readme_links_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let excluded: Vec<&str> = manifest
        .lines()
        .find_map(|l| l.strip_prefix("exclude = "))
        .expect("an exclude list")
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|p| p.trim().trim_matches('"').trim_matches('/'))
        .collect();
    let targets: Vec<&str> = readme
        .split("](")
        .skip(1)
        .map(|rest| &rest[..rest.find(')').unwrap()])
        .chain(readme.lines().filter_map(|l| {
            l.strip_prefix('[')
                .and_then(|l| l.split_once("]: "))
                .map(|(_, target)| target)
        }))
        .collect();
    assert!(targets.len() >= 4, "{targets:?}");
    // Nor a dependency on a version from crates.io; how to cite is said, from a file that is
    // there, and where to report a bug.
    assert!(
        !readme.contains("version = \"0.1\""),
        "a crates.io dependency line"
    );
    assert!(readme.contains("`CITATION.cff`") && root.join("CITATION.cff").is_file());
    assert!(readme.contains("## Bugs and citing"));
    for target in targets {
        // tilespace is not published: a link to its crates.io or docs.rs pages is dead.
        assert!(
            !target.contains("docs.rs/crate/tilespace")
                && !target.contains("crates.io/crates/tilespace"),
            "a link to an unpublished crate: {target}"
        );
        if target.starts_with("https://") || target.starts_with("http://") {
            continue;
        }
        let path = target.split('#').next().unwrap();
        assert!(root.join(path).exists(), "{path} is not in the repository");
        assert!(
            !excluded.iter().any(|e| path.starts_with(e)),
            "{path} is left out of the package"
        );
    }
}
