//! Each codec against the reference codec, cell by cell: within-block paired log ratios of
//! init_plus_ops, Hodges-Lehmann ratio and interval, Wilcoxon p, Holm across the whole report,
//! and the verdict.

use super::cells::{CellKey, Figure, Grouped};
use crate::stats::holm::holm;
use crate::stats::paired::{log_ratio_contrast, verdict, PairedContrast, Verdict};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContrastRow {
    /// The candidate's cell.
    pub key: CellKey,
    pub reference: String,
    pub figure: Figure,
    /// `None` when no block holds a usable sample of both.
    pub contrast: Option<PairedContrast>,
    /// Holm-adjusted p across every contrast of the report.
    pub p_holm: Option<f64>,
    pub verdict: Verdict,
}

/// One block → figure map per cell (the first ok sample of a block wins).
fn by_block(rows: &[&schema::run_folder::SampleRow], figure: Figure) -> BTreeMap<u32, f64> {
    let mut m = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_ok()) {
        if let Some(v) = figure.of(r) {
            m.entry(r.block).or_insert(v as f64);
        }
    }
    m
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
    let mut out = Vec::new();
    for (key, rows) in &grouped.cells {
        if key.codec == reference || baselines.contains(&key.codec) {
            continue;
        }
        let Some(ref_rows) = grouped.cells.get(&key.with_codec(reference)) else {
            continue;
        };
        let cand = by_block(rows, figure);
        let refr = by_block(ref_rows, figure);
        let pairs: Vec<(f64, f64)> = cand
            .iter()
            .filter_map(|(b, c)| refr.get(b).map(|r| (*r, *c)))
            .collect();
        out.push(ContrastRow {
            key: key.clone(),
            reference: reference.to_string(),
            figure,
            contrast: log_ratio_contrast(&pairs, level),
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        });
    }
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
        let g = group(&rows, &[]);
        let floor = BTreeSet::from(["noop".to_string()]);
        let c = contrasts(&g, "serde_json", &floor, Figure::InitPlusOps, 0.95, 0.05);
        assert_eq!(c.len(), 2);
        let fast = c.iter().find(|r| r.key.codec == "fast").unwrap();
        assert_eq!(fast.contrast.as_ref().unwrap().pairs, 30);
        assert_eq!(fast.verdict, Verdict::Faster);
        assert!((fast.contrast.as_ref().unwrap().ratio - 0.8).abs() < 0.01);
        let same = c.iter().find(|r| r.key.codec == "same").unwrap();
        assert_eq!(same.verdict, Verdict::NoDifference);
        assert!(same.p_holm.unwrap() >= same.contrast.as_ref().unwrap().test.p);
    }
}
