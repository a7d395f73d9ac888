//! Seeded percentile bootstrap intervals: for the median of one sample, and for the ratio of two
//! independent samples' medians (what `compare` reports between two runs).
//!
//! A resample's median is found without sorting: on an ascending sample the median of the values
//! drawn is the value at the median of the indices drawn, so each resample counts its indices in
//! a histogram and walks it once: O(n) per resample, no comparisons, no allocation.

use super::quantile::quantile;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Resample medians of ascending `sorted`, `resamples` of them, from ChaCha8 seeded with `seed`.
pub fn resample_medians(sorted: &[f64], resamples: usize, seed: u64) -> Vec<f64> {
    let n = sorted.len();
    if n == 0 {
        return Vec::new();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0u32; n];
    let (k1, k2) = ((n - 1) / 2, n / 2); // 0-based ranks of the middle value(s)
    let mut out = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        counts.iter_mut().for_each(|c| *c = 0);
        for _ in 0..n {
            counts[rng.random_range(0..n)] += 1;
        }
        let (mut a, mut b) = (None, None);
        let mut seen = 0usize;
        for (i, &c) in counts.iter().enumerate() {
            seen += c as usize;
            if a.is_none() && seen > k1 {
                a = Some(i);
            }
            if seen > k2 {
                b = Some(i);
                break;
            }
        }
        let (a, b) = (a.unwrap_or(n - 1), b.unwrap_or(n - 1));
        out.push((sorted[a] + sorted[b]) / 2.0);
    }
    out
}

/// Percentile interval at `level` of a bootstrap distribution (type 7 quantiles of it).
fn percentile_interval(mut dist: Vec<f64>, level: f64) -> Option<(f64, f64)> {
    dist.sort_unstable_by(f64::total_cmp);
    let a = (1.0 - level) / 2.0;
    Some((quantile(&dist, a)?, quantile(&dist, 1.0 - a)?))
}

/// The percentile bootstrap interval of the median of ascending `sorted`. `None` when empty.
pub fn median_interval(
    sorted: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    percentile_interval(resample_medians(sorted, resamples, seed), level)
}

/// The percentile bootstrap interval of median(b) / median(a), the samples resampled
/// independently (different seeds derived from `seed`). `None` when either is empty or a
/// resampled median of `a` is zero.
pub fn median_ratio_interval(
    a_sorted: &[f64],
    b_sorted: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    let ma = resample_medians(a_sorted, resamples, seed);
    let mb = resample_medians(b_sorted, resamples, seed ^ 0x9E37_79B9_7F4A_7C15);
    if ma.is_empty() || mb.is_empty() || ma.contains(&0.0) {
        return None;
    }
    percentile_interval(mb.iter().zip(&ma).map(|(b, a)| b / a).collect(), level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile::{median, sorted};
    use crate::stats::testutil::{lognormal, simulate};

    #[test]
    fn histogram_median_equals_sorting_median() {
        // Re-derive each resample by drawing the same indices and sorting the values.
        let x = sorted(&[5.0, 1.0, 4.0, 4.0, 9.0, 2.0, 7.0, 3.0]);
        let fast = resample_medians(&x, 50, 7);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for m in fast {
            let draw: Vec<f64> = (0..x.len())
                .map(|_| x[rng.random_range(0..x.len())])
                .collect();
            assert_eq!(m, median(&sorted(&draw)).unwrap());
        }
    }

    #[test]
    fn deterministic_and_degenerate() {
        let x = sorted(&lognormal(1, 40, 100.0, 0.2));
        assert_eq!(
            median_interval(&x, 200, 0.95, 3),
            median_interval(&x, 200, 0.95, 3)
        );
        assert_eq!(median_interval(&[4.0], 100, 0.95, 0), Some((4.0, 4.0)));
        assert_eq!(median_interval(&[], 100, 0.95, 0), None);
    }

    #[test]
    fn median_interval_covers_true_median() {
        // Lognormal samples with median 100: the 95% interval should cover 100 in about 95% of
        // runs (the percentile bootstrap of a median runs a little under nominal for small n).
        let covered = simulate(200, |seed| {
            let x = sorted(&lognormal(seed, 41, 100.0, 0.25));
            let (lo, hi) = median_interval(&x, 400, 0.95, seed).unwrap();
            lo <= 100.0 && 100.0 <= hi
        });
        assert!(covered >= 176, "covered {covered}/200");
    }

    #[test]
    fn ratio_interval_covers_true_ratio() {
        let covered = simulate(200, |seed| {
            let a = sorted(&lognormal(seed, 41, 100.0, 0.2));
            let b = sorted(&lognormal(seed + 10_000, 41, 110.0, 0.2));
            let (lo, hi) = median_ratio_interval(&a, &b, 400, 0.95, seed).unwrap();
            lo <= 1.1 && 1.1 <= hi
        });
        assert!(covered >= 176, "covered {covered}/200");
    }
}
