//! One figure of one cell summarised: n, median with its bootstrap interval, p90, min, max, MAD,
//! mean, standard deviation and Tukey outlier counts.

use super::bootstrap::resample_medians;
use super::outliers::{tukey, TukeyCounts};
use super::quantile::{mad, median, quantile, sorted};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Describe {
    pub n: usize,
    pub median: f64,
    /// Percentile-bootstrap interval of the median.
    pub median_lo: f64,
    pub median_hi: f64,
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

/// Summarise `values` (NaNs ignored); `None` when nothing is left. The bootstrap uses
/// `resamples` draws seeded with `seed`, at `level`.
pub fn describe(values: &[f64], resamples: usize, level: f64, seed: u64) -> Option<Describe> {
    describe_keeping_resamples(values, resamples, level, seed).map(|(d, _)| d)
}

/// [`describe`], also returning the bootstrap medians (in draw order) behind the interval, for
/// statistics built on top of them (the break-even's interval).
pub fn describe_keeping_resamples(
    values: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(Describe, Vec<f64>)> {
    let s = sorted(values);
    let n = s.len();
    let med = median(&s)?;
    let boot = resample_medians(&s, resamples, seed);
    let mut ordered = boot.clone();
    ordered.sort_unstable_by(f64::total_cmp);
    let a = (1.0 - level) / 2.0;
    let (lo, hi) = (quantile(&ordered, a)?, quantile(&ordered, 1.0 - a)?);
    let mean = s.iter().sum::<f64>() / n as f64;
    let stddev = if n > 1 {
        (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    let d = Describe {
        n,
        median: med,
        median_lo: lo,
        median_hi: hi,
        p90: quantile(&s, 0.9)?,
        min: s[0],
        max: s[n - 1],
        mad: mad(&s)?,
        mean,
        stddev,
        outliers: tukey(&s),
    };
    Some((d, boot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_a_small_sample() {
        let d = describe(&[3.0, 1.0, 2.0, 10.0, 4.0], 500, 0.95, 1).unwrap();
        assert_eq!(
            (d.n, d.median, d.min, d.max, d.mad),
            (5, 3.0, 1.0, 10.0, 1.0)
        );
        assert!((d.p90 - 7.6).abs() < 1e-12);
        assert_eq!(d.mean, 4.0);
        assert!((d.stddev - 12.5f64.sqrt()).abs() < 1e-12);
        assert!(d.median_lo <= 3.0 && d.median_hi >= 3.0);
        assert!(describe(&[], 10, 0.95, 0).is_none());
        // the same interval as the bootstrap module's
        let v = [5.0, 3.0, 9.0, 1.0, 4.0, 4.5, 8.0];
        let d = describe(&v, 300, 0.95, 9).unwrap();
        let s = sorted(&v);
        let i = crate::stats::bootstrap::median_interval(&s, 300, 0.95, 9).unwrap();
        assert_eq!((d.median_lo, d.median_hi), i);
    }
}
