//! `compare RUN_A RUN_B`: every cell present in both runs, the ratio of medians B / A with a
//! seeded bootstrap interval, and a verdict that calls a change only when the whole interval
//! lies beyond the noise threshold (±2% by default), and never from too few samples. Pure: the
//! caller reads the runs.
//!
//! Two counted runs are compared exactly instead, phase by phase: [`counts`].

use crate::analyze::cells::{cell_seed, CellKey, Figure};
use crate::inputs::samples::Samples;
use crate::stats::bootstrap::median_ratio_interval;
use crate::stats::median_interval::smallest_n;
use crate::stats::quantile::{median, sorted};
use schema::{Op, Variant};
use serde::Serialize;
use std::collections::BTreeMap;

pub mod counts;

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
    /// A cell both runs hold whose change has no meaning: no ok sample with the figure in one
    /// run, a median of A that is not above zero (no ratio), or no bootstrap interval (a
    /// resampled median of A is zero). Counted and listed, never dropped.
    #[serde(rename = "cannot-compare")]
    CannotCompare,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Improved => "improved",
            Change::Regressed => "regressed",
            Change::Unchanged => "unchanged",
            Change::TooFewSamples => "too few samples",
            Change::CannotCompare => "cannot compare",
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
    /// `None` when the run has no ok sample with the figure in this cell.
    pub median_a: Option<f64>,
    pub median_b: Option<f64>,
    /// median_b / median_a; `None` when either is missing or median_a is not above zero.
    pub ratio: Option<f64>,
    /// The bootstrap interval of the ratio; `None` when either run has too few samples, or
    /// the cell cannot be compared.
    pub interval: Option<(f64, f64)>,
    pub change: Change,
    /// Why a cell cannot be compared.
    pub why: Option<String>,
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
pub(crate) type MatchKey = (String, Op, Option<Variant>, u32, String);

fn match_key(k: &CellKey, ignore_variant: bool) -> MatchKey {
    let variant = (!ignore_variant).then_some(k.variant);
    (k.fixture.clone(), k.op, variant, k.batch, k.codec.clone())
}

/// Every cell of a run under its match key, with the cell it came from and what `of` takes
/// from the cell (cells that differ only by variant, when variants are ignored, pooled under
/// the cell met first in the file).
pub(crate) fn by_match_key<T>(
    samples: &Samples,
    ignore_variant: bool,
    mut of: impl FnMut(&CellKey, &mut Vec<T>),
) -> BTreeMap<MatchKey, (CellKey, Vec<T>)> {
    let mut m: BTreeMap<MatchKey, (CellKey, Vec<T>)> = BTreeMap::new();
    // in file order, so that the cell a match key keeps is the one met first
    for cell in &samples.first_seen {
        let e = m
            .entry(match_key(cell, ignore_variant))
            .or_insert_with(|| (cell.clone(), Vec::new()));
        of(cell, &mut e.1);
    }
    m
}

/// `variants` of a compared cell: `portable`, or `portable→native` when they differ.
pub(crate) fn variants(a: &CellKey, b: &CellKey) -> String {
    if a.variant == b.variant {
        a.variant.to_string()
    } else {
        format!("{}→{}", a.variant, b.variant)
    }
}

/// The cells of `a` whose match key `b` lacks.
pub(crate) fn only_in<T, U>(
    a: &BTreeMap<MatchKey, (CellKey, T)>,
    b: &BTreeMap<MatchKey, U>,
) -> Vec<CellKey> {
    a.iter()
        .filter(|(k, _)| !b.contains_key(*k))
        .map(|(_, (cell, _))| cell.clone())
        .collect()
}

/// Every compared cell's change, the cells only in A, the cells only in B.
pub type Compared = (Vec<CellChange>, Vec<CellKey>, Vec<CellKey>);

/// The change of one cell both runs hold, from its ok figures in A and in B.
fn change_of(
    cell_a: &CellKey,
    cell_b: &CellKey,
    xa: &[f64],
    xb: &[f64],
    opts: &CompareOptions,
) -> CellChange {
    let (sa, sb) = (sorted(xa), sorted(xb));
    let (ma, mb) = (median(&sa), median(&sb));
    let mut c = CellChange {
        key: cell_a.clone(),
        variants: variants(cell_a, cell_b),
        n_a: sa.len(),
        n_b: sb.len(),
        median_a: ma,
        median_b: mb,
        ratio: None,
        interval: None,
        change: Change::CannotCompare,
        why: None,
    };
    let figure = opts.figure.name();
    let (ma, mb) = match (ma, mb) {
        (Some(ma), Some(mb)) => (ma, mb),
        (None, _) => {
            c.why = Some(format!("no ok sample with {figure} in A"));
            return c;
        }
        (_, None) => {
            c.why = Some(format!("no ok sample with {figure} in B"));
            return c;
        }
    };
    if ma <= 0.0 {
        c.why = Some(format!("the median of A is {ma}: no ratio"));
        return c;
    }
    c.ratio = Some(mb / ma);
    if sa.len().min(sb.len()) < min_samples(opts.level) {
        c.change = Change::TooFewSamples;
        return c;
    }
    let seed = cell_seed(cell_a, opts.seed);
    match median_ratio_interval(&sa, &sb, opts.resamples, opts.level, seed) {
        None => {
            c.why = Some("a resampled median of A is 0: no interval of the ratio".into());
        }
        Some((lo, hi)) => {
            c.interval = Some((lo, hi));
            c.change = if lo < hi {
                classify(lo, hi, opts.threshold)
            } else {
                Change::TooFewSamples
            };
        }
    }
    c
}

/// Changes of every cell both runs have (those that cannot be compared among them, as such),
/// plus the cells only one has (A-only, B-only).
pub fn compare(a: &Samples, b: &Samples, opts: &CompareOptions) -> Compared {
    let values = |s: &Samples| {
        by_match_key(s, opts.ignore_variant, |cell, v: &mut Vec<f64>| {
            v.extend(
                s.cells[cell]
                    .iter()
                    .filter(|r| r.is_ok())
                    .filter_map(|r| opts.figure.of(r))
                    .map(|x| x as f64),
            );
        })
    };
    let (va, vb) = (values(a), values(b));
    let out = va
        .iter()
        .filter_map(|(k, (cell_a, xa))| {
            let (cell_b, xb) = vb.get(k)?;
            Some(change_of(cell_a, cell_b, xa, xb, opts))
        })
        .collect();
    (out, only_in(&va, &vb), only_in(&vb, &va))
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
        assert!((c[0].ratio.unwrap() - 1.1).abs() < 0.01);
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
            assert!((c[0].ratio.unwrap() - 1.1).abs() < 0.01);
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

    #[test]
    fn a_common_cell_that_cannot_be_compared_is_kept_and_says_why() {
        // A's median is 0 (no ratio); A's resampled medians include 0 (no interval: 20 zeros
        // among 40); A's samples all failed. Each is in both runs, so each is listed.
        let zeros = cell(40, 0).into_iter().map(|mut r| {
            r.init_plus_ops_ns = Some(0);
            r
        });
        let half: Vec<SampleRow> = cell(40, 10_000)
            .into_iter()
            .enumerate()
            .map(|(i, mut r)| {
                if i % 2 == 0 {
                    r.init_plus_ops_ns = Some(0);
                }
                r
            })
            .collect();
        let failed: Vec<SampleRow> = (0..40).map(|b| row(b, "x", 1, None)).collect();
        for (a, why) in [
            (zeros.collect::<Vec<_>>(), "the median of A is 0: no ratio"),
            (
                half,
                "a resampled median of A is 0: no interval of the ratio",
            ),
            (failed, "no ok sample with init_plus_ops in A"),
        ] {
            let (c, only_a, only_b) = compare(&a, &cell(40, 11_000), &opts());
            assert_eq!(c.len(), 1, "{why}");
            assert_eq!(c[0].change, Change::CannotCompare, "{why}");
            assert_eq!(c[0].why.as_deref(), Some(why));
            assert_eq!(c[0].interval, None);
            assert!(only_a.is_empty() && only_b.is_empty());
        }
        let (c, _, _) = compare(
            &cell(40, 11_000),
            &(0..40).map(|b| row(b, "x", 1, None)).collect::<Vec<_>>(),
            &opts(),
        );
        assert_eq!(
            c[0].why.as_deref(),
            Some("no ok sample with init_plus_ops in B")
        );
        assert_eq!(Change::CannotCompare.label(), "cannot compare");
    }
}
