//! Does a warm bench's cost per operation depend on how many operations were put in a sample?
//! A library's cost does not; a harness whose batches outgrow the cache, or whose allocator hands
//! pages back between batches, makes one that does. Given one process's samples (iterations and
//! time per operation), this fits Theil–Sen's line of the cost per operation on the iterations
//! (the median of the pairwise slopes: a few noisy samples on a shared machine do not tilt it),
//! gives its change across the sampled range relative to the median cost, and tests the trend
//! with Spearman's rank correlation. The largest quarter of samples over the smallest, by
//! iterations, is given beside it: the plain reading of the same question.

use super::quantile::{median, sorted};
use super::spearman::spearman;
use serde::Serialize;

/// How one process's cost per operation moves with its samples' size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SizeEffect {
    /// Samples with at least one iteration and a finite, positive time.
    pub n: usize,
    /// Theil–Sen's slope times the sampled range of iterations, over the median cost per
    /// operation: 0.30 means the largest samples cost 30% more per operation than the smallest.
    pub effect: f64,
    /// Spearman's two-sided p of the trend (1 when the ranks are constant on either side).
    pub p: f64,
    /// The median cost per operation of the quarter of samples with the most iterations over
    /// that of the quarter with the fewest.
    pub quarters: f64,
}

impl SizeEffect {
    /// A trend the report warns of: significant at `alpha` and larger than `threshold` (a
    /// fraction) across the sampled range, either way.
    pub fn matters(&self, alpha: f64, threshold: f64) -> bool {
        self.p < alpha && self.effect.abs() > threshold
    }
}

/// The size effect of samples of `iters` operations costing `per_op` each (the same length).
/// `None` with fewer than 8 usable samples or a single sample size (nothing to regress on).
pub fn size_effect(iters: &[f64], per_op: &[f64]) -> Option<SizeEffect> {
    let pairs: Vec<(f64, f64)> = iters
        .iter()
        .zip(per_op)
        .filter(|&(&x, &y)| x >= 1.0 && x.is_finite() && y.is_finite() && y > 0.0)
        .map(|(&x, &y)| (x, y))
        .collect();
    let n = pairs.len();
    if n < 8 || iters.len() != per_op.len() {
        return None;
    }
    let (xs, ys): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
        (lo.min(x), hi.max(x))
    });
    if hi <= lo {
        return None;
    }
    let mut slopes = Vec::with_capacity(n * (n - 1) / 2);
    for (i, &(xi, yi)) in pairs.iter().enumerate() {
        for &(xj, yj) in &pairs[i + 1..] {
            if xj != xi {
                slopes.push((yj - yi) / (xj - xi));
            }
        }
    }
    let slope = median(&sorted(&slopes))?;
    let typical = median(&sorted(&ys))?;
    let p = spearman(&xs, &ys).map_or(1.0, |s| s.p);
    Some(SizeEffect {
        n,
        effect: slope * (hi - lo) / typical,
        p,
        quarters: quarters(&pairs)?,
    })
}

/// The median cost of the quarter of samples with the most iterations over that of the quarter
/// with the fewest (at least one sample each).
fn quarters(pairs: &[(f64, f64)]) -> Option<f64> {
    let mut by_size = pairs.to_vec();
    by_size.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = (by_size.len() / 4).max(1);
    let cost = |part: &[(f64, f64)]| median(&sorted(&part.iter().map(|p| p.1).collect::<Vec<_>>()));
    Some(cost(&by_size[by_size.len() - k..])? / cost(&by_size[..k])?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::normal;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// criterion's linear sampling: sample i has i × d iterations.
    fn linear(samples: usize, d: f64) -> Vec<f64> {
        (1..=samples).map(|i| i as f64 * d).collect()
    }

    #[test]
    fn a_cost_that_grows_with_the_sample_is_measured_and_significant() {
        // 5 µs per operation at the smallest sample, rising linearly to 6.5 µs at the largest:
        // +30% across the range, exactly, without noise
        let iters = linear(100, 79.0);
        let (lo, hi) = (79.0, 7900.0);
        let per_op: Vec<f64> = iters
            .iter()
            .map(|x| 5000.0 + 1500.0 * (x - lo) / (hi - lo))
            .collect();
        let e = size_effect(&iters, &per_op).unwrap();
        // the slope is exact; the median cost is the middle of the line, 5,750 ns
        assert!((e.effect - 1500.0 / 5750.0).abs() < 1e-9, "{e:?}");
        assert_eq!(e.p, 0.0);
        // the top quarter's median (samples 76..100) over the bottom's (1..25)
        let at = |i: f64| 5000.0 + 1500.0 * (i * 79.0 - lo) / (hi - lo);
        assert!((e.quarters - at(88.0) / at(13.0)).abs() < 1e-9, "{e:?}");
        assert!(e.matters(0.05, 0.05));
    }

    #[test]
    fn a_flat_cost_with_noise_does_not_matter() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let iters = linear(100, 79.0);
        let per_op: Vec<f64> = iters
            .iter()
            .map(|_| 5000.0 * (1.0 + 0.02 * normal(&mut rng)))
            .collect();
        let e = size_effect(&iters, &per_op).unwrap();
        assert!(e.effect.abs() < 0.02, "{e:?}");
        assert!((e.quarters - 1.0).abs() < 0.02, "{e:?}");
        assert!(!e.matters(0.05, 0.05), "{e:?}");
    }

    #[test]
    fn a_few_wild_samples_do_not_tilt_the_line() {
        // flat at 100 ns, but the five largest samples were hit by another process (10× slower)
        let iters = linear(40, 10.0);
        let mut per_op = vec![100.0; 40];
        for y in per_op.iter_mut().skip(35) {
            *y = 1000.0;
        }
        // a third of the samples alike is where Theil–Sen's median slope still reads zero
        let e = size_effect(&iters, &per_op).unwrap();
        assert_eq!(e.effect, 0.0, "{e:?}");
    }

    #[test]
    fn nothing_to_regress_on_gives_none() {
        assert_eq!(
            size_effect(&[10.0; 20], &[5.0; 20]),
            None,
            "one sample size"
        );
        assert_eq!(
            size_effect(&linear(7, 1.0), &[5.0; 7]),
            None,
            "too few samples"
        );
        assert_eq!(
            size_effect(&linear(9, 1.0), &[5.0; 8]),
            None,
            "unequal lengths"
        );
        // unusable samples are left out before counting
        let mut per_op = vec![5.0; 10];
        per_op[0] = f64::NAN;
        per_op[1] = 0.0;
        per_op[2] = -1.0;
        assert_eq!(size_effect(&linear(10, 1.0), &per_op), None);
    }

    #[test]
    fn a_cost_that_falls_with_the_sample_matters_too() {
        let iters = linear(10, 100.0);
        let per_op: Vec<f64> = iters.iter().map(|x| 2000.0 - 0.1 * x).collect();
        let e = size_effect(&iters, &per_op).unwrap();
        // slope −0.1 ns per iteration over 900 iterations, against a median of 1,945 ns
        assert!((e.effect + 90.0 / 1945.0).abs() < 1e-9, "{e:?}");
        assert!(e.quarters < 1.0);
        assert!(!e.matters(0.05, 0.05), "4.6% is under the threshold");
        assert!(e.matters(0.05, 0.04));
    }
}
