#!/usr/bin/env python3
"""The seed's fresh-JVM ratios under the conditions in which thaw's run may differ from the seed's.

Each JVM child of the common model (kotlinx, gson, jackson, fory: `<lib>-common`), both ops, one
operation, run as the runner runs it (its flags, its class path, PATH and HOME only) and under
other conditions, in alternating rounds in a seeded random order; the figure is the seed's,
init + the first operation (the protocol's `first` - `fixture`). Per condition and op it prints
each library's median and its ratio to kotlinx paired within rounds (median of the per-round
ratios, with a distribution-free 95% interval for that median), beside the seed's ratio, and
the rest of each process's wall (spawn to reaped, less init + first op) beside the seed's.

Conditions (--conditions, comma-separated; a condition joins changes with `+`, as
`no-cds+one-cpu`):
  as-run         the runner's flags and the child's own class path, no change
  no-cds         -Xshare:off: no class comes from the JDK's CDS archive
  one-classpath  every common child's classes and jars on one class path, as a single program
                 holding all four libraries would have
  one-cpu        pinned to one CPU, the last this process may use (as `cold run --pin CPU`)

    cargo run --release -p cold -- run --codecs jvm-common --fixture users-2kb --batches 1 \\
        --samples 1 --out results/cold/jvm-common          # builds the children and the inputs
    scripts/jvm-seed-conditions.py --inputs results/cold/jvm-common/fixtures [--rounds 30]
        [--conditions as-run,no-cds,one-classpath,one-cpu] [--build target/external/jvm]
"""
import argparse, csv, os, statistics, sys, time

import jvm_first_call as jfc  # noqa: E402  (scripts/jvm_first_call.py: the runtime and children)
from median_interval import median_interval  # noqa: E402  (scripts/median_interval.py)

CHANGES = ["no-cds", "one-classpath", "one-cpu"]
CONDITIONS = ["as-run"] + CHANGES
# The seed's ratios to kotlinx at one operation (init + ops, common model, users 2 KB).
SEED = {("gson", "ser"): 2.96, ("jackson", "ser"): 8.54, ("fory", "ser"): 9.20,
        ("gson", "de"): 3.00, ("jackson", "de"): 10.37, ("fory", "de"): 9.70}


def one_classpath(paths):
    """Every class path's entries once, in first-seen order."""
    seen = []
    for cp in paths:
        for entry in cp.split(":"):
            if entry and entry not in seen:
                seen.append(entry)
    return ":".join(seen)


def programs(root, a, conditions):
    """(condition, library, op) → (argv, CPUs to pin to or None)."""
    jvm, java, flags = jfc.runtime(root)
    build = a.build or os.path.join(root, "target", "external", "jvm")
    doc, tree, libs = jfc.inputs_and_libs(a.inputs, a)
    if "kotlinx" not in libs:
        sys.exit("--libs must hold kotlinx: every ratio is to it")
    children = {lib: jfc.child_of(jvm, build, f"{lib}-common") for lib in libs}
    everything = one_classpath(cp for _, cp in children.values())
    one_cpu = {max(os.sched_getaffinity(0))}  # the last CPU this process may use
    out = {}
    for cond in conditions:
        changes = cond.split("+")
        for lib, (codec, cp) in children.items():
            # The child's own classes first, so that its own main class is the one found.
            path = one_classpath([cp, everything]) if "one-classpath" in changes else cp
            extra = ["-Xshare:off"] if "no-cds" in changes else []
            for op in jfc.OPS:
                argv = [java] + flags + extra + ["-cp", path, codec["class"], "--op", op,
                                                 "--batch", "1", "--input", doc if op == "de" else tree]
                out[(cond, lib, op)] = (argv, one_cpu if "one-cpu" in changes else None)
    return out


def run(argv, cpus, env):
    """init + first op of one child, and its wall (spawn to reaped, as seen from here), in
    nanoseconds."""
    start = time.monotonic_ns()
    _, fixture, first, _ = jfc.run(argv, env, "child", cpus)
    return first - fixture, time.monotonic_ns() - start


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--libs", default=",".join(jfc.LIBS))
    p.add_argument("--conditions", default=",".join(CONDITIONS))
    p.add_argument("--build", default=None, help="the JVM children's build [target/external/jvm]")
    p.add_argument("--inputs", default=os.path.join(root, "results", "cold", "latest", "fixtures"),
                   help="a run folder's fixtures/ holding users-2kb's document and tree")
    p.add_argument("--seed", type=int, default=20261130)
    p.add_argument("--raw", default=None, help="also write every process's figures to this CSV")
    a = p.parse_args()
    conditions = [c for c in a.conditions.split(",") if c]
    valid = lambda c: c == "as-run" or all(x in CHANGES for x in c.split("+"))
    if not conditions or not all(map(valid, conditions)):
        sys.exit(f"--conditions: valid are as-run and {', '.join(CHANGES)}, or changes joined by +")
    if any("one-cpu" in c.split("+") for c in conditions) and len(os.sched_getaffinity(0)) < 2:
        sys.exit("one-cpu: this process may use only one CPU, so nothing would differ")
    progs = programs(root, a, conditions)
    env = jfc.env_of_children()
    both = jfc.alternate(progs, a.rounds, a.seed, lambda k, prog: run(*prog, env), progress=True)
    figures = {k: [f for f, _ in v] for k, v in both.items()}
    rest = {k: [wall - f for f, wall in v] for k, v in both.items()}
    if a.raw:
        with open(a.raw, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["round", "condition", "library", "op", "init_first_ns", "wall_ns"])
            w.writerows((r, *k, f, wall) for k, v in both.items() for r, (f, wall) in enumerate(v))
    libs = sorted({k[1] for k in progs}, key=jfc.LIBS.index)
    print(f"init + first op, users-2kb, common model, JDK 25, {a.rounds} rounds: median ms; ratio to "
          f"kotlinx paired within rounds, median [95% interval]; the seed's ratio")
    for op in jfc.OPS:
        for cond in conditions:
            base = figures[(cond, "kotlinx", op)]
            print(f"{op:<4} {cond:<14}\n{'':<19} kotlinx {statistics.median(base) / 1e6:6.1f} ms")
            for lib in libs[1:]:
                mine = figures[(cond, lib, op)]
                m, lo, hi = median_interval([x / y for x, y in zip(mine, base)])
                print(f"{'':<19} {lib:<8}{statistics.median(mine) / 1e6:6.1f} ms  "
                      f"{m:5.2f}x [{lo:.2f}, {hi:.2f}]  seed {SEED[(lib, op)]:.2f}x")
    print("\nthe process outside init + first op (wall - init - first op), median ms; the seed's "
          "was 64-66 ms in every cell but Fory's")
    for cond in conditions:
        print(f"{cond:<14} " + "  ".join(
            f"{lib} {op} {statistics.median(rest[(cond, lib, op)]) / 1e6:.1f}"
            for lib in libs for op in jfc.OPS))


if __name__ == "__main__":
    main()
