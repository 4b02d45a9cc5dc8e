//! Reports for people and programs, end to end: plots, paper tables, --json, antipode patterns,
//! completions and the man page.

// A test that walks one scenario through every step reads best whole: the 100-line limit
// (clippy.toml) holds for src/, not for these.
#![allow(clippy::too_many_lines)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{read_csv, stderr, stdout, tilespace};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results")
}

/// The fixture's summary rows, keyed by board.
fn summary() -> HashMap<String, HashMap<String, String>> {
    read_csv(&fixture().join("summary.csv"))
        .1
        .into_iter()
        .map(|r| (r["board"].clone(), r))
        .collect()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// Data lines of an SVG drawn by `plot`: polylines of width 2 with more than two points (the
/// legend's samples have two), as point counts; and every text in it.
fn svg_lines_and_texts(path: &Path) -> (Vec<usize>, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not valid XML: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .map(|n| n.attribute("points").unwrap().split_whitespace().count())
        .filter(|&points| points > 2)
        .collect();
    let texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect();
    (lines, texts)
}

/// The left panel of a board's SVG: its y-axis tick labels as (pixel row, value), the unit
/// its axis description gives (`states (×10⁹)`: 10^9), and the highest point of its line.
fn linear_panel(path: &Path) -> (Vec<(f64, f64)>, f64, f64) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let num = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let mut ticks = vec![];
    let mut unit = 1.0;
    for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let t = n.text().unwrap_or("").trim();
        if n.attribute("text-anchor") == Some("end") && num(&n, "x") < 600.0 {
            let value = t
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("tick label {t:?} is not a number"));
            ticks.push((num(&n, "y"), value));
        }
        if let Some(power) = t
            .strip_prefix("states (×10")
            .and_then(|p| p.strip_suffix(')'))
        {
            let digits: String = power
                .chars()
                .map(|c| {
                    char::from(b'0' + "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|d| d == c).unwrap() as u8)
                })
                .collect();
            unit = 10f64.powi(digits.parse().unwrap());
        }
    }
    let top = doc
        .descendants()
        .find(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .unwrap()
        .attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| p.split(',').nth(1).unwrap().parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min);
    (ticks, unit, top)
}

/// Tick labels are the values at their positions: distinct, increasing upwards, evenly
/// spaced, and the line's highest point, read off them, is the widest layer.
fn check_ticks(path: &Path, widest: f64) {
    let (mut ticks, unit, top) = linear_panel(path);
    assert!(ticks.len() >= 3, "{}: {ticks:?}", path.display());
    ticks.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
    let per_pixel = (last.1 - first.1) / (first.0 - last.0);
    assert!(per_pixel > 0.0, "{}: {ticks:?}", path.display());
    // Each label where its position puts it, to a twentieth of a step (pixels are whole).
    let step = (last.1 - first.1) / (ticks.len() - 1) as f64;
    for &(y, value) in &ticks {
        let at = first.1 + (first.0 - y) * per_pixel;
        assert!(
            (at - value).abs() < 0.05 * step,
            "{}: {value} at {at}: {ticks:?}",
            path.display()
        );
    }
    let read = (ticks[0].1 + (ticks[0].0 - top) * per_pixel) * unit;
    assert!(
        (read - widest).abs() < 0.02 * widest,
        "{}: line top reads {read}, widest layer {widest}",
        path.display()
    );
}

#[test]
fn plots_from_fixture_csvs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("plots");
    let o = tilespace(
        &[
            "plot",
            "--results",
            fixture().to_str().unwrap(),
            "--charts",
            out.to_str().unwrap(),
            "--log",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 4, "{}", stdout(&o));
    // 2x2: at most 2 states at a depth (ticks 0, 1, 2, never 1.8 rounded to 2); 2x3: 44.
    check_ticks(&out.join("2x2.svg"), 2.0);
    check_ticks(&out.join("2x3.svg"), 44.0);
    for (board, eccentricity) in [("2x2", 6), ("2x3", 21)] {
        let (lines, texts) = svg_lines_and_texts(&out.join(format!("{board}.svg")));
        // The linear and the log panel: one line each, a point per depth 0..=eccentricity.
        assert_eq!(lines, vec![eccentricity + 1, eccentricity + 1], "{board}");
        for label in [
            "depth (optimal single-tile moves from the goal)",
            "states",
            "states (log scale)",
        ] {
            assert!(
                texts.iter().any(|t| t == label),
                "{board}: no label {label}"
            );
        }
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with(&format!("{board} board, single-tile moves, goal blank at"))),
            "{board}: title"
        );
    }
    for name in ["overlay.svg", "overlay-log.svg"] {
        let (lines, texts) = svg_lines_and_texts(&out.join(name));
        assert_eq!(lines.len(), 2, "{name}: one line per board");
        assert!(texts.iter().any(|t| t == "depth / eccentricity"), "{name}");
        assert!(texts.iter().any(|t| t == "2x2") && texts.iter().any(|t| t == "2x3"));
    }
    let o = tilespace(&["plot", "--results", "nowhere"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no boards"), "{}", stderr(&o));
}

/// The committed 2x7 (1,862,320,864 states in its widest layer): its axis in units of 10⁹,
/// read correctly; and identical distributions (3x3 from three starts) drawn as one line.
#[test]
fn plots_of_large_boards_and_identical_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let out = tmp.path().join("plots");
    let o = tilespace(
        &[
            "plot",
            "--results",
            results.to_str().unwrap(),
            "--charts",
            out.to_str().unwrap(),
            "--reports",
            "2x7,3x3,3x3-blank-1-1,2x3",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, texts) = svg_lines_and_texts(&out.join("2x7.svg"));
    assert!(texts.iter().any(|t| t == "states (×10⁹)"), "{texts:?}");
    check_ticks(&out.join("2x7.svg"), 1_862_320_864.0);
    let (lines, texts) = svg_lines_and_texts(&out.join("overlay.svg"));
    assert_eq!(lines.len(), 3, "2x7, 3x3 (twice, one line), 2x3");
    assert!(
        texts.iter().any(|t| t == "3x3 = 3x3 blank 1,1"),
        "{texts:?}"
    );
}

/// The figures a table must carry, from the fixture's summary.csv.
const FIGURES: [&str; 5] = [
    "states",
    "eccentricity",
    "antipodes",
    "mean_depth_exact",
    "median_depth",
];

/// A figure as a table prints it: an exact mean in lowest terms (`3/1` in summaries written
/// before integer means printed as integers is `3`), counts without grouping.
fn normal(field: &str, value: &str) -> String {
    if field == "mean_depth_exact" {
        value.parse::<tilespace::Fraction>().unwrap().to_string()
    } else {
        value.replace([',', '\u{2009}'], "")
    }
}

#[test]
fn tables_round_trip_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let results = fixture();
    let results = results.to_str().unwrap();
    let want = summary();
    let run = |format: &str, columns: &str| {
        let o = tilespace(
            &[
                "table",
                "--results",
                results,
                "--format",
                format,
                "--columns",
                columns,
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };

    let csv_text = run("csv", "all");
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut n = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        let row: HashMap<&str, &str> = header.iter().map(String::as_str).zip(rec.iter()).collect();
        for f in FIGURES {
            assert_eq!(row[f], normal(f, &want[row["board"]][f]), "csv {f}");
        }
        assert_eq!(row["verified"], "true");
        n += 1;
    }
    assert_eq!(n, want.len());

    let md = run("markdown", "all");
    let lines: Vec<&str> = md.lines().collect();
    let head: Vec<&str> = lines[0]
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    assert!(lines[1].contains("---"));
    assert_eq!(lines.len(), 2 + want.len());
    for line in &lines[2..] {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let cell = |name: &str| cells[head.iter().position(|h| *h == name).unwrap()];
        let w = &want[cell("board")];
        assert_eq!(normal("states", cell("states")), w["states"]);
        assert_eq!(cell("eccentricity"), w["eccentricity"]);
        assert_eq!(cell("antipodes"), w["antipodes"]);
        assert_eq!(cell("median"), w["median_depth"]);
        let exact = normal("mean_depth_exact", &w["mean_depth_exact"]);
        assert_eq!(cell("mean moves (exact)"), exact);
        // An integer mean is printed as such; a rounded one says so.
        let decimal = w["mean_depth"].trim_end_matches('0').trim_end_matches('.');
        if exact.contains('/') {
            assert_eq!(cell("mean moves"), format!("≈ {}", w["mean_depth"]));
        } else {
            assert_eq!(cell("mean moves"), decimal);
        }
        assert_eq!(cell("= (RC)!/2, verified"), "yes");
    }

    let tex = run(
        "latex",
        "board,states,eccentricity,antipodes,mean_depth_exact,median_depth",
    );
    let body: Vec<&str> = tex
        .lines()
        .skip_while(|l| *l != "\\midrule")
        .skip(1)
        .take_while(|l| *l != "\\bottomrule")
        .collect();
    assert_eq!(body.len(), want.len(), "one row per board:\n{tex}");
    let spec = tex
        .lines()
        .find_map(|l| l.strip_prefix("\\begin{tabular}{"))
        .unwrap();
    // Column types outside the brackets of S[table-format=…].
    let mut depth = 0;
    let columns = spec
        .chars()
        .filter(|&c| {
            depth += (c == '[') as i32 - (c == ']') as i32;
            depth == 0 && "lrS".contains(c)
        })
        .count();
    assert_eq!(columns, 6, "{spec}");
    for row in body {
        assert!(row.ends_with("\\\\"), "{row}");
        let cells: Vec<&str> = row
            .trim_end_matches("\\\\")
            .split(" & ")
            .map(str::trim)
            .collect();
        assert_eq!(cells.len(), columns, "{row}");
        let board = cells[0].trim_matches('$').replace("\\times", "x");
        let w = &want[&board];
        assert_eq!(cells[1], w["states"]);
        assert_eq!(cells[2], w["eccentricity"]);
        assert_eq!(cells[3], w["antipodes"]);
        assert_eq!(
            cells[4],
            format!("${}$", normal("mean_depth_exact", &w["mean_depth_exact"]))
        );
        assert_eq!(cells[5], w["median_depth"]);
    }
    assert!(tex.contains("\\toprule") && tex.trim_end().ends_with("\\end{table}"));

    let o = tilespace(&["table", "--results", results, "--json"], tmp.path());
    let j = json(&stdout(&o));
    let rows = j.as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    for row in rows {
        let w = &want[row["board"].as_str().unwrap()];
        for f in FIGURES {
            let got = match &row[f] {
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            assert_eq!(got, normal(f, &w[f]), "json {f}");
        }
        // Numbers as numbers, keys in column order.
        assert!(
            row["mean_depth"].is_f64() && row["states"].is_u64(),
            "{row}"
        );
        let keys: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys[..3], ["board", "goal_blank", "start"]);
    }
}

/// `181,440`, as Markdown tables group counts.
fn commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Every `--json` output parses and carries the figures of the text output.
/// `plot` and `table` choose searches with the words `analyze` takes: `--boards` the sizes,
/// `--metric`, `--blank`; `--reports` names searches by their report folders; a choice that
/// keeps nothing is refused in one line, saying what the results have.
#[test]
fn plots_and_tables_choose_by_size_metric_and_blank() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for args in [
        &["analyze", "2x3", "2x2", "-q", "--results", "r"][..],
        &[
            "analyze", "2x3", "--metric", "multi", "--blank", "1,1", "--blank", "last", "-q",
        ],
    ] {
        let mut args = args.to_vec();
        if !args.contains(&"--results") {
            args.extend(["--results", "r"]);
        }
        let o = tilespace(&args, dir);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    // The (board, goal blank, metric) of each CSV row `table` prints.
    let table = |extra: &[&str]| -> Vec<(String, String, String)> {
        let mut args = vec!["table", "--results", "r", "--format", "csv"];
        args.extend_from_slice(extra);
        let o = tilespace(&args, dir);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let text = stdout(&o);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let head = reader.headers().unwrap().clone();
        let at = |name: &str| head.iter().position(|h| h == name).unwrap();
        let (b, g, m) = (at("board"), at("goal_blank"), at("metric"));
        reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                (r[b].to_string(), r[g].to_string(), r[m].to_string())
            })
            .collect()
    };
    let row = |b: &str, g: &str, m: &str| (b.to_string(), g.to_string(), m.to_string());
    assert_eq!(table(&[]).len(), 4);
    assert_eq!(
        table(&["--boards", "2x3", "--metric", "multi"]),
        [row("2x3", "1,1", "multi"), row("2x3", "2,3", "multi")]
    );
    assert_eq!(
        table(&["--boards", "2x3", "--blank", "1,1"]),
        [row("2x3", "1,1", "multi")]
    );
    assert_eq!(
        table(&["--boards", "2x2,2x3", "--metric", "single"]),
        [row("2x2", "2,2", "single"), row("2x3", "2,3", "single")]
    );
    assert_eq!(
        table(&["--reports", "2x3-blank-1-1-multi,2x2"]),
        [row("2x3", "1,1", "multi"), row("2x2", "2,2", "single")]
    );
    let o = tilespace(
        &[
            "plot",
            "--results",
            "r",
            "--metric",
            "multi",
            "--charts",
            "c",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut drawn: Vec<String> = std::fs::read_dir(dir.join("c"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    drawn.sort();
    assert_eq!(
        drawn,
        ["2x3-blank-1-1-multi.svg", "2x3-multi.svg", "overlay.svg"]
    );
    for args in [
        &["table", "--results", "r", "--boards", "2x4"][..],
        &[
            "table",
            "--results",
            "r",
            "--boards",
            "2x2",
            "--metric",
            "multi",
        ],
        &["plot", "--results", "r", "--blank", "1,2"],
        &["plot", "--results", "r", "--reports", "2x3-blank-1-2"],
    ] {
        let o = tilespace(args, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("2x3-blank-1-1-multi, 2x3-multi"), "{err}");
    }
}

#[test]
fn json_outputs_match_the_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let text = stdout(&tilespace(&["analyze", "2x3", "--results", "r", "-q"], dir));
    let o = tilespace(&["analyze", "2x3", "--results", "r", "-q", "--json"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&stdout(&o));
    let b = &j["analyses"][0];
    let states = b["states"].as_u64().unwrap();
    let eccentricity = b["eccentricity"].as_u64().unwrap();
    assert!(text.contains(&format!("{states} states")), "{text}");
    assert!(
        text.contains(&format!("eccentricity {eccentricity},")),
        "{text}"
    );
    let mean = b["mean_depth_exact"].as_str().unwrap();
    assert!(text.contains(&format!("mean {mean} ≈")), "{text}");
    let decimal = b["mean_depth"].as_f64().unwrap();
    assert!(text.contains(&format!("≈ {decimal:.6},")), "{text}");
    let layers: Vec<u64> = serde_json::from_value(b["distribution"].clone()).unwrap();
    assert_eq!(layers.iter().sum::<u64>(), states);
    assert_eq!(layers.len() as u64, eccentricity + 1);
    for a in b["antipode_states"].as_array().unwrap() {
        assert!(text.contains(&format!("antipode: {}", a.as_str().unwrap())));
    }

    let text = stdout(&tilespace(&["count", "5x5"], dir));
    let j = json(&stdout(&tilespace(&["count", "5x5", "--json"], dir)));
    for k in ["total", "reachable", "unreachable"] {
        let v = j[k].as_str().unwrap();
        assert!(text.contains(v), "{k} {v} not in {text}");
    }

    let board = "8 6 7/2 5 4/3 0 1";
    let o = tilespace(&["solvable", board], dir);
    let j = json(&stdout(&tilespace(&["solvable", board, "--json"], dir)));
    assert_eq!(j["solvable"], true);
    assert!(stdout(&o).starts_with("solvable\n"));
    let inv = j["inversions"].as_u64().unwrap();
    assert!(stdout(&o).contains(&format!("inversions: {inv} ")));

    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "--save-table",
            "t.tst",
            "-q",
            "--results",
            "r",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&tilespace(&["distance", board, "--table", "t.tst"], dir));
    let o = tilespace(
        &[
            "distance",
            board,
            "1 2 3/4 5 6/8 7 0",
            "--table",
            "t.tst",
            "--json",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(1), "one board is unsolvable");
    let j = json(&stdout(&o));
    let d = j["answers"][0]["distance"].as_u64().unwrap();
    assert_eq!(text, format!("{board}: {d}\n"));
    assert_eq!(j["answers"][1]["solvable"], false);

    let md = stdout(&tilespace(&["table", "--results", "r"], dir));
    let j = json(&stdout(&tilespace(
        &["table", "--results", "r", "--json"],
        dir,
    )));
    for row in j.as_array().unwrap() {
        let states = row["states"].as_u64().unwrap();
        let line = format!(
            "| {} | {} |",
            row["board"].as_str().unwrap(),
            row["goal_blank"].as_str().unwrap()
        );
        assert!(
            md.contains(&line) && md.contains(&format!("| {} |", commas(states))),
            "{md}"
        );
    }
}

/// Gong's statement on 2xn boards (tile k and tile k+n share a column in every antipode),
/// checked here on the engine's antipodes directly from the tile numbers, must agree with what
/// `antipodes` reports; where it fails, the counterexample must be an antipode that breaks it.
#[test]
fn antipode_patterns_answer_gongs_question_from_the_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(
        &["antipodes", "2x3", "2x4", "2x5", "--results", "r", "-q"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, gong) = read_csv(&dir.join("r/gong.csv"));
    assert_eq!(gong.len(), 3);
    let mut failures = 0;
    for row in &gong {
        let n: usize = row["board"][2..].parse().unwrap();
        let (_, antipodes) = read_csv(&dir.join("r").join(&row["board"]).join("antipodes.csv"));
        assert_eq!(antipodes.len().to_string(), row["antipodes"]);
        // The statement, with the blank as tile 2n.
        let breaks = |board: &str| {
            let cells: Vec<usize> = board
                .split(['/', ' '])
                .map(|t| t.parse::<usize>().unwrap())
                .map(|t| if t == 0 { 2 * n } else { t })
                .collect();
            let column = |t: usize| cells.iter().position(|&x| x == t).unwrap() % n;
            (1..=n).any(|k| column(k) != column(k + n))
        };
        let holds = antipodes.iter().all(|a| !breaks(&a["board"]));
        assert_eq!(row["holds"], holds.to_string(), "{}", row["board"]);
        if !holds {
            failures += 1;
            let c = &row["counterexample"];
            assert!(
                antipodes.iter().any(|a| &a["board"] == c),
                "{c} is not an antipode"
            );
            assert!(breaks(c), "{c} does not break the statement");
            assert!(
                stdout(&o).contains(&format!("fails: in {c}")),
                "{}",
                stdout(&o)
            );
        }
        let (_, patterns) = read_csv(
            &dir.join("r")
                .join(&row["board"])
                .join("antipode-patterns.csv"),
        );
        assert_eq!(patterns.len(), antipodes.len());
        for (p, a) in patterns.iter().zip(&antipodes) {
            assert_eq!(p["board"], a["board"]);
            assert_eq!(p["columns_kept"], (!breaks(&a["board"])).to_string());
        }
    }
    // The counterexample path must be exercised: on 2x5 one of the two antipodes breaks the
    // statement (checked above by `breaks`, not taken from the report).
    assert!(
        failures >= 1,
        "no board here fails, so no counterexample was tested"
    );
}

#[test]
fn completions_man_page_and_version() {
    let tmp = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let o = tilespace(&["completions", shell], tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.contains("analyze") && text.contains("--save-table"),
            "{shell}"
        );
    }
    let o = tilespace(&["man"], tmp.path());
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH tilespace"),
        "{page}"
    );
    assert!(page.contains("analyze"));
    // A subcommand's page carries the version in its footer, as the main page does.
    let o = tilespace(&["man", "analyze"], tmp.path());
    let title = stdout(&o)
        .lines()
        .find(|l| l.starts_with(".TH"))
        .map(str::to_string);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        title
            .as_ref()
            .is_some_and(|t| t.contains(&format!("\"tilespace {version}"))),
        "{title:?}"
    );
    // Its synopsis shows what each option takes, and the boards it is given.
    let synopsis = stdout(&o)
        .lines()
        .skip_while(|l| *l != ".SH SYNOPSIS")
        .nth(1)
        .map(str::to_string)
        .unwrap_or_default();
    for part in [
        "[\\fB\\-\\-blank\\fR \\fICELL\\fR]...",
        "[\\fB\\-j\\fR|\\fB\\-\\-threads\\fR \\fIN\\fR]",
        "[\\fB\\-\\-json\\fR]",
        "[\\fIRxC\\fR]...",
    ] {
        assert!(synopsis.contains(part), "{part} not in {synopsis}");
    }
    // Every page the main page links to is one `man --dir` writes, and `man SUBCOMMAND` prints.
    let o = tilespace(&["man", "--dir", "pages"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let linked: Vec<String> = page
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|name| format!("{}.1", name.replace("\\-", "-")))
        .collect();
    assert!(linked.len() >= 10, "{linked:?}");
    for name in &linked {
        let written = std::fs::read_to_string(tmp.path().join("pages").join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let sub = name.trim_start_matches("tilespace-").trim_end_matches(".1");
        let printed = stdout(&tilespace(&["man", sub], tmp.path()));
        assert_eq!(written, printed, "{name}");
        assert!(
            written.contains(&format!(".TH {}", name.trim_end_matches(".1"))),
            "{name}"
        );
    }
    let o = tilespace(&["man", "nonesuch"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    let o = tilespace(&["--version"], tmp.path());
    let v = stdout(&o);
    assert!(
        v.starts_with(&format!("tilespace {} (git ", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
    let o = tilespace(&["completions", "tcsh"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
}

/// `check` compares what it analysed with OEIS: agreement on boards analysed here, and a
/// disagreement found when a depth count is off by one (the report otherwise consistent).
#[test]
fn check_against_published_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for args in [
        &["analyze", "2x3", "3x2", "2x4", "-q", "--results", "r"][..],
        &[
            "analyze",
            "3x3",
            "--blank",
            "center",
            "--blank",
            "2,1",
            "--blank",
            "1,3",
            "-q",
            "--results",
            "r",
        ],
    ] {
        let o = tilespace(args, dir);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = tilespace(&["check", "--results", "r"], dir);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    for source in [
        "A090034", "A090035", "A089474", "A089483", "A089473", "A151944",
    ] {
        assert!(text.contains(source), "{source}: {text}");
    }
    // 2x3 and 3x2: the OEIS distribution, the eccentricity and Tarakanov's complete distribution
    // each; 2x4 the same; 3x3: three blanks, each with its OEIS distribution, Tarakanov's and
    // Hoey's eccentricity and antipodes, and the eccentricity for the corner.
    for source in [
        "Tarakanov 2023",
        "lightln2/SlidingTilesSolver tests",
        "Hoey",
    ] {
        assert!(text.contains(source), "{source}: {text}");
    }
    assert!(
        text.contains("19 comparisons with published figures: 19 agree, 0 disagree."),
        "{text}"
    );

    // One state moved from depth 13 to depth 14 of 2x3, the cumulative counts and the summary
    // row kept consistent (depth sum 4544 + 1, mean 4545/360 = 101/8, widest layer 45 at 14),
    // so that only the published figures can tell.
    let path = dir.join("r/2x3/depths.csv");
    let csv = std::fs::read_to_string(&path).unwrap();
    let edited = csv
        .replace("\n13,39,189,", "\n13,38,188,")
        .replace("\n14,44,233,", "\n14,45,233,");
    assert_ne!(csv, edited);
    std::fs::write(&path, edited).unwrap();
    let summary = dir.join("r/summary.csv");
    let rows = std::fs::read_to_string(&summary).unwrap();
    // The first such row is 2x3's (3x2, the same figures, sorts after it).
    let edited = rows.replacen(
        ",4544,12.622222,568/45,13,44,14",
        ",4545,12.625,101/8,13,45,14",
        1,
    );
    assert_ne!(rows, edited);
    std::fs::write(&summary, edited).unwrap();
    let o = tilespace(&["check", "--results", "r", "--json"], dir);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let j = json(&stdout(&o));
    assert_eq!(j["agree"], false);
    let wrong: Vec<&serde_json::Value> = j["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["agrees"] == false)
        .collect();
    // The OEIS sequence and Tarakanov's distribution both find it.
    assert_eq!(wrong.len(), 2, "{j}");
    for w in wrong {
        assert_eq!(w["board"], "2x3");
        assert_eq!(w["detail"], "depth 13: 39 published, 38 here");
    }
}

/// A clone stays clean whatever the README's tour runs: every command that writes by default
/// (analyze, atlas, theorem, plot, bench, plan --calibrate; the tour saves its table and
/// databases there too) writes under `results/`, which
/// `.gitignore` ignores and where no committed file lies (they are in docs/results/), so no
/// run of a user's rewrites the published figures.
#[test]
fn the_tour_writes_only_where_nothing_is_committed() {
    let tmp = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 7] = [
        &["analyze", "2x3", "--save-table", "results/2x3.tst", "-q"],
        &["analyze", "2x3", "--metric", "multi", "-q"],
        &["theorem", "2x2"],
        &["atlas", "2x2", "-q"],
        &["plot", "--log"],
        &[
            "bench",
            "--boards",
            "2x3",
            "--runs",
            "1",
            "--threads",
            "1",
            "-q",
        ],
        &[
            "plan",
            "2x3",
            "--ranks",
            "2",
            "--samples",
            "100",
            "--calibrate",
            "--calibration-board",
            "2x5",
        ],
    ];
    for args in runs {
        let o = tilespace(args, tmp.path());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    let mut written = vec![];
    let mut todo = vec![tmp.path().to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                written.push(p.strip_prefix(tmp.path()).unwrap().to_path_buf());
            }
        }
    }
    for f in [
        "results/bench.csv",
        "results/calibration.csv",
        "results/plots/overlay.svg",
    ] {
        assert!(written.iter().any(|w| w == Path::new(f)), "{f} not written");
    }
    let astray: Vec<_> = written
        .iter()
        .filter(|w| !w.starts_with("results"))
        .collect();
    assert!(astray.is_empty(), "written outside results/: {astray:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ignored = std::fs::read_to_string(root.join(".gitignore")).unwrap();
    assert!(ignored.lines().any(|l| l == "/results/"), "{ignored}");
    // Where this is a git checkout (CI's clean clone), nothing under results/ is tracked.
    let tracked = Command::new("git")
        .args(["ls-files", "--", "results"])
        .current_dir(root)
        .output();
    if let Some(o) = tracked.ok().filter(|o| o.status.success()) {
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    assert!(root.join("docs/results/summary.csv").is_file());
}

/// `table` shows each board's single-tile run before its multi-tile one, whatever order the
/// runs were made in (the summary keeps them alphabetically, "multi" first).
#[test]
fn tables_show_single_tile_before_multi_tile() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (board, metric) in [
        ("2x3", "multi"),
        ("2x2", "multi"),
        ("2x2", "single"),
        ("2x3", "single"),
    ] {
        let o = tilespace(
            &["analyze", board, "--metric", metric, "-q", "--results", "r"],
            dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let j = json(&stdout(&tilespace(
        &["table", "--results", "r", "--json"],
        dir,
    )));
    let order: Vec<(String, String)> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["board"].as_str().unwrap().into(),
                r["metric"].as_str().unwrap().into(),
            )
        })
        .collect();
    let pairs: Vec<(&str, &str)> = order
        .iter()
        .map(|(b, m)| (b.as_str(), m.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("2x2", "single"),
            ("2x2", "multi"),
            ("2x3", "single"),
            ("2x3", "multi")
        ]
    );
}

/// Charts ready for a paper: the title's mean to two decimals, the overlay's y axis ending just
/// above the highest share drawn (it ran to 0.3 for curves peaking at 0.17), and no overlay of
/// a single run (it would be the board's own chart again).
#[test]
fn plots_have_paper_ready_defaults() {
    let tmp = tempfile::tempdir().unwrap();
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let plot = |reports: &str, out: &str| {
        let o = tilespace(
            &[
                "plot",
                "--results",
                results.to_str().unwrap(),
                "--charts",
                out,
                "--reports",
                reports,
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    plot("3x3,2x4", "two");
    let (_, texts) = svg_lines_and_texts(&tmp.path().join("two/3x3.svg"));
    // 249167/11340 = 21.9726…
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with("mean 249167/11340 ≈ 21.97")),
        "{texts:?}"
    );
    // The highest share of any depth: its layer's states over the board's, from depths.csv.
    let peak = ["3x3", "2x4"]
        .iter()
        .map(|run| {
            let (_, rows) = read_csv(&results.join(run).join("depths.csv"));
            let states: Vec<f64> = rows.iter().map(|r| r["states"].parse().unwrap()).collect();
            states.iter().fold(0f64, |a, &b| a.max(b)) / states.iter().sum::<f64>()
        })
        .fold(0f64, f64::max);
    let (_, texts) = svg_lines_and_texts(&tmp.path().join("two/overlay.svg"));
    // The y axis's ticks: shares to three decimals (the x axis's have one).
    let ticks: Vec<f64> = texts
        .iter()
        .filter(|t| t.split('.').nth(1).is_some_and(|d| d.len() == 3))
        .filter_map(|t| t.parse::<f64>().ok())
        .collect();
    let top = ticks.iter().fold(0f64, |a, &b| a.max(b));
    assert!(
        top >= peak * 0.8 && top <= peak * 1.1,
        "ticks to {top}, peak {peak}: {texts:?}"
    );
    let o = plot("3x3", "one");
    assert!(!tmp.path().join("one/overlay.svg").exists());
    assert!(stderr(&o).contains("no overlay"), "{}", stderr(&o));
}
