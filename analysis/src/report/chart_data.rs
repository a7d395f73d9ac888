//! What the report's charts and sections show, computed from the report model: the scenarios
//! (fixture × op × variant) in order, each codec's colour, the codecs of a scenario by cost, and
//! the series the cost charts draw (cumulative cost, and cost relative to the reference, sampled
//! on a log grid). Pure and tested; `charts` only draws what these return.

use super::model::Report;
use super::svg::{GREY, PALETTE};
use crate::analyze::coldwarm::{CostCurve, Scenario};
use std::collections::BTreeMap;

/// Points sampled along a cost chart's x axis (besides the measured batches).
pub(crate) const STEPS: usize = 240;

/// One series of a chart: a curve and its (n, value) points, ascending in n.
pub(crate) type Series<'a> = (&'a CostCurve, Vec<(f64, f64)>);

/// A stable colour per codec across every chart of a report: the baseline grey, the others from
/// the palette in name order.
pub(crate) fn codec_colors(report: &Report) -> BTreeMap<String, &'static str> {
    let mut codecs: Vec<&str> = report.cells.iter().map(|c| c.key.codec.as_str()).collect();
    codecs.sort_unstable();
    codecs.dedup();
    let mut i = 0;
    codecs
        .into_iter()
        .map(|c| {
            let color = if report.is_baseline(c) {
                GREY
            } else {
                i += 1;
                PALETTE[(i - 1) % PALETTE.len()]
            };
            (c.to_string(), color)
        })
        .collect()
}

/// Every fixture × op × variant in the report, in the cells' order.
pub(crate) fn scenarios(report: &Report) -> Vec<Scenario> {
    let mut s: Vec<Scenario> = report.cells.iter().map(|c| Scenario::of(&c.key)).collect();
    s.dedup();
    s
}

/// Codecs of a scenario ordered by their median init_plus_ops at the smallest batch (a codec
/// without a figure last), ties by name.
pub(crate) fn codecs_by_cost(report: &Report, s: &Scenario) -> Vec<String> {
    let mut best: BTreeMap<&str, (u32, f64)> = BTreeMap::new();
    for c in report.cells.iter().filter(|c| s.holds(&c.key)) {
        let m = c.init_plus_ops.as_ref().map_or(f64::INFINITY, |d| d.median);
        let e = best.entry(&c.key.codec).or_insert((c.key.batch, m));
        if c.key.batch < e.0 {
            *e = (c.key.batch, m);
        }
    }
    let mut v: Vec<(&str, f64)> = best.into_iter().map(|(c, (_, m))| (c, m)).collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(b.0)));
    v.into_iter().map(|(c, _)| c.to_string()).collect()
}

/// The curves a cost chart draws: every codec of the scenario but the harness floor.
pub(crate) fn chart_curves<'a>(report: &'a Report, s: &Scenario) -> Vec<&'a CostCurve> {
    report
        .curves
        .iter()
        .filter(|c| &c.scenario == s && !c.points.is_empty() && !report.is_baseline(&c.codec))
        .collect()
}

/// The x range the cost charts show: from the smallest measured batch to ten times the last
/// crossing with the reference (or any crossing without one), at least 10⁴ and at most 10⁹,
/// rounded up to a power of ten; only the measured batches when no curve has a warm figure.
pub(crate) fn x_range(report: &Report, s: &Scenario, curves: &[&CostCurve]) -> (f64, f64) {
    let x_lo = curves
        .iter()
        .filter_map(|c| c.points.first())
        .map(|p| f64::from(p.0))
        .fold(f64::INFINITY, f64::min);
    let largest_batch = curves
        .iter()
        .filter_map(|c| c.points.last())
        .map(|p| f64::from(p.0))
        .fold(1.0, f64::max);
    let x_max = if curves.iter().any(|c| c.warm_ns.is_some()) {
        let with_reference =
            |a: &str, b: &str| report.reference.as_deref().is_none_or(|r| a == r || b == r);
        let latest = report
            .break_evens
            .iter()
            .filter(|b| &b.scenario == s && with_reference(&b.a, &b.b))
            .flat_map(|b| b.crossings.iter().map(|c| c.n as f64))
            .fold(0.0, f64::max);
        let want = (latest * 10.0).clamp(1e4, 1e9);
        10f64.powf(want.log10().ceil())
    } else {
        largest_batch
    };
    (x_lo, x_max.max(x_lo * 10.0))
}

/// The n at which a curve is sampled: `STEPS + 1` points evenly spaced on a log scale from
/// `x_lo` to `x_hi`, and the measured batches, ascending, without repeats.
fn grid(c: &CostCurve, x_lo: f64, x_hi: f64) -> Vec<f64> {
    let mut n: Vec<f64> = (0..=STEPS)
        .map(|i| x_lo * (x_hi / x_lo).powf(i as f64 / STEPS as f64))
        .chain(c.points.iter().map(|p| f64::from(p.0)))
        .collect();
    n.sort_by(f64::total_cmp);
    n.dedup();
    n
}

/// Each curve's cumulative cost C(n) on the grid.
pub(crate) fn cost_series<'a>(curves: &[&'a CostCurve], x_lo: f64, x_hi: f64) -> Vec<Series<'a>> {
    curves
        .iter()
        .map(|c| {
            let pts = grid(c, x_lo, x_hi)
                .into_iter()
                .filter_map(|n| c.cost(n).map(|v| (n, v)))
                .collect();
            (*c, pts)
        })
        .collect()
}

/// Each curve's cost relative to `reference`'s, C(n) / C_ref(n), on the grid, where both are
/// defined and the ratio is positive and finite: it crosses 1 where the two break even.
pub(crate) fn relative_series<'a>(
    curves: &[&'a CostCurve],
    reference: &CostCurve,
    x_lo: f64,
    x_hi: f64,
) -> Vec<Series<'a>> {
    curves
        .iter()
        .map(|c| {
            let pts = grid(c, x_lo, x_hi)
                .into_iter()
                .filter_map(|n| Some((n, c.cost(n)? / reference.cost(n)?)))
                .filter(|p| p.1 > 0.0 && p.1.is_finite())
                .collect();
            (*c, pts)
        })
        .collect()
}

/// Largest value at the right edge first, so a legend reads top to bottom like the lines.
pub(crate) fn sort_by_final_value(series: &mut [Series<'_>]) {
    let last = |pts: &[(f64, f64)]| pts.last().map_or(0.0, |p| p.1);
    series.sort_by(|a, b| last(&b.1).total_cmp(&last(&a.1)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::{Op, Variant};

    fn scenario() -> Scenario {
        Scenario {
            fixture: "users-2kb".into(),
            op: Op::De,
            variant: Variant::PORTABLE,
        }
    }

    fn curve(codec: &str, points: &[(u32, f64)], warm_ns: Option<f64>) -> CostCurve {
        CostCurve {
            cost: crate::analyze::coldwarm::Cost::Library,
            scenario: scenario(),
            codec: codec.into(),
            boot: vec![Vec::new(); points.len()],
            points: points.to_vec(),
            warm_ns,
        }
    }

    #[test]
    fn the_grid_spans_the_range_on_a_log_scale_and_keeps_the_batches() {
        let c = curve("a", &[(1, 10.0), (10, 100.0), (100, 1000.0)], Some(10.0));
        let n = grid(&c, 1.0, 1e4);
        assert_eq!(n.first(), Some(&1.0));
        assert!((n.last().unwrap() - 1e4).abs() < 1e-6);
        assert!(n.windows(2).all(|w| w[0] < w[1]), "ascending, no repeats");
        // The midpoint of the log grid is 10² (120 of 240 steps).
        assert!(n.iter().any(|&x| (x - 100.0).abs() < 1e-9));
    }

    #[test]
    fn cost_series_follow_the_curves_and_relative_series_cross_one_at_the_break_even() {
        // a: 10 per op from the start; b: 100 to start, then 1 per op. C_a(n) = 10n,
        // C_b(n) = 100 + (n − 1) beyond its one measured batch: they meet at 10n = 99 + n,
        // n = 11.
        let a = curve("a", &[(1, 10.0)], Some(10.0));
        let b = curve("b", &[(1, 100.0)], Some(1.0));
        let series = cost_series(&[&a, &b], 1.0, 1e4);
        let at = |s: &Series, n: f64| s.1.iter().find(|p| (p.0 - n).abs() < 1e-9).map(|p| p.1);
        assert_eq!(at(&series[0], 1.0), Some(10.0));
        assert_eq!(at(&series[1], 1.0), Some(100.0));
        let rel = relative_series(&[&b], &a, 1.0, 1e4);
        let points = &rel[0].1;
        assert_eq!(points[0], (1.0, 10.0));
        let cross = points
            .windows(2)
            .find(|w| w[0].1 >= 1.0 && w[1].1 < 1.0)
            .unwrap();
        assert!(cross[0].0 <= 11.0 && 11.0 <= cross[1].0, "{cross:?}");
        let mut sorted = cost_series(&[&a, &b], 1.0, 1e4);
        sort_by_final_value(&mut sorted);
        assert_eq!(sorted[0].0.codec, "a", "a costs more at 10⁴ operations");
    }
}
