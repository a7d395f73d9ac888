//! Wilcoxon's signed-rank test of "the differences are symmetric about zero", two-sided.
//!
//! Zeros are dropped (Wilcoxon's convention). With at most [`EXACT_MAX_N`] non-zero differences
//! and no ties among their magnitudes the p-value is exact; otherwise it comes from the normal
//! approximation with the tie-corrected variance and a continuity correction of 1/2.

use super::rank::average_ranks;
use super::signed_rank::{SignedRankDist, EXACT_MAX_N};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

/// How the p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Exact,
    Normal,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignedRankTest {
    /// Non-zero differences, the n of the test.
    pub n: usize,
    /// Differences that were exactly zero and dropped.
    pub zeros: usize,
    /// Sum of the ranks of the positive differences.
    pub w_plus: f64,
    /// Two-sided p-value.
    pub p: f64,
    pub method: Method,
}

/// The two-sided signed-rank test of `d` (non-finite values are ignored).
pub fn signed_rank_test(d: &[f64]) -> SignedRankTest {
    let finite: Vec<f64> = d.iter().copied().filter(|x| x.is_finite()).collect();
    let nonzero: Vec<f64> = finite.iter().copied().filter(|&x| x != 0.0).collect();
    let zeros = finite.len() - nonzero.len();
    let n = nonzero.len();
    if n == 0 {
        return SignedRankTest {
            n,
            zeros,
            w_plus: 0.0,
            p: 1.0,
            method: Method::Exact,
        };
    }
    let mags: Vec<f64> = nonzero.iter().map(|x| x.abs()).collect();
    let (ranks, ties) = average_ranks(&mags);
    let w_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(x, _)| **x > 0.0)
        .map(|(_, r)| r)
        .sum();
    let nf = n as f64;
    if n <= EXACT_MAX_N && ties.is_empty() {
        let dist = SignedRankDist::new(n);
        let w = w_plus.round() as i64;
        let p = (2.0 * dist.p_le(w).min(dist.p_ge(w))).min(1.0);
        return SignedRankTest {
            n,
            zeros,
            w_plus,
            p,
            method: Method::Exact,
        };
    }
    let mean = nf * (nf + 1.0) / 4.0;
    let tie_term: f64 = ties.iter().map(|&t| (t * t * t - t) as f64).sum::<f64>() / 48.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term;
    let p = if var <= 0.0 {
        1.0
    } else {
        let z = ((w_plus - mean).abs() - 0.5).max(0.0) / var.sqrt();
        (2.0 * (1.0 - Normal::standard().cdf(z))).min(1.0)
    };
    SignedRankTest {
        n,
        zeros,
        w_plus,
        p,
        method: Method::Normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scipy_documentation_example() {
        // Fisher's differences (heights of cross- vs self-fertilised Zea mays), from the SciPy
        // documentation of scipy.stats.wilcoxon: exact two-sided p = 0.041259765625.
        let d = [
            6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0, 49.0, 56.0, 60.0, -67.0,
            75.0,
        ];
        let t = signed_rank_test(&d);
        assert_eq!(t.method, Method::Exact);
        assert_eq!(t.n, 15);
        assert_eq!(t.w_plus, 120.0 - 24.0);
        assert!((t.p - 0.041259765625).abs() < 1e-12, "p = {}", t.p);
    }

    #[test]
    #[allow(clippy::approx_constant)] // 3.14 is a measurement in the data set, not π
    fn hollander_wolfe_depression_example() {
        // Hollander & Wolfe, Nonparametric Statistical Methods, example 3.1 (Hamilton scale,
        // n = 9): T+ = 5, exact two-sided p = 2 · 10/512 = 0.0390625 (R: wilcox.test, V = 5).
        let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30];
        let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
        let d: Vec<f64> = y.iter().zip(&x).map(|(y, x)| y - x).collect();
        let t = signed_rank_test(&d);
        assert_eq!(t.w_plus, 5.0);
        assert!((t.p - 0.0390625).abs() < 1e-12, "p = {}", t.p);
    }

    #[test]
    fn exact_table_values() {
        // All differences positive: p = 2 / 2^n.  n = 10, T+ = 8 (ranks 1, 3, 4 negative so
        // T− = 8): p = 2 · 25/1024 = 0.048828125, the table's α = 0.05 boundary.
        let t = signed_rank_test(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((t.p - 0.0625).abs() < 1e-15);
        let d = [-1.0, 2.0, -3.0, -4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        let t = signed_rank_test(&d);
        assert_eq!(t.w_plus, 47.0);
        assert!((t.p - 0.048828125).abs() < 1e-12, "p = {}", t.p);
    }

    #[test]
    fn zeros_dropped_and_empty() {
        let t = signed_rank_test(&[0.0, 0.0]);
        assert_eq!((t.n, t.zeros, t.p), (0, 2, 1.0));
        let t = signed_rank_test(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((t.n, t.zeros), (5, 1));
        assert!((t.p - 0.0625).abs() < 1e-15);
    }

    #[test]
    fn normal_approximation_with_ties() {
        // 60 differences, magnitudes 1..=20 each three times (20 ties of 3), the first 40
        // positive. Magnitude m has mid-rank 3m − 1, so W+ = Σ_{m=1}^{13} 3(3m − 1) + (3·14 − 1)
        // = 780 + 41 = 821 (W− = 1830 − 821 = 1009). Tie-corrected variance
        // 60·61·121/24 − 20·(3³ − 3)/48 = 18452.5 − 10 = 18442.5, so with the continuity
        // correction z = (|821 − 915| − 0.5) / √18442.5 = 93.5 / 135.80 = 0.6885.
        // SciPy 1.17.1, scipy.stats.wilcoxon(d, zero_method="wilcox", correction=True,
        // method="approx"): statistic 821.0, pvalue 0.49114019558344557.
        let mut d = Vec::new();
        for m in 1..=20 {
            for _ in 0..3 {
                d.push(m as f64);
            }
        }
        for v in d.iter_mut().skip(40) {
            *v = -*v;
        }
        let t = signed_rank_test(&d);
        assert_eq!(t.method, Method::Normal);
        assert_eq!((t.n, t.w_plus), (60, 821.0));
        assert!((t.p - 0.49114019558344557).abs() < 1e-10, "p = {}", t.p);
    }

    #[test]
    fn normal_approximation_above_the_exact_limit() {
        // 60 distinct magnitudes 1..=60 (no ties, but n > EXACT_MAX_N), every fourth negative:
        // W− = 4 + 8 + … + 60 = 480, W+ = 1830 − 480 = 1350; variance 60·61·121/24 = 18452.5,
        // z = (|1350 − 915| − 0.5) / √18452.5 = 434.5 / 135.84 = 3.1986.
        // SciPy 1.17.1, scipy.stats.wilcoxon(d, zero_method="wilcox", correction=True,
        // method="approx"): statistic 480.0, pvalue 0.0013808872498144006.
        let d: Vec<f64> = (1..=60)
            .map(|i| {
                if i % 4 == 0 {
                    -f64::from(i)
                } else {
                    f64::from(i)
                }
            })
            .collect();
        let t = signed_rank_test(&d);
        assert_eq!(t.method, Method::Normal);
        assert_eq!(t.w_plus, 1350.0);
        assert!((t.p - 0.0013808872498144006).abs() < 1e-12, "p = {}", t.p);
    }
}
