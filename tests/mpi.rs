//! The distributed engine under a real MPI launcher (`cargo test --features mpi --test tests mpi::`;
//! `.ci/run` installs OpenMPI and MPICH and runs it against each: `TILESPACE_MPIRUN` names the
//! launcher, `mpirun` by default, `mpirun.mpich` for Debian's MPICH): `mpirun -np P tilespace analyze ...` on 1 to 4 ranks,
//! oversubscribed on a small machine, writes exactly the reports one process writes.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{read_csv, stderr, tilespace};

/// The launcher the tests run (`TILESPACE_MPIRUN`, else `mpirun`), and whether it is
/// OpenMPI's (which needs leave to put more ranks than cores on a machine).
fn launcher() -> (String, bool) {
    let name = std::env::var("TILESPACE_MPIRUN").unwrap_or_else(|_| "mpirun".into());
    let version = Command::new(&name)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("{name} runs (install openmpi-bin or mpich): {e}"));
    let openmpi = String::from_utf8_lossy(&version.stdout).contains("Open MPI");
    (name, openmpi)
}

/// `mpirun -np ranks tilespace args...` in `dir`.
fn mpirun_command(ranks: usize, args: &[&str], dir: &Path) -> Command {
    let (name, openmpi) = launcher();
    let mut c = Command::new(name);
    if openmpi {
        c.args(["--oversubscribe", "--bind-to", "none"]);
    }
    c.arg("-np")
        .arg(ranks.to_string())
        .arg(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        // OpenMPI refuses to run as root without these (CI and this machine run as root).
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c
}

fn mpirun(ranks: usize, args: &[&str], dir: &Path) -> Output {
    mpirun_command(ranks, args, dir)
        .output()
        .expect("the MPI launcher runs")
}

/// The summary's rows without the columns that depend on the run (time, rate, threads).
fn summary(dir: &Path) -> Vec<Vec<(String, String)>> {
    let (_, rows) = read_csv(&dir.join("summary.csv"));
    rows.into_iter()
        .map(|r| {
            let mut kept: Vec<(String, String)> = r
                .into_iter()
                .filter(|(k, _)| !["seconds", "states_per_second", "threads"].contains(&k.as_str()))
                .collect();
            kept.sort();
            kept
        })
        .collect()
}

/// Every report under `one` (one process) equals the same report under `many` (ranks): depths
/// and antipodes byte for byte, the summary but for its timing columns.
fn same_reports(one: &Path, many: &Path, what: &str) {
    assert_eq!(summary(one), summary(many), "{what}: summary.csv");
    let mut compared = 0;
    for entry in std::fs::read_dir(one).unwrap() {
        let board = entry.unwrap().path();
        if !board.is_dir() {
            continue;
        }
        for file in ["depths.csv", "antipodes.csv"] {
            let name = board.file_name().unwrap();
            let a = std::fs::read(board.join(file)).unwrap();
            let b = std::fs::read(many.join(name).join(file))
                .unwrap_or_else(|e| panic!("{what}: {name:?}/{file}: {e}"));
            assert_eq!(a, b, "{what}: {name:?}/{file}");
            compared += 1;
        }
    }
    assert!(compared > 0, "{what}: no reports compared");
}

/// Whether `ranks` ranks here spin on cores they do not have: MPICH's blocking calls poll
/// without yielding, so with more ranks than cores each collective waits for a time slice
/// (3x3 on 3 ranks 1.5 s, against 0.05 s on 2; docs/log/2026-11-28-multi.md). Such runs take
/// the boards up to 8 cells (`SMALL`), where they still leave shards empty or without
/// frontier; OpenMPI, which yields when oversubscribed, takes every board on every number of
/// ranks, and `twelve_cells_on_3_and_4_ranks…` 3x4 on 3 and 4 ranks under both.
fn spinning(ranks: usize) -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    !launcher().1 && ranks > cores
}

/// The boards of up to 8 cells.
const SMALL: [&str; 5] = ["2x2", "2x3", "3x2", "2x4", "4x2"];

/// `args` in `dir`, in one process (`None`) or on `ranks` ranks; it must succeed.
fn ran(ranks: Option<usize>, args: &[&str], dir: &Path) {
    let o = match ranks {
        None => tilespace(args, dir),
        Some(n) => mpirun(n, args, dir),
    };
    assert!(
        o.status.success(),
        "{ranks:?} ranks, {args:?}: {}",
        stderr(&o)
    );
}

/// `run(FOLDER, RANKS, BOARDS)` (the boards' analyses into `dir/FOLDER`, in one process or on
/// ranks) on 1 to 4 ranks, each equal to one process's reports of the same boards: every
/// board of `all`, or `SMALL` where the ranks spin (`spinning`).
fn on_1_to_4_ranks(
    dir: &Path,
    all: &[&str],
    what: &str,
    run: impl Fn(&str, Option<usize>, &[&str]),
) {
    run("one", None, all);
    run("one-small", None, &SMALL);
    for ranks in 1..=4 {
        let (boards, one) = match spinning(ranks) {
            true => (&SMALL[..], "one-small"),
            false => (all, "one"),
        };
        let many = format!("ranks-{ranks}");
        run(&many, Some(ranks), boards);
        same_reports(
            &dir.join(one),
            &dir.join(&many),
            &format!("{what}{ranks} ranks"),
        );
    }
}

/// Every board up to 9 cells with three goal blanks, from the goal and from the other class, and
/// 2x5: 1, 2, 3 and 4 ranks (3 never divides the index evenly; 2x2 on 3 and 4 ranks leaves
/// shards empty, and small boards leave shards without frontier in most layers); the boards
/// up to 8 cells only where the ranks spin (`spinning`).
#[test]
fn every_board_up_to_9_cells_and_2x5_equal_one_process_on_1_to_4_ranks() {
    let tmp = tempfile::tempdir().unwrap();
    let all = ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5"];
    // The goal with its first two tiles swapped: the other class.
    let others = [
        ("2x2", "2 1/3 0"),
        ("2x3", "2 1 3/4 5 0"),
        ("3x3", "2 1 3/4 5 6/7 8 0"),
        ("4x2", "0 1/3 2/4 5/6 7"),
    ];
    // The boards' analyses into `dir`, in one process or on `ranks`.
    let run = |dir: &str, ranks: Option<usize>, boards: &[&str]| {
        let mut args = vec!["analyze"];
        args.extend(boards);
        args.extend(["--blank", "last", "--blank", "first", "--blank", "center"]);
        args.extend(["-q", "--results", dir]);
        let mut runs = vec![args];
        for (board, from) in others.iter().filter(|(b, _)| boards.contains(b)) {
            runs.push(vec![
                "analyze",
                board,
                "--from",
                from,
                "--results",
                dir,
                "-q",
            ]);
        }
        for args in runs {
            ran(ranks, &args, tmp.path());
        }
    };
    on_1_to_4_ranks(tmp.path(), &all, "", run);
}

/// 3x4 (239,500,800 states) on 3 and 4 ranks equals the committed reports of one process.
#[test]
fn twelve_cells_on_3_and_4_ranks_equal_the_committed_reports() {
    let tmp = tempfile::tempdir().unwrap();
    for ranks in [3, 4] {
        let out = tmp.path().join(format!("r{ranks}"));
        let o = mpirun(
            ranks,
            &[
                "analyze",
                "3x4",
                "-q",
                "--results",
                &out.display().to_string(),
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        same_as_committed(&out, "3x4", &format!("{ranks} ranks"));
    }
}

/// `--save-table` across 3 ranks writes (on rank 0) the very file one process writes, and
/// `distance` answers from it.
#[test]
fn a_table_saved_across_ranks_is_the_one_process_table() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "--save-table",
            "one.tst",
            "-q",
            "--results",
            "a",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = mpirun(
        3,
        &[
            "analyze",
            "3x3",
            "--save-table",
            "many.tst",
            "-q",
            "--results",
            "b",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (one, many) = (tmp.path().join("one.tst"), tmp.path().join("many.tst"));
    assert!(std::fs::read(one).unwrap() == std::fs::read(many).unwrap());
    // An antipode of 3x3 is 31 moves away (Reinefeld 1993: the 8-puzzle's radius is 31).
    let o = tilespace(
        &["distance", "8 6 7/2 5 4/3 0 1", "--table", "many.tst"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "8 6 7/2 5 4/3 0 1: 31"
    );
}

/// Only rank 0 speaks: one summary on stdout, and a refusal is one line, not one per rank. The
/// memory guard works per rank and names how many ranks would do; other commands are refused.
#[test]
fn one_voice_per_job_and_the_guard_counts_ranks() {
    let tmp = tempfile::tempdir().unwrap();
    let o = mpirun(3, &["analyze", "2x3", "--results", "r"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        text.matches("360 states = 6!/2, verified").count(),
        1,
        "{text}"
    );
    let o = mpirun(
        3,
        &["analyze", "2x3", "--json", "--results", "r"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    assert_eq!(doc["analyses"][0]["states"], 360);
    let o = mpirun(
        2,
        &["analyze", "--gong-figures", "-q", "--results", "r"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.matches("Gong's").count(), 1, "one seed table: {text}");

    // 2x7 has 14!/2 states, 10,897,286,400 bytes at 2 bits. A rank of 1 GB keeps 3 · 8 · 2^23
    // bytes of exchange buffers, two recorded lists of at most 2^24 indices of 8 bytes (2x7's
    // 1,362,160,800 words over 32 allow more) and 64 MB of working memory, which leaves
    // 466,237,952 bytes of table: 23.4 ranks' worth, so 24 ranks.
    let o = mpirun(
        2,
        &["analyze", "2x7", "--max-memory", "1G", "-q"],
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("on each of 2 ranks"), "{err}");
    let room = 1_000_000_000u64 - 64_000_000 - 2 * 8 * (1 << 24) - 3 * 8 * (1 << 23);
    let ranks = 10_897_286_400u64.div_ceil(room);
    assert_eq!(ranks, 24);
    assert!(
        err.contains(&format!("it needs at least {ranks} such ranks")),
        "{err}"
    );
    assert_eq!(err.matches("tilespace: error").count(), 1, "{err}");
    assert!(!err.contains("tilespace: rank 1"), "one voice: {err}");

    let o = mpirun(2, &["count", "4x4"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("only `analyze` runs across MPI ranks"));
}

/// The ranks of a job: processes whose command line starts with the binary and names `marker`
/// (not the launcher, whose arguments name them too).
fn rank_pids(marker: &Path) -> Vec<u32> {
    let mut pids = vec![];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.starts_with(env!("CARGO_BIN_EXE_tilespace"))
            && cmd.contains(&*marker.to_string_lossy())
        {
            pids.push(pid);
        }
    }
    pids
}

/// How long a job may take to end once a rank is killed. OpenMPI ends it in about 1 s here
/// (SIGTERM, then SIGKILL a second later) and MPICH at once. The bound is wide because this
/// VM's host stalls: it once held a run of about 5 s for 142 s (log of 2026-11-28). It still
/// tells a job that ends from one that waits forever.
const END_AFTER_A_KILL: Duration = Duration::from_secs(180);

/// A thread reading all of `pipe`, so that a launcher writing more than a pipe holds never
/// blocks on it.
fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

/// What `ps` says of the processes whose command line names `marker`: their state and where
/// they wait, for the message of a job that did not end.
fn processes_naming(marker: &Path) -> String {
    let ps = Command::new("ps")
        .args(["-eo", "pid,ppid,stat,wchan:24,etime,args"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let marker = marker.to_string_lossy();
    ps.lines()
        .filter(|l| l.contains(&*marker))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Starts `mpirun -np 2 tilespace args... --results marker`, waits until `ready()`, SIGKILLs one
/// rank, and checks that the whole job ends with an error within `END_AFTER_A_KILL`, the
/// launcher saying why.
fn kill_a_rank(tmp: &Path, marker: &Path, args: &[&str], ready: impl Fn() -> bool) {
    kill_a_held_rank(tmp, marker, args, None, ready)
}

/// `kill_a_rank`, the ranks held at a layer (`TILESPACE_TEST_HOLD=HOLD`) if `hold` is given.
fn kill_a_held_rank(
    tmp: &Path,
    marker: &Path,
    args: &[&str],
    hold: Option<String>,
    ready: impl Fn() -> bool,
) {
    let mut launch = mpirun_command(2, args, tmp);
    if let Some(hold) = hold {
        launch.env("TILESPACE_TEST_HOLD", hold);
    }
    let mut child = launch
        .arg("--results")
        .arg(marker)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let clock = Instant::now();
    let mut found = vec![];
    while (found.len() < 2 || !ready()) && clock.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
        found = rank_pids(marker);
    }
    assert_eq!(found.len(), 2, "both ranks started: {found:?}");
    assert!(ready(), "the job got where it should be killed");
    let killed = Instant::now();
    Command::new("kill")
        .args(["-KILL", &found[1].to_string()])
        .status()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if killed.elapsed() > END_AFTER_A_KILL {
            let left = processes_naming(marker);
            let _ = child.kill();
            for pid in rank_pids(marker) {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            panic!(
                "the job still runs {END_AFTER_A_KILL:?} after rank pid {} died; its processes:\n\
                 {left}\nthe launcher's stderr:\n{}\nits stdout:\n{}",
                found[1],
                err.join().unwrap(),
                out.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(!status.success(), "the job must fail");
    // OpenMPI's launcher says what happened on stderr, MPICH's on stdout.
    let said = err.join().unwrap() + &out.join().unwrap();
    assert!(!said.is_empty(), "the launcher says what happened");
    assert!(!marker.join("3x4").exists(), "no report from a failed job");
}

/// A rank killed mid-run ends the whole job with an error within seconds; nothing waits forever.
#[test]
fn a_killed_rank_stops_the_job() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("killed-rank-run");
    // Into the search, on any machine however fast: the ranks hold after layer 8
    // (`TILESPACE_TEST_HOLD`), the table allocated and the first layers done. The launcher's
    // SIGTERM to the survivor then ends its hold, and it meets the dead rank in the next
    // layer's collectives.
    let held = tmp.path().join("held");
    let hold = format!("8:{}", held.display());
    let ready = || held.exists();
    kill_a_held_rank(
        tmp.path(),
        &marker,
        &["analyze", "3x4", "-q"],
        Some(hold),
        ready,
    );
}

/// The depth a checkpoint's manifest names (its u32 at byte 32), 0 while there is none.
fn manifest_depth(manifest: &Path) -> u32 {
    std::fs::read(manifest)
        .ok()
        .filter(|b| b.len() >= 36)
        .map_or(0, |b| u32::from_le_bytes(b[32..36].try_into().unwrap()))
}

/// A run checkpointing every layer on 2 ranks, with a rank killed after its first checkpoints,
/// resumes on 3 ranks and writes the committed reports; a damaged shard is refused first, the
/// rank that read it naming it; the checkpoint is gone once the reports are written.
#[test]
fn a_killed_checkpointed_run_resumes_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("resumed-run");
    let ck = tmp.path().join("ck");
    let ck_arg = ck.display().to_string();
    let manifest = ck.join("manifest.tsm");
    // Killed once the manifest names depth 12 or more (one checkpoint is saved at every layer;
    // the depth is the manifest's u32 at byte 32).
    let saved_depth = || manifest_depth(&manifest);
    let ready = || saved_depth() >= 12;
    let args = [
        "analyze",
        "3x4",
        "-q",
        "--checkpoint",
        &ck_arg,
        "--checkpoint-every",
        "0",
    ];
    kill_a_rank(tmp.path(), &out, &args, ready);
    assert!(manifest.exists(), "a checkpoint survives the killed job");

    let out_arg = out.display().to_string();
    let resume = [
        "analyze",
        "3x4",
        "-q",
        "--resume",
        &ck_arg,
        "--results",
        &out_arg,
    ];
    // Shard 1 damaged: rank 1 of 3, which reads it, names the file and what is wrong (rank 0
    // only said another rank failed), and the shard is left as it was.
    let shard = ck.join(format!("shard-1-of-2-depth-{}.tss", saved_depth()));
    let good = std::fs::read(&shard).unwrap();
    let mut damaged = good.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(&shard, &damaged).unwrap();
    let o = mpirun(3, &resume, tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.lines().any(
            |l| l.starts_with("tilespace: rank 1: error:") && l.contains("shard-1-of-2-depth-")
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&shard).unwrap(),
        damaged,
        "the shard is left as it was"
    );
    std::fs::write(&shard, &good).unwrap();

    let o = mpirun_command(3, &resume, tmp.path())
        .env("TILESPACE_TRACE", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // It went on from the checkpoint: the first layer it built is past the first few, and only
    // rank 0 traced.
    let err = stderr(&o);
    let depths: Vec<u32> = err
        .lines()
        .filter_map(|l| l.strip_prefix("trace depth "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(depths[0] > 12, "resumed at depth {}", depths[0]);
    assert!(
        depths.windows(2).all(|w| w[1] == w[0] + 1),
        "one trace per layer: {depths:?}"
    );
    same_as_committed(&out, "3x4", "resumed on 3 ranks");
    // Every file of the 2 ranks' checkpoint and of the 3 ranks' saves is gone.
    assert!(
        left_in(&ck).is_empty(),
        "checkpoint files left: {:?}",
        left_in(&ck)
    );
}

/// The multi-tile metric on ranks: every board up to 9 cells with three goal blanks, 3x3 from
/// the other class, on 1 to 4 ranks (the boards up to 8 cells where the ranks spin:
/// `spinning`), equal to one process's reports (which `tests/metric.rs` and the `bfs::local`
/// tests hold to a plain BFS and to the published distributions).
#[test]
fn multi_tile_boards_up_to_9_cells_equal_one_process_on_1_to_4_ranks() {
    let tmp = tempfile::tempdir().unwrap();
    let all = ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"];
    let run = |dir: &str, ranks: Option<usize>, boards: &[&str]| {
        let mut args = vec!["analyze"];
        args.extend(boards);
        args.extend(["--blank", "last", "--blank", "first", "--blank", "center"]);
        args.extend(["--metric", "multi", "-q", "--results", dir]);
        let mut runs = vec![args];
        if boards.contains(&"3x3") {
            runs.push(vec![
                "analyze",
                "3x3",
                "--from",
                "2 1 3/4 5 6/7 8 0",
                "--metric",
                "multi",
                "-q",
                "--results",
                dir,
            ]);
        }
        for args in runs {
            ran(ranks, &args, tmp.path());
        }
    };
    on_1_to_4_ranks(tmp.path(), &all, "multi-tile, ", run);
}

/// A multi-tile 3x4 run on 2 ranks checkpointing every layer, a rank killed past depth 12,
/// resumes and writes the committed multi-tile reports; the shards record the metric, so the
/// same checkpoint resumed in the single-tile metric is refused with the reason.
#[test]
fn a_killed_multi_tile_run_resumes_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("resumed-multi-run");
    let ck = tmp.path().join("ck");
    let ck_arg = ck.display().to_string();
    let manifest = ck.join("manifest.tsm");
    let saved_depth = || manifest_depth(&manifest);
    let args = [
        "analyze",
        "3x4",
        "--metric",
        "multi",
        "-q",
        "--checkpoint",
        &ck_arg,
        "--checkpoint-every",
        "0",
    ];
    kill_a_rank(tmp.path(), &out, &args, || saved_depth() >= 12);
    let out_arg = out.display().to_string();
    let single = [
        "analyze",
        "3x4",
        "-q",
        "--resume",
        &ck_arg,
        "--results",
        &out_arg,
    ];
    let o = mpirun(2, &single, tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("it is a search in the multi-tile metric, not the single-tile one"),
        "{}",
        stderr(&o)
    );
    let resume = [
        "analyze",
        "3x4",
        "--metric",
        "multi",
        "-q",
        "--resume",
        &ck_arg,
        "--results",
        &out_arg,
    ];
    let o = mpirun(2, &resume, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    same_as_committed(&out, "3x4-multi", "multi-tile, resumed");
}

/// A stop signal mid-search, sent to the launcher (which forwards SIGUSR1 to every rank, as
/// Slurm's `--signal` does) or to one rank alone (SIGTERM): every rank saves its shard at the
/// end of the layer, the job exits 75 with one line from rank 0 naming the command that goes
/// on, and that command writes the committed reports.
#[test]
fn a_stop_signal_saves_and_the_job_goes_on_identically() {
    for (signal, to_launcher) in [("-USR1", true), ("-TERM", false)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join(format!("signalled{signal}"));
        let ck = tmp.path().join("ck");
        let (ck_arg, out_arg) = (ck.display().to_string(), out.display().to_string());
        let manifest = ck.join("manifest.tsm");
        let args = checkpointing_3x4(&ck_arg, &out_arg);
        let child = mpirun_command(2, &args, tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let clock = Instant::now();
        while manifest_depth(&manifest) < 8 && clock.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            manifest_depth(&manifest) >= 8,
            "the job saved its first layers"
        );
        let target = if to_launcher {
            child.id()
        } else {
            rank_pids(&out)[1]
        };
        Command::new("kill")
            .args([signal, &target.to_string()])
            .status()
            .unwrap();
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        // Every rank exits 75. MPICH's launcher (hydra 4.0) passes that on, except after it
        // forwarded a signal itself: it then records 0 for most ranks it reaps, and its status
        // is 75 or 0 (0 in 6 of 35 runs here; docs/GUIDE.md says so). OpenMPI's always passes
        // 75 on, and so does hydra for a signal sent to a rank.
        let hydra_forwarded = to_launcher && !launcher().1;
        let passed_on =
            o.status.code() == Some(75) || hydra_forwarded && o.status.code() == Some(0);
        assert!(passed_on, "{signal}: {:?}: {err}", o.status);
        // Rank 0 alone speaks: that it is stopping if the signal reached it, then how to go on.
        let ours: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("tilespace:"))
            .collect();
        let stopping = usize::from(to_launcher);
        assert_eq!(ours.len(), stopping + 1, "{signal}: {err}");
        if to_launcher {
            assert!(ours[0].contains("stopping: saving a checkpoint"), "{err}");
        }
        let go_on = format!("tilespace analyze 3x4 --resume {ck_arg}");
        assert!(ours[stopping].contains(&go_on), "{signal}: {err}");
        let depth = manifest_depth(&manifest);
        assert!(
            (8..53).contains(&depth),
            "{signal}: stopped mid-search at {depth}"
        );
        assert!(
            !out.join("3x4").exists(),
            "{signal}: no report before the end"
        );

        // It goes on anywhere: on the ranks that saved it, on others, in one process (each
        // from a copy: a finished run removes its checkpoint).
        let goes_on: &[Option<usize>] = if to_launcher {
            &[Some(3), None]
        } else {
            &[Some(2), Some(4)]
        };
        for &ranks in goes_on {
            let copy = tmp.path().join(format!("ck-{ranks:?}"));
            copy_checkpoint(&ck, &copy);
            let out = tmp.path().join(format!("out-{ranks:?}"));
            let (ck_arg, out_arg) = (copy.display().to_string(), out.display().to_string());
            let resume = [
                "analyze",
                "3x4",
                "-q",
                "--resume",
                &ck_arg,
                "--results",
                &out_arg,
            ];
            let o = match ranks {
                Some(n) => mpirun(n, &resume, tmp.path()),
                None => tilespace(&resume, tmp.path()),
            };
            let what = format!("{signal}, resumed on {ranks:?}");
            assert!(o.status.success(), "{what}: {}", stderr(&o));
            same_as_committed(&out, "3x4", &what);
            assert!(left_in(&copy).is_empty(), "{what}: {:?}", left_in(&copy));
        }
    }
}

/// A 3x4 analysis on one thread a process, saving a checkpoint in `ck` at every layer, its
/// reports in `out`.
fn checkpointing_3x4<'a>(ck: &'a str, out: &'a str) -> [&'a str; 11] {
    [
        "analyze",
        "3x4",
        "-q",
        "--threads",
        "1",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0",
        "--results",
        out,
    ]
}

/// Copies the checkpoint files of `from` (not its lock) into a new directory `to`.
fn copy_checkpoint(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for name in left_in(from) {
        std::fs::copy(from.join(&name), to.join(&name)).unwrap();
    }
}

/// The files of a checkpoint directory but its lock (which stays, empty: removing it could let
/// two runs hold the directory at once).
fn left_in(dir: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|name| name != ".checkpoint.lock")
        .collect()
}

/// The reports of `board` (a report folder: `3x4`, `3x4-multi`) under `out` are the committed
/// ones.
fn same_as_committed(out: &Path, board: &str, what: &str) {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    for file in ["depths.csv", "antipodes.csv"] {
        let (want, got) = (results.join(board).join(file), out.join(board).join(file));
        let want = std::fs::read(want).unwrap();
        assert_eq!(std::fs::read(got).unwrap(), want, "{what}: {board}/{file}");
    }
}

/// One process stopped by SIGTERM mid-search saves its checkpoint and exits 75; 3 ranks go on
/// from it and write the committed reports, leaving no checkpoint file behind.
#[test]
fn a_one_process_checkpoint_goes_on_on_ranks() {
    let tmp = tempfile::tempdir().unwrap();
    let (ck, out) = (tmp.path().join("ck"), tmp.path().join("out"));
    let (ck_arg, out_arg) = (ck.display().to_string(), out.display().to_string());
    let file = ck.join("checkpoint.tsc");
    // The depth a one-process checkpoint holds: its layer count (u32 at byte 48) less one.
    let depth = || {
        std::fs::read(&file)
            .ok()
            .filter(|b| b.len() >= 52)
            .map_or(0, |b| {
                u32::from_le_bytes(b[48..52].try_into().unwrap()).saturating_sub(1)
            })
    };
    let args = checkpointing_3x4(&ck_arg, &out_arg);
    let child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let clock = Instant::now();
    while depth() < 8 && clock.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(depth() >= 8, "the run saved its first layers");
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
    assert!(
        (8..53).contains(&depth()),
        "stopped mid-search at {}",
        depth()
    );
    let resume = [
        "analyze",
        "3x4",
        "-q",
        "--resume",
        &ck_arg,
        "--results",
        &out_arg,
    ];
    let o = mpirun(3, &resume, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    same_as_committed(&out, "3x4", "a one-process checkpoint resumed on 3 ranks");
    assert!(left_in(&ck).is_empty(), "{:?}", left_in(&ck));
}

/// A search on disk runs in one process: `--resume` of one under mpirun is refused on every
/// rank (it had been ignored, and a fresh search from the goal reported), with the way to move
/// it into the ranks' memory, and the search's files are left as they were.
#[test]
fn a_search_on_disk_is_not_resumed_on_ranks() {
    let tmp = tempfile::tempdir().unwrap();
    let d = crate::common::stopped_disk_search(tmp.path());
    let files = |d: &Path| {
        let mut names = left_in(d);
        names.sort();
        names
    };
    let before = files(&d);
    for extra in [&[][..], &["--max-memory", "8M"]] {
        let mut args = vec!["analyze", "3x4", "--resume", "d", "--results", "r", "-q"];
        args.extend(extra);
        let o = mpirun(2, &args, tmp.path());
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {err}");
        assert!(
            err.contains("holds a search on disk, which runs in one process")
                && err.contains("--checkpoint NEWDIR"),
            "{args:?}: {err}"
        );
        assert!(!tmp.path().join("r/3x4").exists(), "{args:?}: reports");
    }
    assert_eq!(files(&d), before);
}

/// 3x4 in both metrics on disk in one process (8 MB of memory), stopped by SIGINT at a layer
/// boundary once its journal is there, then moved into the memory of 3 ranks (`mpirun -np 3
/// ... --resume d --checkpoint c`), each reading its share of the shard files and the claims
/// waiting: the committed reports, the search on disk removed, no checkpoint left.
#[test]
fn a_search_on_disk_stopped_goes_on_on_ranks() {
    for (metric, board) in [("single", "3x4"), ("multi", "3x4-multi")] {
        let tmp = tempfile::tempdir().unwrap();
        let run = ["analyze", "3x4", "--metric", metric, "--results", "r", "-q"];
        let journal = tmp.path().join("d/search.tsj");
        let first = [&run[..], &["--disk", "d", "--max-memory", "8M"]].concat();
        let o = crate::common::signalled_when(&first, tmp.path(), "INT", || journal.exists());
        assert_eq!(o.status.code(), Some(75), "{metric}: {}", stderr(&o));
        let o = mpirun(
            3,
            &[&run[..], &["--resume", "d", "--checkpoint", "c"]].concat(),
            tmp.path(),
        );
        assert!(o.status.success(), "{metric}: {}", stderr(&o));
        same_as_committed(&tmp.path().join("r"), board, metric);
        assert!(!journal.exists(), "{metric}: the search on disk is removed");
        assert!(
            left_in(&tmp.path().join("c")).is_empty(),
            "{metric}: a checkpoint is left"
        );
    }
}
