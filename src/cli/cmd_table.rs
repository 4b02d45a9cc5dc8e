//! `tilespace table`: the summary of every analysed board, for papers.

use std::io::Write;

use anyhow::Result;
use tilespace::report::paper::{self, Format, PaperRow};

use super::args::{TableArgs, TableFormat};

pub fn run(args: TableArgs) -> Result<super::Status> {
    let rows = super::analysed(&args.results)?;
    let format = match (args.json, args.format) {
        (true, _) | (_, TableFormat::Json) => Format::Json,
        (_, TableFormat::Markdown) => Format::Markdown,
        (_, TableFormat::Latex) => Format::Latex,
        (_, TableFormat::Csv) => Format::Csv,
    };
    let rows: Vec<PaperRow> = rows.iter().map(PaperRow::from).collect();
    std::io::stdout()
        .lock()
        .write_all(paper::render(&rows, format)?.as_bytes())?;
    Ok(super::Status::Done)
}
