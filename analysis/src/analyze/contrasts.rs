//! Each codec against the reference codec, cell by cell: within-block paired log ratios of
//! init_plus_ops, Hodges-Lehmann ratio and interval, Wilcoxon p, Holm across the whole report,
//! and the verdict. Each reference cell's blocks are listed once, and the cells are contrasted
//! in parallel (the same figures as one by one: each contrast depends on its own cells only).

use super::cells::{CellKey, Figure, Grouped};
use super::variants::VariantContrast;
use crate::inputs::samples::Sample;
use crate::parallel::par_map;
use crate::stats::holm::holm;
use crate::stats::paired::{log_ratio_contrast, verdict, PairedContrast, Verdict};
use crate::stats::precision::relative_half_width;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContrastRow {
    /// The candidate's cell.
    pub key: CellKey,
    pub reference: String,
    pub figure: Figure,
    /// `None` when no block holds a usable sample of both.
    pub contrast: Option<PairedContrast>,
    /// The precision the ratio reached: its interval's relative half-width on the wider side,
    /// as `cold run --precision` asks it; `None` without an interval.
    pub half_width: Option<f64>,
    /// Holm-adjusted p across every contrast of the report.
    pub p_holm: Option<f64>,
    pub verdict: Verdict,
}

/// A cell's (block, figure) pairs in ascending block order, one per block: the first ok sample
/// of a block (in file order) wins.
pub(crate) fn by_block(rows: &[Sample], figure: Figure) -> Vec<(u32, f64)> {
    let mut v: Vec<(u32, f64)> = rows
        .iter()
        .filter(|r| r.is_ok())
        .filter_map(|r| Some((r.block, figure.of(r)? as f64)))
        .collect();
    v.sort_by_key(|&(b, _)| b); // stable: file order within a block
    v.dedup_by_key(|&mut (b, _)| b); // keeps the first of each block
    v
}

/// (reference, candidate) figures of the blocks both lists hold, in ascending block order.
pub(crate) fn pair(reference: &[(u32, f64)], candidate: &[(u32, f64)]) -> Vec<(f64, f64)> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(reference.len().min(candidate.len()));
    while i < reference.len() && j < candidate.len() {
        match reference[i].0.cmp(&candidate[j].0) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                out.push((reference[i].1, candidate[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Contrasts of every cell of a non-reference codec whose reference cell exists; the
/// `baselines` (the harness floor, by the style the manifest gives) are never compared.
pub fn contrasts(
    grouped: &Grouped,
    reference: &str,
    baselines: &BTreeSet<String>,
    figure: Figure,
    level: f64,
    alpha: f64,
) -> Vec<ContrastRow> {
    // (candidate, its reference cell), in key order
    let candidates: Vec<(&CellKey, &[Sample], CellKey)> = grouped
        .cells
        .iter()
        .filter(|(key, _)| key.codec != reference && !baselines.contains(&key.codec))
        .filter_map(|(key, rows)| {
            let r = key.with_codec(reference);
            grouped.cells.contains_key(&r).then_some((key, *rows, r))
        })
        .collect();
    let reference_keys: Vec<&CellKey> = candidates
        .iter()
        .map(|(_, _, r)| r)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let reference_blocks: BTreeMap<&CellKey, Vec<(u32, f64)>> = reference_keys
        .iter()
        .copied()
        .zip(par_map(&reference_keys, |k| {
            by_block(grouped.cells[*k], figure)
        }))
        .collect();
    let mut out = par_map(&candidates, |(key, rows, r)| {
        let pairs = pair(&reference_blocks[r], &by_block(rows, figure));
        let contrast = log_ratio_contrast(&pairs, level);
        ContrastRow {
            key: (*key).clone(),
            reference: reference.to_string(),
            figure,
            half_width: contrast
                .as_ref()
                .and_then(|c| relative_half_width(c.ratio, c.interval?)),
            contrast,
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        }
    });
    let ps: Vec<f64> = out
        .iter()
        .filter_map(|c| c.contrast.as_ref().map(|c| c.test.p))
        .collect();
    let mut adjusted = holm(&ps).into_iter();
    for row in &mut out {
        if let Some(c) = &row.contrast {
            let p = adjusted.next().unwrap_or(1.0);
            row.p_holm = Some(p);
            row.verdict = verdict(c.interval, p, alpha);
        }
    }
    out
}

/// Holm's adjustment and the verdicts across every comparison of a report: the codecs against
/// the reference and the builds against each other, one family (so "adjusted across the
/// report" means what it says). Overwrites what [`contrasts`] set alone.
pub fn adjust_across(rows: &mut [ContrastRow], variants: &mut [VariantContrast], alpha: f64) {
    let mut slots: Vec<(&PairedContrast, &mut Option<f64>, &mut Verdict)> = rows
        .iter_mut()
        .filter_map(|r| Some((r.contrast.as_ref()?, &mut r.p_holm, &mut r.verdict)))
        .chain(
            variants
                .iter_mut()
                .filter_map(|r| Some((r.contrast.as_ref()?, &mut r.p_holm, &mut r.verdict))),
        )
        .collect();
    let ps: Vec<f64> = slots.iter().map(|(c, _, _)| c.test.p).collect();
    for ((c, p_holm, v), p) in slots.iter_mut().zip(holm(&ps)) {
        **p_holm = Some(p);
        **v = verdict(c.interval, p, alpha);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::group;
    use crate::analyze::cells::tests::row;

    #[test]
    fn pairs_within_blocks_and_adjusts() {
        let mut rows = Vec::new();
        for b in 0..30u32 {
            let drift = 1000 + u64::from(b) * 100; // shared within the block
            rows.push(row(b, "serde_json", 1, Some(drift)));
            rows.push(row(b, "fast", 1, Some(drift * 8 / 10 + u64::from(b % 3))));
            rows.push(row(b, "same", 1, Some(drift + u64::from(b % 5) - 2)));
            rows.push(row(b, "noop", 1, Some(10)));
        }
        rows.push(row(30, "fast", 1, Some(5))); // no reference in block 30: unpaired
        let samples = crate::inputs::samples::Samples::from_rows(&rows);
        let plan = crate::inputs::samples::Plan::default();
        let g = group(&samples, &plan);
        let floor = BTreeSet::from(["noop".to_string()]);
        let c = contrasts(&g, "serde_json", &floor, Figure::InitPlusOps, 0.95, 0.05);
        assert_eq!(c.len(), 2);
        let fast = c.iter().find(|r| r.key.codec == "fast").unwrap();
        assert_eq!(fast.contrast.as_ref().unwrap().pairs, 30);
        assert_eq!(fast.verdict, Verdict::Faster);
        assert!((fast.contrast.as_ref().unwrap().ratio - 0.8).abs() < 0.01);
        // its precision is the stopping rule's, on the same pairs
        let pairs: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.block < 30 && r.codec == "serde_json")
            .zip(rows.iter().filter(|r| r.codec == "fast"))
            .map(|(r, c)| {
                (
                    r.init_plus_ops_ns.unwrap() as f64,
                    c.init_plus_ops_ns.unwrap() as f64,
                )
            })
            .collect();
        assert_eq!(pairs.len(), 30);
        let hw = fast.half_width.unwrap();
        assert!(hw > 0.0);
        assert_eq!(
            Some(hw),
            crate::stats::precision::ratio_half_width(&pairs, 0.95)
        );
        let same = c.iter().find(|r| r.key.codec == "same").unwrap();
        assert_eq!(same.verdict, Verdict::NoDifference);
        assert!(same.p_holm.unwrap() >= same.contrast.as_ref().unwrap().test.p);
    }

    #[test]
    fn holm_is_taken_across_codecs_and_builds_alike() {
        // Three comparisons, one family: p-values in input order, the verdicts from the
        // adjusted ones. A build comparison whose raw p would pass alone (0.03 < 0.05) does
        // not once the family is three.
        let contrast = |p: f64, interval: (f64, f64)| PairedContrast {
            pairs: 30,
            ratio: (interval.0 * interval.1).sqrt(),
            interval: Some(interval),
            achieved_level: 0.95,
            test: crate::stats::wilcoxon::SignedRankTest {
                n: 30,
                zeros: 0,
                w_plus: 0.0,
                p,
                method: crate::stats::wilcoxon::Method::Exact,
            },
        };
        let key = CellKey {
            fixture: "f".into(),
            op: schema::Op::De,
            variant: schema::Variant::Native,
            batch: 1,
            codec: "a".into(),
        };
        let codec_row = |p, interval| ContrastRow {
            key: key.clone(),
            reference: "r".into(),
            figure: Figure::InitPlusOps,
            contrast: Some(contrast(p, interval)),
            half_width: None,
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        };
        let mut rows = vec![codec_row(0.001, (0.5, 0.6)), codec_row(0.2, (0.9, 1.1))];
        let mut builds = vec![VariantContrast {
            key: key.clone(),
            against: schema::Variant::Portable,
            figure: Figure::InitPlusOps,
            contrast: Some(contrast(0.03, (1.1, 1.2))),
            half_width: None,
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        }];
        adjust_across(&mut rows, &mut builds, 0.05);
        // Holm: 0.001 × 3 = 0.003; 0.03 × 2 = 0.06; 0.2 × 1 = 0.2
        assert_eq!(rows[0].p_holm, Some(0.003));
        assert_eq!(rows[1].p_holm, Some(0.2));
        assert!((builds[0].p_holm.unwrap() - 0.06).abs() < 1e-15);
        assert_eq!(rows[0].verdict, Verdict::Faster);
        assert_eq!(rows[1].verdict, Verdict::NoDifference);
        assert_eq!(builds[0].verdict, Verdict::NoDifference);
    }

    #[test]
    fn the_first_ok_sample_of_a_block_is_paired() {
        // blocks out of order, a repeated block (the first in the file wins), a failed sample
        // (skipped) before an ok one in its block
        let rows: Vec<_> = [
            (3, Some(30)),
            (1, Some(10)),
            (3, Some(99)),
            (2, None),
            (2, Some(20)),
            (1, Some(98)),
        ]
        .into_iter()
        .map(|(b, ns)| row(b, "x", 1, ns))
        .collect();
        let samples = crate::inputs::samples::Samples::from_rows(&rows);
        let cell = samples.cells.values().next().unwrap();
        let blocks = by_block(cell, Figure::InitPlusOps);
        assert_eq!(blocks, [(1, 10.0), (2, 20.0), (3, 30.0)]);
        let reference = [(0, 1.0), (2, 2.0), (3, 3.0), (5, 5.0)];
        assert_eq!(pair(&reference, &blocks), [(2.0, 20.0), (3.0, 30.0)]);
        assert!(pair(&[], &blocks).is_empty());
    }
}
