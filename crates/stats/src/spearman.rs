//! Spearman's rank correlation with a two-sided p-value (Student's t on n − 2 degrees of
//! freedom, the usual large-sample test). The reports use it against the block index as a drift
//! check: a figure that creeps up or down over the run.

use super::rank::average_ranks;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spearman {
    pub n: usize,
    pub rho: f64,
    pub p: f64,
}

/// ρ of paired `x`, `y` (Pearson correlation of their mid-ranks). `None` with fewer than 4 pairs,
/// unequal lengths, or when either side is constant (ρ undefined).
pub fn spearman(x: &[f64], y: &[f64]) -> Option<Spearman> {
    let n = x.len();
    if n < 4 || y.len() != n {
        return None;
    }
    let (rx, _) = average_ranks(x);
    let (ry, _) = average_ranks(y);
    let mean = (n as f64 + 1.0) / 2.0;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        let (da, db) = (a - mean, b - mean);
        sxy += da * db;
        sxx += da * da;
        syy += db * db;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let rho = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    let p = if rho.abs() >= 1.0 {
        0.0
    } else {
        let t = rho * (df / (1.0 - rho * rho)).sqrt();
        let dist = StudentsT::new(0.0, 1.0, df).ok()?;
        (2.0 * (1.0 - dist.cdf(t.abs()))).min(1.0)
    };
    Some(Spearman { n, rho, p })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikipedia_iq_tv_example() {
        // Wikipedia, "Spearman's rank correlation coefficient": IQ against hours of TV per week,
        // ρ = −29/165 ≈ −0.175757575, p = 0.627188 (t distribution).
        let iq = [
            106.0, 100.0, 86.0, 101.0, 99.0, 103.0, 97.0, 113.0, 112.0, 110.0,
        ];
        let tv = [7.0, 27.0, 2.0, 50.0, 28.0, 29.0, 20.0, 12.0, 6.0, 17.0];
        let s = spearman(&iq, &tv).unwrap();
        assert!((s.rho - -29.0 / 165.0).abs() < 1e-12, "{}", s.rho);
        assert!((s.p - 0.627188).abs() < 1e-5, "{}", s.p);
    }

    #[test]
    fn monotone_and_degenerate() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        let s = spearman(&x, &[10.0, 20.0, 25.0, 100.0, 1000.0]).unwrap();
        assert_eq!((s.rho, s.p), (1.0, 0.0));
        assert!(spearman(&x, &[1.0; 5]).is_none());
        assert!(spearman(&x[..3], &x[..3]).is_none());
    }
}
