#!/usr/bin/env python3
"""The warm track's samples against their size: for every criterion sample.json below a folder
(results/warm/forks by default), the median cost per operation of the quarter of samples with the
most iterations, of the quarter with the fewest, their ratio, the fastest sample and the range of
iterations. A ratio far from 1 is a harness that measures its batches (docs/statistics.md, "A warm
`de` batch"); the report's sample-size warning is the same question asked with a regression."""
import json, sys, glob, os, statistics as st
root = sys.argv[1] if len(sys.argv) > 1 else "/work/main/results/warm/forks"
for f in sorted(glob.glob(f"{root}/**/new/sample.json", recursive=True)):
    if os.path.islink(f) or os.path.getsize(f) > 16 << 20:
        print(f"{f!r}: skipped (a link, or larger than 16 MiB)", file=sys.stderr)
        continue
    s = json.load(open(f))
    pairs = sorted(zip(s["iters"], s["times"]))
    per = [t / n for n, t in pairs]
    k = max(1, len(per) // 4)
    lo, hi = st.median(per[:k]), st.median(per[-k:])
    rel = os.path.relpath(f, root).replace("/new/sample.json", "")
    print(f"{rel:70s} small {lo:9.1f} large {hi:9.1f} ratio {hi/lo:.3f} fastest {min(per):9.1f} iters {pairs[0][0]:.0f}-{pairs[-1][0]:.0f}")
