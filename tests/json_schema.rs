//! The JSON documents' schemas are stable: every `--json` output's key paths and value types,
//! in order, are an insta snapshot a command (`tests/snapshots/`). A change of a key, of its
//! type or of the order fails with a diff; after a deliberate change, `cargo insta test
//! --profile ci -- json_schema` and `cargo insta review` (or `INSTA_UPDATE=always`) rewrite
//! them, and the diff goes into the commit (and the CHANGELOG).

use crate::common::{stderr, stdout, tilespace};

/// Fields a machine may not report (no /proc, no NUMA folder, no cpufreq, no spare gigabyte
/// for the random-read rate, runs too short for a clock tick), and bench's warnings (none on a
/// quiet machine): their type is written as "optional", whichever they are here.
const OPTIONAL: [&str; 12] = [
    ".busy_cores_before",
    ".busy_cores_during",
    ".machine.cpu_mhz",
    ".machine.cpu_max_mhz",
    ".random_reads_before",
    ".random_reads_after",
    ".warnings",
    ".machine.physical_cores",
    ".machine.numa_nodes",
    ".machine.memory_bytes",
    ".load_before",
    ".load_after",
];

/// `path: type` lines of `v`; arrays contribute the union of their elements' lines, once.
fn schema(v: &serde_json::Value, path: &str, out: &mut Vec<String>) {
    use serde_json::Value;
    if OPTIONAL.contains(&path) {
        out.push(format!("{path}: optional"));
        return;
    }
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let line = format!("{path}: {kind}");
    if !out.contains(&line) {
        out.push(line);
    }
    match v {
        Value::Array(items) => {
            for item in items {
                schema(item, &format!("{path}[]"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                schema(item, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// The commands whose documents are checked, `BOARD` standing for a 3x3 board and `SWAPPED`
/// for the goal with two tiles swapped.
const COMMANDS: [&str; 35] = [
    "analyze 2x3 -q --results r --json",
    "count 3x3 --json",
    "count --graph cycle:6 --goal 1,2,1,2,0,0 --json",
    "solvable 2,1,0,0,1,2 --graph cycle:6 --goal 1,2,1,2,0,0 --json",
    "solvable BOARD --json",
    "distance BOARD --table t.tst --json",
    "solve BOARD --table t.tst --json",
    "solve SWAPPED --json",
    "table --results r --json",
    "table --results r --distribution --json",
    "theorem 2x2 -q --results r --json",
    "theorem --graph theta0 -q --results r --json",
    "theorem --graph6 g.g6 -q --results r --json",
    "analyze --graph theta0 -q --results r --json",
    "atlas --graph path:5 -q --results r --json",
    "table --results r --theorem --json",
    "check --results r --json",
    "random 3x3 --seed 1 --count 2 --json",
    "random --graph cycle:6 --goal 1,2,1,2,0,0 --seed 1 --count 2 --json",
    "antipodes 2x3 -q --results r --json",
    "atlas 2x3 -q --results r --json",
    "table --results r --atlas --json",
    "table --results r --atlas --cells --json",
    "plan 3x4 --ranks 2 --json",
    "plan 3x4 --disk --max-memory 16M --samples 1000 --calibrate --calibration-board 2x3 \
     --calibration cal.csv --json",
    "bench --boards 2x2 --threads 1 --runs 1 -q --results b --json",
    "analyze --gong-figures -q --results s --json",
    "pdb 3x3 --partition 4-4 --pdb p -q --json",
    "pdb 3x3 --pdb p --verify --json",
    "solve BOARD --pdb p --json",
    "distance BOARD --pdb p --json",
    "sample 3x3 --pdb p --count 5 --seed 1 -q --json",
    "analyze --graph cycle:6 --goal 1,1,2,2,0,0 --save-table c.tst -q --results r --json",
    "distance 1,2,1,2,0,0 0,0,1,1,2,2 --table c.tst --json",
    "solve 0,0,1,1,2,2 --table c.tst --json",
];

/// An insta snapshot's name for `command`: its words joined by `-` (and `-` for what a file
/// name should not hold), without the options every command here shares.
fn snapshot_name(command: &str) -> String {
    let shared = ["-q", "--results", "r", "s", "b", "--json"];
    command
        .split_whitespace()
        .filter(|w| !shared.contains(w))
        .map(|w| w.trim_start_matches('-'))
        .collect::<Vec<_>>()
        .join("-")
        .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "-")
}

#[test]
fn json_schemas_are_stable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let board = "8 6 7/2 5 4/3 0 1";
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "-q",
            "--results",
            "r",
            "--save-table",
            "t.tst",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // The 5-cycle and a path on 5 vertices (`nauty-listg -e`).
    std::fs::write(dir.join("g.g6"), "Dhc\nDQc\n").unwrap();
    for command in COMMANDS {
        let args: Vec<&str> = command
            .split_whitespace()
            .map(|w| match w {
                "BOARD" => board,
                "SWAPPED" => "1 2 3/4 5 6/8 7 0",
                w => w,
            })
            .collect();
        let o = tilespace(&args, dir);
        let out = stdout(&o);
        let v: serde_json::Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}{}", stderr(&o)));
        let mut lines = vec![];
        schema(&v, "", &mut lines);
        insta::with_settings!({ description => format!("tilespace {command}"), omit_expression => true }, {
            insta::assert_snapshot!(snapshot_name(command), lines.join("\n"));
        });
    }
}
