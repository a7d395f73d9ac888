//! `cold run --precision 3%`: enough samples and no more. The run starts with `min_blocks`
//! blocks, then, every `check_every` blocks, asks whether every cell's 95% interval of the
//! median init_plus_ops, and every candidate's paired ratio to the reference, reaches within the
//! half-width asked of its estimate; if not, it adds `check_every` more blocks (every cell once
//! per block, in the plan's seeded order, so the pairing within blocks stays whole), until
//! `max_blocks` or until another round would run past `max_time`.
//!
//! Stopping when the data look precise enough is a data-dependent rule, which can make the
//! intervals cover less often than their level says. It is bounded here by never deciding
//! before `min_blocks` (10 by default), by looking only every `check_every` (5) blocks, and by
//! asking for width, not for an effect: the rule never looks at where an interval lies, only at
//! how wide it is. `analysis synth --precision` measures the coverage this gives (README).
//!
//! The baselines (`noop`, and each runtime's floor) are the harness floors: its cells are sampled in every block but are not
//! part of the rule (a 0.3 µs floor at ±3% is no figure anyone compares). Pure but for nothing:
//! rows in, decisions out.

use schema::run_folder::{SampleRow, Stopping};
use schema::{CellKey, StopReason};
use stats::precision::{median_half_width, ratio_half_width, standing, Reach, Standing};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// Blocks before the first check.
pub const DEFAULT_MIN_BLOCKS: u32 = 10;
/// Blocks between checks.
pub const CHECK_EVERY: u32 = 5;
/// The most blocks a `--precision` run takes unless `--max-samples` says otherwise.
pub const DEFAULT_MAX_BLOCKS: u32 = 300;
/// The intervals' confidence level (the reports').
pub const LEVEL: f64 = 0.95;
/// The reference codec when the run has it (the reports' default).
pub const DEFAULT_REFERENCE: &str = "serde_json";

/// `3%` or `0.03`: a relative half-width above 0 and at most 50%.
pub fn parse_precision(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let value = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => match t.parse::<f64>() {
            Ok(f) if f >= 1.0 => {
                return Err(format!(
                    "`{text}`: give a percentage like 3% or a fraction like 0.03"
                ))
            }
            other => other,
        },
    }
    .map_err(|_| format!("`{text}` is not a precision: give a percentage like 3%"))?;
    if value.is_finite() && value > 0.0 && value <= 0.5 {
        Ok(value)
    } else {
        Err(format!(
            "`{text}`: give a precision above 0% and at most 50%"
        ))
    }
}

/// `90s`, `10m`, `2h` or a number of seconds; at most a week.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("`{text}`: give a duration like 90s, 10m or 2h")),
    };
    let secs = number
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("`{text}`: give a duration like 90s, 10m or 2h"))?
        * scale;
    if secs.is_finite() && secs > 0.0 && secs <= 7.0 * 86_400.0 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!(
            "`{text}`: give a duration above 0 and at most a week"
        ))
    }
}

/// Every interval the rule looks at, from the rows so far: each non-baseline cell's median, and
/// each candidate's within-block ratio to the reference's cell of the same fixture, op, batch and
/// variant.
pub fn reaches(rows: &[SampleRow], reference: Option<&str>, floors: &[&str]) -> Vec<Reach> {
    let mut by_cell: BTreeMap<CellKey, HashMap<u32, f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_ok()) {
        if floors.contains(&r.codec.as_str()) {
            continue;
        }
        if let Some(ipo) = r.init_plus_ops_ns {
            // The first ok sample of a block, as the report pairs (a resumed run may hold two).
            by_cell
                .entry(r.cell())
                .or_default()
                .entry(r.block)
                .or_insert(ipo as f64);
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

/// What to do after `blocks` blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Stop(StopReason),
    /// Take this many more blocks.
    More(u32),
}

/// The decision after `blocks` blocks, taken in `rule.sampling_secs`, standing as `now`.
pub fn next(rule: &Stopping, blocks: u32, now: &Standing) -> Next {
    if now.met {
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

/// The standing of the rows against the rule.
pub fn stand(rows: &[SampleRow], rule: &Stopping, floors: &[&str]) -> Standing {
    standing(
        &reaches(rows, rule.reference.as_deref(), floors),
        rule.precision,
    )
}

/// `±4.1% users-2kb de ×1 simd-json (portable) / serde_json`, for the progress display.
pub fn describe_widest(s: &Standing) -> String {
    match &s.widest {
        None => "no interval yet".into(),
        Some(Reach {
            label,
            half_width: Some(hw),
        }) => format!("widest ±{:.1}% {label}", hw * 100.0),
        Some(Reach { label, .. }) => format!("widest: {label} has too few samples yet"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            min_blocks: 10,
            check_every: 5,
            max_blocks: 30,
            max_time_secs: max_time,
            sampling_secs: spent,
            stopped_on: None,
            widest: None,
        }
    }

    #[test]
    fn precisions_and_durations() {
        assert_eq!(parse_precision("3%"), Ok(0.03));
        assert_eq!(parse_precision("0.05"), Ok(0.05));
        assert!(parse_precision("3").unwrap_err().contains("3%"));
        assert!(parse_precision("0%").is_err() && parse_precision("80%").is_err());
        assert!(parse_precision("x%").is_err());
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("10 parsecs").is_err() && parse_duration("-1m").is_err());
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
        let r = reaches(&rows, Some("serde_json"), &["noop"]);
        let labels: Vec<&str> = r.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(r.len(), 3, "{labels:?}");
        assert!(labels.iter().all(|l| !l.contains("noop")));
        assert!(labels
            .iter()
            .any(|l| l.ends_with("simd-json (portable) / serde_json")));
        let s = standing(&r, 0.03);
        assert!(s.met, "{s:?}");
        assert_eq!(
            next(&rule(None, 60.0), 12, &s),
            Next::Stop(StopReason::Precision)
        );
    }

    #[test]
    fn it_adds_blocks_until_samples_or_time_run_out() {
        let wide = Standing {
            met: false,
            widest: None,
        };
        assert_eq!(next(&rule(None, 60.0), 10, &wide), Next::More(5));
        assert_eq!(next(&rule(None, 60.0), 28, &wide), Next::More(2));
        assert_eq!(
            next(&rule(None, 60.0), 30, &wide),
            Next::Stop(StopReason::Samples)
        );
        // 10 blocks took 60 s: 5 more would end at 90 s, past a budget of 80 s.
        assert_eq!(
            next(&rule(Some(80.0), 60.0), 10, &wide),
            Next::Stop(StopReason::Time)
        );
        assert_eq!(next(&rule(Some(100.0), 60.0), 10, &wide), Next::More(5));
    }
}
