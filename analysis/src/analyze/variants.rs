//! One build against another, cell by cell: in a run of several variants (`cold run --variant
//! portable,native`) each variant of a cell is a cell of its own in every block, so the ratio
//! variant B / variant A (in the order of the manifest's variants: native / portable) is paired
//! within blocks like a codec's ratio to the reference, with the same Hodges-Lehmann interval,
//! signed-rank p, Holm adjustment (with the report's other comparisons) and verdict.

use super::cells::{CellKey, Figure, Grouped};
use super::contrasts::{by_block, pair};
use crate::parallel::par_map;
use crate::stats::paired::{log_ratio_contrast, PairedContrast, Verdict};
use crate::stats::precision::relative_half_width;
use schema::run_folder::VariantEntry;
use schema::Variant;
use serde::Serialize;
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantContrast {
    /// The cell of the later variant (B), whose figure is the numerator.
    pub key: CellKey,
    /// The variant it is paired with (A), the denominator.
    pub against: Variant,
    pub figure: Figure,
    /// `None` when no block holds a usable sample of both.
    pub contrast: Option<PairedContrast>,
    /// The ratio's precision: its interval's relative half-width on the wider side.
    pub half_width: Option<f64>,
    /// Holm-adjusted p across every comparison of the report.
    pub p_holm: Option<f64>,
    pub verdict: Verdict,
}

/// The run's variants in the order ratios are taken (the first is A, the denominator): the
/// manifest's order when it lists several, else the order of [`Variant::ALL`] (portable
/// first); only variants that have cells. Fewer than two: no variant ratio.
pub fn variant_order(listed: &[VariantEntry], present: &BTreeSet<Variant>) -> Vec<Variant> {
    let mut order: Vec<Variant> = listed.iter().map(|v| v.variant).collect();
    order.extend(Variant::ALL);
    let mut seen = BTreeSet::new();
    order
        .into_iter()
        .filter(|v| present.contains(v) && seen.insert(*v))
        .collect()
}

/// For every cell of the first variant in `order` and every later variant that has the same
/// cell: that variant's figure over the first's, paired within blocks. Holm and the verdict are
/// left to the caller (they are taken across the whole report); `verdict` is too-few-pairs
/// until then.
pub fn variant_contrasts(
    grouped: &Grouped,
    order: &[Variant],
    figure: Figure,
    level: f64,
) -> Vec<VariantContrast> {
    let Some((&a, later)) = order.split_first() else {
        return Vec::new();
    };
    let pairs: Vec<(&CellKey, CellKey)> = grouped
        .cells
        .keys()
        .filter(|k| k.variant == a)
        .flat_map(|k| {
            later.iter().filter_map(move |&b| {
                let other = CellKey {
                    variant: b,
                    ..k.clone()
                };
                grouped.cells.contains_key(&other).then_some((k, other))
            })
        })
        .collect();
    par_map(&pairs, |(ka, kb)| {
        let paired = pair(
            &by_block(grouped.cells[*ka], figure),
            &by_block(grouped.cells[kb], figure),
        );
        let contrast = log_ratio_contrast(&paired, level);
        VariantContrast {
            key: kb.clone(),
            against: a,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::group;
    use crate::analyze::cells::tests::row;
    use crate::inputs::samples::{Plan, Samples};
    use schema::run_folder::SampleRow;

    fn entry(variant: Variant) -> VariantEntry {
        VariantEntry {
            variant,
            children_dir: String::new(),
        }
    }

    #[test]
    fn the_manifest_orders_the_variants() {
        let both = BTreeSet::from([Variant::Portable, Variant::Native]);
        let listed = [entry(Variant::Native), entry(Variant::Portable)];
        assert_eq!(
            variant_order(&listed, &both),
            [Variant::Native, Variant::Portable]
        );
        assert_eq!(
            variant_order(&[], &both),
            [Variant::Portable, Variant::Native]
        );
        // a listed variant with no cell is left out
        let portable = BTreeSet::from([Variant::Portable]);
        assert_eq!(variant_order(&listed, &portable), [Variant::Portable]);
    }

    fn native(mut r: SampleRow) -> SampleRow {
        r.variant = Variant::Native;
        r
    }

    #[test]
    fn native_over_portable_is_paired_within_blocks() {
        // In each block both builds share the block's drift: native is half the portable
        // cost, ±1 ns, whatever the drift; a cell of one build only is not compared.
        let mut rows = Vec::new();
        for b in 0..20u32 {
            let drift = 1000 + u64::from(b) * 300;
            rows.push(row(b, "simd-json", 1, Some(2 * drift)));
            rows.push(native(row(
                b,
                "simd-json",
                1,
                Some(drift + u64::from(b % 3)),
            )));
            rows.push(row(b, "serde_json", 1, Some(drift)));
        }
        let samples = Samples::from_rows(&rows);
        let plan = Plan::default();
        let g = group(&samples, &plan);
        let order = [Variant::Portable, Variant::Native];
        let v = variant_contrasts(&g, &order, Figure::InitPlusOps, 0.95);
        assert_eq!(v.len(), 1);
        let c = &v[0];
        assert_eq!(
            (c.key.codec.as_str(), c.key.variant),
            ("simd-json", Variant::Native)
        );
        assert_eq!(c.against, Variant::Portable);
        let pc = c.contrast.as_ref().unwrap();
        assert_eq!(pc.pairs, 20);
        assert!((pc.ratio - 0.5).abs() < 1e-3, "{}", pc.ratio);
        let (lo, hi) = pc.interval.unwrap();
        assert!(lo < 0.5007 && hi > 0.5 && hi < 0.502, "[{lo}, {hi}]");
        assert!(c.half_width.unwrap() < 0.004);
        // the other order: portable over native, twice
        let back = variant_contrasts(
            &g,
            &[Variant::Native, Variant::Portable],
            Figure::InitPlusOps,
            0.95,
        );
        assert!((back[0].contrast.as_ref().unwrap().ratio - 2.0).abs() < 4e-3);
        assert!(variant_contrasts(&g, &order[..1], Figure::InitPlusOps, 0.95).is_empty());
    }
}
