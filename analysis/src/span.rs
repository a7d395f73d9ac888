//! The span of a sample a figure covers (the library's phases, the process, the wall) and its
//! value in a sample of a run's measure (`schema::Measure`: time, or instructions for a counted
//! run). The measure's own facts (the columns a file must have, its noun, whether its figures
//! are exact, `compare`'s default threshold) are methods of `schema::Measure`; each rule that
//! differs with it lives beside the code that uses it (the verdicts in `compare`, the warnings in
//! `analyze::warnings`, the sections in `report::model`).

use schema::phases::{Figure, Phase, Quantity};
use schema::Measure;
use serde::Serialize;
use store::cell::CellSamples;

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

    /// This span of sample `i` of `cell` in `measure`; `None` when the sample lacks a phase of
    /// it.
    pub(crate) fn value(self, measure: Measure, cell: &CellSamples, i: usize) -> Option<u64> {
        match (measure, self) {
            // the columns the runner wrote (the reader checked init_plus_ops against its phases)
            (Measure::Time, Span::InitPlusOps) => cell.get(Figure::INIT_PLUS_OPS, i),
            (Measure::Time, Span::Wall) => cell.get(Figure::WALL, i),
            (Measure::Time, Span::Process) => store::cell::process(cell, i),
            (Measure::Instructions, _) => {
                store::cell::sum(cell, Quantity::Instructions, self.phases(), i)
            }
        }
    }

    /// This span of every ok sample of `cell` that has it, in file order.
    pub(crate) fn values(self, measure: Measure, cell: &CellSamples) -> Vec<f64> {
        // a column the runner wrote is read whole (the same values as sample by sample)
        let column = match (measure, self) {
            (Measure::Time, Span::InitPlusOps) => Figure::INIT_PLUS_OPS,
            (Measure::Time, Span::Wall) => Figure::WALL,
            _ => return cell.values_by(|i| self.value(measure, cell, i)),
        };
        cell.values(column).into_iter().map(|v| v as f64).collect()
    }
}
