//! `tilespace table`: the summary of every analysed board, their depth distributions, or the
//! counting theorem, for papers.

use std::io::Write;

use anyhow::Result;
use tilespace::report::paper::{self, Column, Format, Rendered};

use super::args::{TableArgs, TableFormat};
use super::BadArgument;

pub fn run(args: TableArgs) -> Result<super::Status> {
    let format = match (args.json, args.format) {
        (true, _) | (_, TableFormat::Json) => Format::Json,
        (_, TableFormat::Markdown) => Format::Markdown,
        (_, TableFormat::Latex) => Format::Latex,
        (_, TableFormat::Csv) => Format::Csv,
    };
    let Rendered { text, warnings } = if args.theorem {
        let path = args.results.join("theorem.csv");
        let rows = tilespace::report::read_theorem(&path)?;
        if rows.is_empty() {
            anyhow::bail!(BadArgument(format!(
                "no boards in {}: run `tilespace theorem RxC --results {}` first",
                path.display(),
                args.results.display()
            )));
        }
        paper::theorem::render(&rows, format)?
    } else {
        let rows = super::chosen(super::analysed(&args.results)?, &args.boards)?;
        if args.distribution {
            let boards = paper::depths::read_all(&args.results, &rows)?;
            paper::depths::render(&boards, format)?
        } else {
            let columns = args
                .columns
                .as_deref()
                .map(Column::parse_list)
                .transpose()?;
            paper::render(&rows, format, columns.as_deref())?
        }
    };
    for w in warnings {
        eprintln!("tilespace: warning: {w}");
    }
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(super::Status::Done)
}
