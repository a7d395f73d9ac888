//! The one-sample Hodges-Lehmann estimate (the median of the Walsh averages) and its
//! distribution-free interval (two order statistics of the Walsh averages, Tukey's construction).
//!
//! For n values there are M = n(n+1)/2 Walsh averages (xᵢ + xⱼ)/2, i ≤ j. They are never
//! all materialised: for sorted x the count of Walsh averages ≤ v (and the least one above v)
//! takes one two-pointer pass, O(n). The k-th smallest is bracketed by such counts, each new
//! trial value interpolated between the bracket's ends towards rank k (regula falsi, Illinois
//! variant: the count is nearly a smooth function of v), until at most 4n averages lie inside;
//! those are then listed (one more pass) and the k-th picked by selection. Ties (many equal
//! averages, which no interpolation can split) are handled by trying the least average above
//! the bracket's lower end whenever two passes in a row fail to halve the bracket. That takes
//! a handful of passes on smooth data (≈ 7 per order statistic at n = 17,000) instead of the
//! 64 of a bisection on the f64 bit image, which remains the fallback after 24 interpolated
//! passes; so the cost is O(n) per pass, O(n) memory, for any n.
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
        let below = kth_walsh(&x, m / 2);
        (below + next_walsh(&x, below, m / 2 + 1)) / 2.0
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

/// How many Walsh averages of ascending `x` are ≤ `v`, and the smallest one above `v` (+∞ when
/// none is).
fn count_le(x: &[f64], v: f64) -> (usize, f64) {
    let n = x.len();
    let mut count = 0;
    let mut above = f64::INFINITY;
    let mut j = n; // exclusive upper bound for the current i
    for i in 0..n {
        while j > i && (x[i] + x[j - 1]) / 2.0 > v {
            j -= 1;
        }
        if j <= i {
            // every later row lies above v; the least of them is (x[i] + x[i])/2
            return (count, above.min((x[i] + x[i]) / 2.0));
        }
        count += j - i;
        if j < n {
            above = above.min((x[i] + x[j]) / 2.0);
        }
    }
    (count, above)
}

/// The k-th smallest Walsh average of ascending `x`, given `below`, the (k − 1)-th: `below`
/// again when k averages are ≤ it, else the least average above it (one pass, not a search).
fn next_walsh(x: &[f64], below: f64, k: usize) -> f64 {
    let (count, above) = count_le(x, below);
    if count >= k {
        below
    } else {
        above
    }
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

/// The Walsh averages of ascending `x` in (lo, hi], unordered.
fn walsh_between(x: &[f64], lo: f64, hi: f64) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    // Row i is (x[i] + x[j])/2 for j in i..n, ascending in j; [a, b) is its part in (lo, hi].
    // Both ends only move down as i grows.
    let (mut a, mut b) = (n, n);
    for i in 0..n {
        while b > i && (x[i] + x[b - 1]) / 2.0 > hi {
            b -= 1;
        }
        while a > i && (x[i] + x[a - 1]) / 2.0 > lo {
            a -= 1;
        }
        if b <= i {
            break;
        }
        out.extend((a.max(i)..b).map(|j| (x[i] + x[j]) / 2.0));
    }
    out
}

/// The k-th smallest (1-based) Walsh average of ascending, finite `x`, 1 ≤ k ≤ n(n+1)/2.
fn kth_walsh(x: &[f64], k: usize) -> f64 {
    let n = x.len();
    let (mut lo, mut hi) = (x[0], x[n - 1]);
    let (mut c_lo, mut above_lo) = count_le(x, lo);
    if c_lo >= k {
        return lo;
    }
    let mut c_hi = n * (n + 1) / 2; // every average is ≤ x[n − 1]
                                    // Invariant: lo < hi, c_lo = count_le(lo) < k ≤ c_hi = count_le(hi), so the answer is in
                                    // (lo, hi], and at least `above_lo` (the least average above lo). Regula falsi on
                                    // f(v) = count_le(v) − (k − ½), with Illinois's halving of a stale end's f.
    let target = k as f64 - 0.5;
    let (mut f_lo, mut f_hi) = (c_lo as f64 - target, c_hi as f64 - target);
    let mut kept = 0i8; // which end the last pass kept: −1 lo, +1 hi
    let (mut passes, mut stalls) = (0, 0);
    while c_hi - c_lo > 4 * n {
        if above_lo >= hi {
            return hi; // hi is the only average left in (lo, hi]
        }
        let (klo, khi) = (key(lo), key(hi));
        let interpolated = lo + (hi - lo) * (-f_lo / (f_hi - f_lo));
        let v = if stalls >= 2 {
            stalls = 0;
            above_lo // the next average up: it is the answer, or lo moves past its ties
        } else if passes < 24 && interpolated > lo && interpolated < hi {
            passes += 1;
            interpolated
        } else {
            unkey(klo + (khi - klo) / 2)
        };
        let width = c_hi - c_lo;
        let (c, above) = count_le(x, v);
        if c >= k {
            if v == above_lo {
                return v;
            }
            (hi, c_hi, f_hi) = (v, c, c as f64 - target);
            if kept == -1 {
                f_lo /= 2.0;
            }
            kept = -1;
        } else {
            (lo, c_lo, f_lo, above_lo) = (v, c, c as f64 - target, above);
            if kept == 1 {
                f_hi /= 2.0;
            }
            kept = 1;
        }
        stalls = if 2 * (c_hi - c_lo) > width {
            stalls + 1
        } else {
            0
        };
    }
    let mut between = walsh_between(x, lo, hi);
    debug_assert_eq!(between.len(), c_hi - c_lo);
    let (_, v, _) = between.select_nth_unstable_by(k - c_lo - 1, f64::total_cmp);
    *v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{lognormal_pair_log_ratios, simulate};

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
    fn kth_walsh_matches_brute_force_on_larger_samples() {
        // Smooth data (where interpolation does the work), heavy ties (few distinct values,
        // huge atoms of equal averages), one value repeated around a few others, and values of
        // both signs spanning many binades (where the bisection fallback takes over).
        let smooth = lognormal_pair_log_ratios(3, 300, 1.1, 0.2);
        let ties: Vec<f64> = (0..200).map(|i| f64::from((i * 7) % 5)).collect();
        let atom: Vec<f64> = (0..150)
            .map(|i| if i % 10 == 0 { f64::from(i) } else { 2.5 })
            .collect();
        let wide: Vec<f64> = (0..120)
            .map(|i| (if i % 2 == 0 { 1.0 } else { -1.0 }) * 10f64.powi(i % 40 - 20))
            .collect();
        for data in [smooth, ties, atom, wide] {
            let x = sorted(&data);
            let w = brute_walsh(&x);
            let m = w.len();
            let ks = (1..=m)
                .step_by(97)
                .chain([1, 2, m / 2, m / 2 + 1, m - 1, m]);
            for k in ks {
                assert_eq!(kth_walsh(&x, k), w[k - 1], "k={k} of {m}");
            }
        }
    }

    #[test]
    fn the_estimate_is_the_median_of_every_walsh_average() {
        // even and odd counts of averages, smooth data and heavy ties (where the two middle
        // averages are often equal)
        let smooth = lognormal_pair_log_ratios(5, 202, 1.2, 0.3);
        let ties: Vec<f64> = (0..122).map(|i| f64::from((i * 7) % 4)).collect();
        let mut parities = std::collections::BTreeSet::new();
        for data in [
            &smooth[..],
            &smooth[..200],
            &ties[..],
            &ties[..120],
            &ties[..3],
        ] {
            let w = brute_walsh(&sorted(data));
            let m = w.len();
            let median = if m % 2 == 1 {
                w[m / 2]
            } else {
                (w[m / 2 - 1] + w[m / 2]) / 2.0
            };
            assert_eq!(
                hodges_lehmann(data, 0.95).unwrap().estimate,
                median,
                "m={m}"
            );
            parities.insert(m % 2);
        }
        assert_eq!(
            parities.len(),
            2,
            "both an odd and an even count of averages"
        );
    }

    /// The k-th Walsh average by plain bisection on the f64 bit image (the previous method):
    /// the smallest key whose count reaches k.
    fn bisect_walsh(x: &[f64], k: usize) -> f64 {
        let (mut lo, mut hi) = (key(x[0]), key(x[x.len() - 1]));
        if count_le(x, unkey(lo)).0 >= k {
            return unkey(lo);
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if count_le(x, unkey(mid)).0 >= k {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        unkey(hi)
    }

    #[test]
    fn kth_walsh_matches_bisection_at_thousands() {
        // Too many averages to list (n = 3000: 4.5 million), so against the bisection instead,
        // at the ranks a Hodges-Lehmann estimate and interval use.
        let smooth = sorted(&lognormal_pair_log_ratios(9, 3000, 0.9, 0.3));
        let coarse: Vec<f64> = sorted(
            &(0..3000)
                .map(|i| f64::from((i * 7919) % 97))
                .collect::<Vec<_>>(),
        );
        for x in [smooth, coarse] {
            let m = x.len() * (x.len() + 1) / 2;
            for k in [1, 2_000_000, m / 2, m / 2 + 1, m - 2_000_000, m] {
                assert_eq!(kth_walsh(&x, k), bisect_walsh(&x, k), "k={k}");
            }
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
        // x = 1, 2, …, 59 (n = 59 > EXACT_MAX_N, in shuffled order), worked by hand. M = 59·60/2
        // = 1770 Walsh averages s/2, s = i + j; for s ≤ 60 there are ⌊s/2⌋ pairs with sum s,
        // so Σ_{s=2}^{2m} ⌊s/2⌋ = m² sums are ≤ 2m. Critical rank: n(n+1)/4 = 885,
        // n(n+1)(2n+1)/24 = 17552.5, √ = 132.486, z₀.₉₇₅ = 1.959964, so k = ⌊885 − 259.667⌋ =
        // ⌊625.333⌋ = 625 = 25²: the 625th average is the last of sum 50, 25.0 (the 626th is
        // 25.5). The averages are symmetric about 30, so the (M + 1 − k)-th is 60 − 25 = 35.
        // The estimate: 29·30 = 870 sums are ≤ 59 and 30 more equal 60, so the 885th and 886th
        // averages are both 30.
        let x: Vec<f64> = (0..59).map(|i| f64::from((i * 23) % 59 + 1)).collect();
        let h = hodges_lehmann(&x, 0.95).unwrap();
        assert_eq!(h.n, 59);
        assert_eq!(h.estimate, 30.0);
        assert_eq!(h.interval, Some((25.0, 35.0)));
        assert_eq!(h.achieved_level, 0.95);
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
