//! Ranks with ties averaged (mid-ranks), and the sizes of the tie groups, for the rank tests.

/// Mid-ranks of `values` (1-based, ties get the mean of the ranks they span), in input order, and
/// the size of every tie group of two or more.
pub fn average_ranks(values: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let n = values.len();
    // each value beside its position, sorted: the sort reads no other memory (the ranks do not
    // depend on how the sort orders equal values)
    let mut order: Vec<(f64, usize)> = values.iter().copied().zip(0..).collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut ranks = vec![0.0; n];
    let mut ties = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && order[j].0 == order[i].0 {
            j += 1;
        }
        // positions i..j (0-based) share ranks i+1..=j; their mean is (i + 1 + j) / 2.
        let r = (i + 1 + j) as f64 / 2.0;
        for &(_, k) in &order[i..j] {
            ranks[k] = r;
        }
        if j - i > 1 {
            ties.push(j - i);
        }
        i = j;
    }
    (ranks, ties)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_get_mid_ranks() {
        let (r, t) = average_ranks(&[10.0, 20.0, 10.0, 30.0, 20.0, 20.0]);
        assert_eq!(r, vec![1.5, 4.0, 1.5, 6.0, 4.0, 4.0]);
        assert_eq!(t, vec![2, 3]);
    }

    #[test]
    fn no_ties() {
        let (r, t) = average_ranks(&[3.0, 1.0, 2.0]);
        assert_eq!(r, vec![3.0, 1.0, 2.0]);
        assert!(t.is_empty());
    }
}
