//! Reading a curve run's curves: `curves.csv` (schema's reader, bounded, no link followed) joined
//! by plan index to the ok samples of samples.csv, into one [`Process`] per sample. A folder
//! without curves.csv is not a curve run (`None`); a curve without an ok sample, or whose reads
//! are not its batch's schedule, is left out with a note.

use crate::inputs::run::Run;
use anyhow::{Context, Result};
use schema::curve::{read_curves, schedule, window_for, CURVES};
use schema::phases::{Figure, Phase};
use schema::run_folder::SAMPLES;
use schema::CellKey;
use store::rows::read_samples;

/// The processes of a curve run and the notes about what was left out; `None` when the run
/// folder holds no curves.csv.
pub(crate) fn load_curves(run: &Run) -> Result<Option<(Vec<Process>, Vec<String>)>> {
    let folder = &run.folder;
    if !folder.exists(CURVES) {
        return Ok(None);
    }
    let path = folder.file(CURVES);
    let (curves, torn) = read_curves(&path).with_context(|| format!("{}", path.display()))?;
    let mut notes: Vec<String> = torn.into_iter().collect();
    let (samples, _) = read_samples(folder.file(SAMPLES), None)?;
    let mut processes = Vec::new();
    let mut off_schedule = 0usize;
    let mut schedules: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    for s in samples.iter().filter(|s| s.is_ok()) {
        let Some(c) = curves.get(&s.plan_index) else {
            continue;
        };
        let batch = u64::from(s.batch);
        let want = schedules
            .entry(batch)
            .or_insert_with(|| schedule(batch, window_for(batch)));
        if c.ops != *want {
            off_schedule += 1;
            continue;
        }
        processes.push(Process {
            key: s.cell(),
            block: s.block,
            init_ns: s.get(Figure::time(Phase::Init)).unwrap_or(0),
            clock_1000_ns: c.clock_1000_ns,
            ops: c.ops.clone(),
            cost_ns: c.cost_ns.clone(),
        });
    }
    let ok: std::collections::BTreeSet<u64> = samples
        .iter()
        .filter(|s| s.is_ok())
        .map(|s| s.plan_index)
        .collect();
    let unmatched = curves.keys().filter(|i| !ok.contains(i)).count();
    if unmatched > 0 {
        notes.push(format!(
            "{}: {unmatched} curve(s) of samples that are not ok samples of samples.csv were left out",
            path.display()
        ));
    }
    if off_schedule > 0 {
        notes.push(format!(
            "{}: {off_schedule} curve(s) whose reads are not their batch's schedule (`schema::curve::schedule`) were left out",
            path.display()
        ));
    }
    Ok(Some((processes, notes)))
}

/// One ok sample of a curve run: its cell and block, its init, the price of 1,000 clock reads,
/// and C(n) at each read (`ops` the schedule of its batch and window).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Process {
    pub(crate) key: CellKey,
    pub(crate) block: u32,
    pub(crate) init_ns: u64,
    pub(crate) clock_1000_ns: u64,
    pub(crate) ops: Vec<u64>,
    pub(crate) cost_ns: Vec<u64>,
}

impl Process {
    /// C(n) at read `n`, if the clock was read after operation n.
    pub(crate) fn cost_at(&self, n: u64) -> Option<u64> {
        Some(self.cost_ns[self.ops.binary_search(&n).ok()?])
    }

    /// The time per operation in each window of `window` operations: t_k = (C(kW) −
    /// C((k − 1)W)) / W for k = 1..=N/W, C(0) the sample's init.
    pub(crate) fn windows(&self, window: u64) -> Vec<f64> {
        let mut prev = self.init_ns as f64;
        let mut out = Vec::new();
        if window == 0 {
            return out;
        }
        for k in 1..=u64::from(self.key.batch) / window {
            let Some(c) = self.cost_at(k * window) else {
                break;
            };
            out.push((c as f64 - prev) / window as f64);
            prev = c as f64;
        }
        out
    }

    /// The clock's reads over the library's cost: reads × clock_1000_ns / 1000 over C(N).
    pub(crate) fn clock_share(&self) -> Option<f64> {
        let total = *self.cost_ns.last()? as f64;
        (total > 0.0).then(|| self.ops.len() as f64 * self.clock_1000_ns as f64 / 1000.0 / total)
    }
}
