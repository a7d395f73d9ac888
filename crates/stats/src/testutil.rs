//! Seeded synthetic data for the statistics tests: samples with a known truth.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A standard normal deviate (Box-Muller).
pub fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Runs `trial` with seeds 0..runs and counts the trials that returned true.
pub fn simulate(runs: u64, mut trial: impl FnMut(u64) -> bool) -> usize {
    (0..runs).filter(|&s| trial(s)).count()
}

/// `blocks` within-block log ratios ln(b/a) where b is `factor` times slower than a: each block
/// has a drift shared by both (lognormal, σ = 0.3) and each sample its own lognormal noise.
pub fn lognormal_pair_log_ratios(seed: u64, blocks: usize, factor: f64, sigma: f64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..blocks)
        .map(|_| {
            let drift = (0.3 * normal(&mut rng)).exp();
            let a = 1000.0 * drift * (sigma * normal(&mut rng)).exp();
            let b = 1000.0 * factor * drift * (sigma * normal(&mut rng)).exp();
            (b / a).ln()
        })
        .collect()
}

/// `n` lognormal samples with median `median` and log-sd `sigma`.
pub fn lognormal(seed: u64, n: usize, median: f64, sigma: f64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| median * (sigma * normal(&mut rng)).exp())
        .collect()
}
