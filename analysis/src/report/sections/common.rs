//! What every section of the report is written with: headings and paragraphs, the cells of a
//! verdict, an interval or a ratio, and the imports the section modules share (each section
//! module takes them with `use super::common::*`).

pub(super) use crate::analyze::cells::CellSummary;
pub(super) use crate::analyze::coldwarm::{find_warm, BreakEven, Scenario};
pub(super) use crate::analyze::contrasts::ContrastRow;
pub(super) use crate::analyze::warnings::{DRIFT_P, DRIFT_RHO};
pub(super) use crate::report::chart_data;
pub(super) use crate::report::charts;
pub(super) use crate::report::doc::{Block, Cell, Table, Tone};
pub(super) use crate::report::format;
pub(super) use crate::report::model::Report;
pub(super) use crate::stats::paired::{PairedContrast, Verdict};
pub(super) use crate::stats::signed_rank::EXACT_MAX_N;

pub(super) fn h(level: u8, s: impl Into<String>) -> Block {
    Block::Heading(level, s.into())
}

pub(super) fn p(s: impl Into<String>) -> Block {
    Block::Para(s.into())
}

pub(super) fn scenario_title(s: &Scenario) -> String {
    format!("{} · {} · {}", s.fixture, s.op, s.variant)
}

pub(super) fn verdict_cell(v: Verdict) -> Cell {
    let tone = match v {
        Verdict::Faster => Tone::Good,
        Verdict::Slower => Tone::Bad,
        Verdict::NoDifference | Verdict::TooFewPairs => Tone::Muted,
    };
    Cell::toned(v.label(), tone)
}

/// The verdict of a contrast; "no difference" says why when the interval alone excludes 1
/// (the Holm-adjusted p is what held it back).
pub(super) fn contrast_verdict(row: &ContrastRow) -> Cell {
    verdict_of(row.verdict, row.p_holm, row.contrast.as_ref())
}

/// [`contrast_verdict`] of any paired comparison: its verdict, adjusted p and contrast.
pub(super) fn verdict_of(
    verdict: Verdict,
    p_holm: Option<f64>,
    contrast: Option<&PairedContrast>,
) -> Cell {
    let excludes_one = contrast
        .and_then(|c| c.interval)
        .is_some_and(|(lo, hi)| hi < 1.0 || lo > 1.0);
    match (verdict, p_holm) {
        (Verdict::NoDifference, Some(p)) if excludes_one => Cell::toned(
            format!("no difference (Holm p = {})", format::p(p)),
            Tone::Muted,
        ),
        (v, _) => verdict_cell(v),
    }
}

pub(super) fn median_ci(c: &CellSummary) -> String {
    c.init_plus_ops
        .as_ref()
        .map_or("—".into(), |d| format::ns_ci(d.median, d.interval()))
}

pub(super) fn contrast_cells(row: Option<&ContrastRow>) -> (Cell, Cell) {
    match row.and_then(|r| r.contrast.as_ref().map(|c| (r, c))) {
        Some((r, c)) => (
            Cell::new(format::ratio_ci(c.ratio, c.interval)),
            contrast_verdict(r),
        ),
        None => (Cell::toned("—", Tone::Muted), Cell::toned("", Tone::Muted)),
    }
}

/// A cell's process over its runtime's floor, signed; "floor" for a floor.
pub(super) fn over_floor_cell(r: &Report, key: &crate::analyze::cells::CellKey) -> Cell {
    match r.over_floor(key) {
        Some(v) => format!(
            "{}{}",
            if v >= 0.0 { "+" } else { "−" },
            format::ns(v.abs())
        )
        .into(),
        None if r.is_baseline(&key.codec) => Cell::toned("floor", Tone::Muted),
        None => Cell::toned("—", Tone::Muted),
    }
}

/// A cell's process ratio to the reference, with its interval.
pub(super) fn process_ratio_cell(r: &Report, key: &crate::analyze::cells::CellKey) -> Cell {
    match r.process_ratio(key) {
        Some(p) => match p.ratio {
            Some(x) => Cell::new(format::ratio_ci(x, p.interval)),
            None => Cell::toned("no ratio (a process not above its floor)", Tone::Muted),
        },
        None => Cell::toned("", Tone::Muted),
    }
}

/// The cells of a scenario in the report's order (by batch, then grouped by runtime).
pub(super) fn cells_of<'a>(
    r: &'a Report,
    s: &'a Scenario,
) -> impl Iterator<Item = &'a CellSummary> {
    r.cells_in_order()
        .into_iter()
        .filter(move |c| s.holds(&c.key))
}

/// The codec's name, with its runtime when the run has several (`jackson (jvm)`).
pub(super) fn codec_cell(r: &Report, codec: &str) -> Cell {
    if r.runtimes.several() {
        Cell::new(format!("{codec} ({})", r.runtimes.runtime_of(codec)))
    } else {
        Cell::new(codec)
    }
}
