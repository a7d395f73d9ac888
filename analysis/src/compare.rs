//! `compare RUN_A RUN_B`: every cell present in both runs, the ratio of medians B / A with a
//! seeded bootstrap interval, and a verdict that calls a change only when the whole interval
//! lies beyond the noise threshold (±2% by default), and never from too few samples. Pure: the
//! caller reads the runs.

use crate::analyze::cells::{cell_seed, CellKey, Figure};
use crate::inputs::samples::Samples;
use crate::stats::bootstrap::median_ratio_interval;
use crate::stats::median_interval::smallest_n;
use crate::stats::quantile::{median, sorted};
use schema::{Op, Variant};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Improved,
    Regressed,
    Unchanged,
    /// Too few samples in either run for the interval to mean anything (fewer than
    /// [`min_samples`]), or an interval of zero width (too few distinct values for the
    /// bootstrap): neither improved nor regressed, whatever the medians say.
    #[serde(rename = "too-few-samples")]
    TooFewSamples,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Improved => "improved",
            Change::Regressed => "regressed",
            Change::Unchanged => "unchanged",
            Change::TooFewSamples => "too few samples",
        }
    }
}

/// The fewest samples per run a cell needs for a verdict at `level`: the fewest with which a
/// median has a distribution-free interval at that level at all (6 at 95%: with 5 even the
/// whole range covers the median only 93.75% of the time). The bootstrap of a median draws
/// only order statistics of the sample, so below that it cannot honestly claim the level
/// either; at one sample it has zero width.
pub fn min_samples(level: f64) -> usize {
    smallest_n(level).unwrap_or(usize::MAX)
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellChange {
    /// The cell (with run A's variant).
    pub key: CellKey,
    /// The variant compared: `portable`, or `portable→native` when variants were ignored.
    pub variants: String,
    pub n_a: usize,
    pub n_b: usize,
    pub median_a: f64,
    pub median_b: f64,
    /// median_b / median_a.
    pub ratio: f64,
    /// The bootstrap interval of the ratio; `None` when either run has too few samples.
    pub interval: Option<(f64, f64)>,
    pub change: Change,
}

#[derive(Debug, Clone, Copy)]
pub struct CompareOptions {
    pub figure: Figure,
    pub threshold: f64,
    pub resamples: usize,
    pub level: f64,
    pub seed: u64,
    /// Match cells whatever their variant (to compare a portable run with a native one).
    pub ignore_variant: bool,
}

/// The verdict rule: regressed when the interval's lower end exceeds 1 + threshold, improved
/// when its upper end is below 1 − threshold, unchanged otherwise.
pub fn classify(lo: f64, hi: f64, threshold: f64) -> Change {
    if lo > 1.0 + threshold {
        Change::Regressed
    } else if hi < 1.0 - threshold {
        Change::Improved
    } else {
        Change::Unchanged
    }
}

/// How cells of two runs are matched: fixture, op, variant (none when variants are ignored),
/// batch, codec, in the order tables list them.
type MatchKey = (String, Op, Option<Variant>, u32, String);

fn match_key(k: &CellKey, ignore_variant: bool) -> MatchKey {
    let variant = (!ignore_variant).then_some(k.variant);
    (k.fixture.clone(), k.op, variant, k.batch, k.codec.clone())
}

/// Each matched cell's figures, with the cell they came from.
fn values(samples: &Samples, opts: &CompareOptions) -> BTreeMap<MatchKey, (CellKey, Vec<f64>)> {
    let mut m: BTreeMap<MatchKey, (CellKey, Vec<f64>)> = BTreeMap::new();
    // in file order, so that the cell a match key keeps is the one met first (they differ only
    // by variant when variants are ignored)
    for cell in &samples.first_seen {
        let mut v = samples.cells[cell]
            .iter()
            .filter(|r| r.is_ok())
            .filter_map(|r| opts.figure.of(r))
            .map(|x| x as f64)
            .peekable();
        if v.peek().is_none() {
            continue;
        }
        m.entry(match_key(cell, opts.ignore_variant))
            .or_insert_with(|| (cell.clone(), Vec::new()))
            .1
            .extend(v);
    }
    m
}

/// Every compared cell's change, the cells only in A, the cells only in B.
pub type Compared = (Vec<CellChange>, Vec<CellKey>, Vec<CellKey>);

/// Changes of every cell both runs have, plus the cells only one has (A-only, B-only).
pub fn compare(a: &Samples, b: &Samples, opts: &CompareOptions) -> Compared {
    let va = values(a, opts);
    let vb = values(b, opts);
    let mut out = Vec::new();
    for (k, (cell_a, xa)) in &va {
        let Some((cell_b, xb)) = vb.get(k) else {
            continue;
        };
        let (sa, sb) = (sorted(xa), sorted(xb));
        let (Some(ma), Some(mb)) = (median(&sa), median(&sb)) else {
            continue;
        };
        if ma <= 0.0 {
            continue;
        }
        let enough = sa.len().min(sb.len()) >= min_samples(opts.level);
        let seed = cell_seed(cell_a, opts.seed);
        let interval = if enough {
            let Some(i) = median_ratio_interval(&sa, &sb, opts.resamples, opts.level, seed) else {
                continue;
            };
            Some(i)
        } else {
            None
        };
        let change = match interval {
            Some((lo, hi)) if lo < hi => classify(lo, hi, opts.threshold),
            _ => Change::TooFewSamples,
        };
        let variants = if cell_a.variant == cell_b.variant {
            cell_a.variant.to_string()
        } else {
            format!("{}→{}", cell_a.variant, cell_b.variant)
        };
        out.push(CellChange {
            key: cell_a.clone(),
            variants,
            n_a: sa.len(),
            n_b: sb.len(),
            median_a: ma,
            median_b: mb,
            ratio: mb / ma,
            interval,
            change,
        });
    }
    let only_a = va
        .iter()
        .filter(|(k, _)| !vb.contains_key(*k))
        .map(|(_, (cell, _))| cell.clone())
        .collect();
    let only_b = vb
        .iter()
        .filter(|(k, _)| !va.contains_key(*k))
        .map(|(_, (cell, _))| cell.clone())
        .collect();
    (out, only_a, only_b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::tests::row;
    use schema::run_folder::SampleRow;

    fn compare(a: &[SampleRow], b: &[SampleRow], opts: &CompareOptions) -> Compared {
        super::compare(&Samples::from_rows(a), &Samples::from_rows(b), opts)
    }

    fn opts() -> CompareOptions {
        CompareOptions {
            figure: Figure::InitPlusOps,
            threshold: 0.02,
            resamples: 500,
            level: 0.95,
            seed: 1,
            ignore_variant: false,
        }
    }

    #[test]
    fn classify_rule() {
        assert_eq!(classify(1.03, 1.10, 0.02), Change::Regressed);
        assert_eq!(classify(1.01, 1.10, 0.02), Change::Unchanged);
        assert_eq!(classify(0.90, 0.97, 0.02), Change::Improved);
        assert_eq!(classify(0.90, 0.99, 0.02), Change::Unchanged);
    }

    #[test]
    fn detects_a_regression() {
        let a: Vec<SampleRow> = (0..40)
            .map(|b| row(b, "x", 1, Some(10_000 + u64::from(b % 7) * 10)))
            .collect();
        let mut b: Vec<SampleRow> = (0..40)
            .map(|b| row(b, "x", 1, Some(11_000 + u64::from(b % 7) * 10)))
            .collect();
        b.push(row(0, "y", 1, Some(5)));
        let (c, only_a, only_b) = compare(&a, &b, &opts());
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].change, Change::Regressed);
        assert!((c[0].ratio - 1.1).abs() < 0.01);
        assert!(only_a.is_empty());
        assert_eq!(only_b.len(), 1);
        let (c, _, _) = compare(&a, &a, &opts());
        assert_eq!(c[0].change, Change::Unchanged);
    }

    /// A cell of `n` samples of "x" around `base`, spread over 7 distinct values.
    fn cell(n: u32, base: u64) -> Vec<SampleRow> {
        (0..n)
            .map(|b| row(b, "x", 1, Some(base + u64::from(b % 7) * 10)))
            .collect()
    }

    #[test]
    fn too_few_samples_is_a_verdict_of_its_own() {
        assert_eq!(min_samples(0.95), 6);
        // B 10% slower: five samples in either run is too few for any verdict, six are enough.
        for (na, nb, expected) in [
            (5, 40, Change::TooFewSamples),
            (40, 5, Change::TooFewSamples),
            (1, 1, Change::TooFewSamples),
            (6, 6, Change::Regressed),
        ] {
            let (c, _, _) = compare(&cell(na, 10_000), &cell(nb, 11_000), &opts());
            assert_eq!(c.len(), 1);
            assert_eq!(c[0].change, expected, "{na} and {nb} samples");
            assert_eq!(c[0].interval.is_some(), na.min(nb) >= 6);
            assert!((c[0].ratio - 1.1).abs() < 0.01);
        }
        // Enough samples, but every one the same in each run: the interval has zero width, so
        // the bootstrap saw nothing of the spread.
        let flat = |ns: u64| {
            (0..40)
                .map(|b| row(b, "x", 1, Some(ns)))
                .collect::<Vec<_>>()
        };
        let (c, _, _) = compare(&flat(10_000), &flat(11_000), &opts());
        assert_eq!(c[0].interval, Some((1.1, 1.1)));
        assert_eq!(c[0].change, Change::TooFewSamples);
    }
}
