#!/usr/bin/env python3
"""thaw's runner, the minimal spawner and hyperfine in short paired rounds, phase by phase.

A few long rounds (scripts/bench-harness.sh's first steps) move with a shared machine by more than
the tens of microseconds they look for, and a wall is one number. This script runs a chunk of
samples of each arm in every round, in an order drawn afresh for every round (seeded), so that
each round's differences of medians pair, and splits each wall into the child's phases. The
`noop` child writes its stamps (main, model, fixture, init, first, done, checked) on the
spawner's clock, so a wall is cut into the phases of docs/design.md: spawn_to_main, model,
fixture, init, first_op, remaining_ops, check and exit (checked to reaped). thaw's samples.csv
has them; the minimal spawner (scripts/minimal-spawner.c) writes its two clock reads and the
child's stamps with `-t FILE`.

The arms, on the same command line and environment: `cold run --codecs noop --ops OP --batches
1` (the runner as a user starts it, from target/release); the minimal spawner with `-o memfd`
(the least that lets it read the child's stamps); the ladder's top rung (`-g -o memfd -p -r -s
-m`, every step of thaw's spawner); and `hyperfine -N` (its wall only; left out, with a note,
where hyperfine is not on PATH). Printed: each phase's median for every arm, thaw's difference
from each, and the median of the rounds' paired differences with its distribution-free 95%
interval; then the walls side by side.

    scripts/harness-phases.py                       200 rounds of 20 samples of each
    scripts/harness-phases.py --rounds 100 --samples 50 --op ser

Needs `cargo build --release -p cold -p spawner -p children --bin cold --bin cold-spawner --bin
child-noop-de-any --bin child-noop-ser-any` and a C compiler (cc).
"""

import argparse
import csv
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from checked_run import checked_run  # (scripts/checked_run.py)
from median_interval import median_interval  # (scripts/median_interval.py)

ROOT = Path(__file__).resolve().parent.parent
# The child's stamps in order, and the phase that ends at each (schema::phases, Stamp::CHILD).
STAMPS = ["main", "model", "fixture", "init", "first", "done", "checked"]
PHASES = ["spawn_to_main", "model", "fixture", "init", "first_op", "remaining_ops", "check", "exit"]
# The minimal spawner's arms (scripts/minimal-spawner.c): the least that can read the child's
# stamps (its output to a memfd, which -t reads), and the ladder's top rung (every step of
# thaw's spawner).
ARMS = {
    "minimal": ["-o", "memfd"],
    "top rung": ["-g", "-o", "memfd", "-p", "-r", "-s", "-m"],
}


def phases_of(spawn, stamps, reaped):
    """The phases of one sample from the spawner's two clock reads and the child's stamps."""
    points = [spawn] + [stamps[s] for s in STAMPS] + [reaped]
    figures = {p: points[k + 1] - points[k] for k, p in enumerate(PHASES)}
    figures["wall"] = reaped - spawn
    return figures


def thaw_chunk(binaries, work, op, fixture, samples, index):
    """One `cold run` of `samples` noop samples; its rows' phases."""
    out = work / f"thaw-{index}"
    args = [str(binaries / "cold"), "run", "--codecs", "noop", "--ops", op, "--batches", "1",
            "--samples", str(samples), "--fixture", fixture, "--out", str(out)]
    checked_run(args, f"harness-phases: {' '.join(args)}", tail=2000)
    rows = []
    with open(out / "samples.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                sys.exit(f"harness-phases: a thaw sample was not ok: {row['status']} {row['error']!r}")
            figures = {p: int(row[f"{p}_ns"]) for p in PHASES}
            figures["wall"] = int(row["wall_ns"])
            rows.append(figures)
    return rows, out / "fixtures" / f"{fixture}.json"


def minimal_chunk(spawner, options, binaries, work, op, fixture_path, samples, index):
    """The minimal spawner with `options` for `samples` runs, traced; each run's phases."""
    trace = work / f"minimal-{index}-{len(options)}.trace"
    args = [str(spawner), "-n", str(samples), "-w", "0", *options, "-t", str(trace),
            "-e", f"PATH={os.environ.get('PATH', '')}",
            "-e", f"HOME={os.environ.get('HOME', '')}", "--",
            str(binaries / f"child-noop-{op}-any"), "--op", op, "--batch", "1",
            "--input", str(fixture_path), "--drops", "end"]
    checked_run(args, "harness-phases: the minimal spawner", tail=2000)
    rows = []
    for number, line in enumerate(trace.read_text().splitlines(), 1):
        start, end, child = line.split(" ", 2)
        try:
            stamps = json.loads(child)
            rows.append(phases_of(int(start), stamps, int(end)))
        except (ValueError, KeyError) as e:
            sys.exit(f"harness-phases: {trace}:{number}: not the child's stamps ({e}): {child[:200]!r}")
    return rows


def hyperfine_chunk(binaries, work, op, fixture_path, samples, index):
    """`hyperfine -N` (no shell) on the same command line and environment: walls only."""
    out = work / f"hyperfine-{index}.json"
    command = (f"{binaries / f'child-noop-{op}-any'} --op {op} --batch 1 --input {fixture_path} "
               f"--drops end")
    args = ["env", "-i", f"PATH={os.environ.get('PATH', '')}", f"HOME={os.environ.get('HOME', '')}",
            "hyperfine", "-N", "--style", "none", "--warmup", "0", "--runs", str(max(samples, 2)),
            "--export-json", str(out), "--", command]
    checked_run(args, "harness-phases: hyperfine", tail=2000)
    times = json.loads(out.read_text())["results"][0]["times"]
    return [{"wall": round(t * 1e9)} for t in times]


def median_of(rows, key):
    return statistics.median(r[key] for r in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--samples", type=int, default=20, help="samples of each arm per round")
    parser.add_argument("--op", choices=["de", "ser"], default="de")
    parser.add_argument("--fixture", default="users-2kb")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per round on stderr")
    a = parser.parse_args()
    if a.rounds < 1 or a.samples < 1:
        parser.error("--rounds and --samples must be at least 1")

    hyperfine = shutil.which("hyperfine") is not None
    if not hyperfine:
        print("harness-phases: no hyperfine on PATH, so no hyperfine arm (Debian: apt-get install -y "
              "hyperfine)", file=sys.stderr)
    binaries = ROOT / "target" / "release"
    for name in ["cold", "cold-spawner", f"child-noop-{a.op}-any"]:
        if not (binaries / name).is_file():
            sys.exit(f"harness-phases: no {binaries / name}; build it with `cargo build --release "
                     f"-p cold -p spawner -p children --bin cold --bin cold-spawner --bin child-noop-{a.op}-any`")
    if shutil.which("cc") is None:
        sys.exit("harness-phases: needs a C compiler (cc) for the minimal spawner (Debian: apt-get install -y gcc)")

    work = Path(tempfile.mkdtemp(prefix="thaw-harness-phases."))
    # thaw's children run as an unprivileged user (docs/containment.md): they read the fixture here
    work.chmod(0o755)
    try:
        spawner = work / "minimal-spawner"
        subprocess.run(["cc", "-O2", "-o", str(spawner), str(ROOT / "scripts" / "minimal-spawner.c")], check=True)
        rng = random.Random(a.seed)
        names = ["thaw"] + list(ARMS) + (["hyperfine"] if hyperfine else [])
        others = names[1:]
        every = {who: [] for who in names}
        per_round = {who: [] for who in others}
        # The first thaw run writes the fixture every arm reads.
        _, fixture_path = thaw_chunk(binaries, work, a.op, a.fixture, 1, "fixture")
        for r in range(a.rounds):
            order = names[:]
            rng.shuffle(order)
            got = {}
            for who in order:
                if who == "thaw":
                    got[who], _ = thaw_chunk(binaries, work, a.op, a.fixture, a.samples, r)
                elif who == "hyperfine":
                    got[who] = hyperfine_chunk(binaries, work, a.op, fixture_path, a.samples, r)
                else:
                    got[who] = minimal_chunk(spawner, ARMS[who], binaries, work, a.op, fixture_path,
                                             a.samples, r)
                every[who] += got[who]
            for who in others:
                per_round[who].append({p: median_of(got["thaw"], p) - median_of(got[who], p)
                                       for p in PHASES + ["wall"] if p in got[who][0]})
            if not a.quiet:
                print(f"round {r + 1}/{a.rounds}: " + ", ".join(
                    f"{who} {median_of(got[who], 'wall') / 1e3:.1f} us" for who in names), file=sys.stderr)

        print(f"\nnoop {a.op}, {a.rounds} rounds of {a.samples} samples of each, in a shuffled order: "
              f"thaw (cold run) and the minimal spawner, " +
              "; ".join(f"{who}: {' '.join(o)}" for who, o in ARMS.items()) +
              ("; hyperfine -N (its wall only)" if hyperfine else ""))
        header = f"{'phase':15} {'thaw (us)':>10}"
        for who in others:
            header += f" {who + ' (us)':>16} {'thaw - it':>10} {'per round [95%]':>24}"
        print(header)
        for p in PHASES + ["wall"]:
            t = median_of(every["thaw"], p)
            line = f"{p:15} {t / 1e3:10.1f}"
            for who in others:
                if p not in every[who][0]:
                    line += f" {'':16} {'':10} {'':24}"
                    continue
                m = median_of(every[who], p)
                mid, low, high = median_interval([x[p] for x in per_round[who]])
                line += (f" {m / 1e3:16.1f} {(t - m) / 1e3:+10.1f} {mid / 1e3:+8.1f} "
                         f"[{low / 1e3:+.1f}, {high / 1e3:+.1f}]")
            print(line)
        wall = {who: median_of(every[who], "wall") for who in names}
        print("side by side: " + ", ".join(f"{who} {w / 1e3:.1f} us" for who, w in wall.items()) + "; " +
              ", ".join(f"thaw / {who} {wall['thaw'] / wall[who]:.3f}" for who in others))
        print("thaw - it: the difference of the medians of every sample; per round: the median of the "
              "rounds' differences of medians, with its distribution-free 95% interval. The wall's line is the one to quote "
              "(a sum of medians is not the median of sums).")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
