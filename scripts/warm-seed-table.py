#!/usr/bin/env python3
"""The seed's warmed table beside thaw's, per thread count: aggregate and per-thread throughput.

JMH's throughput score with N benchmark threads is the aggregate: the operations of all N
threads per second. Per thread it is score / N (what one thread does while the others run).
Average time (avgt) is already per operation of one thread. This script reads the throughput
results of JMH JSON files (scripts/warm-jvm.sh's output, one file per thread count of a series:
`scripts/warm-jvm.sh --seed` writes results/warm/seed/jdk25/threads-<N>/jmh.json) and, for
each workload of warm/jvm/seed-warm.csv (the seed's ratios), prints both figures of both
libraries, their ratio (the same from either figure, since both ran with N threads) with an
interval from JMH's 99.9% errors (the fast's low end over the reference's high end, and the
other way), and the seed's ratio.

A figure quoted beside the seed needs at least 5 forks x 5 measurement iterations in one mode;
a result with fewer is marked as such. A thread count above the cores of the machine that ran it
(run-info.txt beside the file) is marked "oversubscribed".

    scripts/warm-seed-table.py results/warm/seed/jdk25
    scripts/warm-seed-table.py --seed-csv warm/jvm/seed-warm.csv FILE_OR_DIR...
    scripts/warm-seed-table.py --self-test      known answers of the arithmetic and the reader

Exit status: 0, or 2 when no file holds a throughput result of a workload.
"""

import argparse
import csv
import json
import re
import sys
from pathlib import Path

MIN_FORKS = 5
MIN_ITERATIONS = 5
UNIT_SECONDS = {"ops/s": 1.0, "ops/ms": 1e-3, "ops/us": 1e-6, "ops/ns": 1e-9, "ops/min": 60.0}


def per_second(value, unit):
    """A throughput in ops/s from JMH's value and unit."""
    if unit not in UNIT_SECONDS:
        raise ValueError(f"unit {unit!r} is not a throughput unit JMH writes")
    return value / UNIT_SECONDS[unit]


def per_thread(aggregate, threads):
    """One thread's share of an aggregate throughput: JMH's thrpt score sums its threads."""
    return aggregate / threads


def ratio_interval(fast, ref):
    """fast / reference, and the interval from the two 99.9% intervals (lo/hi, hi/lo)."""
    r = fast["ops"] / ref["ops"]
    lo = fast["lo"] / ref["hi"] if ref["hi"] > 0 else float("nan")
    hi = fast["hi"] / ref["lo"] if ref["lo"] > 0 else float("inf")
    return r, lo, hi


def cores_of(json_path):
    """The cores of the machine that ran a file, from run-info.txt beside it (None if unknown)."""
    info = json_path.parent / "run-info.txt"
    if not info.is_file():
        return None
    m = re.search(r"^cpu: .*, (\d+) cores$", info.read_text(errors="replace"), re.M)
    return int(m.group(1)) if m else None


def load(paths):
    """(benchmark class, op, fixture, threads) -> a throughput result, from every JMH JSON file."""
    files = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.json")) if p.is_dir() else [p]
    out = {}
    for f in files:
        try:
            results = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            print(f"# {f}: not read ({e}); skipped", file=sys.stderr)
            continue
        if not isinstance(results, list):
            continue
        for r in results:
            try:
                if r.get("mode") != "thrpt":
                    continue
                bench = r["benchmark"]
                cls, op = bench.rsplit(".", 1)
                fixture = r.get("params", {}).get("fixture")
                threads = int(r["threads"])
                m = r["primaryMetric"]
                unit = m["scoreUnit"]
                ops = per_second(float(m["score"]), unit)
                conf = [per_second(float(x), unit) for x in m.get("scoreConfidence", [])]
                lo, hi = (conf[0], conf[1]) if len(conf) == 2 and all(x == x for x in conf) else (ops, ops)
            except (KeyError, ValueError, TypeError) as e:
                print(f"# {f}: a result is not JMH's format ({e}); skipped", file=sys.stderr)
                continue
            key = (cls, op, fixture, threads)
            if key in out:
                print(f"# {f}: {bench} {fixture} with {threads} threads is also in {out[key]['file']}; that one is kept",
                      file=sys.stderr)
                continue
            out[key] = {
                "ops": ops, "lo": lo, "hi": hi, "threads": threads, "file": f,
                "forks": int(r.get("forks", 0)), "iterations": int(r.get("measurementIterations", 0)),
                "warmup": f"{r.get('warmupIterations', '?')} x {r.get('warmupTime', '?')}",
                "measurement": f"{r.get('measurementIterations', '?')} x {r.get('measurementTime', '?')}",
                "jdk": r.get("jdkVersion", "?"), "cores": cores_of(f),
            }
    return out


def seed_rows(path):
    with open(path, newline="") as fh:
        lines = [line for line in fh if not line.startswith("#")]
    return list(csv.DictReader(lines))


def short(cls):
    return cls.rsplit(".", 1)[-1]


def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def self_test():
    """Known answers: the per-thread share, the ratio's interval, and the reader on a made-up file."""
    import tempfile

    assert per_thread(30_000.0, 15) == 2_000.0
    assert per_second(2.5, "ops/ms") == 2_500.0
    r, lo, hi = ratio_interval({"ops": 300.0, "lo": 270.0, "hi": 330.0}, {"ops": 100.0, "lo": 90.0, "hi": 110.0})
    assert (r, round(lo, 6), round(hi, 6)) == (3.0, round(270 / 110, 6), round(330 / 90, 6)), (r, lo, hi)

    def result(cls, fixture, threads, score, forks):
        return {"benchmark": f"{cls}.ser", "mode": "thrpt", "threads": threads, "forks": forks,
                "measurementIterations": 5, "warmupIterations": 1, "warmupTime": "5 s", "measurementTime": "1 s",
                "jdkVersion": "25", "params": {"fixture": fixture},
                "primaryMetric": {"score": score, "scoreConfidence": [score * 0.9, score * 1.1], "scoreUnit": "ops/s"}}

    with tempfile.TemporaryDirectory() as d:
        for n, fast, ref, forks in ((1, 1_500.0, 500.0, 5), (15, 3_000.0, 600.0, 2)):
            sub = Path(d) / f"threads-{n}"
            sub.mkdir()
            (sub / "jmh.json").write_text(json.dumps([result("a.Fast", "x", n, fast, forks),
                                                      result("a.Ref", "x", n, ref, forks)]))
            (sub / "run-info.txt").write_text("cpu: Some CPU, 2 cores\n")
        got = load([d])
        assert set(got) == {("a.Fast", "ser", "x", 1), ("a.Ref", "ser", "x", 1),
                            ("a.Fast", "ser", "x", 15), ("a.Ref", "ser", "x", 15)}, got
        assert got[("a.Fast", "ser", "x", 15)]["cores"] == 2
        assert per_thread(got[("a.Fast", "ser", "x", 15)]["ops"], 15) == 200.0
        seed = Path(d) / "seed.csv"
        seed.write_text("# a comment\nfixture,op,fast,reference,seed_ratio,seed_threads\nx,ser,a.Fast,a.Ref,5.00,15\n")
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(["--seed-csv", str(seed), d])
        text = out.getvalue()
        assert status == 0, text
        assert "| x `ser`: Fast over Ref | 1 | 1,500 [1,350, 1,650] | 1,500 | 500 [450, 550] | 500 | 3.00×" in text, text
        assert "| 15 (oversubscribed) | 3,000 [2,700, 3,300] | 200 | 600 [540, 660] | 40.0 | 5.00×" in text, text
        assert "2 forks x 5 iterations, below 5 x 5: not to quote beside the seed" in text, text
    print("warm-seed-table: self-test passed")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", help="JMH JSON files, or folders searched for them")
    ap.add_argument("--seed-csv", default=str(Path(__file__).resolve().parent.parent / "warm/jvm/seed-warm.csv"))
    a = ap.parse_args(argv)
    results = load(a.paths)
    rows = seed_rows(a.seed_csv)
    print("| workload | threads | fast: aggregate ops/s [99.9%] | fast: per thread | reference: aggregate ops/s [99.9%] "
          "| reference: per thread | fast / reference [from the errors] | seed (threads) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    found = 0
    notes = []
    for row in rows:
        counts = sorted({k[3] for k in results if k[1] == row["op"] and k[2] == row["fixture"]
                         and k[0] in (row["fast"], row["reference"])})
        for n in counts:
            fast = results.get((row["fast"], row["op"], row["fixture"], n))
            ref = results.get((row["reference"], row["op"], row["fixture"], n))
            label = f"{row['fixture']} `{row['op']}`: {short(row['fast'])} over {short(row['reference'])}"
            cells = []
            for r in (fast, ref):
                if r is None:
                    cells += ["not measured", ""]
                else:
                    cells += [f"{fmt(r['ops'])} [{fmt(r['lo'])}, {fmt(r['hi'])}]", fmt(per_thread(r["ops"], n))]
            if fast and ref:
                found += 1
                ratio, lo, hi = ratio_interval(fast, ref)
                rtext = f"{ratio:.2f}× [{lo:.2f}, {hi:.2f}]"
            else:
                rtext = ""
            flags = []
            for r in (fast, ref):
                if r and (r["forks"] < MIN_FORKS or r["iterations"] < MIN_ITERATIONS):
                    flags.append(f"{short(row['fast'] if r is fast else row['reference'])}: {r['forks']} forks x "
                                 f"{r['iterations']} iterations, below {MIN_FORKS} x {MIN_ITERATIONS}: not to quote beside the seed")
                if r and r["cores"] is not None and n > r["cores"]:
                    flags.append(f"{n} threads on {r['cores']} cores: oversubscribed")
            threads = f"{n}" + (" (oversubscribed)" if any("oversubscribed" in f for f in flags) else "")
            print(f"| {label} | {threads} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} | {rtext} "
                  f"| {row['seed_ratio']}× ({row['seed_threads']}) |")
            for fl in dict.fromkeys(flags):
                notes.append(f"{label}, {n} threads: {fl}")
    settings = sorted({(r["forks"], r["warmup"], r["measurement"], r["jdk"]) for r in results.values()})
    print()
    for s in settings:
        print(f"- settings read: {s[0]} forks, warm-up {s[1]}, measurement {s[2]}, JDK {s[3]}")
    print("- per thread = JMH's aggregate throughput / threads; the ratio is the same from either")
    for n in notes:
        print(f"- {n}")
    if not found:
        print("warm-seed-table: no file holds both throughput results of any workload", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
