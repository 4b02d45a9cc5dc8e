//! `plan`'s projections stay within what can be: the layer count does not wrap, the
//! rates and thread counts a projection takes are bounded, and the calibration measures a scan
//! rate a memory can give.

use crate::common::{stderr, stdout, tilespace};

/// `plan 3x5 --disk` at `layers`, projected from a calibration of 10^9 words and 3 x 10^7
/// states a second a thread (written here, not measured): passes and seconds.
fn projected(dir: &std::path::Path, layers: &str) -> Result<(u64, f64), String> {
    let args = [
        "plan",
        "3x5",
        "--disk",
        "--max-memory",
        "64G",
        "--samples",
        "1000",
        "--json",
        "--calibration",
        "cal.csv",
        "--layers",
        layers,
    ];
    let o = tilespace(&args, dir);
    if !o.status.success() {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        return Err(stderr(&o));
    }
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let p = &doc["disk_plans"][0]["projection"];
    Ok((
        p["passes"].as_u64().unwrap(),
        p["seconds"].as_f64().unwrap(),
    ))
}

/// A pass a layer and one to list the last: the passes and the time grow with the layers, up
/// to the largest count taken; a count past it (or none) is refused, where 2^32-1 layers had
/// wrapped to "0 passes" and a shorter projection.
#[test]
fn more_layers_take_more_passes_and_never_wrap() {
    let tmp = tempfile::tempdir().unwrap();
    let cal = "board,threads,words_per_second,states_per_second\n2x6,2,1e9,3e7\n";
    std::fs::write(tmp.path().join("cal.csv"), cal).unwrap();
    let mut last = (0, 0.0);
    for layers in [1u64, 85, 10_000] {
        let (passes, seconds) = projected(tmp.path(), &layers.to_string()).unwrap();
        assert_eq!(passes, layers + 1);
        assert!(seconds > last.1, "{layers} layers: {seconds} s");
        last = (passes, seconds);
    }
    for layers in ["0", "10001", "4294967295", "4294967296"] {
        let err = projected(tmp.path(), layers).unwrap_err();
        assert!(err.contains("--layers"), "{layers}: {err}");
    }
}

/// Rates a projection of a disk or a network cannot be, and more threads than any machine
/// runs, are refused with the bounds, in one line.
#[test]
fn rates_and_threads_past_any_machine_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let disk = [
        "plan",
        "3x4",
        "--disk",
        "--max-memory",
        "1G",
        "--samples",
        "100",
    ];
    let ranks = ["plan", "3x4", "--ranks", "4", "--samples", "100"];
    let cases: [(&[&str], &str, &str); 7] = [
        (&disk, "--disk-gbps", "1e-300"),
        (&disk, "--disk-gbps", "1e308"),
        (&disk, "--disk-gbps", "0.0001"),
        (&ranks, "--network-gbits", "1e-300"),
        (&ranks, "--network-gbits", "1e308"),
        (&disk, "--threads", "18446744073709551615"),
        (&ranks, "--threads-per-rank", "65537"),
    ];
    for (base, option, value) in cases {
        let mut args = base.to_vec();
        args.extend([option, value]);
        let o = tilespace(&args, tmp.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("is not in 1..=65536") || err.contains("from"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    for (option, value) in [("--disk-gbps", "0.001"), ("--threads", "65536")] {
        let mut args = disk.to_vec();
        args.extend([option, value]);
        let o = tilespace(&args, tmp.path());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

/// `plan --calibrate` times a scan of a table larger than the caches: no thread reads memory
/// at 64 GB/s (8 x 10^9 words), where the layers it had timed (lists, never scans) gave 10^11.
#[test]
fn the_calibrated_scan_rate_is_one_memory_can_give() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "plan",
            "3x4",
            "--ranks",
            "4",
            "--samples",
            "100",
            "--calibrate",
            "--calibration",
            "cal.csv",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, rows) = crate::common::read_csv(&tmp.path().join("cal.csv"));
    let words: f64 = rows[0]["words_per_second"].parse().unwrap();
    let states: f64 = rows[0]["states_per_second"].parse().unwrap();
    assert!(
        words > 1e6 && words < 8e9,
        "{words} words a second a thread"
    );
    assert!(
        states > 1e5 && states < 1e10,
        "{states} states a second a thread"
    );
}
