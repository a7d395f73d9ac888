#!/usr/bin/env python3
"""Each JVM library's cold child (own mode) against JMH's single shot of the same call, and the
classes each process loads before the timed call and inside it.

The same call in both: the child's own library side made (init) and called once (first op), on
users-2kb, after the model's classes are initialised and the input read, untimed. thaw's figure
is the child's init + first_op (`first` - `fixture` of its line); JMH's is the SingleShotTime
score of `thaw.jmh.FirstCall` (warm/jvm), one fork per run, with the child's JVM flags
(runtime.toml's). Both run in alternating rounds in a seeded random order; per cell it prints
the medians and the median of the paired ratios child / JMH with its quartiles. With --classes,
one more run of each with -Xlog:class+load counts the classes loaded before the timed call and
inside it (the child: by its stamps; JMH's fork: by the classes FirstCall$Start and $End, which
open and close its timed call).

    cargo run --release -p cold -- run --codecs jvm --fixture users-2kb --batches 1 --samples 1 \\
        --out results/cold/jvm-own                    # builds the children, writes the inputs
    scripts/warm-jvm.sh --quick --libs gson --ops de  # builds target/warm-jvm/benchmarks.jar
    scripts/jvm-single-shot.py --inputs results/cold/jvm-own/fixtures [--rounds 30] [--libs gson]
        [--classes]
"""
import argparse, json, os, random, statistics, subprocess, sys, tempfile

import jvm_first_call  # noqa: E402  (the runtime's JDK and flags, and the class-load log's lines)

LIBS = jvm_first_call.LIBS
OPS = jvm_first_call.OPS


def programs(root, a):
    """(lib, op, "child" | "jmh") → argv, with a marker "{log}" where --classes puts its flag."""
    jvm, java, flags = jvm_first_call.runtime(root)
    build = a.build or os.path.join(root, "target", "external", "jvm")
    jar = a.jar or os.path.join(root, "target", "warm-jvm", "benchmarks.jar")
    if not os.path.exists(jar):
        sys.exit(f"no {jar}: build it with scripts/warm-jvm.sh (see this script's help)")
    doc, tree, libs = jvm_first_call.inputs_and_libs(a.inputs, a)
    out = {}
    for lib in libs:
        codec, cp = jvm_first_call.child_of(jvm, build, lib)
        for op in OPS:
            inp = doc if op == "de" else tree
            out[(lib, op, "child")] = ([java] + flags + ["{log}", "-cp", cp, codec["class"], "--op", op,
                                                         "--batch", "1", "--input", inp])
            fork = " ".join(flags + ["{log}", f"-Dthaw.docs={os.path.abspath(a.inputs)}"])
            out[(lib, op, "jmh")] = [java, "-cp", jar, "org.openjdk.jmh.Main", "thaw.jmh.FirstCall",
                                     "-p", f"codec={lib}", "-p", f"op={op}", "-f", "1",
                                     "-jvmArgs", fork, "-rf", "json", "-rff", "{result}"]
    return out


def once(argv, env, kind, log=None):
    """One run: (figure in ns, the timed call's start and end on the log's clock or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "jmh.json")
        flag = f"-Xlog:class+load=info:file={log}:timenanos" if log else ""
        args = []
        for x in argv:
            x = x.replace("{result}", result)
            if x == "{log}":
                if flag:
                    args.append(flag)
                continue
            args.append(x.replace("{log}", flag))
        p = subprocess.run(args, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{' '.join(args[-8:])} failed ({p.returncode}): {(p.stderr or p.stdout).strip()[-400:]}")
        if kind == "child":
            s = json.loads(p.stdout.strip().splitlines()[-1])
            return s["first"] - s["fixture"], (s["fixture"], s["first"])
        score = json.load(open(result))[0]["primaryMetric"]["score"]
        return score * 1000.0, None


def classes(argv, env, kind):
    """The classes loaded before the timed call, and those loaded inside it (names, in order)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "load.log")
        _, window = once(argv, env, kind, log)
        lines = [m for m in (jvm_first_call.LOADED.match(x) for x in
                             open(log, encoding="utf-8", errors="replace")) if m]
        names = [m.group(2) for m in lines]
        if window is None:  # JMH's fork: the markers FirstCall$Start and $End
            start, end = names.index("thaw.jmh.FirstCall$Start"), names.index("thaw.jmh.FirstCall$End")
            return names[:start], names[start + 1:end]
        before = [m.group(2) for m in lines if int(m.group(1)) < window[0]]
        inside = [m.group(2) for m in lines if window[0] <= int(m.group(1)) <= window[1]]
        return before, inside


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", required=True, help="a run folder's fixtures/ of a `cold run --codecs jvm`")
    p.add_argument("--rounds", type=int, default=30, help="rounds (each program once a round)")
    p.add_argument("--libs", default=",".join(LIBS), help="of " + ",".join(LIBS))
    p.add_argument("--build", default=None, help="the JVM children's build [target/external/jvm]")
    p.add_argument("--jar", default=None, help="the JMH jar [target/warm-jvm/benchmarks.jar]")
    p.add_argument("--seed", type=int, default=20261202)
    p.add_argument("--classes", action="store_true", help="count the classes loaded too")
    a = p.parse_args()
    progs = programs(root, a)
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    figures = {k: [] for k in progs}
    rng = random.Random(a.seed)
    keys = list(progs)
    for _ in range(a.rounds):
        rng.shuffle(keys)
        for k in keys:
            figures[k].append(once(progs[k], env, k[2])[0])
    cells = sorted({(k[0], k[1]) for k in progs}, key=lambda x: (LIBS.index(x[0]), x[1]))
    print(f"init + first call, own mode, users-2kb, JDK 25, {a.rounds} rounds (medians; ratio: median "
          f"of the paired child / JMH single-shot ratios, with its quartiles)")
    print(f"{'library':<9} {'op':<4} {'child':>9} {'JMH ss':>9} {'ratio':>7}  quartiles")
    for lib, op in cells:
        child, jmh = figures[(lib, op, "child")], figures[(lib, op, "jmh")]
        ratios = sorted(x / y for x, y in zip(child, jmh))
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
        print(f"{lib:<9} {op:<4} {statistics.median(child) / 1e6:>7.1f}ms {statistics.median(jmh) / 1e6:>7.1f}ms "
              f"{statistics.median(ratios):>7.3f}  [{q1:.3f}, {q3:.3f}]")
    if a.classes:
        print("\nclasses loaded (-Xlog:class+load), one run each: before the timed call / inside it; "
              "moved: of the child's classes inside, those JMH's fork loaded before its call (JDK's: java.*, "
              "jdk.*, sun.*)")
        for lib, op in cells:
            c = classes(progs[(lib, op, "child")], env, "child")
            j = classes(progs[(lib, op, "jmh")], env, "jmh")
            moved = set(c[1]) & set(j[0])
            jdk = sum(1 for n in moved if n.startswith(("java.", "jdk.", "sun.")))
            print(f"{lib:<9} {op:<4} child {len(c[0]):>5} / {len(c[1]):>5}   JMH fork {len(j[0]):>5} / "
                  f"{len(j[1]):>5}   moved {len(moved):>4} (JDK's {jdk})")


if __name__ == "__main__":
    main()
