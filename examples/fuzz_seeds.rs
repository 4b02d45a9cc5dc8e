//! Writes the seeds of every fuzz target (`tilespace::fuzz::seeds`: valid inputs from real runs)
//! into `DIR/<target>/seed-K`, the corpus layout of `cargo fuzz` (`scripts/fuzz.sh` calls it).

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: fuzz_seeds DIR");
        std::process::exit(2);
    };
    for name in tilespace::fuzz::TARGETS {
        let target = std::path::Path::new(&dir).join(name);
        std::fs::create_dir_all(&target)?;
        for (k, seed) in tilespace::fuzz::seeds(name).iter().enumerate() {
            std::fs::write(target.join(format!("seed-{k}")), seed)?;
        }
    }
    Ok(())
}
