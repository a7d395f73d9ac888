//! Paired comparisons, cell by cell: each codec against the reference codec, and each build
//! against the run's first build (in a run of several variants, `cold run --variant
//! portable,native`, each variant of a cell is a cell of its own in every block). Both are the
//! same computation: within-block paired log ratios of init_plus_ops, Hodges-Lehmann ratio and
//! interval, Wilcoxon p, Holm across the whole report (one family), and the verdict. Each
//! denominator cell's blocks are listed once, and the contrasts are computed in parallel (the
//! same figures as one by one: each depends on its own cells only).

use super::cells::{CellKey, Grouped};
use crate::parallel::par_map;
use crate::span::Span;
use crate::stats::holm::holm;
use crate::stats::paired::{log_ratio_contrast, verdict, PairedContrast, Verdict};
use crate::stats::precision::relative_half_width;
use schema::run_folder::VariantEntry;
use schema::Variant;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContrastRow {
    /// The candidate's cell, whose figure is the numerator.
    pub key: CellKey,
    /// The cell it is paired with, the denominator: the reference codec's same cell, or the
    /// first build's.
    pub(crate) against: CellKey,
    pub(crate) figure: Span,
    /// `None` when no block holds a usable sample of both.
    pub contrast: Option<PairedContrast>,
    /// The precision the ratio reached: its interval's relative half-width on the wider side,
    /// as `cold run --precision` asks it; `None` without an interval.
    pub(crate) half_width: Option<f64>,
    /// Holm-adjusted p across every contrast of the report.
    pub(crate) p_holm: Option<f64>,
    pub(crate) verdict: Verdict,
}

/// A cell's process over its runtime's floor against the reference's same cell over its own:
/// the second headline figure's ratio. Not paired within blocks (a floor-subtracted figure per
/// sample is often below zero for a light library, where a log ratio has no meaning): the ratio
/// of the over-floor medians, with a percentile bootstrap interval (each of the four cells'
/// medians redrawn from its exact bootstrap distribution, the same draws as the break-even's).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ProcessRatio {
    pub(crate) key: CellKey,
    pub(crate) against: CellKey,
    /// `None` when the cell's process or the reference's is not above its floor's.
    pub(crate) ratio: Option<f64>,
    /// `None` when a resampled over floor of the reference is not above zero.
    pub(crate) interval: Option<(f64, f64)>,
}

/// The process ratio of every cell of a non-reference codec (not a floor) against the
/// reference's same cell, at `level`; `floor_of` gives each codec's runtime's floor.
pub(crate) fn process_ratios(
    cells: &[super::cells::CellSummary],
    reference: &str,
    baselines: &BTreeSet<String>,
    floor_of: &dyn Fn(&str) -> Option<String>,
    level: f64,
) -> Vec<ProcessRatio> {
    let by_key: BTreeMap<&CellKey, &super::cells::CellSummary> =
        cells.iter().map(|c| (&c.key, c)).collect();
    // (median, bootstrap medians) of a cell's process over its floor's
    let over = |key: &CellKey| -> Option<(f64, Vec<f64>)> {
        let c = by_key.get(key)?;
        let f = by_key.get(&key.with_codec(&floor_of(&key.codec)?))?;
        let boot = c
            .process_boot
            .iter()
            .zip(&f.process_boot)
            .map(|(a, b)| a - b)
            .collect();
        Some((
            c.process.as_ref()?.median - f.process.as_ref()?.median,
            boot,
        ))
    };
    cells
        .iter()
        .filter(|c| c.key.codec != reference && !baselines.contains(&c.key.codec))
        .filter_map(|c| {
            let against = c.key.with_codec(reference);
            let ((own, own_boot), (base, base_boot)) = (over(&c.key)?, over(&against)?);
            // a process not above its floor (either side's) has no ratio: its median is
            // within the floor's noise, and a ratio of it would be meaningless or negative
            let ratio = (base > 0.0 && own > 0.0).then(|| own / base);
            let mut draws: Vec<f64> = own_boot
                .iter()
                .zip(&base_boot)
                .map(|(a, b)| if *b > 0.0 { a / b } else { f64::NAN })
                .collect();
            let interval = (ratio.is_some()
                && !draws.is_empty()
                && draws.iter().all(|d| d.is_finite()))
            .then(|| {
                draws.sort_by(f64::total_cmp);
                let alpha = (1.0 - level) / 2.0;
                let last = (draws.len() - 1) as f64;
                (
                    draws[(alpha * last).floor() as usize],
                    draws[((1.0 - alpha) * last).ceil() as usize],
                )
            });
            Some(ProcessRatio {
                key: c.key.clone(),
                against,
                ratio,
                interval,
            })
        })
        .collect()
}

/// (denominator, numerator) figures of the blocks both lists hold, in ascending block order.
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

/// The contrast of each (numerator, denominator) pair of cells. Holm and the verdict are left
/// to [`adjust`] (they are taken across the whole report); `verdict` is too-few-pairs until then.
fn paired(
    grouped: &Grouped,
    pairs: Vec<(CellKey, CellKey)>,
    figure: Span,
    level: f64,
) -> Vec<ContrastRow> {
    let denominators: Vec<&CellKey> = pairs
        .iter()
        .map(|(_, d)| d)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let blocks: BTreeMap<&CellKey, Vec<(u32, f64)>> = denominators
        .iter()
        .copied()
        .zip(par_map(&denominators, |k| grouped.by_block(k, figure)))
        .collect();
    par_map(&pairs, |(key, against)| {
        let contrast = log_ratio_contrast(
            &pair(&blocks[against], &grouped.by_block(key, figure)),
            level,
        );
        ContrastRow {
            key: key.clone(),
            against: against.clone(),
            figure,
            half_width: contrast
                .as_ref()
                .and_then(|c| relative_half_width(c.ratio, c.interval?)),
            contrast,
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        }
    })
}

/// Every cell of a non-reference codec whose reference cell exists, against it; the
/// `baselines` (the harness floors, by the style the manifest gives) are never compared.
pub fn against_reference(
    grouped: &Grouped,
    reference: &str,
    baselines: &BTreeSet<String>,
    figure: Span,
    level: f64,
) -> Vec<ContrastRow> {
    let pairs = grouped
        .cells
        .keys()
        .filter(|key| key.codec != reference && !baselines.contains(&key.codec))
        .filter_map(|key| {
            let r = key.with_codec(reference);
            grouped.cells.contains_key(&r).then(|| (key.clone(), r))
        })
        .collect();
    paired(grouped, pairs, figure, level)
}

/// The run's variants in the order ratios are taken (the first is the denominator): the
/// manifest's order when it lists several, then portable, native and the others by name; only
/// variants that have cells. Fewer than two: no variant ratio.
pub(crate) fn variant_order(listed: &[VariantEntry], present: &BTreeSet<Variant>) -> Vec<Variant> {
    let mut order: Vec<Variant> = listed.iter().map(|v| v.variant).collect();
    order.extend([Variant::PORTABLE, Variant::NATIVE]);
    order.extend(present.iter().copied());
    let mut seen = BTreeSet::new();
    order
        .into_iter()
        .filter(|v| present.contains(v) && seen.insert(*v))
        .collect()
}

/// For every cell of the first variant in `order` and every later variant that has the same
/// cell: that variant's figure over the first's.
pub(crate) fn between_builds(
    grouped: &Grouped,
    order: &[Variant],
    figure: Span,
    level: f64,
) -> Vec<ContrastRow> {
    let Some((&a, later)) = order.split_first() else {
        return Vec::new();
    };
    let pairs = grouped
        .cells
        .keys()
        .filter(|k| k.variant == a)
        .flat_map(|k| {
            later.iter().filter_map(move |&b| {
                let other = CellKey {
                    variant: b,
                    ..k.clone()
                };
                grouped
                    .cells
                    .contains_key(&other)
                    .then(|| (other, k.clone()))
            })
        })
        .collect();
    paired(grouped, pairs, figure, level)
}

/// Holm's adjustment and the verdicts across every comparison of a report: the codecs against
/// the reference and the builds against each other, one family (so "adjusted across the
/// report" means what it says).
pub fn adjust(families: [&mut [ContrastRow]; 2], alpha: f64) {
    let mut slots: Vec<&mut ContrastRow> = families
        .into_iter()
        .flat_map(|f| f.iter_mut())
        .filter(|r| r.contrast.is_some())
        .collect();
    let ps: Vec<f64> = slots
        .iter()
        .filter_map(|r| Some(r.contrast.as_ref()?.test.p))
        .collect();
    for (row, p) in slots.iter_mut().zip(holm(&ps)) {
        row.p_holm = Some(p);
        row.verdict = verdict(row.contrast.as_ref().and_then(|c| c.interval), p, alpha);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::group;
    use crate::testing::{samples, timed};
    use schema::phases::Figure;
    use schema::rows::SampleRow;
    use schema::Measure;
    use store::rows::PlanCount;

    static PLAN: PlanCount = PlanCount {
        cells: BTreeMap::new(),
        count: 0,
    };

    #[test]
    fn pairs_within_blocks_and_adjusts() {
        let mut rows = Vec::new();
        for b in 0..30u32 {
            let drift = 1000 + u64::from(b) * 100; // shared within the block
            rows.push(timed(b, "serde_json", 1, Some(drift)));
            rows.push(timed(b, "fast", 1, Some(drift * 8 / 10 + u64::from(b % 3))));
            rows.push(timed(b, "same", 1, Some(drift + u64::from(b % 5) - 2)));
            rows.push(timed(b, "noop", 1, Some(10)));
        }
        rows.push(timed(30, "fast", 1, Some(5))); // no reference in block 30: unpaired
        let store = samples(&rows);
        let g = group(Measure::Time, &store, &PLAN);
        let floor = BTreeSet::from(["noop".to_string()]);
        let mut c = against_reference(&g, "serde_json", &floor, Span::InitPlusOps, 0.95);
        adjust([&mut c, &mut []], 0.05);
        assert_eq!(c.len(), 2);
        let fast = c.iter().find(|r| r.key.codec == "fast").unwrap();
        assert_eq!(fast.against.codec, "serde_json");
        assert_eq!(fast.contrast.as_ref().unwrap().pairs, 30);
        assert_eq!(fast.verdict, Verdict::Faster);
        assert!((fast.contrast.as_ref().unwrap().ratio - 0.8).abs() < 0.01);
        // its precision is the stopping rule's, on the same pairs
        let ipo = |r: &SampleRow| r.get(Figure::INIT_PLUS_OPS).unwrap() as f64;
        let pairs: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.block < 30 && r.codec == "serde_json")
            .zip(rows.iter().filter(|r| r.codec == "fast"))
            .map(|(r, c)| (ipo(r), ipo(c)))
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
        let key = timed(0, "a", 1, None).cell();
        let row = |p, interval| ContrastRow {
            key: key.clone(),
            against: key.with_codec("r"),
            figure: Span::InitPlusOps,
            contrast: Some(contrast(p, interval)),
            half_width: None,
            p_holm: None,
            verdict: Verdict::TooFewPairs,
        };
        let mut rows = vec![row(0.001, (0.5, 0.6)), row(0.2, (0.9, 1.1))];
        let mut builds = vec![row(0.03, (1.1, 1.2))];
        adjust([&mut rows, &mut builds], 0.05);
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
        .map(|(b, ns)| timed(b, "x", 1, ns))
        .collect();
        let store = samples(&rows);
        let g = group(Measure::Time, &store, &PLAN);
        let blocks = g.by_block(&rows[0].cell(), Span::InitPlusOps);
        assert_eq!(blocks, [(1, 10.0), (2, 20.0), (3, 30.0)]);
        let reference = [(0, 1.0), (2, 2.0), (3, 3.0), (5, 5.0)];
        assert_eq!(pair(&reference, &blocks), [(2.0, 20.0), (3.0, 30.0)]);
        assert!(pair(&[], &blocks).is_empty());
    }

    fn entry(variant: Variant) -> VariantEntry {
        VariantEntry::new(variant, "rust", "")
    }

    #[test]
    fn the_manifest_orders_the_variants() {
        let both = BTreeSet::from([Variant::PORTABLE, Variant::NATIVE]);
        let listed = [entry(Variant::NATIVE), entry(Variant::PORTABLE)];
        assert_eq!(
            variant_order(&listed, &both),
            [Variant::NATIVE, Variant::PORTABLE]
        );
        assert_eq!(
            variant_order(&[], &both),
            [Variant::PORTABLE, Variant::NATIVE]
        );
        // a listed variant with no cell is left out
        let portable = BTreeSet::from([Variant::PORTABLE]);
        assert_eq!(variant_order(&listed, &portable), [Variant::PORTABLE]);
    }

    #[test]
    fn native_over_portable_is_paired_within_blocks() {
        // In each block both builds share the block's drift: native is half the portable
        // cost, ±1 ns, whatever the drift; a cell of one build only is not compared.
        let mut rows = Vec::new();
        for b in 0..20u32 {
            let drift = 1000 + u64::from(b) * 300;
            rows.push(timed(b, "simd-json", 1, Some(2 * drift)));
            let mut native = timed(b, "simd-json", 1, Some(drift + u64::from(b % 3)));
            native.variant = Variant::NATIVE;
            rows.push(native);
            rows.push(timed(b, "serde_json", 1, Some(drift)));
        }
        let store = samples(&rows);
        let g = group(Measure::Time, &store, &PLAN);
        let order = [Variant::PORTABLE, Variant::NATIVE];
        let v = between_builds(&g, &order, Span::InitPlusOps, 0.95);
        assert_eq!(v.len(), 1);
        let c = &v[0];
        assert_eq!(
            (c.key.codec.as_str(), c.key.variant),
            ("simd-json", Variant::NATIVE)
        );
        assert_eq!(c.against.variant, Variant::PORTABLE);
        let pc = c.contrast.as_ref().unwrap();
        assert_eq!(pc.pairs, 20);
        assert!((pc.ratio - 0.5).abs() < 1e-3, "{}", pc.ratio);
        let (lo, hi) = pc.interval.unwrap();
        assert!(lo < 0.5007 && hi > 0.5 && hi < 0.502, "[{lo}, {hi}]");
        assert!(c.half_width.unwrap() < 0.004);
        // the other order: portable over native, twice
        let back = between_builds(
            &g,
            &[Variant::NATIVE, Variant::PORTABLE],
            Span::InitPlusOps,
            0.95,
        );
        assert!((back[0].contrast.as_ref().unwrap().ratio - 2.0).abs() < 4e-3);
        assert!(between_builds(&g, &order[..1], Span::InitPlusOps, 0.95).is_empty());
    }
}
