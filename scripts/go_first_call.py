"""The --go mode of first-call-vs-minimal.py: each Go library's cold child (target/external/go/<id>,
built by a cold run) against a minimal Go program that only reads the document, copies it and
decodes it once (runtimes/go/minimal/<id>, built here with `go build -trimpath` as the children
are), in alternating rounds in a seeded random order, both started as the runner starts children
(no shell, PATH and HOME only). The figure is the library's part of the process: the child's
init + first op (`first` - `fixture`), the minimal program's call (`after` - `before`). Prints,
per library, the medians and the median of the paired ratios child / minimal with its
distribution-free 95% interval and its quartiles.
"""
import json, os, random, statistics, subprocess, sys

from checked_run import checked_run  # (scripts/checked_run.py)
from median_interval import median_interval  # (scripts/median_interval.py)

LIBS = ["encoding-json", "sonic"]


def add_arguments(p):
    p.add_argument("--go", action="store_true", help="the Go children against minimal Go programs")
    p.add_argument("--go-libs", default=",".join(LIBS), help="--go: of " + ",".join(LIBS))


def line_of(argv, env):
    out = checked_run(argv, argv[0], env)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        sys.exit(f"{argv[0]}: no line of stamps (it printed {out.stdout[-300:]!r})")


def main(a, root):
    libs = [x for x in a.go_libs.split(",") if x]
    rounds = a.rounds
    if any(x not in LIBS for x in libs) or rounds < 1:
        sys.exit(f"--go-libs: valid are {', '.join(LIBS)}; --rounds: at least 1")
    inputs = a.inputs or os.path.join(root, "results", "cold", "latest", "fixtures")
    doc = os.path.join(inputs, "users-2kb.json")
    if not os.path.exists(doc):
        sys.exit(f"no {doc}: give --inputs the fixtures/ of a run of a Go codec on users-2kb")
    module = os.path.join(root, "runtimes", "go")
    out_dir = os.path.join(root, "target", "external", "go-minimal")
    go = next((g for g in (os.path.join(d, "go") for d in os.environ.get("PATH", "").split(":"))
               if os.access(g, os.X_OK)), "/usr/local/go/bin/go")
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    programs = {}
    for lib in libs:
        child = os.path.join(root, "target", "external", "go", lib)
        if not os.path.exists(child):
            sys.exit(f"no {child}: build the Go children (a `cold run --codecs {lib}`)")
        minimal = os.path.join(out_dir, lib)
        build_env = dict(os.environ, GOFLAGS="-mod=readonly", GOPROXY="off", GOTOOLCHAIN="local")
        subprocess.run([go, "build", "-trimpath", "-o", minimal, f"./minimal/{lib}"], cwd=module,
                       env=build_env, check=True)
        programs[(lib, "child")] = [child, "--op", "de", "--batch", "1", "--input", doc]
        programs[(lib, "minimal")] = [minimal, doc]
    times = {k: [] for k in programs}
    rng = random.Random(a.seed)
    keys = list(programs)
    for _ in range(rounds):
        rng.shuffle(keys)
        for k in keys:
            line = line_of(programs[k], env)
            if k[1] == "child":
                times[k].append(line["first"] - line["fixture"])
            else:
                times[k].append(line["after"] - line["before"])
    print(f"Go: init + first de call on users-2kb, {rounds} rounds (medians; ratio: median of the "
          f"paired child / minimal ratios, its 95% distribution-free interval, its quartiles)")
    print(f"{'library':<14} {'child':>10} {'minimal':>10} {'ratio':>7}  [95% interval]  quartiles")
    for lib in libs:
        child, ref = times[(lib, "child")], times[(lib, "minimal")]
        ratios = [x / y for x, y in zip(child, ref)]
        m, lo, hi = median_interval(ratios)
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (m, m, m)
        print(f"{lib:<14} {statistics.median(child) / 1e3:>8.1f}µs {statistics.median(ref) / 1e3:>8.1f}µs "
              f"{m:>7.3f}  [{lo:.3f}, {hi:.3f}]  [{q1:.3f}, {q3:.3f}]")
