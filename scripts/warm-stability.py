#!/usr/bin/env python3
"""Do forked warm figures hold from one run to the next? Takes two or more copies of a forked
warm run's folder (results/warm/forks/<variant>/, copied after each run: a run clears its cells'
earlier forks) and counts the cells where each run's interval across processes covers every other
run's median. The interval is the report's: the 95% order-statistic interval from 6 processes,
the whole range below (93.75% for 5).

It counts it twice: for the time per operation itself, and for each codec's ratio to the
reference codec (`--reference`, serde_json by default) on the same fixture and op, paired within
fork rounds (fork k of a cell over fork k of the reference: a forked run measures every cell once
per round, in a shuffled order, so the two ran minutes apart at most), as the cold track pairs
within blocks.

    cp -r results/warm/forks/portable /tmp/run1     # after each of three runs
    scripts/warm-stability.py /tmp/run1 /tmp/run2 /tmp/run3 [--reference serde_json] [--statistic S]

A process's figure is criterion's median (`--statistic median`, the report's) or, from
criterion's samples (each a batch of iterations: its time over its iterations), their fastest
(`fastest`, the statistic of serde-rs/json-benchmark), their 10th percentile (`p10`) or their mean
(`mean`): which of them holds from one run to the next on a shared machine.
"""

import json
import statistics
import sys
from pathlib import Path

from median_interval import interval  # noqa: E402  (scripts/median_interval.py)


STATISTICS = ("median", "fastest", "p10", "mean")


def figure(estimates, statistic):
    """One process's figure from criterion's `new/` folder of a cell: see the module's help."""
    if statistic == "median":
        return json.loads(estimates.read_text())["median"]["point_estimate"]
    sample = json.loads((estimates.parent / "sample.json").read_text())
    per_iter = sorted(t / n for t, n in zip(sample["times"], sample["iters"]))
    if statistic == "fastest":
        return per_iter[0]
    if statistic == "p10":
        return per_iter[int(0.1 * (len(per_iter) - 1))]
    return sum(per_iter) / len(per_iter)


def load(folder, statistic="median"):
    """cell -> {fork round: the figure of that process}, for the cells the run's manifest names
    (a run clears only its own cells' earlier forks: others' may lie beside them)."""
    manifest = Path(folder) / "manifest.json"
    if not manifest.is_file():
        sys.exit(f"{manifest}: missing (a copy of results/warm/forks/<variant>/ holds it)")
    ran = set(json.loads(manifest.read_text())["cells"])
    cells = {}
    for est in Path(folder).glob("fork-*/*/*/new/estimates.json"):
        bench = json.loads((est.parent / "benchmark.json").read_text())
        if bench["full_id"] not in ran:
            continue
        fork = est.parts[-5]
        cells.setdefault(bench["full_id"], {})[fork] = figure(est, statistic)
    return cells


def paired(run, reference):
    """cell -> {fork round: its median over the reference's in the same round} (no reference's own)."""
    out = {}
    for cell, forks in run.items():
        fixture, op, codec = cell.split("/")
        ref = run.get(f"{fixture}/{op}/{reference}")
        if codec == reference or ref is None:
            continue
        out[cell] = {k: v / ref[k] for k, v in forks.items() if k in ref}
    return out


def count(what, runs, unit):
    """Prints in how many cells every run's interval covers every other run's median."""
    runs = [{cell: list(forks.values()) for cell, forks in r.items()} for r in runs]
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
            medians = ", ".join(f"{statistics.median(r[cell]):.4g}" for r in runs)
            missed.append(f"  {cell}: medians {medians} {unit}")
    forks = sorted({len(r[c]) for r in runs for c in common})
    print(f"{what}: {len(common)} cells in all {len(runs)} runs ({'/'.join(map(str, forks))} processes each)")
    print(f"  cells where every run's interval covers every other run's median: {held} of "
          f"{len(common)} ({100 * held / max(1, len(common)):.0f}%)")
    print(f"  run pairs: {pairs_held} of {pairs} ({100 * pairs_held / max(1, pairs):.0f}%)")
    # how far the runs' medians moved, and how wide one run's interval is, in the median cell
    moved = [max(ms) / min(ms) for ms in ([statistics.median(r[c]) for r in runs] for c in common) if min(ms) > 0]
    width = [(hi - lo) / statistics.median(r[c]) for r in runs for c in common
             for lo, hi in [interval(r[c])] if statistics.median(r[c]) > 0]
    if moved and width:
        print(f"  max / min of the runs' medians: {statistics.median(moved):.3f} in the median cell "
              f"[{min(moved):.3f}–{max(moved):.3f}]; one run's interval spans {100 * statistics.median(width):.0f}% "
              f"of its median (median over cells and runs)")
    if missed:
        print("  not held:")
        print("\n".join(missed))


def main():
    args = sys.argv[1:]
    reference = "serde_json"
    if "--reference" in args:
        i = args.index("--reference")
        if i + 1 >= len(args):
            sys.exit("--reference needs a codec id, for example serde_json")
        reference = args[i + 1]
        del args[i:i + 2]
    statistic = "median"
    if "--statistic" in args:
        i = args.index("--statistic")
        if i + 1 >= len(args) or args[i + 1] not in STATISTICS:
            sys.exit(f"--statistic needs one of {', '.join(STATISTICS)}")
        statistic = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    for folder in args:
        if not Path(folder).is_dir():
            sys.exit(f"{folder}: not a folder (a copy of results/warm/forks/<variant>/)")
    runs = [load(f, statistic) for f in args]
    print(f"each process's figure: {statistic}")
    count("time per operation", runs, "ns")
    count(f"ratio to {reference}, paired within fork rounds", [paired(r, reference) for r in runs], "×")


if __name__ == "__main__":
    main()
