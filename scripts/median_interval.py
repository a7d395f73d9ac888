"""The median of a sample with its distribution-free 95% interval (order statistics of the
binomial), for the scripts that compare figures across rounds or processes."""
import math
import statistics


def interval(values):
    """The order-statistic interval of the median at 95%, or the range below 6 values."""
    xs = sorted(values)
    n = len(xs)
    c = -1  # the largest c with P(B <= c) <= 2.5%, B ~ Binomial(n, 1/2)
    cdf = 0.0
    for k in range((n - 1) // 2 + 1):
        cdf += math.comb(n, k) / 2**n
        if cdf <= 0.025:
            c = k
        else:
            break
    c = max(c, 0)
    return xs[c], xs[n - 1 - c]


def median_interval(values):
    """(median, low, high) of `values`."""
    lo, hi = interval(values)
    return statistics.median(values), lo, hi


if __name__ == "__main__":
    # Known answers: 30 values give [x(10), x(21)] (P(B <= 9) = 2.1%, P(B <= 10) = 4.9%);
    # 5 values give their range.
    assert interval(range(1, 31)) == (10, 21), interval(range(1, 31))
    assert interval([5, 1, 4, 2, 3]) == (1, 5)
    assert median_interval([3, 1, 2]) == (2, 1, 3)
    print("median_interval: self-test passed")
