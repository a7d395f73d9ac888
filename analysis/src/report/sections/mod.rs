//! The report's layout: which sections, in which order, with which tables, charts and words,
//! one module per section. Everything here reads the model; nothing computes a statistic.

use super::chart_data;
use super::charts;
use super::doc::{Block, Cell, Table, Tone};
use super::format;
use super::model::Report;
use crate::analyze::cells::CellSummary;
use crate::analyze::coldwarm::{find_warm, BreakEven, Scenario};
use crate::analyze::contrasts::ContrastRow;
use crate::analyze::warnings::{DRIFT_P, DRIFT_RHO};
use crate::stats::paired::{PairedContrast, Verdict};
use crate::stats::signed_rank::EXACT_MAX_N;

mod cold_warm;
mod comparisons;
mod conditions;
mod counts;
mod curve;
mod headline;
mod machines;
mod noise;
mod per_cell;
mod precision;
mod reading;
mod runtimes;
mod tables;
mod variants;

use cold_warm::cold_warm;
use comparisons::{against_reference, chart_blocks};
use conditions::conditions;
pub(crate) use counts::counted_text;
use counts::{counts, timing_skipped};
use curve::curve;
use headline::headline;
pub use headline::{headline_table, headline_tables_text, headline_text};
use machines::machines;
use noise::noise;
pub(crate) use noise::PROBE;
use per_cell::per_cell;
use precision::precision;
use reading::{how_to_read, intro, notes, warnings};
use runtimes::runtimes;
use tables::{allocations, conformance};
use variants::variants;

fn h(level: u8, s: impl Into<String>) -> Block {
    Block::Heading(level, s.into())
}

fn p(s: impl Into<String>) -> Block {
    Block::Para(s.into())
}

fn scenario_title(s: &Scenario) -> String {
    format!("{} · {} · {}", s.fixture, s.op, s.variant)
}

fn verdict_cell(v: Verdict) -> Cell {
    let tone = match v {
        Verdict::Faster => Tone::Good,
        Verdict::Slower => Tone::Bad,
        Verdict::NoDifference | Verdict::TooFewPairs => Tone::Muted,
    };
    Cell::toned(v.label(), tone)
}

/// The verdict of a contrast; "no difference" says why when the interval alone excludes 1
/// (the Holm-adjusted p is what held it back).
fn contrast_verdict(row: &ContrastRow) -> Cell {
    verdict_of(row.verdict, row.p_holm, row.contrast.as_ref())
}

/// [`contrast_verdict`] of any paired comparison: its verdict, adjusted p and contrast.
fn verdict_of(verdict: Verdict, p_holm: Option<f64>, contrast: Option<&PairedContrast>) -> Cell {
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

fn median_ci(c: &CellSummary) -> String {
    c.init_plus_ops
        .as_ref()
        .map_or("—".into(), |d| format::ns_ci(d.median, d.interval()))
}

fn contrast_cells(row: Option<&ContrastRow>) -> (Cell, Cell) {
    match row.and_then(|r| r.contrast.as_ref().map(|c| (r, c))) {
        Some((r, c)) => (
            Cell::new(format::ratio_ci(c.ratio, c.interval)),
            contrast_verdict(r),
        ),
        None => (Cell::toned("—", Tone::Muted), Cell::toned("", Tone::Muted)),
    }
}

/// A cell's process over its runtime's floor, signed; "floor" for a floor.
fn over_floor_cell(r: &Report, key: &crate::analyze::cells::CellKey) -> Cell {
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
fn process_ratio_cell(r: &Report, key: &crate::analyze::cells::CellKey) -> Cell {
    match r.process_ratio(key) {
        Some(p) => match p.ratio {
            Some(x) => Cell::new(format::ratio_ci(x, p.interval)),
            None => Cell::toned("no ratio (a process not above its floor)", Tone::Muted),
        },
        None => Cell::toned("", Tone::Muted),
    }
}

/// The cells of a scenario in the report's order (by batch, then grouped by runtime).
fn cells_of<'a>(r: &'a Report, s: &'a Scenario) -> impl Iterator<Item = &'a CellSummary> {
    r.cells_in_order()
        .into_iter()
        .filter(move |c| s.holds(&c.key))
}

/// The codec's name, with its runtime when the run has several (`jackson (jvm)`).
fn codec_cell(r: &Report, codec: &str) -> Cell {
    if r.runtimes.several() {
        Cell::new(format!("{codec} ({})", r.runtimes.runtime_of(codec)))
    } else {
        Cell::new(codec)
    }
}

/// A section of the report after its introduction and warnings; the run's measure lists which
/// (`crate::measure::Rules::sections`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Headline,
    Runtimes,
    HowToRead,
    Charts,
    AgainstReference,
    Variants,
    Machines,
    Precision,
    Noise,
    ColdWarm,
    /// A curve run's cost curve (nothing without curves.csv).
    Curve,
    PerCell,
    Counts,
    TimingSkipped,
    Allocations,
    Conformance,
    Conditions,
    Notes,
}

impl Section {
    pub(crate) fn blocks(self, r: &Report) -> Vec<Block> {
        match self {
            Section::Headline => headline(r),
            Section::Runtimes => runtimes(r),
            Section::HowToRead => how_to_read(r),
            Section::Charts => chart_blocks(r),
            Section::AgainstReference => against_reference(r),
            Section::Variants => variants(r),
            Section::Machines => machines(r),
            Section::Precision => precision(r),
            Section::Noise => noise(r),
            Section::ColdWarm => cold_warm(r),
            Section::Curve => curve(r),
            Section::PerCell => per_cell(r),
            Section::Counts => counts(r),
            Section::TimingSkipped => timing_skipped(r),
            Section::Allocations => allocations(r),
            Section::Conformance => conformance(r),
            Section::Conditions => conditions(r),
            Section::Notes => notes(r),
        }
    }
}

/// The whole report as a document: the introduction, the warnings, then the sections of the
/// run's measure.
pub(crate) fn document(r: &Report) -> Vec<Block> {
    let mut out = intro(r);
    out.extend(warnings(r));
    for s in crate::measure::Rules::sections(r.measure) {
        out.extend(s.blocks(r));
    }
    out
}
