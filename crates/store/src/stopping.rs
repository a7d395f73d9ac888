//! The stopping rule of `cold run --precision`, defined once for the runner that applies it and
//! for `analysis synth --precision`, which applies it to simulated runs to measure its coverage:
//! which intervals the rule looks at ([`reaches`]), and what to do after each check ([`next`]).
//!
//! The run starts with [`MIN_BLOCKS`] blocks, then, every [`CHECK_EVERY`] blocks, asks whether
//! every cell's interval of the median init_plus_ops, and every candidate's paired ratio to the
//! reference, reaches within the half-width asked of its estimate ([`stats::precision`]); if not,
//! it adds more whole blocks, until `max_blocks` or until another round would run past the time
//! budget. The floors (baselines) are sampled in every block but are not asked: a 0.3 µs floor at
//! ±3% is no figure anyone compares.

use crate::cell::Samples;
use schema::phases::Figure;
use schema::run_folder::Stopping;
use schema::{CellKey, StopReason};
use stats::precision::{median_half_width, ratio_half_width, Reach};
use std::collections::{BTreeMap, HashMap};

/// Blocks before the first check.
pub const MIN_BLOCKS: u32 = 10;
/// Blocks between checks.
pub const CHECK_EVERY: u32 = 5;
/// The most blocks unless `--max-samples` says otherwise.
pub const MAX_BLOCKS: u32 = 300;
/// The intervals' confidence level (the reports').
pub const LEVEL: f64 = 0.95;

/// Every interval the rule looks at, from the rows so far: each cell's median of init_plus_ops
/// (but the `floors`'), and each candidate's within-block ratio to the reference's cell of the
/// same fixture, op, batch and variant. One figure per cell and block: the first ok sample of the
/// block, as the report pairs them (a resumed run may hold two).
pub fn reaches(samples: &Samples, reference: Option<&str>, floors: &[&str]) -> Vec<Reach> {
    let mut by_cell: BTreeMap<CellKey, HashMap<u32, f64>> = BTreeMap::new();
    for (key, cell) in &samples.cells {
        if floors.contains(&key.codec.as_str()) {
            continue;
        }
        let blocks = by_cell.entry(key.clone()).or_default();
        for (block, ipo) in cell.by_block(Figure::INIT_PLUS_OPS) {
            blocks.entry(block).or_insert(ipo as f64);
        }
    }
    by_cell.retain(|_, blocks| !blocks.is_empty());
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

#[cfg(test)]
mod tests {
    use super::*;
    use schema::rows::{PlanRow, SampleRow};
    use schema::{Op, Variant};
    use stats::precision::standing;

    fn row(codec: &str, block: u32, ipo: u64) -> SampleRow {
        let mut row = SampleRow::planned(&PlanRow {
            plan_index: 0,
            block,
            codec: codec.into(),
            op: Op::De,
            batch: 1,
            fixture: "users-2kb".into(),
            variant: Variant::PORTABLE,
        });
        row.set(Figure::INIT_PLUS_OPS, Some(ipo));
        row
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

    #[test]
    fn the_floor_is_sampled_but_not_asked_for_precision() {
        let mut rows = Vec::new();
        for block in 0..12 {
            // serde_json steady; simd-json twice as slow, ±1% by block; the floor very noisy.
            rows.push(row("serde_json", block, 1000));
            rows.push(row("simd-json", block, 2000 + 20 * u64::from(block % 3)));
            rows.push(row("noop", block, 1 + 100 * u64::from(block % 2)));
        }
        let rows = Samples::from_rows(&rows);
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
