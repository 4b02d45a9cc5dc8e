//! `tilespace pdb`: builds the pattern databases of a partition into a directory, for
//! `solve --pdb` and `sample`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use tilespace::analysis::memory;
use tilespace::optimal::build::{build, bytes_needed};
use tilespace::optimal::database::Database;
use tilespace::optimal::pattern::{check_partition, parse_tiles, split, Pattern};
use tilespace::GoalBlank;
use tilespace::Shape;
use tilespace::{Error, LayerDone};

use super::progress::Progress;
use super::values::thread_count;
use super::BadArgument;

#[derive(Args, Debug)]
#[command(group(
    clap::ArgGroup::new("tiles").required(true).args(["partition", "pattern", "verify"])
))]
pub struct PdbArgs {
    /// Board size, e.g. 4x4 (at most 32 cells)
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Group sizes of the tiles in reading order of the goal, e.g. 7-8 or 5-5-5 (4x4), 6-5
    /// (3x4), 4-4 (3x3)
    #[arg(long, value_name = "SIZES", conflicts_with = "pattern")]
    pub partition: Option<String>,
    /// One pattern's tiles, e.g. 1,2,5,6; repeat it for each pattern (together every tile once)
    #[arg(long, value_name = "TILES")]
    pub pattern: Vec<String>,
    /// Goal blank cell: last, first, center, R,C or a cell number (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Directory for the databases (created if missing; databases already there are kept),
    /// the directory `solve --pdb DIR` and `sample --pdb DIR` read
    #[arg(long = "pdb", value_name = "DIR")]
    pub dir: PathBuf,
    /// Worker threads (default: all cores; at most 8 per core)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Refuse a build that needs more than SIZE (e.g. 4G)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub max_memory: Option<u64>,
    /// One CSV row per database instead of text (pattern, placements, max, mean, built,
    /// seconds, file)
    #[arg(long, conflicts_with_all = ["json", "verify"])]
    pub csv: bool,
    /// One JSON document instead of text
    #[arg(long)]
    pub json: bool,
    /// Check every entry of every database in --pdb DIR against its neighbours' instead of
    /// building (a load checks a sample; see the guide for what this catches)
    #[arg(long, conflicts_with_all = ["partition", "pattern"])]
    pub verify: bool,
}

/// One database, as reported.
#[derive(serde::Serialize)]
struct Row {
    tiles: Vec<u32>,
    placements: u64,
    max: u8,
    mean: f64,
    seconds: f64,
    built: bool,
    file: String,
}

pub fn run(args: PdbArgs) -> Result<super::Status> {
    let dir = args.dir.clone();
    if args.verify {
        return verify(&args, &dir);
    }
    let shape = args.board;
    let goal = args.blank.resolve(shape)?;
    let patterns: Vec<Pattern> = match &args.partition {
        Some(spec) => split(shape, goal, spec)?,
        None => args
            .pattern
            .iter()
            .map(|list| Pattern::new(shape, goal, &parse_tiles(list)?))
            .collect::<Result<_, _>>()?,
    };
    check_partition(&patterns)?;
    let needed = patterns
        .iter()
        .map(bytes_needed)
        .collect::<Result<Vec<f64>, _>>()?
        .into_iter()
        .fold(0.0, f64::max);
    memory::room_for(needed, args.max_memory).map_err(|limit| Error::NoRoom {
        what: format!("building the largest database of {shape}"),
        needed: needed.round() as u64,
        limit,
    })?;
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(Error::Write {
            path: dir.clone(),
            source: std::io::Error::other("not a directory (--pdb names the databases' directory)"),
        });
    }
    std::fs::create_dir_all(&dir).map_err(|source| Error::Write {
        path: dir.clone(),
        source,
    })?;
    refuse_others(&dir, &patterns)?;
    // A directory that cannot take the files is refused before the minutes of building.
    tilespace::store::atomic::check_writable(&dir)?;
    let stop = super::stop_on_signal(
        "at the end of this layer; the databases saved are kept (signal again to stop at once)",
    )?;
    let pool = super::thread_pool(args.threads)?;
    let mut rows = vec![];
    for p in &patterns {
        let path = dir.join(Database::file_name(p));
        // A database already built (and intact) is kept: a stopped run goes on where it was.
        if let Ok(db) = Database::open(&path) {
            if db.pattern == *p {
                rows.push(row(&db, 0.0, false, &path));
                continue;
            }
        }
        let started = Instant::now();
        let built = pool.install(|| built_with_progress(p, args.quiet, stop))?;
        let seconds = started.elapsed().as_secs_f64();
        let db = Database::new(p.clone(), built)?;
        db.save(&dir)?;
        rows.push(row(&db, seconds, true, &path));
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Document {
            board: String,
            goal_blank: String,
            databases: Vec<Row>,
        }
        super::print_json(&Document {
            board: shape.to_string(),
            goal_blank: shape.cell_label(goal),
            databases: rows,
        })?;
    } else if args.csv {
        print_csv(&rows)?;
    } else {
        print_text(shape, &rows)?;
    }
    Ok(super::Status::Done)
}

/// One CSV row per database (a database kept from an earlier run took no time in this one: its
/// seconds are empty).
fn print_csv(rows: &[Row]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "pattern,placements,max,mean,built,seconds,file")?;
    for r in rows {
        let tiles: Vec<String> = r.tiles.iter().map(u32::to_string).collect();
        let seconds = if r.built {
            format!("{:.2}", r.seconds)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{},{},{},{:.4},{},{seconds},{}",
            tiles.join(" "),
            r.placements,
            r.max,
            r.mean,
            r.built,
            r.file
        )?;
    }
    Ok(())
}

/// One line per database: its tiles, size, largest and mean entry, and whether it was built now.
fn print_text(shape: tilespace::puzzle::board::Shape, rows: &[Row]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for r in rows {
        let tiles: Vec<String> = r.tiles.iter().map(u32::to_string).collect();
        let how = if r.built {
            format!("built in {:.2} s", r.seconds)
        } else {
            "kept (built before)".to_string()
        };
        writeln!(
            out,
            "{shape} tiles {}: {}, max {}, mean {:.4}, {how}: {}",
            tiles.join(" "),
            super::counted(r.placements, "placement"),
            r.max,
            r.mean,
            r.file
        )?;
    }
    Ok(())
}

/// `pattern`'s database built, with a bar of its layers on stderr (none if `quiet`).
fn built_with_progress(
    p: &Pattern,
    quiet: bool,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<tilespace::optimal::build::Built, Error> {
    let progress = Progress::new(quiet, 0, &format!("{} {}", p.shape, p.label()));
    let last = std::sync::Mutex::new(Instant::now());
    let built = build(
        p,
        &|l| {
            let mut last = last.lock().expect("not poisoned");
            progress.set_length(l.total);
            progress.layer(LayerDone {
                depth: l.depth,
                states: l.states,
                seen: l.placements,
                way: None,
                seconds: last.elapsed().as_secs_f64(),
                place: tilespace::bfs::PlaceLayer::Memory,
            });
            *last = Instant::now();
        },
        Some(stop),
    );
    progress.finish();
    built
}

fn row(db: &Database, seconds: f64, built: bool, path: &std::path::Path) -> Row {
    Row {
        tiles: db.pattern.tiles.clone(),
        placements: db.reached,
        max: db.max,
        mean: db.mean(),
        seconds,
        built,
        file: path.display().to_string(),
    }
}

/// Refuses a directory holding databases that are not of this partition: `solve --pdb` reads
/// every database of a directory, which must be one partition.
fn refuse_others(dir: &std::path::Path, patterns: &[Pattern]) -> Result<()> {
    let ours: Vec<String> = patterns.iter().map(Database::file_name).collect();
    let read = |source| Error::Read {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let name = entry.map_err(read)?.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".pdb") && !ours.iter().any(|o| *o == name) {
            anyhow::bail!(BadArgument(format!(
                "{} holds {name}, of another board, goal or partition: `solve --pdb` reads every database of a directory, so use another --pdb DIR or remove it",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// `pdb RxC --pdb DIR --verify`: every database of `DIR` opened (its checksums and header) and
/// every entry checked against its neighbours'; one line (or JSON object) per file, status
/// `No` if one fails.
fn verify(args: &PdbArgs, dir: &std::path::Path) -> Result<super::Status> {
    #[derive(serde::Serialize)]
    struct Checked {
        file: String,
        placements: Option<u64>,
        consistent: bool,
        why: Option<String>,
        seconds: f64,
    }
    let files = tilespace::optimal::heuristic::Heuristic::files(dir)?;
    if files.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "{}: no .pdb files to verify",
            dir.display()
        )));
    }
    let pool = super::thread_pool(args.threads)?;
    let mut checked = vec![];
    for path in files {
        let started = Instant::now();
        let result = Database::open(&path)
            .map_err(|e| e.to_string())
            .and_then(|db| {
                if db.pattern.shape != args.board {
                    return Err(format!(
                        "a database of {}, not {}",
                        db.pattern.shape, args.board
                    ));
                }
                pool.install(|| db.check_all())?;
                Ok(db.placements())
            });
        checked.push(Checked {
            file: path.display().to_string(),
            placements: result.as_ref().ok().copied(),
            consistent: result.is_ok(),
            why: result.err(),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let all = checked.iter().all(|c| c.consistent);
    if args.json {
        #[derive(serde::Serialize)]
        struct Document {
            databases: Vec<Checked>,
            consistent: bool,
        }
        super::print_json(&Document {
            databases: checked,
            consistent: all,
        })?;
    } else {
        let mut out = std::io::stdout().lock();
        for c in &checked {
            match (&c.why, c.placements) {
                (None, Some(n)) => writeln!(
                    out,
                    "{}: {n} placements, every entry consistent with its neighbours ({:.2} s)",
                    c.file, c.seconds
                )?,
                (why, _) => writeln!(out, "{}: REFUSED: {}", c.file, why.as_deref().unwrap_or(""))?,
            }
        }
    }
    Ok(super::Status::of(all))
}
