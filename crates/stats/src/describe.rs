//! One figure of one cell summarised: n, median with its distribution-free order-statistic
//! interval, p90, min, max, MAD, mean, standard deviation and Tukey outlier counts; and, for the
//! break-even, bootstrap medians drawn from their exact distribution.

use super::bootstrap::resample_medians;
use super::median_interval::{order_statistic_interval, OrderStatInterval};
use super::outliers::{tukey, TukeyCounts};
use super::quantile::{mad, median, quantile, sorted};
use serde::Serialize;

/// Serialised (summary.json) with `median_lo` and `median_hi` null when there is no interval,
/// so the range never passes for one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "DescribeOut")]
pub struct Describe {
    pub n: usize,
    pub median: f64,
    /// The interval of the median: the distribution-free order-statistic interval
    /// [x₍ₗ₎, x₍ₙ₊₁₋ₗ₎] (binomial / sign-test ranks, coverage ≥ the level; see
    /// [`super::median_interval`]) when n is large enough for the level. When it is not (n ≤ 5
    /// at 95%) these hold the full range [min, max], which is *not* an interval at the level:
    /// `median_interval` is `None` then, and a report should show no interval.
    pub median_lo: f64,
    pub median_hi: f64,
    /// The same interval with its ranks and guaranteed coverage; `None` when n is too small for
    /// the level.
    pub median_interval: Option<OrderStatInterval>,
    pub p90: f64,
    pub min: f64,
    pub max: f64,
    /// Unscaled median absolute deviation.
    pub mad: f64,
    pub mean: f64,
    /// Sample standard deviation (n − 1); 0 for a single value.
    pub stddev: f64,
    pub outliers: TukeyCounts,
}

impl Describe {
    /// The median's interval at the level asked, `None` when n is too small for one.
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.median_interval.map(|i| (i.lo, i.hi))
    }
}

/// [`Describe`] as written out: the same fields in the same order, the bounds of a median
/// interval that does not exist as null.
#[derive(Serialize)]
struct DescribeOut {
    n: usize,
    median: f64,
    median_lo: Option<f64>,
    median_hi: Option<f64>,
    median_interval: Option<OrderStatInterval>,
    p90: f64,
    min: f64,
    max: f64,
    mad: f64,
    mean: f64,
    stddev: f64,
    outliers: TukeyCounts,
}

impl From<Describe> for DescribeOut {
    fn from(d: Describe) -> DescribeOut {
        let interval = d.interval();
        DescribeOut {
            n: d.n,
            median: d.median,
            median_lo: interval.map(|i| i.0),
            median_hi: interval.map(|i| i.1),
            median_interval: d.median_interval,
            p90: d.p90,
            min: d.min,
            max: d.max,
            mad: d.mad,
            mean: d.mean,
            stddev: d.stddev,
            outliers: d.outliers,
        }
    }
}

/// Summarise `values` (NaNs ignored), the median's interval at `level`; `None` when nothing is
/// left. O(n log n) (the sort).
pub fn describe(values: &[f64], level: f64) -> Option<Describe> {
    describe_sorted(&sorted(values), level)
}

/// [`describe`], plus `resamples` bootstrap medians (in draw order, seeded with `seed`) for
/// statistics built on top of them (the break-even's interval): each drawn from the exact
/// bootstrap distribution of the median in O(1) ([`resample_medians`]), so they add
/// O(resamples) whatever n. They are independent of the median's interval, which needs none.
pub fn describe_keeping_resamples(
    values: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(Describe, Vec<f64>)> {
    let s = sorted(values);
    let d = describe_sorted(&s, level)?;
    Some((d, resample_medians(&s, resamples, seed)))
}

fn describe_sorted(s: &[f64], level: f64) -> Option<Describe> {
    let n = s.len();
    let med = median(s)?;
    let interval = order_statistic_interval(s, level);
    let (lo, hi) = interval.map_or((s[0], s[n - 1]), |i| (i.lo, i.hi));
    let mean = s.iter().sum::<f64>() / n as f64;
    let stddev = if n > 1 {
        (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    Some(Describe {
        n,
        median: med,
        median_lo: lo,
        median_hi: hi,
        median_interval: interval,
        p90: quantile(s, 0.9)?,
        min: s[0],
        max: s[n - 1],
        mad: mad(s)?,
        mean,
        stddev,
        outliers: tukey(s),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_a_small_sample() {
        let d = describe(&[3.0, 1.0, 2.0, 10.0, 4.0], 0.95).unwrap();
        assert_eq!(
            (d.n, d.median, d.min, d.max, d.mad),
            (5, 3.0, 1.0, 10.0, 1.0)
        );
        assert!((d.p90 - 7.6).abs() < 1e-12);
        assert_eq!(d.mean, 4.0);
        assert!((d.stddev - 12.5f64.sqrt()).abs() < 1e-12);
        // n = 5 has no 95% interval (the full range covers 1 − 2/32 = 93.75%): no interval, and
        // the bounds fall back to the range.
        assert_eq!(d.median_interval, None);
        assert_eq!((d.median_lo, d.median_hi), (1.0, 10.0));
        assert_eq!(d.interval(), None);
        let json = serde_json::to_value(&d).unwrap();
        assert!(
            json["median_lo"].is_null() && json["median_hi"].is_null(),
            "{json}"
        );
        assert_eq!(json["min"], 1.0);
        assert!(describe(&[], 0.95).is_none());
    }

    #[test]
    fn interval_is_the_order_statistic_one() {
        // n = 10: ranks 2 and 9 (P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024).
        let v = [5.0, 3.0, 9.0, 1.0, 4.0, 4.5, 8.0, 7.0, 2.0, 6.0];
        let d = describe(&v, 0.95).unwrap();
        assert_eq!((d.median_lo, d.median_hi), (2.0, 8.0));
        let i = d.median_interval.unwrap();
        assert_eq!((i.lo, i.hi, i.ranks), (2.0, 8.0, (2, 9)));
        assert_eq!(d.interval(), Some((2.0, 8.0)));
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            (&json["median_lo"], &json["median_hi"]),
            (&2.0.into(), &8.0.into())
        );
        let (d2, boot) = describe_keeping_resamples(&v, 300, 0.95, 9).unwrap();
        assert_eq!(d2, d);
        assert_eq!(boot.len(), 300);
        assert_eq!(
            boot,
            describe_keeping_resamples(&v, 300, 0.95, 9).unwrap().1
        );
        assert!(boot.iter().all(|m| (1.0..=9.0).contains(m)));
    }
}
