//! One figure of one cell summarised: n, median with its distribution-free order-statistic
//! interval, p90, min, max, MAD, mean, standard deviation and Tukey outlier counts; and, for the
//! break-even, bootstrap medians drawn from their exact distribution.

use super::bootstrap::resample_medians;
use super::median_interval::{order_statistic_interval, OrderStatInterval};
use super::outliers::{tukey, TukeyCounts};
use super::quantile::{mad, median, quantile, sorted};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
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
