//! What a report says of a `cold run --precision` run ([`PrecisionRun`]): the rule and why the
//! run stopped, from its manifest, and how many of the rule's intervals this report's own figures
//! find within the target. The rule itself is `store::stopping`, which the runner applies and
//! `analysis synth --precision` applies to simulated runs; it is not repeated here.

use crate::analyze::cells::CellSummary;
use crate::analyze::contrasts::ContrastRow;
use schema::run_folder::Stopping;
use serde::Serialize;
use std::collections::BTreeSet;

/// What a report says of a `--precision` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct PrecisionRun {
    /// The rule and where the run stood when it stopped, as the manifest records them.
    pub(crate) rule: Stopping,
    /// Samples per cell (= blocks) the run took.
    pub(crate) samples_per_cell: Option<u32>,
    /// The rule's intervals as this report computes them (every cell's median but the
    /// floors', and every ratio to the rule's reference when the report's reference is the
    /// same): how many there are, and how many are within the target.
    pub(crate) intervals: usize,
    pub(crate) within: usize,
}

impl PrecisionRun {
    /// The run's rule and standing, the samples per cell it took, and this report's count of
    /// the rule's intervals within the target (`floors` are not asked; the ratios are counted
    /// only when `reference`, the report's, is the rule's).
    pub(crate) fn of(
        rule: &Stopping,
        samples_per_cell: Option<u32>,
        cells: &[CellSummary],
        contrasts: &[ContrastRow],
        reference: Option<&str>,
        floors: &BTreeSet<String>,
    ) -> PrecisionRun {
        let target = rule.precision;
        let mut widths: Vec<Option<f64>> = cells
            .iter()
            .filter(|c| !floors.contains(&c.key.codec))
            .map(|c| c.init_plus_ops_half_width)
            .collect();
        if reference.is_some() && reference == rule.reference.as_deref() {
            widths.extend(contrasts.iter().map(|c| c.half_width));
        }
        PrecisionRun {
            rule: rule.clone(),
            samples_per_cell,
            intervals: widths.len(),
            within: widths
                .iter()
                .filter(|w| w.is_some_and(|w| w <= target))
                .count(),
        }
    }
}
