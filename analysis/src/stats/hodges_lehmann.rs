//! The one-sample Hodges-Lehmann estimate (the median of the Walsh averages) and its
//! distribution-free interval (two order statistics of the Walsh averages, Tukey's construction).
//!
//! For n values there are M = n(n+1)/2 Walsh averages (xᵢ + xⱼ)/2, i ≤ j. They are never
//! materialised: for sorted x the count of Walsh averages ≤ v takes one two-pointer pass, and the
//! k-th smallest is found by bisecting on the order-preserving integer image of f64 (64 steps at
//! most). So the cost is O(n log n) time and O(n) memory for any n.
//!
//! The interval [W₍ₖ₎, W₍M+1−k₎] takes k from the exact signed-rank distribution when
//! n ≤ [`EXACT_MAX_N`] (k − 1 is the largest t with P(T+ ≤ t) ≤ α/2), and from the normal
//! approximation k = ⌊n(n+1)/4 − z₁₋α/₂ √(n(n+1)(2n+1)/24)⌋ above. Its coverage holds for data
//! symmetric about their centre, which a within-block log ratio of two exchangeable noises is.

use super::quantile::sorted;
use super::signed_rank::{SignedRankDist, EXACT_MAX_N};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShiftEstimate {
    pub n: usize,
    /// Median of the Walsh averages.
    pub estimate: f64,
    /// The distribution-free interval, `None` when n is too small for the level asked.
    pub interval: Option<(f64, f64)>,
    /// The confidence the interval actually has (exact case) or its nominal level (normal case).
    pub achieved_level: f64,
}

/// The estimate and interval at `level` (e.g. 0.95) of `values`' centre of symmetry. Non-finite
/// values are ignored; `None` when no value is left.
pub fn hodges_lehmann(values: &[f64], level: f64) -> Option<ShiftEstimate> {
    let x: Vec<f64> = sorted(values)
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let n = x.len();
    if n == 0 {
        return None;
    }
    let m = n * (n + 1) / 2;
    let estimate = if m % 2 == 1 {
        kth_walsh(&x, m.div_ceil(2))
    } else {
        (kth_walsh(&x, m / 2) + kth_walsh(&x, m / 2 + 1)) / 2.0
    };
    let alpha = 1.0 - level;
    let (k, achieved_level) = if n <= EXACT_MAX_N {
        let dist = SignedRankDist::new(n);
        // largest t with P(T+ <= t) <= alpha/2, then k = t + 1 (k = 0: no such t).
        let mut t: i64 = -1;
        while dist.p_le(t + 1) <= alpha / 2.0 {
            t += 1;
        }
        ((t + 1) as usize, 1.0 - 2.0 * dist.p_le(t))
    } else {
        let nf = n as f64;
        let z = Normal::standard().inverse_cdf(1.0 - alpha / 2.0);
        let c = nf * (nf + 1.0) / 4.0 - z * (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0).sqrt();
        (c.floor().max(0.0) as usize, level)
    };
    let interval = if k >= 1 {
        Some((kth_walsh(&x, k), kth_walsh(&x, m + 1 - k)))
    } else {
        None
    };
    Some(ShiftEstimate {
        n,
        estimate,
        interval,
        achieved_level,
    })
}

/// How many Walsh averages of ascending `x` are ≤ `v`.
fn count_le(x: &[f64], v: f64) -> usize {
    let n = x.len();
    let mut count = 0;
    let mut j = n; // exclusive upper bound for the current i
    for i in 0..n {
        while j > i && (x[i] + x[j - 1]) / 2.0 > v {
            j -= 1;
        }
        if j <= i {
            break;
        }
        count += j - i;
    }
    count
}

/// Order-preserving map from finite f64 to u64 (and back).
fn key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

fn unkey(k: u64) -> f64 {
    if k >> 63 == 1 {
        f64::from_bits(k & !(1 << 63))
    } else {
        f64::from_bits(!k)
    }
}

/// The k-th smallest (1-based) Walsh average of ascending, finite `x`, 1 ≤ k ≤ n(n+1)/2.
fn kth_walsh(x: &[f64], k: usize) -> f64 {
    let (mut lo, mut hi) = (key(x[0]), key(x[x.len() - 1]));
    // invariant: count_le(unkey(hi)) >= k; answer is the smallest such key.
    if count_le(x, unkey(lo)) >= k {
        return unkey(lo);
    }
    // now count_le(lo) < k
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if count_le(x, unkey(mid)) >= k {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // -0.0 and 0.0 are distinct keys but equal values; either is the same answer.
    unkey(hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::testutil::{lognormal_pair_log_ratios, simulate};

    fn brute_walsh(x: &[f64]) -> Vec<f64> {
        let mut w = Vec::new();
        for i in 0..x.len() {
            for j in i..x.len() {
                w.push((x[i] + x[j]) / 2.0);
            }
        }
        sorted(&w)
    }

    #[test]
    fn kth_walsh_matches_brute_force() {
        let x = sorted(&[-3.5, 0.25, 0.25, 1.0, -0.0, 7.0, 2.5, -1.25, 0.0]);
        let w = brute_walsh(&x);
        for k in 1..=w.len() {
            assert_eq!(kth_walsh(&x, k), w[k - 1], "k={k}");
        }
    }

    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a measurement in the data set, not π
    fn hollander_wolfe_depression_example() {
        // Hollander & Wolfe example 3.1/3.3 (n = 9): R's wilcox.test(y, x, paired = TRUE,
        // conf.int = TRUE) gives (pseudo)median −0.46 and the 96.1% interval
        // [−0.786, −0.010] (k = 6, 1 − 2·P(T+ ≤ 5) = 1 − 20/512).
        let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let d: Vec<f64> = y.iter().zip(&x).map(|(y, x)| y - x).collect();
        let h = hodges_lehmann(&d, 0.95).unwrap();
        assert!((h.estimate - -0.46).abs() < 1e-9, "{}", h.estimate);
        let (lo, hi) = h.interval.unwrap();
        assert!((lo - -0.786).abs() < 1e-9, "{lo}");
        assert!((hi - -0.010).abs() < 1e-9, "{hi}");
        assert!((h.achieved_level - (1.0 - 20.0 / 512.0)).abs() < 1e-12);
    }

    #[test]
    fn too_few_for_an_interval() {
        // n = 5: P(T+ <= 0) = 1/32 > 0.025, so no 95% interval exists.
        let h = hodges_lehmann(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.95).unwrap();
        assert_eq!(h.estimate, 3.0);
        assert_eq!(h.interval, None);
        assert!(hodges_lehmann(&[], 0.95).is_none());
    }

    #[test]
    fn large_n_uses_normal_critical_value() {
        let x: Vec<f64> = (0..200).map(|i| ((i * 37) % 200) as f64).collect();
        let h = hodges_lehmann(&x, 0.95).unwrap();
        assert_eq!(h.estimate, 99.5);
        let (lo, hi) = h.interval.unwrap();
        assert!(lo < 99.5 && hi > 99.5 && (99.5 - lo - (hi - 99.5)).abs() < 1e-9);
    }

    #[test]
    fn interval_covers_known_factor() {
        // One codec 1.10× slower than the other, lognormal noise per sample plus a drift common
        // to the block: the 95% interval of the within-block log ratio covers ln 1.10 in at
        // least 90% of 200 seeded simulations (expected ≈ 95%).
        let truth = 1.10f64.ln();
        let covered = simulate(200, |seed| {
            let d = lognormal_pair_log_ratios(seed, 30, 1.10, 0.15);
            let (lo, hi) = hodges_lehmann(&d, 0.95).unwrap().interval.unwrap();
            lo <= truth && truth <= hi
        });
        assert!(covered >= 180, "covered {covered}/200");
    }
}
