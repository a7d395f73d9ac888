//! What a run measured (the manifest's `measure`: `time`, or `instructions` for a counted run)
//! and everything in the analysis that differs with it, in this one place: the quantity a
//! sample's phases are read in, how an amount is written, which columns a file must have, the
//! figures `compare` judges and by which rule (an interval for times; exactly, by counts or
//! ranges, for counts, which every sample of a library's phases repeats), what a reader is
//! warned of, and which sections a report has. Nothing else asks which measure a run has: the
//! cells, the contrasts, the compare and the summary go through [`Rules`].

use crate::analyze::cells::CellSummary;
use crate::analyze::warnings::list;
use crate::compare::{
    exact_rule, interval_rule, median_text, ratio_text, CellChange, CompareOptions, FigureChange,
};
use crate::report::format;
use crate::report::model::Report;
use crate::report::sections::{self, Section};
use schema::phases::{Figure, Phase, Quantity};
use schema::rows::{CellSamples, Samples};
use serde::Serialize;

pub use schema::Measure;

/// The span of a sample a figure covers: the library's three phases (init + first_op +
/// remaining_ops), the process but its input phase, or the whole process (spawn to reaped).
/// The first two are the headline figures: what the library's calls cost, and what the process
/// costs (which, over its runtime's floor, adds loading a larger program, its check and its
/// exit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Span {
    /// init + first_op + remaining_ops: the library's calls.
    InitPlusOps,
    /// spawn → reaped less the input phase (building the input differs by codec and is not the
    /// library's): the process.
    Process,
    /// spawn → reaped: the process as `time` sees it.
    Wall,
}

/// Every phase but the input's (the model's is the process's: a program pays it).
const PROCESS: [Phase; 7] = [
    Phase::SpawnToMain,
    Phase::Model,
    Phase::Init,
    Phase::FirstOp,
    Phase::RemainingOps,
    Phase::Check,
    Phase::Exit,
];

impl Span {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Span::InitPlusOps => "init_plus_ops",
            Span::Process => "process",
            Span::Wall => "wall",
        }
    }

    /// The phases it sums.
    pub(crate) fn phases(self) -> &'static [Phase] {
        match self {
            Span::InitPlusOps => &Phase::LIBRARY,
            Span::Process => &PROCESS,
            Span::Wall => &Phase::ALL,
        }
    }
}

/// How a figure of sample `i` of a cell is read.
pub(crate) type SampleValue = Box<dyn Fn(&CellSamples, usize) -> Option<u64> + Sync>;

/// A figure `compare` reads of each sample: its name, how its value is read, and whether it
/// decides the cell's verdict.
pub struct Judged {
    pub(crate) name: &'static str,
    pub(crate) value: SampleValue,
    pub(crate) judged: bool,
}

/// The measure's rules; see the module.
pub trait Rules: Copy {
    /// `span` of sample `i` of `cell`; `None` when the sample lacks a phase of it.
    fn value(self, span: Span, cell: &CellSamples, i: usize) -> Option<u64>;
    /// `span` of every ok sample of `cell` that has it, in file order.
    fn values(self, span: Span, cell: &CellSamples) -> Vec<f64> {
        cell.values_by(|i| self.value(span, cell, i))
    }
    /// The figures whose columns samples.csv must have.
    fn required(self) -> &'static [Figure];
    /// What it records, as a noun: `times`, `instruction counts`.
    fn noun(self) -> &'static str;
    /// What a run of it is: `a timed run`, `a counted run (--measure instructions)`.
    fn run_words(self) -> &'static str;
    /// An amount of the quantity as tables write it (`45.6 µs`, `47,449`).
    fn amount(self, v: f64) -> String;
    /// Whether its figures are exact (the same in every sample where the work is the same), so
    /// spreads replace intervals and a change is read from the counts themselves.
    fn exact(self) -> bool;
    /// The change `compare` calls real by default.
    fn threshold(self) -> f64;
    /// The figures `compare` reads, the first the one a sample must have to count.
    /// The figures `compare` reads of each sample, the first deciding which samples count; with
    /// `phase`, only that phase decides the verdict (timed: its time is the figure compared).
    fn judged(self, span: Span, phase: Option<Phase>) -> Vec<Judged>;
    /// `compare`'s verdict on one cell from the figures' values in A and B.
    fn judge(
        self,
        judged: &[Judged],
        xa: &[Vec<u64>],
        xb: &[Vec<u64>],
        opts: &CompareOptions,
        c: &mut CellChange,
    );
    /// The terminal columns of one compared figure, and their cells.
    fn change_columns(self, f: &FigureChange) -> Vec<String>;
    fn change_cells(self, f: &FigureChange) -> Vec<String>;
    /// What `compare` prints above its table.
    fn compare_heading(self, opts: &CompareOptions) -> String;
    /// The report's sections after the introduction and the warnings, in order.
    fn sections(self) -> &'static [Section];
    /// What a reader of a run of it must be told about its cells.
    fn warnings(self, cells: &[CellSummary]) -> Vec<String>;
    /// The warnings section when there is none.
    fn no_warnings(self) -> String;
    /// The report's first paragraph's last clause.
    fn intro(self, seed: u64) -> String;
    /// The headline as plain text for the terminal.
    fn terminal(self, r: &Report) -> String;
}

/// The measure of a run whose manifest does not say: a counted run when its samples hold
/// instructions and no time, which only a counted run writes; else time.
pub(crate) fn of_samples(samples: &Samples) -> Measure {
    let instructions = Figure::Of(Quantity::Instructions, Phase::FirstOp);
    if samples.has(instructions) && !samples.has(Figure::INIT_PLUS_OPS) {
        Measure::Instructions
    } else {
        Measure::Time
    }
}

const TIME_REQUIRED: [Figure; 2] = [Figure::INIT_PLUS_OPS, Figure::WALL];
static COUNT_REQUIRED: std::sync::OnceLock<Vec<Figure>> = std::sync::OnceLock::new();

impl Rules for Measure {
    fn value(self, span: Span, cell: &CellSamples, i: usize) -> Option<u64> {
        match (self, span) {
            // the columns the runner wrote (the reader checked init_plus_ops against its phases)
            (Measure::Time, Span::InitPlusOps) => cell.get(Figure::INIT_PLUS_OPS, i),
            (Measure::Time, Span::Wall) => cell.get(Figure::WALL, i),
            (Measure::Time, Span::Process) => cell
                .get(Figure::WALL, i)?
                .checked_sub(cell.get(Figure::time(Phase::Fixture), i)?),
            (Measure::Instructions, _) => {
                stats::cells::sum(cell, Quantity::Instructions, span.phases(), i)
            }
        }
    }

    fn values(self, span: Span, cell: &CellSamples) -> Vec<f64> {
        // a column the runner wrote is read whole (the same values as sample by sample)
        let column = match (self, span) {
            (Measure::Time, Span::InitPlusOps) => Figure::INIT_PLUS_OPS,
            (Measure::Time, Span::Wall) => Figure::WALL,
            _ => return cell.values_by(|i| self.value(span, cell, i)),
        };
        cell.values(column).into_iter().map(|v| v as f64).collect()
    }

    fn required(self) -> &'static [Figure] {
        match self {
            Measure::Time => &TIME_REQUIRED,
            Measure::Instructions => COUNT_REQUIRED.get_or_init(|| {
                [
                    Quantity::Instructions,
                    Quantity::AllocBlocks,
                    Quantity::AllocBytes,
                ]
                .iter()
                .flat_map(|&q| q.phases().iter().map(move |&p| Figure::Of(q, p)))
                .collect()
            }),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Measure::Time => "times",
            Measure::Instructions => "instruction counts",
        }
    }

    fn run_words(self) -> &'static str {
        match self {
            Measure::Time => "a timed run",
            Measure::Instructions => "a counted run (--measure instructions)",
        }
    }

    fn amount(self, v: f64) -> String {
        match self {
            Measure::Time => format::ns(v),
            Measure::Instructions => format::amount(v),
        }
    }

    fn exact(self) -> bool {
        self == Measure::Instructions
    }

    fn threshold(self) -> f64 {
        match self {
            Measure::Time => 0.02,
            // a count is deterministic, so a change of a few instructions in a thousand is real
            Measure::Instructions => 0.005,
        }
    }

    fn judged(self, span: Span, only: Option<Phase>) -> Vec<Judged> {
        match (self, only) {
            (Measure::Time, None) => vec![Judged {
                name: span.name(),
                value: Box::new(move |cell, i| self.value(span, cell, i)),
                judged: true,
            }],
            (Measure::Time, Some(p)) => vec![Judged {
                name: p.name(),
                value: Box::new(move |cell, i| cell.get(Figure::time(p), i)),
                judged: true,
            }],
            (Measure::Instructions, _) => {
                // with `only`, that phase alone decides; the others are shown
                let decides = |p: Phase, judged: bool| only.map_or(judged, |o| o == p);
                let phase = |p: Phase, judged: bool| Judged {
                    name: p.name(),
                    value: Box::new(move |cell: &CellSamples, i| {
                        cell.get(Figure::Of(Quantity::Instructions, p), i)
                    }),
                    judged: decides(p, judged),
                };
                // init+ops first: a sample counts when its library's phases were all counted;
                // the input's phase is not the library's, and the loader's decides nothing
                let mut v = vec![Judged {
                    name: "init+ops",
                    value: Box::new(move |cell, i| self.value(Span::InitPlusOps, cell, i)),
                    judged: only.is_none(),
                }];
                v.extend(Phase::LIBRARY.iter().map(|&p| phase(p, true)));
                v.extend([Phase::Check, Phase::Exit].map(|p| phase(p, true)));
                v.push(phase(Phase::SpawnToMain, false));
                v
            }
        }
    }

    fn judge(
        self,
        judged: &[Judged],
        xa: &[Vec<u64>],
        xb: &[Vec<u64>],
        opts: &CompareOptions,
        c: &mut CellChange,
    ) {
        match self {
            Measure::Time => interval_rule(&judged[0], &xa[0], &xb[0], opts, c),
            Measure::Instructions => exact_rule(judged, xa, xb, opts.threshold, c),
        }
    }

    fn change_columns(self, f: &FigureChange) -> Vec<String> {
        match self {
            Measure::Time => vec![
                ">median A".into(),
                ">median B".into(),
                ">B / A [95% CI]".into(),
            ],
            Measure::Instructions if f.judged => vec![format!(">{}", f.figure)],
            Measure::Instructions => vec![format!(">{} (not judged)", f.figure)],
        }
    }

    fn change_cells(self, f: &FigureChange) -> Vec<String> {
        match self {
            Measure::Time => vec![
                median_text(self, f.a),
                median_text(self, f.b),
                ratio_text(f),
            ],
            Measure::Instructions => vec![f.change_text()],
        }
    }

    fn compare_heading(self, opts: &CompareOptions) -> String {
        match self {
            Measure::Time => format!(
                "figure {}, threshold ±{:.1}%",
                opts.phase.map_or(opts.span.name(), Phase::name),
                opts.threshold * 100.0
            ),
            Measure::Instructions => match opts.phase {
                None => format!(
                    "counted runs: instructions compared exactly, phase by phase (B − A over A); a phase beyond ±{}% is a change; spawn_to_main (the dynamic loader, which moves with the environment) is listed and not judged",
                    opts.threshold * 100.0
                ),
                Some(p) => format!(
                    "counted runs: instructions compared exactly, phase by phase (B − A over A); only {} is judged, a change beyond ±{}%; the other phases are listed",
                    p.name(),
                    opts.threshold * 100.0
                ),
            },
        }
    }

    fn sections(self) -> &'static [Section] {
        use Section::*;
        match self {
            Measure::Time => &[
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
                Curve,
                PerCell,
                Allocations,
                Conformance,
                Conditions,
                Notes,
            ],
            Measure::Instructions => &[
                Counts,
                TimingSkipped,
                Allocations,
                Conformance,
                Conditions,
                Notes,
            ],
        }
    }

    fn warnings(self, cells: &[CellSummary]) -> Vec<String> {
        if self == Measure::Time {
            return Vec::new();
        }
        let mut out = Vec::new();
        let uncounted: Vec<String> = cells
            .iter()
            .filter(|c| c.counted() < c.ok)
            .map(|c| format!("{} ({} of {})", c.key.label(), c.ok - c.counted(), c.ok))
            .collect();
        if !uncounted.is_empty() {
            out.push(format!(
                "Ok samples without instruction counts (the runner could not cut callgrind's output into the protocol's phases; samples.csv's error column says why) in {} cells: {}.",
                uncounted.len(),
                list(&uncounted)
            ));
        }
        let differ: Vec<String> = cells
            .iter()
            .filter(|c| c.counted() > 1 && !c.identical)
            .map(|c| c.key.label())
            .collect();
        if !differ.is_empty() {
            out.push(format!(
                "Samples disagree in the library's phases ({}), which execute the same instructions every time when a library's work depends only on its input, in {} cells: {}. Their medians are shown with the spread; their ratios are not exact.",
                Phase::library_names(", "),
                differ.len(),
                list(&differ)
            ));
        }
        out
    }

    fn no_warnings(self) -> String {
        use crate::analyze::warnings::{DRIFT_P, DRIFT_RHO, OUTLIER_SHARE};
        match self {
            Measure::Time => format!(
                "None: the run finished, no sample failed, no codec failed verification, no cell drifted (|ρ| ≥ {DRIFT_RHO} with p < {DRIFT_P}) or had more than {:.0}% outliers.",
                OUTLIER_SHARE * 100.0
            ),
            Measure::Instructions => "None: the run finished, no sample failed, no codec failed verification, every ok sample was counted and every cell's samples agreed to the instruction.".into(),
        }
    }

    fn intro(self, seed: u64) -> String {
        match self {
            Measure::Time => format!("bootstrap seed {seed}"),
            Measure::Instructions => "counted run: instructions and allocations, no times".into(),
        }
    }

    fn terminal(self, r: &Report) -> String {
        match self {
            Measure::Time => sections::headline_tables_text(r),
            Measure::Instructions => sections::counted_text(r),
        }
    }
}
