//! The headline: one table per scenario of batch, codec, median, wall and the verdict against
//! the reference, for the report and for the terminal.

use super::common::*;
use schema::Measure;

/// The headline table of one scenario: batch, codec, n, median and interval, wall, vs reference,
/// verdict.
pub(crate) fn headline_table(r: &Report, s: &Scenario) -> Table {
    let refname = r.reference.as_deref().unwrap_or("reference");
    let vs = format!(">vs {refname} [95% CI]");
    let vs_process = format!(">process vs {refname} [95% CI]");
    let mut t = Table::new(&[
        ">batch",
        "codec",
        ">n ok",
        ">init_plus_ops median [95% CI]",
        &vs,
        "verdict",
        ">process over floor",
        &vs_process,
        ">wall median",
    ]);
    let mut cells: Vec<&CellSummary> = cells_of(r, s).collect();
    // by batch, then by runtime (Rust first), then by cost
    cells.sort_by(|a, b| {
        let m = |c: &CellSummary| c.init_plus_ops.as_ref().map_or(f64::INFINITY, |d| d.median);
        let runtime = |c: &CellSummary| r.runtimes.rank(&c.key.codec).0;
        a.key
            .batch
            .cmp(&b.key.batch)
            .then(runtime(a).cmp(&runtime(b)))
            .then(m(a).total_cmp(&m(b)))
    });
    for c in cells {
        let (ratio, verdict) = if Some(c.key.codec.as_str()) == r.reference.as_deref() {
            (Cell::toned("reference", Tone::Muted), Cell::new(""))
        } else if r.is_baseline(&c.key.codec) {
            (Cell::toned("harness floor", Tone::Muted), Cell::new(""))
        } else {
            contrast_cells(r.contrast(&c.key))
        };
        let n = if c.failed > 0 {
            Cell::toned(format!("{} ({} failed)", c.ok, c.failed), Tone::Bad)
        } else {
            Cell::new(c.ok.to_string())
        };
        t.row(vec![
            c.key.batch.to_string().into(),
            codec_cell(r, &c.key.codec),
            n,
            median_ci(c).into(),
            ratio,
            verdict,
            over_floor_cell(r, &c.key),
            process_ratio_cell(r, &c.key),
            c.wall
                .as_ref()
                .map_or("—".into(), |d| format::ns(d.median))
                .into(),
        ]);
    }
    t
}

pub(super) fn headline(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Headline"),
        p("One row per cell: each sample is a fresh child process that performs `batch` operations. Two headline figures: init_plus_ops is what the library's calls cost in that process (its set-up, the first operation, the rest), and its ratio to the reference is paired within blocks; the process over floor is what the process costs beyond its runtime's floor, input building left out (the median of wall − fixture less the floor's), which adds what grows with a library outside its calls: loading and relocating a larger program, its check and its exit. Its ratio to the reference is of the medians, with a bootstrap interval. wall is the process from spawn to reaped."),
    ];
    for s in chart_data::scenarios(r) {
        out.push(h(3, scenario_title(&s)));
        out.push(Block::Table(headline_table(r, &s)));
    }
    out
}

/// The headline tables as plain text for the terminal, one per scenario.
pub(crate) fn headline_tables_text(r: &Report) -> String {
    let mut out = String::new();
    for s in chart_data::scenarios(r) {
        out.push_str(&format!("\n{}\n", scenario_title(&s)));
        out.push_str(&crate::report::console::render(&headline_table(r, &s)));
    }
    out
}

/// The headline as plain text for the terminal: the measure's tables, then the warnings.
pub(crate) fn headline_text(r: &Report) -> String {
    let mut out = terminal(r.measure, r);
    if !r.warnings.is_empty() {
        out.push_str(&format!("\n{} warning(s):\n", r.warnings.len()));
        for w in &r.warnings {
            out.push_str(&format!("  - {w}\n"));
        }
    }
    out
}

/// The headline as plain text for the terminal: the tables of a timed run, the counts of a
/// counted one.
fn terminal(measure: Measure, r: &Report) -> String {
    match measure {
        Measure::Time => headline_tables_text(r),
        Measure::Instructions => super::counts::counted_text(r),
    }
}
