//! Order statistics of one sample: sorting, Hyndman & Fan type 7 quantiles, the median, the
//! unscaled MAD; the cold runner's closing table and the reports call these same functions, so
//! a median printed by one is the median printed by the other.

/// A sorted copy of `values`, NaNs removed (they carry no order; callers never produce them).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_unstable_by(f64::total_cmp);
    v
}

/// The `p` quantile (0 ≤ p ≤ 1) of an ascending slice, Hyndman & Fan type 7: with h = (n − 1)p,
/// x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋]). `None` for an empty slice.
pub fn quantile(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let p = p.clamp(0.0, 1.0);
    let h = (n - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    let frac = h - lo as f64;
    Some(sorted[lo] + frac * (sorted[hi] - sorted[lo]))
}

/// The median of an ascending slice (the mean of the two middle values when n is even).
pub fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    Some(if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    })
}

/// The median of `values` in any order, NaNs left out: the same number as
/// `median(&sorted(&values))`, found by selection in O(n) rather than by a sort.
pub fn median_unsorted(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|x| !x.is_nan());
    let n = values.len();
    if n == 0 {
        return None;
    }
    let (below, &mut middle, _) = values.select_nth_unstable_by(n / 2, f64::total_cmp);
    Some(if n % 2 == 1 {
        middle
    } else {
        let lower = below.iter().copied().max_by(f64::total_cmp)?;
        (lower + middle) / 2.0
    })
}

/// The median absolute deviation of an ascending slice, unscaled: median(|x − median(x)|).
pub fn mad(sorted: &[f64]) -> Option<f64> {
    let m = median(sorted)?;
    let dev: Vec<f64> = sorted.iter().map(|x| (x - m).abs()).collect();
    median_unsorted(dev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type7_quantiles_match_numpy() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        // numpy.percentile(range(1, 11), [0, 25, 50, 90, 100]) = 1, 3.25, 5.5, 9.1, 10
        assert_eq!(quantile(&x, 0.0), Some(1.0));
        assert!((quantile(&x, 0.25).unwrap() - 3.25).abs() < 1e-12);
        assert_eq!(quantile(&x, 0.5), Some(5.5));
        assert!((quantile(&x, 0.9).unwrap() - 9.1).abs() < 1e-12);
        assert_eq!(quantile(&x, 1.0), Some(10.0));
        assert_eq!(quantile(&[], 0.5), None);
        assert_eq!(quantile(&[7.0], 0.9), Some(7.0));
    }

    #[test]
    fn median_odd_even() {
        assert_eq!(median(&[1.0, 2.0, 9.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), Some(3.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn median_by_selection_is_the_median_of_the_sorted_values() {
        // odd and even lengths, ties, a NaN, and a pseudo-random order
        let mut x: Vec<f64> = (0..101u64).map(|i| ((i * 7919) % 37) as f64).collect();
        for n in [1, 2, 3, 4, 10, 51, 100, 101] {
            let v = x[..n].to_vec();
            assert_eq!(median_unsorted(v.clone()), median(&sorted(&v)), "n = {n}");
        }
        x.push(f64::NAN);
        assert_eq!(median_unsorted(x.clone()), median(&sorted(&x)));
        assert_eq!(median_unsorted(vec![f64::NAN]), None);
        assert_eq!(median_unsorted(Vec::new()), None);
    }

    #[test]
    fn mad_matches_textbook_example() {
        // Wikipedia, "Median absolute deviation": {1, 1, 2, 2, 4, 6, 9} has median 2 and MAD 1.
        assert_eq!(
            mad(&sorted(&[1.0, 1.0, 2.0, 2.0, 4.0, 6.0, 9.0])),
            Some(1.0)
        );
    }

    #[test]
    fn sorted_drops_nan() {
        assert_eq!(sorted(&[3.0, f64::NAN, 1.0]), vec![1.0, 3.0]);
    }
}
