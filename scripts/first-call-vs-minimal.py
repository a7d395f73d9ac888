#!/usr/bin/env python3
"""Each typed codec's first `de` call in its cold child, against a reference program that does
only that call (runtimes/rust/src/bin/minimal-<codec>.rs), on the users-2kb document.

Both run as the runner runs children (no shell, PATH and HOME only), in alternating rounds in a
seeded random order, and the figure is the first call (the protocol's `first` - `init`). Prints,
per codec, the medians and the median of the paired ratios child / reference with its quartiles.

    cargo build --release --workspace
    scripts/first-call-vs-minimal.py [--pairs 200] [--codecs serde_json,simd-json] [--dir target/release]

With --jvm, the JVM children of the common model (kotlinx, gson, jackson, fory: `<lib>-common`)
against their minimal programs (`<Lib>CommonMinimal`, on the child's class path, with the
runtime's flags: initialise the model's classes, make the library's object, one call), both ops,
on users-2kb of a run folder's inputs. The figure is model + init + first call; --classes also
counts the classes each loads (-Xlog:class+load, stamped with System.nanoTime) before its timed
region (the library's object and the call) and inside it.

    cargo run --release -p cold -- run --codecs jvm-common --samples 1   # builds the children
    scripts/first-call-vs-minimal.py --jvm [--pairs 30] [--libs kotlinx,gson] [--classes]
        [--build target/external/jvm] [--inputs results/cold/latest/fixtures]

With --go, the Go children of encoding/json and sonic (target/external/go/<id>) against minimal
Go programs that only read, copy and decode the document once (runtimes/go/minimal/<id>), de on
users-2kb of a run folder's inputs; the figure is init + first call (scripts/go_first_call.py).

    cargo run --release -p cold -- run --codecs go --samples 1          # builds the children
    scripts/first-call-vs-minimal.py --go [--rounds 30] [--go-libs encoding-json,sonic]
        [--inputs results/cold/latest/fixtures]
"""
import argparse, json, os, random, statistics, subprocess, sys, tempfile

import go_first_call  # noqa: E402  (the --go mode: scripts/go_first_call.py)
import jvm_first_call  # noqa: E402  (the --jvm mode: scripts/jvm_first_call.py)
from checked_run import checked_run  # noqa: E402  (scripts/checked_run.py)

CODECS = ["serde_json", "simd-json", "sonic-rs", "miniserde", "nanoserde"]


def first_call(argv, env):
    """The first call's time of one run. What the program printed is shown escaped (repr), never
    as it is, when it failed or printed no line of stamps."""
    out = checked_run(argv, argv[0], env)
    try:
        line = json.loads(out.stdout)
        return line["first"] - line["init"]
    except (ValueError, KeyError, TypeError):
        sys.exit(f"{argv[0]}: no line of stamps (it printed {out.stdout[-300:]!r})")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--codecs", default=",".join(CODECS))
    p.add_argument("--dir", default=os.path.join(root, "target", "release"))
    p.add_argument("--seed", type=int, default=20261130)
    jvm_first_call.add_arguments(p)
    go_first_call.add_arguments(p)
    a = p.parse_args()
    if a.jvm:
        return jvm_first_call.main(a, root)
    if a.go:
        return go_first_call.main(a, root)
    codecs = [c for c in a.codecs.split(",") if c]
    unknown = [c for c in codecs if c not in CODECS]
    if unknown or a.pairs < 1:
        sys.exit(f"--codecs: valid are {', '.join(CODECS)}; --pairs: at least 1")
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    with tempfile.TemporaryDirectory() as tmp:
        # thaw's children run as an unprivileged user (docs/containment.md): they read from here
        os.chmod(tmp, 0o755)
        subprocess.run([os.path.join(a.dir, "fixtures"), "generate", "--out", tmp, "users-2kb"],
                       check=True, capture_output=True)
        doc = os.path.join(tmp, "users-2kb.json")
        programs = {}
        for c in codecs:
            child = os.path.join(a.dir, f"child-{c}-de-users")
            minimal = os.path.join(a.dir, f"minimal-{c}")
            for path in (child, minimal):
                if not os.path.exists(path):
                    sys.exit(f"no {path}: build with `cargo build --release --workspace`")
            programs[(c, "child")] = [child, "--op", "de", "--batch", "1", "--input", doc]
            programs[(c, "minimal")] = [minimal, doc]
        times = {k: [] for k in programs}
        rng = random.Random(a.seed)
        keys = list(programs)
        for _ in range(a.pairs):
            rng.shuffle(keys)
            for k in keys:
                times[k].append(first_call(programs[k], env))
    print(f"first de call on users-2kb, {a.pairs} rounds (medians; ratio: median of the paired "
          f"child / reference ratios, with its quartiles)")
    print(f"{'codec':<12} {'child':>10} {'reference':>10} {'ratio':>7}  quartiles")
    for c in codecs:
        child, ref = times[(c, "child")], times[(c, "minimal")]
        ratios = sorted(x / y for x, y in zip(child, ref))
        q1, _, q3 = statistics.quantiles(ratios, n=4)
        print(f"{c:<12} {statistics.median(child) / 1e3:>8.1f}µs {statistics.median(ref) / 1e3:>8.1f}µs "
              f"{statistics.median(ratios):>7.3f}  [{q1:.3f}, {q3:.3f}]")


if __name__ == "__main__":
    main()
