//! How much several estimates of one quantity disagree: Cochran's Q and I², as a meta-analysis
//! reads studies. Each estimate yᵢ (a log ratio) comes with its standard error sᵢ; with weights
//! wᵢ = 1/sᵢ², the pooled estimate is ȳ = Σwᵢyᵢ / Σwᵢ and Q = Σwᵢ(yᵢ − ȳ)². Under the hypothesis
//! that every estimate measures the same quantity, Q follows χ² with k − 1 degrees of freedom
//! (k estimates): its upper tail is the p-value. I² = max(0, (Q − df)/Q) is the share of the
//! spread beyond what the estimates' own errors explain (Higgins & Thompson 2002): about 25%
//! is low, 50% moderate, 75% high.
//!
//! A standard error is read from an interval at `level` on the log scale: s = (ln hi − ln lo) /
//! (2·z), z the normal quantile of (1 + level)/2 ([`log_se`]); a distribution-free interval need
//! not be symmetric, so this is the error of a normal interval as wide.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// Cochran's Q over k ≥ 2 estimates, with its degrees of freedom, p-value and I².
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Heterogeneity {
    /// The estimates it was taken over.
    pub k: usize,
    /// The inverse-variance weighted mean of the estimates.
    pub pooled: f64,
    pub q: f64,
    pub df: usize,
    /// P(χ²(df) ≥ Q).
    pub p: f64,
    /// max(0, (Q − df) / Q); 0 when Q is 0.
    pub i2: f64,
}

/// The standard error of a log ratio whose interval at `level` is `(lo, hi)` (ratios, both
/// positive): the width of ln hi − ln lo over 2·z. `None` for an empty or invalid interval.
pub fn log_se((lo, hi): (f64, f64), level: f64) -> Option<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite() && level > 0.0 && level < 1.0) {
        return None;
    }
    let z = Normal::standard().inverse_cdf((1.0 + level) / 2.0);
    Some((hi.ln() - lo.ln()) / (2.0 * z))
}

/// Q, its p-value and I² of `(estimate, standard error)` pairs; pairs whose error is not
/// positive and finite are left out. `None` with fewer than two left.
pub fn cochran_q(estimates: &[(f64, f64)]) -> Option<Heterogeneity> {
    let used: Vec<(f64, f64)> = estimates
        .iter()
        .filter(|(y, s)| y.is_finite() && s.is_finite() && *s > 0.0)
        .map(|&(y, s)| (y, 1.0 / (s * s)))
        .collect();
    if used.len() < 2 {
        return None;
    }
    let total: f64 = used.iter().map(|(_, w)| w).sum();
    let pooled = used.iter().map(|(y, w)| y * w).sum::<f64>() / total;
    let q: f64 = used.iter().map(|(y, w)| w * (y - pooled).powi(2)).sum();
    let df = used.len() - 1;
    let p = ChiSquared::new(df as f64)
        .map(|c| c.sf(q))
        .unwrap_or(f64::NAN);
    let i2 = if q > 0.0 {
        ((q - df as f64) / q).max(0.0)
    } else {
        0.0
    };
    Some(Heterogeneity {
        k: used.len(),
        pooled,
        q,
        df,
        p,
        i2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn q_and_i2_worked_by_hand() {
        // 1, 2, 3 with unit errors: mean 2, Q = 1 + 0 + 1 = 2 on 2 df; χ²(2)'s tail is
        // exp(−Q/2) = e⁻¹; Q ≤ df, so I² = 0
        let h = cochran_q(&[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0)]).unwrap();
        assert_eq!((h.k, h.df, h.pooled, h.q, h.i2), (3, 2, 2.0, 2.0, 0.0));
        assert!(close(h.p, (-1.0f64).exp(), 1e-12), "{}", h.p);
        // 0, 0, 6: mean 2, Q = 4 + 4 + 16 = 24; p = e⁻¹²; I² = 22/24
        let h = cochran_q(&[(0.0, 1.0), (0.0, 1.0), (6.0, 1.0)]).unwrap();
        assert_eq!((h.pooled, h.q), (2.0, 24.0));
        assert!(close(h.p, (-12.0f64).exp(), 1e-9), "{}", h.p);
        assert!(close(h.i2, 22.0 / 24.0, 1e-15));
        // weights: 0 with error 1 (w 1) and 3 with error 0.5 (w 4): mean 12/5, Q = 5.76 + 1.44
        let h = cochran_q(&[(0.0, 1.0), (3.0, 0.5)]).unwrap();
        assert!(close(h.pooled, 2.4, 1e-15));
        assert!(close(h.q, 7.2, 1e-12));
        // χ²(1)'s tail at 7.2: 2(1 − Φ(√7.2)) = 0.0072903…
        assert!(close(h.p, 0.007_290_358_1, 1e-6), "{}", h.p);
        // identical estimates: Q = 0, p = 1, I² = 0
        let h = cochran_q(&[(0.5, 0.1), (0.5, 0.2)]).unwrap();
        assert_eq!((h.q, h.p, h.i2), (0.0, 1.0, 0.0));
    }

    #[test]
    fn too_few_or_unusable_estimates_give_nothing() {
        assert_eq!(cochran_q(&[]), None);
        assert_eq!(cochran_q(&[(1.0, 1.0)]), None);
        assert_eq!(cochran_q(&[(1.0, 1.0), (2.0, 0.0)]), None);
        assert_eq!(cochran_q(&[(1.0, 1.0), (f64::NAN, 1.0)]), None);
    }

    #[test]
    fn the_error_of_a_log_interval() {
        // a 95% interval [e⁻¹·⁹⁶, e¹·⁹⁶] has a log-scale error of 1 (z = 1.959964…)
        let z: f64 = 1.959_963_984_540_054;
        let se = log_se(((-z).exp(), z.exp()), 0.95).unwrap();
        assert!(close(se, 1.0, 1e-12), "{se}");
        assert_eq!(log_se((1.0, 1.0), 0.95), None);
        assert_eq!(log_se((0.0, 1.0), 0.95), None);
        assert_eq!(log_se((2.0, 1.0), 0.95), None);
    }
}
