//! Seeded bootstrap of a median whose cost does not depend on the sample size: each bootstrap
//! median is drawn straight from its exact distribution instead of by resampling n values. Used
//! for the ratio of two independent samples' medians (what `compare` reports between two runs)
//! and for the break-even's interval (which has no closed form).
//!
//! The exact distribution (Maritz & Jarrett 1978; Efron 1982, §10.2): a resample draws n indices
//! uniformly from the ascending sample, index ⌊n·Uᵢ⌋ for iid uniforms Uᵢ, and ⌊n·u⌋ is monotone,
//! so the k-th smallest index drawn is ⌊n·U₍ₖ₎⌋, where the k-th uniform order statistic U₍ₖ₎ is
//! Beta(k, n + 1 − k). For odd n the bootstrap median is x at ⌊n·U₍ₖ₎⌋ with k = (n + 1)/2. For
//! even n it is the mean of the values at ranks k = n/2 and k + 1, and given U₍ₖ₎ = v the next
//! order statistic is v + (1 − v)·W with W ~ Beta(1, n − k) (the least of the n − k uniforms
//! above v, rescaled). So a bootstrap median costs one Beta draw (two Gamma draws, Marsaglia &
//! Tsang 2000) and, for even n, one uniform: O(1), no allocation, with the same distribution as
//! resampling n values (checked against complete enumeration in the tests).

use super::quantile::quantile;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `resamples` bootstrap medians of ascending `sorted`, in draw order, from ChaCha8 seeded with
/// `seed`: each drawn from the exact bootstrap distribution of the median (see the module
/// comment) in O(1), so the whole costs O(resamples) whatever n. Empty when `sorted` is.
pub fn resample_medians(sorted: &[f64], resamples: usize, seed: u64) -> Vec<f64> {
    let n = sorted.len();
    if n == 0 {
        return Vec::new();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let nf = n as f64;
    let index = |u: f64| ((nf * u) as usize).min(n - 1); // ⌊n·u⌋ for u in [0, 1]
    let k = n.div_ceil(2); // 1-based rank of the (lower) middle value
    let shape_b = (n + 1 - k) as f64;
    (0..resamples)
        .map(|_| {
            let v = beta(&mut rng, k as f64, shape_b);
            if n % 2 == 1 {
                sorted[index(v)]
            } else {
                // W ~ Beta(1, n − k) by inversion: 1 − U^(1/(n − k)), U in (0, 1].
                let u: f64 = 1.0 - rng.random::<f64>();
                let w = -(u.ln() / (n - k) as f64).exp_m1();
                let next = v + (1.0 - v) * w;
                (sorted[index(v)] + sorted[index(next)]) / 2.0
            }
        })
        .collect()
}

/// A standard normal deviate (Box–Muller, one of the pair).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A Gamma(shape, 1) deviate for shape ≥ 1 (Marsaglia & Tsang 2000, "A simple method for
/// generating gamma variables": exact rejection, accepts ≥ 95% of proposals).
fn gamma(rng: &mut ChaCha8Rng, shape: f64) -> f64 {
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u: f64 = rng.random::<f64>();
        let x2 = x * x;
        if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// A Beta(a, b) deviate for a, b ≥ 1, as G_a / (G_a + G_b).
fn beta(rng: &mut ChaCha8Rng, a: f64, b: f64) -> f64 {
    let x = gamma(rng, a);
    let y = gamma(rng, b);
    x / (x + y)
}

/// Percentile interval at `level` of a bootstrap distribution (type 7 quantiles of it).
fn percentile_interval(mut dist: Vec<f64>, level: f64) -> Option<(f64, f64)> {
    dist.sort_unstable_by(f64::total_cmp);
    let a = (1.0 - level) / 2.0;
    Some((quantile(&dist, a)?, quantile(&dist, 1.0 - a)?))
}

/// The percentile bootstrap interval of the median of ascending `sorted`. `None` when empty.
/// (The reports use the order-statistic interval instead: see
/// [`super::median_interval::order_statistic_interval`].)
pub fn median_interval(
    sorted: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<(f64, f64)> {
    percentile_interval(resample_medians(sorted, resamples, seed), level)
}

/// The percentile bootstrap interval of median(b) / median(a), the two medians' bootstrap
/// distributions drawn independently (different seeds derived from `seed`) and exactly, as in
/// [`resample_medians`]: O(resamples · log resamples) whatever the sample sizes. `None` when
/// either is empty or a resampled median of `a` is zero.
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

/// The percentile bootstrap interval at `level` of a crossing found in each resample: `found`
/// holds one n per resample, `None` where that resample has no crossing. Its bounds are the
/// order statistics at ⌊α·(R − 1)⌋ and ⌈(1 − α)·(R − 1)⌉ of the ascending n (α = (1 − level)/2),
/// a missing crossing counting as beyond every n: a bound that falls on one is `None` ("never").
pub fn crossing_interval(mut found: Vec<Option<u64>>, level: f64) -> (Option<u64>, Option<u64>) {
    if found.is_empty() {
        return (None, None);
    }
    found.sort_unstable_by_key(|n| n.unwrap_or(u64::MAX));
    let alpha = (1.0 - level) / 2.0;
    let last = (found.len() - 1) as f64;
    let pick = |q: f64| found[(q as usize).min(found.len() - 1)];
    (
        pick((alpha * last).floor()),
        pick(((1.0 - alpha) * last).ceil()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantile::{median, sorted};
    use crate::testutil::{lognormal, simulate};
    use std::collections::BTreeMap;

    /// The exact bootstrap distribution of the median of `x` (ascending, distinct), by complete
    /// enumeration of all nⁿ resamples: value → probability.
    fn enumerate(x: &[f64]) -> BTreeMap<u64, f64> {
        let n = x.len();
        let total = n.pow(n as u32);
        let mut out = BTreeMap::new();
        let mut draw = vec![0.0; n];
        for code in 0..total {
            let mut c = code;
            for d in draw.iter_mut() {
                *d = x[c % n];
                c /= n;
            }
            let m = median(&sorted(&draw)).unwrap();
            *out.entry(m.to_bits()).or_insert(0.0) += 1.0 / total as f64;
        }
        out
    }

    /// Frequencies of `draws` bootstrap medians of `x`, value → share.
    fn frequencies(x: &[f64], draws: usize, seed: u64) -> BTreeMap<u64, f64> {
        let mut out = BTreeMap::new();
        for m in resample_medians(x, draws, seed) {
            *out.entry(m.to_bits()).or_insert(0.0) += 1.0 / draws as f64;
        }
        out
    }

    /// Every value's share within 4.5 binomial standard errors of its probability, and no value
    /// drawn that has probability 0.
    fn assert_matches(x: &[f64], want: &BTreeMap<u64, f64>, draws: usize) {
        let got = frequencies(x, draws, 11);
        for k in got.keys() {
            assert!(
                want.contains_key(k),
                "drew {} never possible",
                f64::from_bits(*k)
            );
        }
        for (k, p) in want {
            let f = got.get(k).copied().unwrap_or(0.0);
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!(
                (f - p).abs() <= 4.5 * se + 1e-12,
                "x={x:?} value {}: share {f} vs probability {p}",
                f64::from_bits(*k)
            );
        }
    }

    #[test]
    fn exact_distribution_worked_by_hand() {
        // n = 3: the median is x₍₁₎ when ≥ 2 of the 3 draws are x₍₁₎: 3·2 + 1 = 7 of 27
        // resamples; likewise x₍₃₎; x₍₂₎ takes the other 13. So 7/27, 13/27, 7/27.
        let want = BTreeMap::from([
            (1.0f64.to_bits(), 7.0 / 27.0),
            (2.0f64.to_bits(), 13.0 / 27.0),
            (3.0f64.to_bits(), 7.0 / 27.0),
        ]);
        assert_matches(&[1.0, 2.0, 3.0], &want, 60_000);
        // n = 2: (1,1) → 1, (1,2) and (2,1) → 1.5, (2,2) → 2: 1/4, 1/2, 1/4.
        let want = BTreeMap::from([
            (1.0f64.to_bits(), 0.25),
            (1.5f64.to_bits(), 0.5),
            (2.0f64.to_bits(), 0.25),
        ]);
        assert_matches(&[1.0, 2.0], &want, 60_000);
        assert_eq!(resample_medians(&[4.0], 5, 0), vec![4.0; 5]);
    }

    #[test]
    fn exact_distribution_matches_enumeration() {
        // Even n pairs two order statistics; odd n takes one. Distinct values, spaced unevenly
        // so that every mean of two is its own value.
        for x in [
            vec![1.0, 2.0, 4.0, 8.0],
            vec![1.0, 2.0, 4.0, 8.0, 16.0],
            vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0],
            vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0],
        ] {
            assert_matches(&x, &enumerate(&x), 100_000);
        }
    }

    #[test]
    fn deterministic_and_degenerate() {
        let x = sorted(&lognormal(1, 40, 100.0, 0.2));
        assert_eq!(resample_medians(&x, 200, 3), resample_medians(&x, 200, 3));
        assert_ne!(resample_medians(&x, 200, 3), resample_medians(&x, 200, 4));
        assert_eq!(median_interval(&[4.0], 100, 0.95, 0), Some((4.0, 4.0)));
        assert_eq!(median_interval(&[], 100, 0.95, 0), None);
        assert!(resample_medians(&[], 10, 0).is_empty());
        // a million values cost no more than ten
        let big: Vec<f64> = (0..1_000_000).map(f64::from).collect();
        let m = resample_medians(&big, 2000, 5);
        assert!(m.iter().all(|v| (497_000.0..503_000.0).contains(v)));
    }

    #[test]
    fn median_interval_covers_true_median() {
        // Lognormal samples with median 100: the percentile interval of the exact bootstrap
        // distribution should cover 100 in about 95% of runs.
        let covered = simulate(400, |seed| {
            let x = sorted(&lognormal(seed, 41, 100.0, 0.25));
            let (lo, hi) = median_interval(&x, 2000, 0.95, seed).unwrap();
            lo <= 100.0 && 100.0 <= hi
        });
        eprintln!("n=41: covered {covered}/400");
        assert!(covered >= 372, "covered {covered}/400");
    }

    #[test]
    fn ratio_interval_covers_true_ratio() {
        // b's median is 1.1 times a's: the 95% interval of the ratio covers 1.1 in ≥ 93% of
        // seeded runs, for small and large samples (and unequal sizes).
        for (na, nb, runs) in [
            (30usize, 30usize, 1000u64),
            (41, 60, 400),
            (1000, 1000, 400),
        ] {
            let covered = simulate(runs, |seed| {
                let a = sorted(&lognormal(seed, na, 100.0, 0.3));
                let b = sorted(&lognormal(seed + 100_000, nb, 110.0, 0.3));
                let (lo, hi) = median_ratio_interval(&a, &b, 2000, 0.95, seed).unwrap();
                lo <= 1.1 && 1.1 <= hi
            });
            eprintln!("n={na},{nb}: covered {covered}/{runs}");
            assert!(
                covered as f64 >= 0.93 * runs as f64,
                "n={na},{nb}: covered {covered}/{runs}"
            );
        }
    }

    #[test]
    fn a_crossing_interval_counts_a_missing_crossing_beyond_every_n() {
        // 100 resamples, 5 of them without a crossing: the upper bound (rank 98) is one of those
        let found: Vec<Option<u64>> = (1..=95).map(Some).chain([None; 5]).collect();
        assert_eq!(crossing_interval(found, 0.95), (Some(3), None));
        let found: Vec<Option<u64>> = (1..=99).map(Some).chain([None]).collect();
        assert_eq!(crossing_interval(found, 0.95), (Some(3), Some(98)));
        let all: Vec<Option<u64>> = (1..=101).rev().map(Some).collect();
        assert_eq!(crossing_interval(all, 0.95), (Some(3), Some(99)));
        assert_eq!(crossing_interval(Vec::new(), 0.95), (None, None));
    }
}
