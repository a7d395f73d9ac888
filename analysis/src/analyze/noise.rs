//! How noisy the machine was during a run, read from the floors: a floor child runs no library,
//! so the spread of its wall time and of its init_plus_ops is the machine's and the harness's,
//! and a trend of either against the block index is drift over the run. Per floor (each
//! runtime's), at its smallest batch in each fixture × op × variant: the relative spread
//! (IQR / median and MAD / median, unscaled MAD) of both figures and Spearman's ρ against the
//! block index (the drift check the per-cell tables use).

use super::cells::{CellKey, Grouped};
use crate::span::Span;
use crate::stats::quantile::{mad, median, quantile, sorted};
use crate::stats::spearman::{spearman, Spearman};
use serde::Serialize;
use std::collections::BTreeMap;

/// The spread of one figure of one cell, relative to its median.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Spread {
    pub(crate) n: usize,
    pub(crate) median: f64,
    /// (p75 − p25) / median, type-7 quartiles.
    pub(crate) iqr_ratio: f64,
    /// median |x − median| / median.
    pub(crate) mad_ratio: f64,
    /// Spearman's ρ of the figure against the block index; `None` below 4 samples or when
    /// either side is constant.
    pub(crate) drift: Option<Spearman>,
}

/// The spread of `values` taken in `blocks` (the same length); `None` without values or with
/// a median that is not above zero.
pub(crate) fn spread(blocks: &[f64], values: &[f64]) -> Option<Spread> {
    let s = sorted(values);
    let m = median(&s)?;
    if m <= 0.0 {
        return None;
    }
    Some(Spread {
        n: s.len(),
        median: m,
        iqr_ratio: (quantile(&s, 0.75)? - quantile(&s, 0.25)?) / m,
        mad_ratio: mad(&s)? / m,
        drift: spearman(blocks, values),
    })
}

/// One floor cell's noise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct NoiseRow {
    pub(crate) key: CellKey,
    pub(crate) runtime: String,
    pub(crate) wall: Option<Spread>,
    pub(crate) init_plus_ops: Option<Spread>,
}

/// The noise of every floor: `floors` gives each floor codec's runtime. One row per floor and
/// fixture × op × variant, at the floor's smallest batch there, in key order.
pub(crate) fn noise(grouped: &Grouped, floors: &BTreeMap<String, String>) -> Vec<NoiseRow> {
    let mut smallest: BTreeMap<(&str, &str, schema::Op, schema::Variant), &CellKey> =
        BTreeMap::new();
    for key in grouped.cells.keys() {
        if !floors.contains_key(&key.codec) {
            continue;
        }
        let at = (
            key.codec.as_str(),
            key.fixture.as_str(),
            key.op,
            key.variant,
        );
        let e = smallest.entry(at).or_insert(key);
        if key.batch < e.batch {
            *e = key;
        }
    }
    let mut rows: Vec<NoiseRow> = smallest
        .into_values()
        .map(|key| {
            let cell = grouped.cells[key];
            let of = |span: Span| {
                let (blocks, values): (Vec<f64>, Vec<f64>) = cell
                    .ok()
                    .filter_map(|i| {
                        let v = span.value(grouped.measure, cell, i)?;
                        Some((f64::from(cell.blocks[i]), v as f64))
                    })
                    .unzip();
                spread(&blocks, &values)
            };
            NoiseRow {
                key: key.clone(),
                runtime: floors[&key.codec].clone(),
                wall: of(Span::Wall),
                init_plus_ops: of(Span::InitPlusOps),
            }
        })
        .collect();
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    rows
}

/// The probe of the machine that detects its CPU's features as a portable SIMD build does.
pub(crate) const PROBE: &str = "cpu-features";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::group;
    use crate::testing::{samples, timed as row};
    use schema::phases::Figure;
    use schema::Measure;
    use store::rows::PlanCount;

    #[test]
    fn spread_worked_by_hand() {
        // 10, 20, 30, 40, 50 in blocks 0..5: median 30, quartiles 20 and 40 (type 7), MAD 10;
        // rising with the block, so ρ = 1
        let blocks = [0.0, 1.0, 2.0, 3.0, 4.0];
        let s = spread(&blocks, &[10.0, 20.0, 30.0, 40.0, 50.0]).unwrap();
        assert_eq!((s.n, s.median), (5, 30.0));
        assert!((s.iqr_ratio - 20.0 / 30.0).abs() < 1e-15);
        assert!((s.mad_ratio - 10.0 / 30.0).abs() < 1e-15);
        assert_eq!(s.drift.unwrap().rho, 1.0);
        // falling: ρ = −1; the spread does not care about order
        let s = spread(&blocks, &[50.0, 40.0, 30.0, 20.0, 10.0]).unwrap();
        assert_eq!(s.drift.unwrap().rho, -1.0);
        assert!((s.iqr_ratio - 20.0 / 30.0).abs() < 1e-15);
        // constant: no spread, no ρ
        let s = spread(&blocks, &[7.0; 5]).unwrap();
        assert_eq!((s.iqr_ratio, s.mad_ratio, s.drift), (0.0, 0.0, None));
        assert_eq!(spread(&[], &[]), None);
        assert_eq!(spread(&[0.0], &[0.0]), None);
    }

    #[test]
    fn each_floor_at_its_smallest_batch() {
        let mut rows = Vec::new();
        for b in 0..8u32 {
            // noop: init_plus_ops 100..107 rising, wall 500,000 ± 1,000 alternating
            let mut r = row(b, "noop", 1, Some(100 + u64::from(b)));
            r.set(
                Figure::WALL,
                Some(if b % 2 == 0 { 499_000 } else { 501_000 }),
            );
            rows.push(r);
            rows.push(row(b, "noop", 10, Some(1000)));
            rows.push(row(b, "jvm-floor", 1, Some(30_000 + u64::from(b % 2))));
            rows.push(row(b, "serde_json", 1, Some(20_000)));
        }
        rows.push(row(8, "noop", 1, None)); // a failed sample counts for nothing
        let store = samples(&rows);
        let plan = PlanCount::default();
        let floors = BTreeMap::from([
            ("noop".to_string(), "rust".to_string()),
            ("jvm-floor".to_string(), "jvm".to_string()),
        ]);
        let n = noise(&group(Measure::Time, &store, &plan), &floors);
        let cells: Vec<(&str, u32, &str)> = n
            .iter()
            .map(|r| (r.key.codec.as_str(), r.key.batch, r.runtime.as_str()))
            .collect();
        assert_eq!(cells, [("jvm-floor", 1, "jvm"), ("noop", 1, "rust")]);
        let noop = &n[1];
        let wall = noop.wall.as_ref().unwrap();
        // four at 499,000 and four at 501,000: median 500,000, quartiles 499,000 and 501,000
        assert_eq!((wall.n, wall.median), (8, 500_000.0));
        assert!((wall.iqr_ratio - 2_000.0 / 500_000.0).abs() < 1e-15);
        assert!((wall.mad_ratio - 1_000.0 / 500_000.0).abs() < 1e-15);
        let ipo = noop.init_plus_ops.as_ref().unwrap();
        assert_eq!(ipo.median, 103.5);
        assert_eq!(ipo.drift.unwrap().rho, 1.0);
    }
}
