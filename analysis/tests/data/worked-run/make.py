#!/usr/bin/env python3
"""A small cold run folder written by hand, and the figures `analysis report` must give for it,
worked out here independently of thaw's code.

    python3 analysis/tests/data/worked-run/make.py          # (re)write the folder
    python3 analysis/tests/data/worked-run/make.py --check  # the files on disk are what it writes

It writes, next to itself:

- manifest.json, plan.csv, samples.csv: a timed run (`cold run` format, docs/design.md "The run
  folder"; columns as crates/schema/src/phases.rs and rows.rs declare them) of users-2kb, op
  `de`, batches 1 and 10, variant portable, codecs noop (style baseline: the floor), serde_json (the
  reference) and simd-json, in 8 blocks: 6 cells, 48 planned samples, one of which (simd-json ×10
  in block 5) timed out. Every figure is a chosen whole number (the tables below), not a
  measurement; the manifest says so in its notes.
- expected.json: every figure the report should give for it, computed below from first
  principles: exact rational arithmetic (fractions.Fraction) wherever a figure is a rank, a
  count, a probability or an order, and floats only for the final values. No statistics library.

The statistics (the report's, as its "How to read this report" section and crates/stats
document them; the formulas are written out at each function below):

- a cell's median: type-7 quantile at 1/2, i.e. the middle value (odd n) or the mean of the two
  middle values (even n), over the cell's ok samples;
- its 95% interval: the distribution-free order-statistic interval [x(l), x(n+1-l)];
- simd-json against serde_json at each batch: within-block pairs, log ratios, Hodges-Lehmann
  estimate and interval, exact Wilcoxon signed-rank p, Holm across the report's 2 comparisons,
  and the verdict rule;
- over floor: median(wall - fixture) of the cell minus the same median of noop's cell;
- the break-even of serde_json and simd-json: where their cost curves (median init_plus_ops,
  linear between batches 1 and 10) cross.

Worked by hand (and computed again below):

- The median's interval, n = 8: the coverage of [x(l), x(9-l)] is P(l <= K <= 8-l), K ~
  Binomial(8, 1/2): l = 1 gives 1 - 2/256 = 0.9921875 >= 0.95, l = 2 gives 1 - 2·9/256 =
  0.9296875 < 0.95, so l = 1: the interval is [min, max]. n = 7 (simd-json ×10, whose block 5
  timed out) has one too: l = 1 covers 1 - 2/128 = 0.984375, l = 2 only 1 - 2·8/128 = 0.875
  (at 95% only n <= 5 has none: even [min, max] covers 1 - 2/32 = 0.9375 at n = 5).
- The signed-rank null, n = 8: T+ = 0, 1, 2, 3, 4 in 1, 1, 1, 2, 2 of the 256 sign patterns, so
  P(T+ <= 3) = 5/256 = 0.0195 <= 0.025 < P(T+ <= 4) = 7/256 = 0.0273: C = 4, the interval is the
  4th and 33rd of the 36 Walsh averages, coverage 1 - 2·5/256 = 0.9609375. n = 7: P(T+ <= 2) =
  3/128 = 0.0234 <= 0.025 < P(T+ <= 3) = 5/128: C = 3, the 3rd and 26th of 28, coverage
  1 - 2·3/128 = 0.953125.
- Batch 1: simd-json is slower in all 8 blocks, T+ = 36 (the maximum), p = 2·P(T+ >= 36) =
  2/256 = 0.0078125. Batch 10: 7 pairs, one positive log ratio (block 1, +1.2%) whose magnitude
  ranks 2nd, so T+ = 2 and p = 2·P(T+ <= 2) = 2·3/128 = 0.046875. Holm over m = 2: 2 × 0.0078125
  = 0.015625; max(0.015625, 1 × 0.046875) = 0.046875. Both adjusted p are below 0.05 and both
  intervals lie on one side of 1 (all 36 Walsh averages positive at batch 1; only T+ = 2 of the
  28 are positive at batch 10, so the 26th is negative): slower at batch 1, faster at batch 10, the
  latter just inside alpha. (With m = 2, Holm cannot turn one raw p < 0.05 into "no
  difference" while the other stays significant: the smaller p is doubled and the larger
  adjusted p is at least that; so this run shows both directions of a verdict instead.)
- Over floor: serde_json ×1 600582.5 - 549693.5 = 50889 ns; simd-json ×1 674062 - 549693.5 =
  124368.5; serde_json ×10 634111 - 548698 = 85413; simd-json ×10 686240 - 548698 = 137542.
- Break-even: D(n) = C_simd(n) - C_serde(n) = 18297.5 - (n - 1)·21747/9 is ≈ +1383 at n = 8
  and ≈ -1033 at n = 9: simd-json is cheaper from n = 9.

Deterministic: no randomness, no clock, no environment.
"""

import csv
import io
import itertools
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
LEVEL = Fraction(95, 100)  # the report's confidence level
ALPHA = Fraction(5, 100)  # the report's significance level for verdicts

FIXTURE = "users-2kb"
OP = "de"
VARIANT = "portable"
CODECS = ["noop", "serde_json", "simd-json"]  # the manifest's order
BATCHES = [1, 10]
BLOCKS = 8
REFERENCE = "serde_json"
FLOOR = "noop"  # style baseline: never compared, the floor of every other codec
FAILED = ("simd-json", 10, 5)  # (codec, batch, block) of the one sample that timed out

# ---------------------------------------------------------------------------------------------
# The data, chosen by hand. Each list is one figure of one cell in blocks 0..7 (None: the sample
# failed and has no times).
# ---------------------------------------------------------------------------------------------

# The library's phases: init, first_op, remaining_ops (ns). init_plus_ops is their sum.
LIBRARY = {
    ("noop", 1): (
        [21, 19, 22, 20, 23, 18, 20, 24],
        [312, 298, 305, 321, 290, 307, 316, 305],
        [0, 0, 0, 0, 0, 0, 0, 0],
    ),
    ("noop", 10): (
        [20, 22, 19, 21, 18, 23, 20, 22],
        [309, 296, 318, 303, 311, 293, 314, 300],
        [497, 512, 488, 504, 521, 495, 509, 491],
    ),
    ("serde_json", 1): (
        [24, 22, 25, 23, 26, 21, 24, 23],
        [25130, 24870, 25610, 24420, 26050, 25290, 24760, 25480],
        [0, 0, 0, 0, 0, 0, 0, 0],
    ),
    ("serde_json", 10): (
        [23, 25, 22, 24, 21, 26, 23, 22],
        [25340, 24690, 25820, 24950, 25470, 26110, 24580, 25230],
        [35120, 34680, 36010, 34250, 35870, 35460, 34930, 35640],
    ),
    # slower than serde_json in every block at batch 1 (a larger first call)
    ("simd-json", 1): (
        [1930, 2010, 1880, 2060, 1970, 1910, 2040, 1990],
        [41270, 40380, 43150, 39640, 42810, 41950, 40120, 42460],
        [0, 0, 0, 0, 0, 0, 0, 0],
    ),
    # at batch 10, faster than serde_json in 6 of its 7 finished blocks, by 0.8% to 9.5%, and
    # 1.2% slower in block 1 (ratios ≈ 0.930, 1.012, 0.950, 0.905, 0.992, —, 0.960, 0.940)
    ("simd-json", 10): (
        [1960, 1940, 2020, 1890, 1980, None, 2050, 1920],
        [40510, 39870, 41240, 40130, 41660, None, 39450, 40820],
        [13779, 18298, 15499, 11578, 17230, None, 15652, 14498],
    ),
}

# The other phases (ns): spawn_to_main (a larger child loads for longer), fixture (the input:
# the document and one fresh copy per call, the same bytes for every codec), check, exit.
SPAWN_TO_MAIN = {
    ("noop", 1): [452310, 472290, 447790, 463700, 488620, 456000, 467150, 460070],
    ("noop", 10): [455430, 469840, 449660, 462740, 491350, 454460, 467760, 457990],
    ("serde_json", 1): [473400, 493400, 469960, 484680, 510730, 476630, 488990, 481150],
    ("serde_json", 10): [476520, 490950, 471830, 483720, 513460, 475090, 489600, 479070],
    ("simd-json", 1): [521480, 540390, 517000, 532880, 557890, 524780, 535630, 529050],
    ("simd-json", 10): [524600, 537940, 518870, 531920, 560620, None, 536240, 526970],
}
FIXTURE_NS = {
    ("noop", 1): [17240, 16980, 17510, 17090, 17380, 16870, 17160, 17430],
    ("noop", 10): [19620, 19310, 19880, 19450, 19740, 19270, 19560, 19910],
    ("serde_json", 1): [17310, 17050, 17470, 16940, 17290, 17120, 16990, 17360],
    ("serde_json", 10): [19540, 19720, 19390, 19830, 19480, 19650, 19290, 19760],
    ("simd-json", 1): [17180, 17420, 16910, 17270, 17060, 17330, 17150, 16960],
    ("simd-json", 10): [19700, 19420, 19810, 19350, 19590, None, 19680, 19470],
}
CHECK = {
    ("noop", 1): [381, 394, 377, 402, 388, 371, 396, 385],
    ("noop", 10): [379, 391, 404, 383, 376, 398, 387, 392],
    ("serde_json", 1): [472, 459, 488, 466, 481, 455, 476, 463],
    ("serde_json", 10): [468, 479, 457, 485, 462, 473, 490, 461],
    ("simd-json", 1): [474, 461, 483, 458, 479, 467, 452, 486],
    ("simd-json", 10): [465, 477, 459, 482, 470, None, 456, 488],
}
EXIT = {
    ("noop", 1): [86120, 88430, 85270, 87610, 89940, 85830, 87090, 86550],
    ("noop", 10): [86840, 87960, 85510, 88270, 89310, 86190, 87420, 85980],
    ("serde_json", 1): [91230, 93510, 90480, 92770, 95120, 90960, 92140, 91690],
    ("serde_json", 10): [91870, 92960, 90750, 93380, 94610, 91320, 92480, 90990],
    ("simd-json", 1): [98640, 101230, 97810, 99920, 102870, 98270, 100460, 99180],
    ("simd-json", 10): [99310, 100680, 98150, 100240, 102330, None, 99750, 98720],
}

# What `wait4` and the child report of the process, per codec (a bigger library, a bigger
# process); each sample varies these by a small fixed offset of its block.
MAXRSS_KIB = {"noop": 2312, "serde_json": 2436, "simd-json": 2588}  # starts from the spawner's
HWM_KIB = {"noop": 1020, "serde_json": 1148, "simd-json": 1296}  # the child's own peak
MINFLT = {"noop": 96, "serde_json": 131, "simd-json": 164}
CHECKSUM = {  # what the child prints: the same for every library of a batch, the floor its own
    ("noop", 1): "00000000000008ac",
    ("noop", 10): "00000000000056b8",
    ("serde_json", 1): "5c1e9b07a3d24f61",
    ("serde_json", 10): "39f2c84e1b7d0a56",
    ("simd-json", 1): "5c1e9b07a3d24f61",
    ("simd-json", 10): "39f2c84e1b7d0a56",
}

# The order of the cells in each block: a permutation chosen by hand (thaw's runner shuffles with
# a seed; nothing in the analysis depends on the order within a block).
CELLS = [(c, b) for c in CODECS for b in BATCHES]  # 0 noop×1, 1 noop×10, 2 serde×1, 3 serde×10,
ORDER = [  #                                          4 simd×1, 5 simd×10
    [2, 5, 0, 3, 4, 1],
    [4, 1, 3, 0, 5, 2],
    [0, 3, 5, 2, 1, 4],
    [5, 2, 4, 1, 3, 0],
    [1, 4, 2, 5, 0, 3],
    [3, 0, 1, 4, 2, 5],
    [2, 4, 0, 5, 3, 1],
    [5, 1, 3, 2, 4, 0],
]
PHASES = ["spawn_to_main", "model", "fixture", "init", "first_op", "remaining_ops", "check", "exit"]
# A Rust child's model phase: compiled in, nothing to load, two reads of the clock apart; 0 here.
MODEL_NS = 0

# samples.csv's columns, in the order thaw writes them (schema::rows::sample_columns: the
# identity, status, every figure of schema::phases::Figure::all(), the tail).
SAMPLE_COLUMNS = (
    "plan_index,block,codec,op,batch,fixture,variant,status,"
    "spawn_to_main_ns,model_ns,fixture_ns,init_ns,first_op_ns,remaining_ops_ns,check_ns,exit_ns,"
    "init_plus_ops_ns,wall_ns,user_us,sys_us,maxrss_kib,hwm_kib,rss_kib,minflt,majflt,inblock,"
    "nvcsw,nivcsw,library_minflt,library_majflt,"
    "spawn_to_main_minflt,fixture_minflt,check_minflt,exit_minflt,"
    "spawn_to_main_majflt,fixture_majflt,check_majflt,exit_majflt,"
    "instr_spawn_to_main,instr_model,instr_fixture,instr_init,instr_first_op,instr_remaining_ops,instr_check,"
    "instr_exit,alloc_init_blocks,alloc_first_op_blocks,alloc_remaining_ops_blocks,"
    "alloc_init_bytes,alloc_first_op_bytes,alloc_remaining_ops_bytes,"
    "evicted,exit_code,signal,checksum,error"
).split(",")
PLAN_COLUMNS = ["plan_index", "block", "codec", "op", "batch", "fixture", "variant"]


def phases_of(cell, block):
    """The eight phase times of a sample, in order, or None for the failed one."""
    init, first, rest = (LIBRARY[cell][i][block] for i in range(3))
    values = [
        SPAWN_TO_MAIN[cell][block],
        MODEL_NS if SPAWN_TO_MAIN[cell][block] is not None else None,
        FIXTURE_NS[cell][block],
        init,
        first,
        rest,
        CHECK[cell][block],
        EXIT[cell][block],
    ]
    if any(v is None for v in values):
        assert all(v is None for v in values), (cell, block)
        return None
    return values


def sample_row(plan_index, block, cell):
    codec, batch = cell
    row = {c: "" for c in SAMPLE_COLUMNS}
    row.update(
        plan_index=plan_index,
        block=block,
        codec=codec,
        op=OP,
        batch=batch,
        fixture=FIXTURE,
        variant=VARIANT,
    )
    ph = phases_of(cell, block)
    wobble = [3, -2, 5, 0, -4, 1, 2, -1][block]  # a fixed per-block variation
    if ph is None:
        # What `cold run` writes for a child it killed at its timeout: the rusage `wait4` gave,
        # the signal, the reason; no times (the child printed nothing).
        assert (codec, batch, block) == FAILED
        row.update(
            status="timeout",
            user_us=9981204,
            sys_us=2113,
            maxrss_kib=MAXRSS_KIB[codec] + wobble,
            minflt=MINFLT[codec] + 17,
            majflt=0,
            inblock=0,
            nvcsw=1,
            nivcsw=412,
            signal=9,
            error="killed after 10 s",
        )
        return row
    for name, v in zip(PHASES, ph):
        row[f"{name}_ns"] = v
    ipo = ph[3] + ph[4] + ph[5]  # init + first_op + remaining_ops
    wall = sum(ph)  # spawn -> reaped: the eight phases tile it
    row.update(
        status="ok",
        init_plus_ops_ns=ipo,
        wall_ns=wall,
        user_us=wall * 55 // 100_000,  # ~55% of the wall on the CPU, in µs
        sys_us=wall * 31 // 100_000,
        maxrss_kib=MAXRSS_KIB[codec] + wobble + (4 if batch == 10 else 0),
        hwm_kib=HWM_KIB[codec] + wobble + (4 if batch == 10 else 0),
        rss_kib=HWM_KIB[codec] + wobble - 12,
        minflt=MINFLT[codec] + wobble + (2 if batch == 10 else 0),
        majflt=0,
        inblock=0,
        nvcsw=1,
        nivcsw=block % 3,
        exit_code=0,
        checksum=CHECKSUM[cell],
    )
    return row


def plan_rows():
    rows = []
    for block, order in enumerate(ORDER):
        assert sorted(order) == list(range(len(CELLS))), order
        for i in order:
            codec, batch = CELLS[i]
            rows.append(
                dict(
                    plan_index=len(rows),
                    block=block,
                    codec=codec,
                    op=OP,
                    batch=batch,
                    fixture=FIXTURE,
                    variant=VARIANT,
                )
            )
    return rows


def csv_text(columns, rows):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return out.getvalue()


def manifest():
    zeros = "0" * 64
    child_bytes = {"noop": 400528, "serde_json": 559448, "simd-json": 593368}
    binary = {"noop": "child-noop-de-any", "serde_json": "child-serde_json-de-users",
              "simd-json": "child-simd-json-de-users"}
    library = {"noop": ("fixtures", "0.1.0", "baseline"), "serde_json": ("serde_json", "1.0.154", "typed"),
               "simd-json": ("simd-json", "0.19.0", "typed")}
    return {
        "thaw_version": "0.1.0",
        "commit": None,
        "command_line": ["python3", "analysis/tests/data/worked-run/make.py"],
        "settings": {
            "seed": 20261201,
            "plan_seed": 20261201,
            "samples_per_cell": BLOCKS,
            "codecs": CODECS,
            "ops": [OP],
            "batches": BATCHES,
            "fixtures": [FIXTURE],
            "variants": [{"variant": VARIANT, "runtime": "rust", "children_dir": "target/release"}],
            "pinning": None,
            "cold_cache": False,
            "timeout_secs": 10.0,
            "memory_limit_mib": 8192,
            "drops": "end",
            "child_env": ["PATH=/usr/bin:/bin", "HOME=/nonexistent"],
            "measure": "time",
        },
        "machine": {
            "cpu_model": None,
            "cpu_flags": "",
            "cores": 2,
            "kernel": None,
            "virtualization": None,
        },
        "rustc": None,
        "cells": len(CELLS),
        "samples_planned": len(CELLS) * BLOCKS,
        "codecs": [
            {"id": c, "library": library[c][0], "version": library[c][1], "style": library[c][2],
             "output": "reused-buffer"}
            for c in CODECS
        ],
        "children": [
            {"codec": c, "op": OP, "fixture": FIXTURE, "variant": VARIANT, "binary": binary[c],
             "path": f"target/release/{binary[c]}", "bytes": child_bytes[c], "sha256": zeros}
            for c in CODECS
        ],
        "fixtures": [{"name": FIXTURE, "bytes": 2076, "sha256": zeros, "file": "fixtures/users-2kb.json"}],
        "inputs": [{"fixture": FIXTURE, "kind": "document", "file": "fixtures/users-2kb.json", "bytes": 2076,
                    "sha256": zeros}],
        "started_utc": "2026-12-01T00:00:00Z",
        "finished": True,
        "finished_utc": "2026-12-01T00:00:01Z",
        "unsupported": [],
        "verification": [
            {"codec": c, "fixture": FIXTURE, "op": OP, "status": "baseline" if c == FLOOR else "pass",
             "detail": ""}
            for c in CODECS
        ],
        "preflight": [
            {"codec": c, "fixture": FIXTURE, "op": OP, "status": "preflight-ok", "detail": f"batch {b}"}
            for c in CODECS for b in BATCHES
        ],
        "excluded": [],
        "notes": [
            "A hand-written test run (analysis/tests/data/worked-run/make.py): its figures are chosen, "
            "not measured, and its expected statistics are worked out in that script."
        ],
    }


# ---------------------------------------------------------------------------------------------
# The statistics, from first principles.
# ---------------------------------------------------------------------------------------------


def quantile7(xs, p):
    """Hyndman & Fan type 7 quantile of the values xs (exact, as a Fraction): sort ascending to
    x[0..n-1], h = (n - 1)·p, and interpolate x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋ + 1] - x[⌊h⌋])."""
    s = sorted(Fraction(x) for x in xs)
    h = (len(s) - 1) * Fraction(p)
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def median(xs):
    """The median: type 7 at p = 1/2, i.e. the middle value x((n+1)/2) for odd n and the mean of
    x(n/2) and x(n/2 + 1) for even n (1-based order statistics)."""
    s = sorted(Fraction(x) for x in xs)
    n = len(s)
    value = s[n // 2] if n % 2 == 1 else (s[n // 2 - 1] + s[n // 2]) / 2
    assert value == quantile7(xs, Fraction(1, 2))
    return value


def binomial_half_pmf(n, k):
    """P(K = k) for K ~ Binomial(n, 1/2): C(n, k) / 2^n."""
    return Fraction(math.comb(n, k), 2**n)


def median_interval_rank(n, level=LEVEL):
    """The rank l of the distribution-free interval [x(l), x(n+1-l)] of the median.

    For n values of a continuous distribution, K = the number of them below the true median is
    Binomial(n, 1/2); the median lies in [x(l), x(n+1-l)] exactly when l <= K <= n - l. So the
    interval's coverage is C(l) = P(l <= K <= n - l) = sum_{k=l}^{n-l} C(n, k) / 2^n, whatever the
    distribution. C falls as l grows, and the narrowest interval with C(l) >= level has the
    largest such l (l <= (n+1)/2). Returns (l, C(l)), or (None, C(1)) when even the whole range
    [x(1), x(n)] covers less than the level (n <= 5 at 95%).
    """
    def coverage(l):
        return sum(binomial_half_pmf(n, k) for k in range(l, n - l + 1))

    best = None
    for l in range(1, (n + 1) // 2 + 1):
        if coverage(l) >= level:
            best = l
    return best, coverage(best if best is not None else 1)


def tukey_outliers(xs):
    """Tukey's fences with type-7 quartiles Q1, Q3: a value below Q1 - 1.5·IQR or above
    Q3 + 1.5·IQR is an outlier (mild or severe alike here), IQR = Q3 - Q1."""
    q1, q3 = quantile7(xs, Fraction(1, 4)), quantile7(xs, Fraction(3, 4))
    iqr = q3 - q1
    lo, hi = q1 - Fraction(3, 2) * iqr, q3 + Fraction(3, 2) * iqr
    return sum(1 for x in xs if x < lo or x > hi)


def mad(xs):
    """Unscaled median absolute deviation: median(|x - median(x)|)."""
    m = median(xs)
    return median([abs(Fraction(x) - m) for x in xs])


def spearman_rho(xs, ys):
    """Spearman's ρ without ties: 1 - 6·Σd² / (n(n² - 1)), d the difference of the ranks."""
    n = len(xs)
    assert len(set(xs)) == n and len(set(ys)) == n, "no ties"
    rank = lambda v: {x: i + 1 for i, x in enumerate(sorted(v))}
    rx, ry = rank(xs), rank(ys)
    d2 = sum((rx[x] - ry[y]) ** 2 for x, y in zip(xs, ys))
    return 1 - Fraction(6 * d2, n * (n * n - 1))


def signed_rank_null(n):
    """The exact null distribution of Wilcoxon's T+ for n pairs without ties or zeros, by brute
    force: under the null each of the ranks 1..n carries a + sign with probability 1/2
    independently, so each of the 2^n sign patterns is equally likely and T+ is the sum of the
    ranks with a + sign. Returns counts[t] = the number of patterns with T+ = t."""
    counts = [0] * (n * (n + 1) // 2 + 1)
    for signs in itertools.product((0, 1), repeat=n):
        counts[sum(r for r, s in zip(range(1, n + 1), signs) if s)] += 1
    assert sum(counts) == 2**n
    return counts


def p_le(counts, t):
    """P(T+ <= t) under the null."""
    return Fraction(sum(counts[: max(t + 1, 0)]), sum(counts))


def p_ge(counts, t):
    """P(T+ >= t) under the null."""
    return Fraction(sum(counts[max(t, 0):]), sum(counts))


def paired_contrast(reference, candidate):
    """simd-json against serde_json within blocks, from their init_plus_ops by block
    ({block: ns}, ok samples only).

    - Pairs: the blocks both cells finished; d_b = ln(candidate_b / reference_b).
    - Wilcoxon signed-rank: rank |d_b| from 1 (smallest) to n (no ties, no zeros: checked);
      T+ = the sum of the ranks of the positive d_b; the exact two-sided p-value is
      p = min(1, 2·min(P(T+ <= t), P(T+ >= t))) at the observed t, from the brute-force null.
    - Hodges-Lehmann: the N = n(n+1)/2 Walsh averages (d_i + d_j)/2, i <= j; the estimate is their
      median (the mean of the (N/2)-th and (N/2+1)-th smallest for even N, the ((N+1)/2)-th for
      odd N), shown as the ratio exp(estimate).
    - Its interval: [W(C), W(N+1-C)] (1-based order statistics of the Walsh averages), where
      C - 1 is the largest t with P(T+ <= t) <= (1 - level)/2 (so C = t + 1); its coverage is
      1 - 2·P(T+ <= C - 1) (Tukey's construction: W(C) > 0 exactly when fewer than C Walsh
      averages are negative, and the number of negative Walsh averages is T-). Shown as ratios.

    The Walsh averages are ordered exactly: (ln a + ln b)/2 = ln sqrt(a·b), and ln is increasing,
    so ordering them is ordering the products a·b of the ratios, which are Fractions. Only the
    final values are floats: a ratio exp((ln a + ln b)/2) = sqrt(a·b), and the estimate for
    even N, exp((W(N/2) + W(N/2+1))/2) = (P(N/2)·P(N/2+1))^(1/4).
    """
    blocks = sorted(set(reference) & set(candidate))
    r = [Fraction(candidate[b], reference[b]) for b in blocks]
    d = [math.log(x) for x in r]  # only to rank the magnitudes; checked against exact order
    n = len(r)
    assert all(x != 1 for x in r), "no zero differences"
    # |ln x| ordered exactly: |ln x| = ln max(x, 1/x)
    mags = [max(x, 1 / x) for x in r]
    assert len(set(mags)) == n, "no ties among |d|"
    order = sorted(range(n), key=lambda i: mags[i])
    rank = {i: k + 1 for k, i in enumerate(order)}
    assert [rank[i] for i in sorted(range(n), key=lambda i: abs(d[i]))] == list(range(1, n + 1))
    t_plus = sum(rank[i] for i in range(n) if r[i] > 1)
    counts = signed_rank_null(n)
    p = min(Fraction(1), 2 * min(p_le(counts, t_plus), p_ge(counts, t_plus)))

    products = sorted(r[i] * r[j] for i in range(n) for j in range(i, n))
    big_n = n * (n + 1) // 2
    assert len(products) == big_n
    # distinct, and far enough apart that no float computation can swap two of them
    for a, b in zip(products, products[1:]):
        assert b > a and float((b - a) / a) > 1e-9, (a, b)
    assert sum(1 for x in products if x < 1) == sum(rank[i] for i in range(n) if r[i] < 1), "T-"

    half_alpha = (1 - LEVEL) / 2
    t = -1
    while p_le(counts, t + 1) <= half_alpha:
        t += 1
    c = t + 1  # 0 would mean no interval
    assert c >= 1
    achieved = 1 - 2 * p_le(counts, c - 1)
    lo_p, hi_p = products[c - 1], products[big_n - c]  # W(C), W(N+1-C) as products
    if big_n % 2 == 0:
        mid = products[big_n // 2 - 1] * products[big_n // 2]
        ratio = math.sqrt(math.sqrt(float(mid)))  # IEEE sqrt is exact to the ulp everywhere
    else:
        ratio = math.sqrt(float(products[big_n // 2]))
    lo, hi = math.sqrt(float(lo_p)), math.sqrt(float(hi_p))
    return {
        "blocks": blocks,
        "pairs": n,
        "ratios": [str(x) for x in r],
        "log_ratios": [float(f"{x:.12g}") for x in d],  # for reading (libm logs, 12 digits)
        "signed_ranks": [rank[i] if r[i] > 1 else -rank[i] for i in range(n)],
        "t_plus": t_plus,
        "p_exact": str(p),
        "p": float(p),
        "walsh_n": big_n,
        "c": c,
        "interval_ranks": [c, big_n + 1 - c],
        "achieved_level_exact": str(achieved),
        "achieved_level": float(achieved),
        "ratio": ratio,
        "ratio_lo": lo,
        "ratio_hi": hi,
        "half_width": max(ratio - lo, hi - ratio) / ratio,
        "_p": p,
    }


def holm(ps):
    """Holm's step-down adjustment of m p-values: sort them ascending p(1) <= ... <= p(m); the
    i-th (1-based) is adjusted to min(1, max_{j <= i} (m - j + 1)·p(j)); returned in input order."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out, running = [None] * m, Fraction(0)
    for j, i in enumerate(order):  # j is 0-based: the multiplier is m - j
        running = max(running, min(Fraction(1), (m - j) * ps[i]))
        out[i] = running
    return out


def verdict(p_holm, lo, hi):
    """Faster or slower only when the adjusted p is below alpha and the interval lies wholly on
    one side of 1; otherwise no difference."""
    if p_holm < ALPHA and hi < 1:
        return "faster"
    if p_holm < ALPHA and lo > 1:
        return "slower"
    return "no difference"


# How the report writes numbers (crates/stats/src/units.rs and report/format.rs, as documented
# there): a duration in the unit its size calls for (ns below 1 µs, µs below 1 ms, ms below 1 s)
# with three significant digits (0 decimals from 100, 1 from 10, else 2); a ratio with three
# decimals and `×`; its interval's bounds with three decimals.

def _fixed(x, decimals):
    scaled = Fraction(x) * 10**decimals
    assert scaled - math.floor(scaled) != Fraction(1, 2), f"{x} is a rounding tie"
    return f"{x:.{decimals}f}"


def sig3(x):
    a = abs(x)
    return _fixed(x, 0 if a >= 100 or a == 0 else 1 if a >= 10 else 2)


def duration(ns):
    for limit, name in [(1e9, "s"), (1e6, "ms"), (1e3, "µs")]:
        if abs(ns) >= limit:
            return f"{sig3(ns / limit)} {name}", limit
    return f"{sig3(ns)} ns", 1.0


def duration_ci(m, lo, hi):
    text, unit = duration(m)
    return f"{text} [{sig3(lo / unit)}, {sig3(hi / unit)}]"


def ratio_ci(r, lo, hi):
    assert r < 10
    return f"{_fixed(r, 3)}× [{_fixed(lo, 3)}, {_fixed(hi, 3)}]"


def p_text(p):
    return "<0.0001" if p < 1e-4 else _fixed(p, 4)


def describe(xs):
    """A figure of a cell: n, median, the order-statistic interval, p90, min, max, MAD."""
    n = len(xs)
    s = sorted(xs)
    l, cov = median_interval_rank(n)
    assert l is not None, n
    return {
        "n": n,
        "median": float(median(xs)),
        "lo": s[l - 1],
        "hi": s[n - l],
        "ranks": [l, n + 1 - l],
        "coverage_exact": str(cov),
        "coverage": float(cov),
        "p90": float(quantile7(xs, Fraction(9, 10))),
        "min": s[0],
        "max": s[-1],
        "mad": float(mad(xs)),
    }


def break_even(medians_a, medians_b, a, b):
    """Where two codecs' cost curves cross. A codec's cost of n operations in one process, C(n),
    is its cell's median init_plus_ops at each measured batch, linear between them (no warm
    results here, so nothing beyond the largest batch). The crossing is the first whole n at
    which the codec cheaper at the smallest batch is no longer cheaper: D(n) = C_b(n) - C_a(n)
    changes sign. With batches 1 and 10, C(n) = C(1) + (n - 1)·(C(10) - C(1))/9, exactly."""
    def cost(m, n):
        return m[1] + Fraction(n - 1, 9) * (m[10] - m[1])

    d = [cost(medians_b, n) - cost(medians_a, n) for n in range(1, 11)]
    assert all(x != 0 for x in d), "no tie between the curves at a whole n"
    first = a if d[0] > 0 else b
    crossings = []
    for n in range(2, 11):
        if (d[n - 1] > 0) != (d[n - 2] > 0):
            before, after = (a, b) if d[n - 1] < 0 else (b, a)
            crossings.append({"n": n, "cheaper_before": before, "cheaper_after": after,
                              "extrapolated": False})
    return {"a": a, "b": b, "cheaper_first": first, "crossings": crossings, "searched_to": 10}


def expected(samples):
    """Every figure the report should give, from the rows as written."""
    ok = {}  # cell -> {block: row}
    failed = {}
    for row in samples:
        cell = (row["codec"], row["batch"])
        if row["status"] == "ok":
            ok.setdefault(cell, {})[row["block"]] = row
        else:
            failed[cell] = failed.get(cell, 0) + 1
    cells = []
    for cell in CELLS:
        codec, batch = cell
        rows = [ok[cell][b] for b in sorted(ok[cell])]
        col = lambda name: [r[name] for r in rows]
        ipo, wall = col("init_plus_ops_ns"), col("wall_ns")
        for r in rows:  # the rows are consistent
            assert r["init_plus_ops_ns"] == r["init_ns"] + r["first_op_ns"] + r["remaining_ops_ns"]
            assert r["wall_ns"] == sum(r[f"{p}_ns"] for p in PHASES)
        d_ipo, d_wall = describe(ipo), describe(wall)
        d_ipo["outliers"] = tukey_outliers(ipo)
        d_ipo["half_width"] = float(
            max(median(ipo) - d_ipo["lo"], d_ipo["hi"] - median(ipo)) / median(ipo))
        without_input = [r["wall_ns"] - r["fixture_ns"] for r in rows]
        cells.append({
            "fixture": FIXTURE, "op": OP, "variant": VARIANT, "batch": batch, "codec": codec,
            "planned": BLOCKS, "ok": len(rows), "failed": failed.get(cell, 0),
            "init_plus_ops": d_ipo,
            "wall": d_wall,
            "phase_medians": {p: float(median(col(f"{p}_ns"))) for p in PHASES},
            "wall_without_input": float(median(without_input)),
            "user_us": float(median(col("user_us"))),
            "sys_us": float(median(col("sys_us"))),
            "hwm_kib": float(median(col("hwm_kib"))),
            "maxrss_kib": float(median(col("maxrss_kib"))),
            "minflt": float(median(col("minflt"))),
            "majflt": float(median(col("majflt"))),
            "drift_rho": float(spearman_rho([r["block"] for r in rows], ipo)),
            "md": {
                "init_plus_ops": duration_ci(d_ipo["median"], d_ipo["lo"], d_ipo["hi"]),
                "wall": duration(d_wall["median"])[0],
                "n_ok": str(len(rows)) if not failed.get(cell) else f"{len(rows)} ({failed[cell]} failed)",
            },
        })
    by = {(c["codec"], c["batch"]): c for c in cells}
    for c in cells:
        # over floor: the median of (wall - fixture) over the cell's ok samples, less the same
        # median of the floor's cell at the same op and batch; none for the floor itself
        floor = by[(FLOOR, c["batch"])]
        c["over_floor_ns"] = (None if c["codec"] == FLOOR
                              else c["wall_without_input"] - floor["wall_without_input"])

    contrasts = []
    for batch in BATCHES:
        for codec in CODECS:
            if codec in (REFERENCE, FLOOR):
                continue
            ref = {b: r["init_plus_ops_ns"] for b, r in ok[(REFERENCE, batch)].items()}
            cand = {b: r["init_plus_ops_ns"] for b, r in ok[(codec, batch)].items()}
            x = paired_contrast(ref, cand)
            contrasts.append({"fixture": FIXTURE, "op": OP, "variant": VARIANT, "batch": batch,
                              "codec": codec, "against": REFERENCE, **x})
    adjusted = holm([x["_p"] for x in contrasts])
    for x, ph in zip(contrasts, adjusted):
        del x["_p"]
        x["p_holm_exact"] = str(ph)
        x["p_holm"] = float(ph)
        x["verdict"] = verdict(ph, x["ratio_lo"], x["ratio_hi"])
        x["md"] = {
            "ratio": ratio_ci(x["ratio"], x["ratio_lo"], x["ratio_hi"]),
            "p": p_text(x["p"]),
            "p_holm": p_text(x["p_holm"]),
        }
    med = {(c["codec"], c["batch"]): median(
        [r["init_plus_ops_ns"] for r in ok[(c["codec"], c["batch"])].values()]) for c in cells}
    break_evens = [
        break_even({n: med[(a, n)] for n in BATCHES}, {n: med[(b, n)] for n in BATCHES}, a, b)
        for a, b in itertools.combinations([c for c in CODECS if c != FLOOR], 2)
    ]
    return {
        "about": "The figures `analysis report` must give for this folder, worked out by make.py "
                 "(exact arithmetic; formulas in its comments). Cells in the manifest's codec "
                 "order; contrasts are simd-json / serde_json on init_plus_ops, Holm over both.",
        "level": float(LEVEL),
        "alpha": float(ALPHA),
        "reference": REFERENCE,
        "floor": FLOOR,
        "samples": len(samples),
        "planned": len(CELLS) * BLOCKS,
        "cells": cells,
        "contrasts": contrasts,
        "break_evens": break_evens,
    }


def build():
    plan = plan_rows()
    samples = [sample_row(p["plan_index"], p["block"], (p["codec"], p["batch"])) for p in plan]
    exp = expected(samples)
    # What the data were chosen to show; if an edit breaks one, the figures no longer exercise it.
    c1, c10 = exp["contrasts"]
    assert (c1["batch"], c1["t_plus"], c1["pairs"], c1["verdict"]) == (1, 36, 8, "slower")
    assert (c10["batch"], c10["t_plus"], c10["pairs"], c10["verdict"]) == (10, 2, 7, "faster")
    assert all(c["init_plus_ops"]["outliers"] == 0 for c in exp["cells"])
    assert all(abs(c["drift_rho"]) < 0.7 for c in exp["cells"])
    files = {
        "manifest.json": json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n",
        "plan.csv": csv_text(PLAN_COLUMNS, plan),
        "samples.csv": csv_text(SAMPLE_COLUMNS, samples),
        "expected.json": json.dumps(exp, indent=2, ensure_ascii=False) + "\n",
    }
    return files


def main():
    files = build()
    if sys.argv[1:] == ["--check"]:
        stale = [n for n, t in files.items() if (HERE / n).read_text(encoding="utf-8") != t]
        if stale:
            sys.exit(f"not what make.py writes: {', '.join(stale)}")
        print("worked-run: every file is what make.py writes")
        return
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote {', '.join(files)} in {HERE}")


if __name__ == "__main__":
    main()
