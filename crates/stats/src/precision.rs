//! The stopping rule of `cold run --precision`: is every interval as narrow as asked? The
//! intervals are the reports' own: a cell's median by order statistics, a candidate's paired
//! ratio to the reference by Hodges-Lehmann on within-block log ratios. Each interval's
//! half-width is taken relative to its estimate, on the wider side: for a median m with interval
//! [lo, hi], max(m − lo, hi − m) / m; for a ratio r with [lo, hi], max(r − lo, hi − r) / r.
//!
//! Pure: samples in, verdict out. The runner applies it every few blocks after a minimum, and
//! `analysis synth` applies it to simulated runs to measure what stopping on the data does to
//! the intervals' coverage.

use super::hodges_lehmann::hodges_lehmann;
use super::median_interval::order_statistic_interval;
use super::paired::log_ratios;
use super::quantile::{median, sorted};
use serde::Serialize;

/// How far the interval `(lo, hi)` reaches from `estimate`, relative to it, on the wider side:
/// max(estimate − lo, hi − estimate) / estimate. `None` for an estimate that is not above zero
/// (or not finite), which no relative width can be taken of. The one definition the stopping
/// rule and the reports share.
pub fn relative_half_width(estimate: f64, (lo, hi): (f64, f64)) -> Option<f64> {
    (estimate > 0.0 && estimate.is_finite()).then(|| (estimate - lo).max(hi - estimate) / estimate)
}

/// How far one interval reaches from its estimate, relative to it; `None` when the sample is
/// too small for an interval at the level.
pub fn median_half_width(values: &[f64], level: f64) -> Option<f64> {
    let s = sorted(values);
    let m = median(&s)?;
    let i = order_statistic_interval(&s, level)?;
    relative_half_width(m, (i.lo, i.hi))
}

/// The same for the ratio candidate / reference over within-block pairs `(reference,
/// candidate)`; pairs with a non-positive figure are skipped.
pub fn ratio_half_width(pairs: &[(f64, f64)], level: f64) -> Option<f64> {
    let hl = hodges_lehmann(&log_ratios(pairs), level)?;
    let (lo, hi) = hl.interval?;
    relative_half_width(hl.estimate.exp(), (lo.exp(), hi.exp()))
}

/// One interval the rule looks at.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reach {
    /// What it is, e.g. `users-2kb de ×1 serde_json` or `… simd-json / serde_json`.
    pub label: String,
    /// Its relative half-width; `None` while too few samples for an interval.
    pub half_width: Option<f64>,
}

/// Where a run stands against its target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// Every interval within the target.
    pub met: bool,
    /// The interval furthest from it (an interval that does not exist yet counts as widest).
    pub widest: Option<Reach>,
}

/// Whether every one of `reaches` is within `target` (e.g. 0.03 for ±3%), and which is widest.
pub fn standing(reaches: &[Reach], target: f64) -> Standing {
    let width = |r: &Reach| r.half_width.unwrap_or(f64::INFINITY);
    let widest = reaches
        .iter()
        .max_by(|a, b| width(a).total_cmp(&width(b)))
        .cloned();
    Standing {
        met: !reaches.is_empty() && reaches.iter().all(|r| width(r) <= target),
        widest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_median_interval_relative_to_the_median() {
        // 1..=11: median 6; at 95% the order-statistic interval is [x(2), x(10)] = [2, 10].
        let v: Vec<f64> = (1..=11).map(f64::from).collect();
        let hw = median_half_width(&v, 0.95).unwrap();
        assert!((hw - 4.0 / 6.0).abs() < 1e-12, "{hw}");
        // Five values have no 95% interval.
        assert_eq!(median_half_width(&v[..5], 0.95), None);
    }

    #[test]
    fn the_wider_side_relative_to_the_estimate() {
        // 100 in [90, 120]: 20 above, 10 below, so ±20%.
        assert_eq!(relative_half_width(100.0, (90.0, 120.0)), Some(0.2));
        assert_eq!(relative_half_width(100.0, (70.0, 105.0)), Some(0.3));
        assert_eq!(relative_half_width(0.0, (0.0, 1.0)), None);
        assert_eq!(relative_half_width(f64::NAN, (0.0, 1.0)), None);
    }

    #[test]
    fn a_constant_ratio_has_no_width_and_a_noisy_one_does() {
        let exact: Vec<(f64, f64)> = (1..=20)
            .map(|i| (f64::from(i), 2.0 * f64::from(i)))
            .collect();
        assert!(ratio_half_width(&exact, 0.95).unwrap() < 1e-12);
        let noisy: Vec<(f64, f64)> = (1..=20)
            .map(|i| (100.0, if i % 2 == 0 { 110.0 } else { 90.0 }))
            .collect();
        let hw = ratio_half_width(&noisy, 0.95).unwrap();
        assert!(hw > 0.05 && hw < 0.25, "{hw}");
    }

    #[test]
    fn the_run_stands_by_its_widest_interval() {
        let reach = |label: &str, hw: Option<f64>| Reach {
            label: label.into(),
            half_width: hw,
        };
        let s = standing(&[reach("a", Some(0.01)), reach("b", Some(0.025))], 0.03);
        assert!(s.met);
        assert_eq!(s.widest.unwrap().label, "b");
        let s = standing(&[reach("a", Some(0.01)), reach("b", None)], 0.03);
        assert!(!s.met, "an interval that does not exist yet is not narrow");
        assert_eq!(s.widest.unwrap().label, "b");
        assert!(!standing(&[], 0.03).met);
    }
}
