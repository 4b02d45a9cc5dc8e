//! `tilespace theorem --graph SPEC` and `--graph6 FILE`: the arrangements of a goal's tokens
//! on a graph walked into the classes the moves connect and set beside the theorems (Wilson's,
//! Kornhauser, Miller and Spirakis', the orders of paths and cycles); `graphs.csv` written.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use tilespace::analysis::graph_theorem::{self, GraphTheorem};
use tilespace::graph::spec::NamedGraph;
use tilespace::graph::wilson::Case;
use tilespace::puzzle::tokens::Tokens;
use tilespace::report::graphs::{by_vertex_count, upsert_graphs, GraphRow, VertexCount};

use super::groups::RunArgs;
use super::progress::Items;

/// The goal of `theorem --graph`: the classic one with its blank on `blank`, or `tokens`.
pub struct Goal {
    pub blank: tilespace::GoalBlank,
    pub tokens: Option<String>,
}

impl Goal {
    /// The goal on `graph`.
    fn on(&self, graph: &tilespace::graph::Graph) -> Result<Tokens> {
        let n = graph.vertices();
        Ok(match &self.tokens {
            Some(text) => Tokens::parse(text, n)?,
            None => Tokens::distinct(n, tilespace::graph::blank_vertex(self.blank, n)?),
        })
    }
}

/// The goals of `theorem --graph6`: each number of blanks of `blanks` (one if none), with the
/// first tiles in colour classes of `colours`.
pub struct Sweep {
    pub blanks: Vec<std::ops::RangeInclusive<usize>>,
    pub colours: Vec<usize>,
}

impl Sweep {
    /// Whether it asks for more than the classic goal.
    fn tokens(&self) -> bool {
        !(self.colours.is_empty() && self.blanks.iter().all(|r| r.clone().eq(1..=1)))
    }

    /// The goals on a graph of `n` vertices (those that fit): the classic one alone (the
    /// blank on the last vertex) unless more are asked for.
    fn goals(&self, n: usize) -> Vec<Tokens> {
        if !self.tokens() {
            return vec![Tokens::distinct(n, n - 1)];
        }
        let mut counts: Vec<usize> = self.blanks.iter().flat_map(|r| r.clone()).collect();
        if counts.is_empty() {
            counts.push(1);
        }
        counts.sort_unstable();
        counts.dedup();
        counts
            .into_iter()
            .filter_map(|k| graph_theorem::sweep_goal(n, k, &self.colours))
            .collect()
    }
}

/// `theorem --graph SPEC …`: each graph walked with its goal.
pub fn graphs(specs: &[String], goal: &Goal, run: &RunArgs, json: bool) -> Result<super::Status> {
    let mut jobs = vec![];
    for spec in specs {
        let named = NamedGraph::parse(spec)?;
        let tokens = goal.on(&named.graph)?;
        if tokens.blanks() == 1 && goal.tokens.is_none() {
            tilespace::analysis::memory::check_walk_room(&named.graph, 1, run.max_memory)?;
        } else {
            tilespace::analysis::memory::check_token_walk_room(
                &named.graph,
                &tokens,
                run.max_memory,
            )?;
        }
        jobs.push((named, tokens));
    }
    tilespace::store::atomic::check_writable(&run.results)?;
    let pool = super::thread_pool(run.threads)?;
    let path = run.results.join("graphs.csv");
    let (mut rows, mut all) = (vec![], true);
    for (named, tokens) in &jobs {
        let total = u64::try_from(tokens.arrangements()).unwrap_or(u64::MAX);
        let progress = Items::new(run.quiet, total, &named.spec);
        let t = pool
            .install(|| graph_theorem::verify_tokens(&named.graph, tokens, &|n| progress.at(n)))?;
        progress.finish();
        if !json {
            print(&t, &named.spec)?;
        }
        all &= t.agrees() != Some(false);
        rows.push(GraphRow::of(&t, &named.spec));
    }
    upsert_graphs(&path, rows.clone())?;
    finish(json, rows, vec![], &path, all)
}

/// `theorem --graph6 FILE` (or `-`): every graph of a graph6 list, each with the goal's blank
/// on its last vertex, summed by vertex count.
pub fn list(file: &Path, sweep: &Sweep, run: &RunArgs, json: bool) -> Result<super::Status> {
    let list = if file == Path::new("-") {
        graph_theorem::read_graph6_lines(std::io::stdin().lock())?
    } else {
        let opened = tilespace::store::atomic::open_readable(file).map_err(|source| {
            tilespace::Error::Read {
                path: file.to_path_buf(),
                source,
            }
        })?;
        graph_theorem::read_graph6_lines(std::io::BufReader::new(opened))?
    };
    let source = if file == Path::new("-") {
        "stdin".into()
    } else {
        file.display().to_string()
    };
    if let Some(&(line, first)) = list.repeats.first() {
        eprintln!(
            "tilespace: note: {} of {source} repeated a graph already read (line {line} is \
             line {first}'s graph): each graph is walked once",
            super::counted(list.repeats.len() as u64, "line")
        );
    }
    let graphs = list.graphs;
    if graphs.is_empty() {
        anyhow::bail!(tilespace::Error::Graph(format!(
            "{source} holds no graph6 line"
        )));
    }
    // The largest graph decides, walked on each thread at once: on as many threads as there
    // are graphs, at most.
    if let Some(g) = graphs.iter().max_by_key(|g| g.vertices()) {
        let threads = run
            .threads
            .unwrap_or_else(tilespace::analysis::threads::cores)
            .min(graphs.len());
        tilespace::analysis::memory::check_walk_room(g, threads as u64, run.max_memory)?;
    }
    tilespace::store::atomic::check_writable(&run.results)?;
    if sweep.tokens() {
        for g in &graphs {
            for t in sweep.goals(g.vertices()) {
                tilespace::analysis::memory::check_token_walk_room(g, &t, run.max_memory)?;
            }
        }
    }
    let pool = super::thread_pool(run.threads)?;
    let jobs: u64 = graphs
        .iter()
        .map(|g| sweep.goals(g.vertices()).len() as u64)
        .sum();
    let progress = Items::new(
        run.quiet,
        jobs,
        if sweep.tokens() { "goals" } else { "graphs" },
    );
    let goals = |g: &tilespace::graph::Graph| sweep.goals(g.vertices());
    let theorems = pool.install(|| graph_theorem::sweep(&graphs, &goals, &|| progress.inc()))?;
    progress.finish();
    let rows: Vec<GraphRow> = theorems.iter().map(|t| GraphRow::of(t, "")).collect();
    let summary = by_vertex_count(&rows);
    let all = summary.iter().all(|s| s.disagreeing.is_empty());
    let path = run.results.join("graphs.csv");
    upsert_graphs(&path, rows.clone())?;
    if !json {
        print_summary(&summary, sweep.tokens())?;
    }
    finish(json, rows, summary, &path, all)
}

fn finish(
    json: bool,
    rows: Vec<GraphRow>,
    summary: Vec<VertexCount>,
    path: &Path,
    all: bool,
) -> Result<super::Status> {
    if json {
        #[derive(serde::Serialize)]
        struct Document {
            graphs: Vec<GraphRow>,
            by_vertices: Vec<VertexCount>,
            agrees: bool,
            report: String,
        }
        super::print_json(&Document {
            graphs: rows,
            by_vertices: summary,
            agrees: all,
            report: path.display().to_string(),
        })?;
    } else {
        writeln!(std::io::stdout(), "wrote: {}", path.display())?;
    }
    Ok(super::Status::of(all))
}

fn print(t: &GraphTheorem, spec: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let sizes = t.walk.sizes();
    let components: Vec<String> = sizes
        .iter()
        .map(|(size, count)| format!("{} of {size}", super::counted(*count, "component")))
        .collect();
    writeln!(
        out,
        "{spec} (graph6 {}): {} vertices, {} edges, {}, {}",
        t.graph6,
        t.vertices,
        t.edges,
        if t.biconnected {
            "2-connected"
        } else {
            "not 2-connected"
        },
        if t.bipartite {
            "bipartite"
        } else {
            "not bipartite"
        },
    )?;
    if t.tokens == Tokens::distinct(t.vertices, t.blank) {
        writeln!(
            out,
            "  {}! = {} configurations walked: {}",
            t.vertices,
            t.walk.configurations,
            components.join(", ")
        )?;
    } else {
        writeln!(
            out,
            "  tokens {}: {} arrangements walked: {}",
            t.tokens.notation(),
            t.walk.configurations,
            components.join(", ")
        )?;
    }
    let eccentricities: Vec<String> = t
        .walk
        .eccentricities()
        .iter()
        .map(|(e, count)| match count {
            1 => e.to_string(),
            _ => format!("{e} ({count} components)"),
        })
        .collect();
    if t.walk.components() > 1 {
        writeln!(
            out,
            "  eccentricity of each component's first configuration: {}",
            eccentricities.join(", ")
        )?;
    }
    let (goal, states) = if t.tokens == Tokens::distinct(t.vertices, t.blank) {
        (format!("blank on vertex {}", t.blank + 1), "configurations")
    } else {
        (t.tokens.to_string(), "arrangements")
    };
    writeln!(
        out,
        "  the goal ({goal}): {} {states} in its component, eccentricity {}",
        t.walk.goal_states(),
        t.walk.goal_depths.len() - 1
    )?;
    print_prediction(&mut out, t)
}

/// The case of `t`'s graph, what the theorems predict there, and the verdict.
fn print_prediction(out: &mut impl Write, t: &GraphTheorem) -> Result<()> {
    let case = match t.case {
        Case::Cycle => "a cycle",
        Case::Theta0 => "θ0",
        Case::Bipartite => "2-connected and bipartite",
        Case::Other => "2-connected, neither bipartite nor a cycle nor θ0",
        Case::Separable if t.classes.is_some() => "a tree",
        Case::Separable => "not 2-connected and not a tree",
    };
    let Some(c) = &t.classes else {
        writeln!(
            out,
            "  {case}: no theorem here predicts its components (Wilson's covers 2-connected \
             graphs)"
        )?;
        return Ok(());
    };
    let classes: Vec<String> = c
        .sizes
        .iter()
        .map(|(size, count)| match u64::try_from(count) {
            Ok(count) => format!("{} of {size}", super::counted(count, "component")),
            Err(_) => format!("{count} components of {size}"),
        })
        .collect();
    let verdict = if t.agrees() == Some(true) {
        "holds"
    } else {
        "FAILS"
    };
    writeln!(
        out,
        "  {case}: {} predicts {}\n  theorem: {verdict}",
        c.theorem.statement(),
        classes.join(", ")
    )?;
    Ok(())
}

fn print_summary(summary: &[VertexCount], tokens: bool) -> Result<()> {
    let what = if tokens { "(graph, tokens)" } else { "graphs" };
    let mut out = std::io::stdout().lock();
    let cases = ["cycle", "theta0", "bipartite", "other", "separable"];
    writeln!(
        out,
        "{:>8} {:>7} {:>7} {:>7} {:>9} {:>7} {:>9} {:>9} {:>7}",
        "vertices",
        "graphs",
        "cycle",
        "theta0",
        "bipartite",
        "other",
        "separable",
        "predicted",
        "agree"
    )?;
    for s in summary {
        let case = |c: &str| s.cases.get(c).copied().unwrap_or(0);
        writeln!(
            out,
            "{:>8} {:>7} {:>7} {:>7} {:>9} {:>7} {:>9} {:>9} {:>7}",
            s.vertices,
            s.graphs,
            case(cases[0]),
            case(cases[1]),
            case(cases[2]),
            case(cases[3]),
            case(cases[4]),
            s.predicted,
            s.agree
        )?;
    }
    writeln!(
        out,
        "\ncomponents of the puzzle, by vertex count and case (components: graphs having them)"
    )?;
    for s in summary {
        for (case, counts) in &s.components_by_case {
            let items: Vec<String> = counts.iter().map(|(c, g)| format!("{c}: {g}")).collect();
            writeln!(out, "{:>8} {:<10} {}", s.vertices, case, items.join(", "))?;
        }
    }
    let predicted: u64 = summary.iter().map(|s| s.predicted).sum();
    let graphs: u64 = summary.iter().map(|s| s.graphs).sum();
    let disagreeing: Vec<&String> = summary.iter().flat_map(|s| &s.disagreeing).collect();
    if disagreeing.is_empty() {
        writeln!(
            out,
            "the theorems hold on all {predicted} {what} they predict, of {graphs} read"
        )?;
    } else {
        writeln!(
            out,
            "the theorems FAIL on {} {what}: {}",
            disagreeing.len(),
            disagreeing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    Ok(())
}
