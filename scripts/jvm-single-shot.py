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
import argparse, json, os, sys, tempfile

import jvm_first_call  # noqa: E402  (the runtime's JDK and flags, and the class-load log's lines)
from checked_run import checked_run  # noqa: E402  (scripts/checked_run.py)

LIBS = jvm_first_call.LIBS
OPS = jvm_first_call.OPS


def programs(root, a):
    """(lib, op, "child" | "jmh") → argv; JMH's with "{jvm}" where its fork's flags go and
    "{result}" where its JSON goes."""
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
            out[(lib, op, "child")] = ([java] + flags + ["-cp", cp, codec["class"], "--op", op,
                                                         "--batch", "1", "--input", inp])
            fork = " ".join(flags + [f"-Dthaw.docs={os.path.abspath(a.inputs)}"])
            out[(lib, op, "jmh")] = [java, "-cp", jar, "org.openjdk.jmh.Main", "thaw.jmh.FirstCall",
                                     "-p", f"codec={lib}", "-p", f"op={op}", "-f", "1",
                                     "-jvmArgs", fork + "{jvm}", "-rf", "json", "-rff", "{result}"]
    return out


def child_figure(argv, env):
    """The child's init + first op (its `first` - `fixture` stamps), in ns."""
    _, fixture, first, _ = jvm_first_call.run(argv, env, "child")
    return first - fixture


def jmh(argv, env, fork_flags=""):
    """One JMH run of one fork, its fork given `fork_flags` too: the single shot's score in ns."""
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "jmh.json")
        args = [x.replace("{result}", result).replace("{jvm}", fork_flags) for x in argv]
        checked_run(args, " ".join(args[-8:]), env, tail=400)
        return json.load(open(result))[0]["primaryMetric"]["score"] * 1000.0


def jmh_classes(argv, env):
    """The classes JMH's fork loaded before its timed call, and inside it (between the classes
    FirstCall$Start and $End, which the call loads first and last when -Dthaw.mark is set)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "load.log")
        jmh(argv, env, f" -Dthaw.mark=true -Xlog:class+load=info:file={log}:timenanos")
        names = [n for _, n in jvm_first_call.loaded(log)]
        start, end = names.index("thaw.jmh.FirstCall$Start"), names.index("thaw.jmh.FirstCall$End")
        return names[:start], names[start + 1:end]


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
    env = jvm_first_call.env_of_children()
    figure = lambda k, argv: child_figure(argv, env) if k[2] == "child" else jmh(argv, env)  # noqa: E731
    figures = jvm_first_call.alternate(progs, a.rounds, a.seed, figure)
    print(f"init + first call, own mode, users-2kb, JDK 25, {a.rounds} rounds (medians; ratio: median "
          f"of the paired child / JMH single-shot ratios, with its quartiles)")
    jvm_first_call.print_paired(figures, progs, "jmh", "JMH ss")
    if a.classes:
        print("\nclasses loaded (-Xlog:class+load), one run each: before the timed call / inside it; "
              "moved: of the child's classes inside, those JMH's fork loaded before its call (JDK's: java.*, "
              "jdk.*, sun.*)")
        for lib, op in jvm_first_call.cells(progs):
            c = jvm_first_call.classes(progs[(lib, op, "child")], env, "child")
            j = jmh_classes(progs[(lib, op, "jmh")], env)
            moved = set(c[1]) & set(j[0])
            jdk = sum(1 for n in moved if n.startswith(("java.", "jdk.", "sun.")))
            print(f"{lib:<9} {op:<4} child {len(c[0]):>5} / {len(c[1]):>5}   JMH fork {len(j[0]):>5} / "
                  f"{len(j[1]):>5}   moved {len(moved):>4} (JDK's {jdk})")


if __name__ == "__main__":
    main()
