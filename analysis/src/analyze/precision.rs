//! `cold run --precision`'s stopping rule as the analysis sees it: the intervals the rule looks
//! at ([`reaches`], the same as the cold runner's), the decision after each check ([`next`]),
//! which `analysis synth --precision` applies to simulated runs; and what a report says of a
//! precision run ([`PrecisionRun`]): the rule and why the run stopped, from its manifest, and
//! how many of the rule's intervals this report's own figures find within the target.
//!
//! The cold crate is not linked here (data flows one way: cold writes, analysis reads), so the
//! rule is mirrored, not shared: the numerics are `stats::precision`'s, which both use; the
//! choice of intervals and the decision are a few lines each, checked here against the same
//! cases the runner's tests pin.

use crate::analyze::cells::CellSummary;
use crate::analyze::contrasts::ContrastRow;
use crate::stats::precision::{median_half_width, ratio_half_width, Reach};
use schema::run_folder::{SampleRow, Stopping};
use schema::{CellKey, StopReason};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Blocks before the first check (the runner's default).
pub const MIN_BLOCKS: u32 = 10;
/// Blocks between checks.
pub const CHECK_EVERY: u32 = 5;
/// The most blocks unless `--max-samples` says otherwise.
pub const MAX_BLOCKS: u32 = 300;
/// The intervals' confidence level (the reports').
pub const LEVEL: f64 = 0.95;

/// Every interval the rule looks at, from the rows so far: each cell's median of
/// init_plus_ops (but the `floors`'), and each candidate's within-block ratio to the reference's
/// cell of the same fixture, op, batch and variant. One figure per cell and block (the last ok
/// sample of a block, as the runner keeps it).
pub fn reaches(rows: &[SampleRow], reference: Option<&str>, floors: &[&str]) -> Vec<Reach> {
    let mut by_cell: BTreeMap<CellKey, HashMap<u32, f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_ok()) {
        if floors.contains(&r.codec.as_str()) {
            continue;
        }
        if let Some(ipo) = r.init_plus_ops_ns {
            by_cell
                .entry(r.cell())
                .or_default()
                .insert(r.block, ipo as f64);
        }
    }
    let mut reaches = Vec::new();
    for (key, blocks) in &by_cell {
        let values: Vec<f64> = blocks.values().copied().collect();
        reaches.push(Reach {
            label: key.label(),
            half_width: median_half_width(&values, LEVEL),
        });
        let Some(reference) = reference.filter(|r| *r != key.codec) else {
            continue;
        };
        let Some(against) = by_cell.get(&key.with_codec(reference)) else {
            continue;
        };
        let pairs: Vec<(f64, f64)> = blocks
            .iter()
            .filter_map(|(block, c)| against.get(block).map(|r| (*r, *c)))
            .collect();
        reaches.push(Reach {
            label: format!("{} / {reference}", key.label()),
            half_width: ratio_half_width(&pairs, LEVEL),
        });
    }
    reaches
}

/// What to do after a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Stop(StopReason),
    /// Take this many more blocks.
    More(u32),
}

/// The decision after `blocks` blocks taken in `rule.sampling_secs`, when every interval is
/// within the target (`met`) or not: stop on precision; stop at `max_blocks`; stop when another
/// round, at the pace so far, would end past `max_time_secs`; otherwise `check_every` more
/// blocks (fewer to land on `max_blocks`).
pub fn next(rule: &Stopping, blocks: u32, met: bool) -> Next {
    if met {
        return Next::Stop(StopReason::Precision);
    }
    if blocks >= rule.max_blocks {
        return Next::Stop(StopReason::Samples);
    }
    let more = rule.check_every.min(rule.max_blocks - blocks).max(1);
    if let Some(budget) = rule.max_time_secs {
        let per_block = rule.sampling_secs / f64::from(blocks.max(1));
        if rule.sampling_secs + per_block * f64::from(more) > budget {
            return Next::Stop(StopReason::Time);
        }
    }
    Next::More(more)
}

/// What a report says of a `--precision` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrecisionRun {
    /// The rule and where the run stood when it stopped, as the manifest records them.
    pub rule: Stopping,
    /// Samples per cell (= blocks) the run took.
    pub samples_per_cell: Option<u32>,
    /// The rule's intervals as this report computes them (every cell's median but the
    /// floors', and every ratio to the rule's reference when the report's reference is the
    /// same): how many there are, and how many are within the target.
    pub intervals: usize,
    pub within: usize,
}

impl PrecisionRun {
    /// The run's rule and standing, the samples per cell it took, and this report's count of
    /// the rule's intervals within the target (`floors` are not asked; the ratios are counted
    /// only when `reference`, the report's, is the rule's).
    pub fn of(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::precision::standing;
    use schema::{Op, Status};

    fn row(codec: &str, block: u32, ipo: u64) -> SampleRow {
        SampleRow {
            codec: codec.into(),
            block,
            op: Op::De,
            batch: 1,
            fixture: "users-2kb".into(),
            status: Status::Ok,
            init_plus_ops_ns: Some(ipo),
            ..SampleRow::default()
        }
    }

    fn rule(max_time: Option<f64>, spent: f64) -> Stopping {
        Stopping {
            precision: 0.03,
            level: LEVEL,
            reference: Some("serde_json".into()),
            min_blocks: MIN_BLOCKS,
            check_every: CHECK_EVERY,
            max_blocks: 30,
            max_time_secs: max_time,
            sampling_secs: spent,
            stopped_on: None,
            widest: None,
        }
    }

    /// The runner's own case (cold/src/precision.rs): the floor is sampled but not asked.
    #[test]
    fn the_floor_is_sampled_but_not_asked_for_precision() {
        let mut rows = Vec::new();
        for block in 0..12 {
            // serde_json steady; simd-json twice as slow, ±1% by block; the floor very noisy.
            rows.push(row("serde_json", block, 1000));
            rows.push(row("simd-json", block, 2000 + 20 * u64::from(block % 3)));
            rows.push(row("noop", block, 1 + 100 * u64::from(block % 2)));
        }
        let r = reaches(&rows, Some("serde_json"), &["noop"]);
        let labels: Vec<&str> = r.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "users-2kb de ×1 serde_json (portable)",
                "users-2kb de ×1 simd-json (portable)",
                "users-2kb de ×1 simd-json (portable) / serde_json",
            ]
        );
        // serde_json is constant: no width; simd-json's 12 values are 2000, 2020, 2040 four
        // times each: median 2020, interval [x(3), x(10)] = [2000, 2040], ±20 / 2020
        assert_eq!(r[0].half_width, Some(0.0));
        assert!((r[1].half_width.unwrap() - 20.0 / 2020.0).abs() < 1e-15);
        let s = standing(&r, 0.03);
        assert!(s.met, "{s:?}");
        assert_eq!(
            next(&rule(None, 60.0), 12, s.met),
            Next::Stop(StopReason::Precision)
        );
        // the floor's cells count when no floor is named
        assert_eq!(reaches(&rows, Some("serde_json"), &[]).len(), 5);
    }

    #[test]
    fn it_adds_blocks_until_samples_or_time_run_out() {
        assert_eq!(next(&rule(None, 60.0), 10, false), Next::More(5));
        assert_eq!(next(&rule(None, 60.0), 28, false), Next::More(2));
        assert_eq!(
            next(&rule(None, 60.0), 30, false),
            Next::Stop(StopReason::Samples)
        );
        // 10 blocks took 60 s: 5 more would end at 90 s, past a budget of 80 s.
        assert_eq!(
            next(&rule(Some(80.0), 60.0), 10, false),
            Next::Stop(StopReason::Time)
        );
        assert_eq!(next(&rule(Some(100.0), 60.0), 10, false), Next::More(5));
    }
}
