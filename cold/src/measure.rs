//! The runner's two measures, time and instructions, as one trait: everything the runner does
//! differently for them (the samples a run starts with, the tools a counted run needs, the
//! closing table's measure columns) is a method here, and the rest of the runner asks
//! [`of`] and never which measure a run has. How a counted sample runs is [`crate::counting`].

use crate::counting::{self, Counter, Valgrind};
use anyhow::{bail, Result};
use schema::phases::{Figure, Phase, Quantity, Whole};
use schema::rows::{CellSamples, Samples};
use schema::run_folder::Counting;
use schema::{CellKey, Measure};
use stats::cells::over_floor;
use stats::quantile::quantile;
use stats::units::{bytes, count, ns};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a measure changes in the runner.
pub(crate) trait RunnerMeasure {
    /// Samples per cell when `--samples` is not given (`precision`: with `--precision`).
    fn default_samples(&self, precision: bool) -> Result<u32>;
    /// The tools a run needs, found before any folder is made (so a counted run without
    /// Valgrind fails at once, with how to get it).
    fn tools(&self) -> Result<Option<(Valgrind, PathBuf)>>;
    /// The counter a resume of `dir` counts with, from what its manifest recorded.
    fn resumed_counter(&self, dir: &Path, recorded: Option<&Counting>) -> Result<Option<Counter>>;
    /// A value of the measure, for a person.
    fn amount(&self, v: f64) -> String;
    /// The closing table's column beside the median library cost, and its cell.
    fn spread_header(&self) -> &'static str;
    fn spread(&self, cost: &[f64]) -> String;
    /// The closing table's columns after the first op, and their cells; `floor` is the cell of
    /// the codec's runtime's floor (`None` for a floor itself, or when there is none).
    fn extra_headers(&self) -> &'static [&'static str];
    fn extra(&self, cell: &CellSamples, floor: Floor) -> Vec<String>;
    /// What the closing table's columns mean.
    fn legend(&self) -> &'static str;
}

/// Where a cell stands against its runtime's floor.
pub(crate) enum Floor<'a> {
    /// The cell is a floor.
    Itself,
    /// The floor's cell at the same op, batch, fixture and build.
    Cell(&'a CellSamples),
    /// No floor in the run.
    Missing,
}

impl<'a> Floor<'a> {
    /// The floor of `key`, given each codec's floor.
    pub(crate) fn of(
        key: &CellKey,
        samples: &'a Samples,
        floors: &HashMap<String, String>,
    ) -> Self {
        match floors.get(&key.codec) {
            Some(id) if *id == key.codec => Floor::Itself,
            Some(id) => samples
                .cells
                .get(&key.with_codec(id))
                .map_or(Floor::Missing, Floor::Cell),
            None => Floor::Missing,
        }
    }
}

/// The measure's behaviour.
pub(crate) fn of(measure: Measure) -> &'static dyn RunnerMeasure {
    match measure {
        Measure::Time => &Time,
        Measure::Instructions => &Instructions,
    }
}

fn or_dash(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("—".to_string(), f)
}

fn median(cell: &CellSamples, f: Figure) -> Option<f64> {
    quantile(&stats::cells::values(cell, f), 0.5)
}

struct Time;

impl RunnerMeasure for Time {
    fn default_samples(&self, precision: bool) -> Result<u32> {
        Ok(if precision {
            crate::run::precision::MIN_BLOCKS
        } else {
            30
        })
    }
    fn tools(&self) -> Result<Option<(Valgrind, PathBuf)>> {
        Ok(None)
    }
    fn resumed_counter(&self, _: &Path, _: Option<&Counting>) -> Result<Option<Counter>> {
        Ok(None)
    }
    fn amount(&self, v: f64) -> String {
        ns(v)
    }
    fn spread_header(&self) -> &'static str {
        "p90"
    }
    fn spread(&self, cost: &[f64]) -> String {
        or_dash(quantile(cost, 0.9), ns)
    }
    fn extra_headers(&self) -> &'static [&'static str] {
        &["wall", "over floor", "peak RSS", "lib faults"]
    }
    fn extra(&self, cell: &CellSamples, floor: Floor) -> Vec<String> {
        let above = match floor {
            Floor::Itself => "floor".to_string(),
            Floor::Cell(f) => over_floor(cell, f).map_or("—".to_string(), |d| {
                format!("{}{}", if d >= 0.0 { "+" } else { "−" }, ns(d.abs()))
            }),
            Floor::Missing => "—".to_string(),
        };
        vec![
            or_dash(median(cell, Figure::WALL), ns),
            above,
            or_dash(
                median(cell, Figure::Whole(Whole::HwmKib)).map(|k| k * 1024.0),
                bytes,
            ),
            or_dash(median(cell, Figure::Whole(Whole::LibraryMinflt)), count),
        ]
    }
    fn legend(&self) -> &'static str {
        "(init+ops: init + first op + remaining ops; wall: spawn to reaped; over floor: median of \
         (wall − input phase) minus the floor's, so building the input is charged to no codec; \
         peak RSS: the child's own VmHWM; lib faults: minor page faults in init + first op + \
         remaining ops, read by the child outside them; output: how `ser` hands its output \
         over; medians and p90 of the ok samples)"
    }
}

struct Instructions;

impl RunnerMeasure for Instructions {
    fn default_samples(&self, precision: bool) -> Result<u32> {
        if precision {
            bail!(
                "--precision with --measure instructions: counts do not vary, so there is no \
                 interval to narrow; give one or the other"
            );
        }
        Ok(3)
    }
    fn tools(&self) -> Result<Option<(Valgrind, PathBuf)>> {
        Ok(Some((
            counting::find_valgrind()?,
            counting::alloc_counter_beside_runner()?,
        )))
    }
    fn resumed_counter(&self, dir: &Path, recorded: Option<&Counting>) -> Result<Option<Counter>> {
        match recorded {
            Some(recorded) => Ok(Some(counting::resume(dir, recorded)?)),
            None => bail!(
                "{}: manifest.json says this run counts instructions but not how; start a new run",
                dir.display()
            ),
        }
    }
    fn amount(&self, v: f64) -> String {
        count(v)
    }
    fn spread_header(&self) -> &'static str {
        "same"
    }
    fn spread(&self, cost: &[f64]) -> String {
        match (cost.first(), cost.last()) {
            (Some(lo), Some(hi)) if lo == hi => format!("yes ×{}", cost.len()),
            (Some(_), Some(_)) => "NO".to_string(),
            _ => "—".to_string(),
        }
    }
    fn extra_headers(&self) -> &'static [&'static str] {
        &["first-op allocs"]
    }
    fn extra(&self, cell: &CellSamples, _: Floor) -> Vec<String> {
        let first = |q| median(cell, Figure::Of(q, Phase::FirstOp));
        vec![
            match (first(Quantity::AllocBlocks), first(Quantity::AllocBytes)) {
                (Some(n), Some(b)) => format!("{} / {}", count(n), bytes(b)),
                _ => "—".to_string(),
            },
        ]
    }
    fn legend(&self) -> &'static str {
        "(instructions executed, counted by callgrind: init+ops = init + first op + remaining \
         ops; same: every sample counted them alike; first-op allocs: heap blocks / bytes of the \
         first operation, counted natively by the allocation counter; medians of the ok samples)"
    }
}
