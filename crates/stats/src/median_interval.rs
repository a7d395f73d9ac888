//! The distribution-free interval of a median by order statistics (the binomial or sign-test
//! interval: Thompson 1936, Nair 1940; Hollander & Wolfe, *Nonparametric Statistical Methods*,
//! §3.6; Conover, *Practical Nonparametric Statistics*, §3.2), and the Binomial(n, ½) tail
//! probabilities it rests on.
//!
//! For n values of any continuous distribution, the count B of values below the true median is
//! Binomial(n, ½), and the median lies in [x₍ₗ₎, x₍ₙ₊₁₋ₗ₎] unless B ≤ l − 1 or B ≥ n + 1 − l. So
//! that interval covers the median with probability exactly 1 − 2·P(B ≤ l − 1), and taking l as
//! large as keeps this ≥ the level gives the shortest such interval. The ranks are exact for
//! every n (the tail is summed in log space, never by the normal approximation); the cost is
//! O(√n) after the caller's sort.

use super::quantile::sorted;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::factorial::ln_factorial;
use std::f64::consts::LN_2;

/// An interval of the median by order statistics, with what it guarantees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OrderStatInterval {
    /// x₍ₗ₎ and x₍ᵤ₎ of the ascending sample.
    pub lo: f64,
    pub hi: f64,
    /// The 1-based ranks l and u = n + 1 − l.
    pub ranks: (usize, usize),
    /// The coverage guaranteed for the median of any continuous distribution:
    /// 1 − 2·P(B ≤ l − 1), B ~ Binomial(n, ½). At least the level asked (conservative: strictly
    /// above it, markedly so for small n, e.g. 96.9% for n = 6 at 95%). With ties (a discrete
    /// distribution) the closed interval covers at least as often.
    pub coverage: f64,
}

/// The method's name, for a report to name it.
pub const METHOD: &str =
    "distribution-free order-statistic interval of the median (binomial / sign-test ranks)";

/// The distribution-free order-statistic interval [x₍ₗ₎, x₍ₙ₊₁₋ₗ₎] of the median of ascending
/// `sorted` at `level` (0 < level < 1, e.g. 0.95): l is the largest rank with
/// P(B ≤ l − 1) ≤ (1 − level)/2, B ~ Binomial(n, ½), so the coverage is ≥ `level` (see
/// [`OrderStatInterval::coverage`]; conservative for small n, where the binomial steps are
/// coarse).
///
/// `None` when the sample is empty or too small for the level: even [x₍₁₎, x₍ₙ₎] covers the
/// median with probability only 1 − 2^(1−n), so at 95% n ≤ 5 has no interval (n = 5: 93.75%).
/// Cost O(√n) given the sorted sample.
pub fn order_statistic_interval(sorted: &[f64], level: f64) -> Option<OrderStatInterval> {
    let n = sorted.len();
    let c = lower_rank_below(n, level)?; // c = l − 1, 0-based index of x₍ₗ₎
    Some(OrderStatInterval {
        lo: sorted[c],
        hi: sorted[n - 1 - c],
        ranks: (c + 1, n - c),
        coverage: 1.0 - 2.0 * binomial_half_cdf(n, c as i64),
    })
}

/// [`order_statistic_interval`] of unsorted `values` (NaNs dropped).
pub fn median_interval_of(values: &[f64], level: f64) -> Option<OrderStatInterval> {
    order_statistic_interval(&sorted(values), level)
}

/// [`order_statistic_interval`] at `level`, or, where the sample is too small for it, the whole
/// range [x₍₁₎, x₍ₙ₎] with the coverage it has (1 − 2^(1−n): 93.75% for 5 values, 50% for 2):
/// the widest interval the sample gives, never called more than it guarantees. `None` for fewer
/// than 2 values. For the warm track's forks, a handful of processes per cell.
pub fn interval_or_range(sorted: &[f64], level: f64) -> Option<OrderStatInterval> {
    let n = sorted.len();
    if n < 2 {
        return None;
    }
    order_statistic_interval(sorted, level).or(Some(OrderStatInterval {
        lo: sorted[0],
        hi: sorted[n - 1],
        ranks: (1, n),
        coverage: 1.0 - 2.0 * binomial_half_cdf(n, 0),
    }))
}

/// The smallest n with an order-statistic interval of the median at `level`: the n for which
/// even [x₍₁₎, x₍ₙ₎] covers at least `level` (1 − 2^(1−n) ≥ level), 6 at 95%. `None` when
/// `level` is outside (0, 1).
pub fn smallest_n(level: f64) -> Option<usize> {
    if !(level > 0.0 && level < 1.0) {
        return None;
    }
    (1..).find(|&n| lower_rank_below(n, level).is_some())
}

/// The largest c (= l − 1) with P(B ≤ c) ≤ (1 − level)/2, B ~ Binomial(n, ½), capped so that
/// l ≤ n + 1 − l; `None` when no c ≥ 0 qualifies (or n = 0, or level outside (0, 1)).
fn lower_rank_below(n: usize, level: f64) -> Option<usize> {
    if n == 0 || !(level > 0.0 && level < 1.0) {
        return None;
    }
    let half_alpha = (1.0 - level) / 2.0;
    let top = (n as i64 - 1) / 2; // l = c + 1 ≤ (n + 1)/2
    let ok = |c: i64| binomial_half_cdf(n, c) <= half_alpha;
    // Start from the normal approximation with continuity correction (off by at most a few
    // ranks), then step to the exact answer: O(1) steps of O(√n) each.
    let z = Normal::standard().inverse_cdf(1.0 - half_alpha);
    let nf = n as f64;
    let mut c = ((nf / 2.0 - 0.5 - z * nf.sqrt() / 2.0).floor() as i64).clamp(-1, top);
    if c >= 0 && !ok(c) {
        while c >= 0 && !ok(c) {
            c -= 1;
        }
    } else {
        while c < top && ok(c + 1) {
            c += 1;
        }
    }
    usize::try_from(c).ok()
}

/// ln P(B = k), B ~ Binomial(n, ½), for k ≤ n.
fn ln_pmf_half(n: usize, k: usize) -> f64 {
    ln_factorial(n as u64) - ln_factorial(k as u64) - ln_factorial((n - k) as u64) - n as f64 * LN_2
}

/// P(B ≤ c), B ~ Binomial(n, ½), for any integer c. Summed from c downwards in ratios of
/// consecutive terms (P(B = i − 1) = P(B = i) · i/(n − i + 1)) starting from the log-space
/// term at c, until the terms no longer change the sum: O(√n) terms at worst, no underflow of
/// the sum's scale, no cancellation (the upper half uses the symmetry P(B ≤ c) = 1 − P(B ≤ n −
/// c − 1)).
pub fn binomial_half_cdf(n: usize, c: i64) -> f64 {
    if c < 0 {
        return 0.0;
    }
    let c = c as usize;
    if c >= n {
        return 1.0;
    }
    if 2 * c + 1 >= n {
        // c ≥ (n − 1)/2: the complement is the lower tail at n − c − 1 ≤ c.
        return 1.0 - lower_tail(n, n - c - 1);
    }
    lower_tail(n, c)
}

/// P(B ≤ c) for 2c + 1 < n, where the terms fall going down from c.
fn lower_tail(n: usize, c: usize) -> f64 {
    let mut term = ln_pmf_half(n, c).exp();
    let mut sum = 0.0;
    let mut i = c;
    loop {
        sum += term;
        if i == 0 || term <= sum * 1e-17 {
            return sum;
        }
        term *= i as f64 / (n - i + 1) as f64;
        i -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{lognormal, simulate};

    /// P(B ≤ c) for every c by Pascal's triangle in probabilities (each row the previous one's
    /// neighbours averaged: halving is exact in binary), an independent check of the log-space
    /// sums.
    fn pascal_cdf(n: usize) -> Vec<f64> {
        let mut row = vec![1.0];
        for _ in 0..n {
            let mut next = vec![0.0; row.len() + 1];
            for (i, p) in row.iter().enumerate() {
                next[i] += p / 2.0;
                next[i + 1] += p / 2.0;
            }
            row = next;
        }
        row.iter()
            .scan(0.0, |acc, p| {
                *acc += p;
                Some(*acc)
            })
            .collect()
    }

    fn ranks(n: usize, level: f64) -> Option<(usize, usize)> {
        let x: Vec<f64> = (1..=n).map(|i| i as f64).collect();
        order_statistic_interval(&x, level).map(|i| i.ranks)
    }

    #[test]
    fn small_n_worked_by_hand() {
        // n = 5: P(B ≤ 0) = 1/32 = 0.03125 > 0.025, so no 95% interval (full range: 93.75%).
        assert_eq!(ranks(5, 0.95), None);
        // n = 6: P(B ≤ 0) = 1/64 = 0.015625 ≤ 0.025 → l = 1, u = 6, coverage 1 − 2/64.
        let x = [3.0, 1.0, 4.0, 1.5, 9.0, 2.6];
        let i = median_interval_of(&x, 0.95).unwrap();
        assert_eq!((i.lo, i.hi, i.ranks), (1.0, 9.0, (1, 6)));
        assert_eq!(i.coverage, 1.0 - 2.0 / 64.0);
        // n = 10: P(B ≤ 1) = (1 + 10)/1024 = 0.0107 ≤ 0.025 < P(B ≤ 2) = (1 + 10 + 45)/1024 =
        // 0.0547 → l = 2, u = 9, coverage 1 − 22/1024 = 0.978515625.
        let x: Vec<f64> = (1..=10).map(|i| f64::from(i) * 10.0).collect();
        let i = order_statistic_interval(&x, 0.95).unwrap();
        assert_eq!((i.lo, i.hi, i.ranks), (20.0, 90.0, (2, 9)));
        assert!((i.coverage - (1.0 - 22.0 / 1024.0)).abs() < 1e-15);
        // n = 20: P(B ≤ 5) = (1 + 20 + 190 + 1140 + 4845 + 15504)/2²⁰ = 21700/1048576 = 0.0207;
        // P(B ≤ 6) = (21700 + 38760)/2²⁰ = 0.0577 → l = 6, u = 15 (R: qbinom(c(.025, .975),
        // 20, .5) + c(0, 1) = 6, 15).
        assert_eq!(ranks(20, 0.95), Some((6, 15)));
        let x: Vec<f64> = (1..=20).map(f64::from).collect();
        let i = order_statistic_interval(&x, 0.95).unwrap();
        assert_eq!((i.lo, i.hi), (6.0, 15.0));
        assert!((i.coverage - (1.0 - 2.0 * 21700.0 / 1048576.0)).abs() < 1e-15);
        // 90%: n = 5 has P(B ≤ 0) = 1/32 ≤ 0.05 → l = 1, u = 5, coverage 0.9375.
        assert_eq!(ranks(5, 0.90), Some((1, 5)));
        assert_eq!(order_statistic_interval(&[], 0.95), None);
        assert_eq!(ranks(1, 0.95), None);
    }

    #[test]
    fn the_range_stands_in_below_the_smallest_n_with_its_own_coverage() {
        let five = [1.0, 2.0, 3.0, 4.0, 5.0];
        let r = interval_or_range(&five, 0.95).unwrap();
        assert_eq!((r.lo, r.hi, r.ranks), (1.0, 5.0, (1, 5)));
        assert!((r.coverage - 0.9375).abs() < 1e-12, "{}", r.coverage);
        let two = interval_or_range(&[3.0, 8.0], 0.95).unwrap();
        assert_eq!((two.lo, two.hi), (3.0, 8.0));
        assert!((two.coverage - 0.5).abs() < 1e-12);
        assert!(interval_or_range(&[1.0], 0.95).is_none());
        // from 6 on it is the level's interval
        let six = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            interval_or_range(&six, 0.95),
            order_statistic_interval(&six, 0.95)
        );
    }

    #[test]
    fn smallest_n_is_where_the_range_first_covers_the_level() {
        // The range covers 1 − 2^(1−n): 93.75% at n = 5, 96.875% at n = 6 (95%); 87.5% at
        // n = 4, 93.75% at n = 5 (90%); 98.44% at n = 7, 99.22% at n = 8 (99%).
        assert_eq!(smallest_n(0.95), Some(6));
        assert_eq!(smallest_n(0.90), Some(5));
        assert_eq!(smallest_n(0.99), Some(8));
        assert_eq!(smallest_n(1.0), None);
        assert_eq!(smallest_n(0.0), None);
    }

    #[test]
    fn published_ranks() {
        // n = 100 at 95%: x₍₄₀₎ to x₍₆₁₎ (Gardner & Altman, *Statistics with Confidence*, table
        // of ranks for the median's interval; R: pbinom(39, 100, .5) = 0.0176,
        // pbinom(40, 100, .5) = 0.0284), coverage 1 − 2 · 0.0176 = 0.9648.
        assert_eq!(ranks(100, 0.95), Some((40, 61)));
        let x: Vec<f64> = (1..=100).map(f64::from).collect();
        let i = order_statistic_interval(&x, 0.95).unwrap();
        assert!((i.coverage - 0.9648).abs() < 1e-4, "{}", i.coverage);
        // n = 30: pbinom(9, 30, .5) = 0.0214 ≤ 0.025 < pbinom(10, 30, .5) = 0.0494 → (10, 21).
        assert_eq!(ranks(30, 0.95), Some((10, 21)));
    }

    #[test]
    fn cdf_matches_pascal_triangle() {
        for n in [1usize, 2, 5, 6, 7, 30, 99, 100, 257, 600] {
            let exact = pascal_cdf(n);
            for c in -1..=n as i64 {
                let want = if c < 0 { 0.0 } else { exact[c as usize] };
                let got = binomial_half_cdf(n, c);
                assert!(
                    (got - want).abs() <= 1e-9 * want || (got - want).abs() < 1e-15,
                    "n={n} c={c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn ranks_match_pascal_triangle_for_every_small_n() {
        // The largest c with P(B ≤ c) ≤ α/2 read straight off the exact table.
        for level in [0.90, 0.95, 0.99] {
            let half_alpha = (1.0 - level) / 2.0;
            for n in 1..=400 {
                let cdf = pascal_cdf(n);
                let want = (0..n)
                    .take_while(|&c| cdf[c] <= half_alpha)
                    .last()
                    .map(|c| (c + 1, n - c));
                assert_eq!(ranks(n, level), want, "n={n} level={level}");
            }
        }
    }

    #[test]
    fn large_n_ranks_and_cost() {
        // n = 10⁶: the normal approximation with continuity correction (error O(1/n) for
        // p = ½, far below the margin here) puts c = l − 1 at the largest c with
        // c + 0.5 ≤ 500000 − 1.959964 · 500 = 499020.018 → c = 499019.52 → 499019, l = 499020.
        assert_eq!(
            lower_rank_below(1_000_000, 0.95).map(|c| (c + 1, 1_000_000 - c)),
            Some((499_020, 500_981))
        );
        // n = 10⁷ is still quick (O(√n) terms) and the coverage is nominal to four digits.
        let c = lower_rank_below(10_000_000, 0.95).unwrap();
        let cov = 1.0 - 2.0 * binomial_half_cdf(10_000_000, c as i64);
        assert!((0.95..0.9502).contains(&cov), "{cov}");
    }

    #[test]
    fn covers_the_true_median() {
        // Lognormal samples with median 100: the 95% interval covers 100 in ≥ 95.7% of runs for
        // n = 30 (its exact coverage, see published_ranks) and ≈ 95% for n = 1000.
        for (n, runs) in [(30usize, 1000u64), (1000, 400)] {
            let covered = simulate(runs, |seed| {
                let i = median_interval_of(&lognormal(seed, n, 100.0, 0.5), 0.95).unwrap();
                i.lo <= 100.0 && 100.0 <= i.hi
            });
            eprintln!("n={n}: covered {covered}/{runs}");
            assert!(
                covered as f64 >= 0.93 * runs as f64,
                "n={n}: covered {covered}/{runs}"
            );
        }
    }
}
