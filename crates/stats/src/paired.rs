//! A candidate against a reference through within-block pairs: the log ratio ln(candidate /
//! reference) of each block, its Hodges-Lehmann estimate and interval (back-transformed to a
//! ratio), the signed-rank p-value, and the verdict rule the reports apply.
//!
//! Pairing within a block cancels whatever the machine did during that block (drift, a noisy
//! neighbour), so the contrast is far tighter than comparing two cells' medians.

use super::hodges_lehmann::hodges_lehmann;
use super::wilcoxon::{signed_rank_test, SignedRankTest};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedContrast {
    /// Blocks with a usable figure on both sides.
    pub pairs: usize,
    /// exp(Hodges-Lehmann estimate of the log ratio): candidate time / reference time.
    pub ratio: f64,
    /// The back-transformed distribution-free interval; `None` when too few pairs.
    pub interval: Option<(f64, f64)>,
    /// Confidence the interval actually has (exact for small n).
    pub achieved_level: f64,
    pub test: SignedRankTest,
}

/// ln(candidate / reference) of each `(reference, candidate)` pair whose figures are both
/// positive and finite.
pub fn log_ratios(pairs: &[(f64, f64)]) -> Vec<f64> {
    pairs
        .iter()
        .filter(|(r, c)| *r > 0.0 && *c > 0.0 && r.is_finite() && c.is_finite())
        .map(|(r, c)| (c / r).ln())
        .collect()
}

/// Contrast of `(reference, candidate)` pairs at `level`; pairs with a non-positive or
/// non-finite figure are skipped. `None` when no pair is usable.
pub fn log_ratio_contrast(pairs: &[(f64, f64)], level: f64) -> Option<PairedContrast> {
    let d = log_ratios(pairs);
    let hl = hodges_lehmann(&d, level)?;
    Some(PairedContrast {
        pairs: d.len(),
        ratio: hl.estimate.exp(),
        interval: hl.interval.map(|(lo, hi)| (lo.exp(), hi.exp())),
        achieved_level: hl.achieved_level,
        test: signed_rank_test(&d),
    })
}

/// What a reader is told about a candidate against the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Faster,
    Slower,
    NoDifference,
    /// Too few pairs for an interval at the level asked.
    TooFewPairs,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NoDifference => "no difference",
            Verdict::TooFewPairs => "too few pairs",
        }
    }
}

/// The rule: a difference is claimed only when the (Holm-)adjusted p is below `alpha` and the
/// interval lies wholly on one side of 1, so the two never disagree in print.
pub fn verdict(interval: Option<(f64, f64)>, p_adjusted: f64, alpha: f64) -> Verdict {
    let Some((lo, hi)) = interval else {
        return Verdict::TooFewPairs;
    };
    if p_adjusted < alpha && hi < 1.0 {
        Verdict::Faster
    } else if p_adjusted < alpha && lo > 1.0 {
        Verdict::Slower
    } else {
        Verdict::NoDifference
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{normal, simulate};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// `blocks` (reference, candidate) pairs: candidate `factor` times the reference, each with
    /// lognormal noise σ = 0.1 and a drift shared within the block.
    fn pairs(seed: u64, blocks: usize, factor: f64) -> Vec<(f64, f64)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..blocks)
            .map(|b| {
                let drift = 1.0 + b as f64 / blocks as f64 + 0.2 * normal(&mut rng).abs();
                let r = 50_000.0 * drift * (0.1 * normal(&mut rng)).exp();
                let c = 50_000.0 * factor * drift * (0.1 * normal(&mut rng)).exp();
                (r.round(), c.round())
            })
            .collect()
    }

    #[test]
    fn slower_by_known_factor_is_covered_and_called_slower() {
        let (mut covered, mut slower) = (0, 0);
        simulate(200, |seed| {
            let c = log_ratio_contrast(&pairs(seed, 30, 1.10), 0.95).unwrap();
            let (lo, hi) = c.interval.unwrap();
            covered += usize::from(lo <= 1.10 && 1.10 <= hi);
            slower += usize::from(verdict(c.interval, c.test.p, 0.05) == Verdict::Slower);
            true
        });
        assert!(covered >= 180, "covered {covered}/200");
        assert!(slower >= 180, "slower {slower}/200");
    }

    #[test]
    fn identical_codecs_show_no_difference() {
        let same = simulate(200, |seed| {
            let c = log_ratio_contrast(&pairs(seed, 30, 1.0), 0.95).unwrap();
            verdict(c.interval, c.test.p, 0.05) == Verdict::NoDifference
        });
        assert!(same >= 180, "no difference in {same}/200");
    }

    #[test]
    fn faster_direction_and_too_few() {
        let p: Vec<(f64, f64)> = (1..=12)
            .map(|i| (100.0 * i as f64, 80.0 * i as f64))
            .collect();
        let c = log_ratio_contrast(&p, 0.95).unwrap();
        assert!((c.ratio - 0.8).abs() < 1e-12);
        assert_eq!(verdict(c.interval, c.test.p, 0.05), Verdict::Faster);
        let c = log_ratio_contrast(&p[..4], 0.95).unwrap();
        assert_eq!(verdict(c.interval, c.test.p, 0.05), Verdict::TooFewPairs);
        assert!(log_ratio_contrast(&[(0.0, 1.0)], 0.95).is_none());
    }

    #[test]
    fn verdict_needs_both_the_adjusted_p_and_the_interval() {
        // p below α, but the interval straddles 1: no difference, either way round.
        assert_eq!(
            verdict(Some((0.9, 1.1)), 0.001, 0.05),
            Verdict::NoDifference
        );
        assert_eq!(
            verdict(Some((0.99, 1.5)), 0.01, 0.05),
            Verdict::NoDifference
        );
        // The interval excludes 1, but p is not below α: no difference.
        assert_eq!(verdict(Some((1.05, 1.2)), 0.2, 0.05), Verdict::NoDifference);
        assert_eq!(
            verdict(Some((0.8, 0.95)), 0.06, 0.05),
            Verdict::NoDifference
        );
        // The boundaries belong to "no difference": p = α, an interval ending at 1.
        assert_eq!(
            verdict(Some((0.8, 0.95)), 0.05, 0.05),
            Verdict::NoDifference
        );
        assert_eq!(
            verdict(Some((0.8, 1.0)), 0.001, 0.05),
            Verdict::NoDifference
        );
        assert_eq!(
            verdict(Some((1.0, 1.2)), 0.001, 0.05),
            Verdict::NoDifference
        );
        // Both: a difference, in the interval's direction.
        assert_eq!(verdict(Some((0.8, 0.95)), 0.01, 0.05), Verdict::Faster);
        assert_eq!(verdict(Some((1.05, 1.2)), 0.01, 0.05), Verdict::Slower);
        assert_eq!(verdict(None, 0.001, 0.05), Verdict::TooFewPairs);
    }
}
