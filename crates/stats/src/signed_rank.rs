//! The exact null distribution of Wilcoxon's signed-rank statistic T+ (no ties), shared by the
//! signed-rank test and the Hodges-Lehmann interval.
//!
//! Under the null each rank 1..=n is added to T+ with probability 1/2 independently, so the
//! distribution follows from a simple recurrence over n; it is computed in probabilities (not
//! counts) so it stays exact enough for any n this module is asked for.

/// Largest n for which callers use the exact distribution; above it they use the normal
/// approximation. 50 keeps the table small (1,276 entries) and the approximation is excellent
/// beyond it.
pub const EXACT_MAX_N: usize = 50;

/// P(T+ ≤ w) for w = 0..=n(n+1)/2.
#[derive(Debug, Clone)]
pub struct SignedRankDist {
    n: usize,
    cdf: Vec<f64>,
}

impl SignedRankDist {
    pub fn new(n: usize) -> Self {
        let max = n * (n + 1) / 2;
        let mut pmf = vec![0.0; max + 1];
        pmf[0] = 1.0;
        let mut top = 0;
        for k in 1..=n {
            top += k;
            for w in (0..=top).rev() {
                let with_k = if w >= k { pmf[w - k] } else { 0.0 };
                pmf[w] = (pmf[w] + with_k) / 2.0;
            }
        }
        let mut cdf = Vec::with_capacity(max + 1);
        let mut acc = 0.0;
        for p in pmf {
            acc += p;
            cdf.push(acc);
        }
        SignedRankDist { n, cdf }
    }

    /// n(n+1)/2, the largest value T+ takes.
    pub fn max(&self) -> usize {
        self.n * (self.n + 1) / 2
    }

    /// P(T+ ≤ w); 0 for negative w.
    pub fn p_le(&self, w: i64) -> f64 {
        if w < 0 {
            0.0
        } else {
            self.cdf[(w as usize).min(self.max())]
        }
    }

    /// P(T+ ≥ w), through the symmetry T+ ~ max − T+ (avoids 1 − cdf cancellation).
    pub fn p_ge(&self, w: i64) -> f64 {
        self.p_le(self.max() as i64 - w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Count sign patterns by brute force: an independent check of the recurrence.
    fn brute_p_le(n: usize, w: usize) -> f64 {
        let mut hits = 0u64;
        for mask in 0u64..(1 << n) {
            let s: usize = (0..n).filter(|i| mask >> i & 1 == 1).map(|i| i + 1).sum();
            if s <= w {
                hits += 1;
            }
        }
        hits as f64 / (1u64 << n) as f64
    }

    #[test]
    fn matches_brute_force() {
        for n in 1..=12 {
            let d = SignedRankDist::new(n);
            for w in 0..=d.max() {
                assert!(
                    (d.p_le(w as i64) - brute_p_le(n, w)).abs() < 1e-12,
                    "n={n} w={w}"
                );
            }
        }
    }

    #[test]
    fn published_critical_values() {
        // Two-sided α = 0.05 critical values of T (largest t with P(T ≤ t) ≤ 0.025), from the
        // standard table (e.g. Hollander & Wolfe, Table A.4; any statistics text): n → t.
        for (n, t) in [
            (6, 0),
            (8, 3),
            (10, 8),
            (15, 25),
            (20, 52),
            (25, 89),
            (30, 137),
        ] {
            let d = SignedRankDist::new(n);
            assert!(d.p_le(t) <= 0.025, "n={n}: P(T<={t}) = {}", d.p_le(t));
            assert!(
                d.p_le(t + 1) > 0.025,
                "n={n}: P(T<={}) = {}",
                t + 1,
                d.p_le(t + 1)
            );
        }
    }

    #[test]
    fn symmetric_tails() {
        let d = SignedRankDist::new(9);
        assert!((d.p_ge(40) - d.p_le(5)).abs() < 1e-15);
        assert_eq!(d.p_le(-1), 0.0);
        assert!((d.p_le(d.max() as i64) - 1.0).abs() < 1e-12);
    }
}
