#!/usr/bin/env python3
"""Do forked warm figures hold from one run to the next? Takes two or more copies of a forked
warm run's folder (results/warm/forks/<variant>/, copied after each run: a run clears its cells'
earlier forks) and counts the cells where each run's interval across processes covers every other
run's median. The interval is the report's: the 95% order-statistic interval from 6 processes,
the whole range below (93.75% for 5).

    cp -r results/warm/forks/portable /tmp/run1     # after each of three runs
    scripts/warm-stability.py /tmp/run1 /tmp/run2 /tmp/run3
"""

import json
import math
import statistics
import sys
from pathlib import Path


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


def load(folder):
    """cell -> the medians of its processes."""
    cells = {}
    for est in Path(folder).glob("fork-*/*/*/new/estimates.json"):
        bench = json.loads((est.parent / "benchmark.json").read_text())
        cells.setdefault(bench["full_id"], []).append(
            json.loads(est.read_text())["median"]["point_estimate"])
    return cells


def main():
    folders = sys.argv[1:]
    if len(folders) < 2:
        sys.exit(__doc__)
    runs = [load(f) for f in folders]
    common = sorted(set.intersection(*(set(r) for r in runs)))
    held = 0
    pairs_held = pairs = 0
    missed = []
    for cell in common:
        ok = True
        for i, ri in enumerate(runs):
            lo, hi = interval(ri[cell])
            for j, rj in enumerate(runs):
                if i == j:
                    continue
                pairs += 1
                m = statistics.median(rj[cell])
                if lo <= m <= hi:
                    pairs_held += 1
                else:
                    ok = False
        held += ok
        if not ok:
            medians = ", ".join(f"{statistics.median(r[cell]):.1f}" for r in runs)
            missed.append(f"  {cell}: medians {medians} ns")
    forks = sorted({len(r[c]) for r in runs for c in common})
    print(f"{len(common)} cells in all {len(runs)} runs ({'/'.join(map(str, forks))} processes each)")
    print(f"cells where every run's interval covers every other run's median: {held} of "
          f"{len(common)} ({100 * held / max(1, len(common)):.0f}%)")
    print(f"run pairs: {pairs_held} of {pairs} ({100 * pairs_held / max(1, pairs):.0f}%)")
    if missed:
        print("not held:")
        print("\n".join(missed))


if __name__ == "__main__":
    main()
