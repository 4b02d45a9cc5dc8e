//! `tilespace check`: every analysed board against the published figures that apply to it
//! (OEIS), agree or disagree.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use tilespace::report::published::{compare, Comparison};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Directory holding summary.csv and the boards' depths.csv
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Print one JSON document instead of the table
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: CheckArgs) -> Result<super::Status> {
    let rows = super::analysed(&args.results)?;
    let mut all: Vec<Comparison> = vec![];
    let mut unmatched = vec![];
    for row in &rows {
        let depths = tilespace::report::read_depths_of(&args.results, row)?;
        let layers: Vec<u64> = depths.iter().map(|d| d.states).collect();
        let found = compare(row, &layers);
        if found.is_empty() {
            unmatched.push(row.label());
        }
        all.extend(found);
    }
    let agree = all.iter().all(|c| c.agrees);
    let mut out = std::io::stdout().lock();
    if args.json {
        #[derive(serde::Serialize)]
        struct Document<'a> {
            comparisons: &'a [Comparison],
            not_published: &'a [String],
            agree: bool,
        }
        let doc = Document {
            comparisons: &all,
            not_published: &unmatched,
            agree,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        writeln!(out, "| board | goal blank | compared | source | result |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for c in &all {
            let result = if c.agrees {
                "agrees".to_string()
            } else {
                format!("**disagrees**: {}", c.detail)
            };
            writeln!(
                out,
                "| {} | {} | {} | {} | {result} |",
                c.board, c.goal_blank, c.compared, c.source
            )?;
        }
        writeln!(out)?;
        let disagree = all.iter().filter(|c| !c.agrees).count();
        writeln!(
            out,
            "{} comparisons with published figures: {} agree, {disagree} disagree.",
            all.len(),
            all.len() - disagree
        )?;
        if !unmatched.is_empty() {
            writeln!(out, "No published figure for: {}.", unmatched.join(", "))?;
        }
    }
    Ok(super::Status::of(agree))
}
