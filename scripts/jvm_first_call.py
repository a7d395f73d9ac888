"""The --jvm mode of first-call-vs-minimal.py: each JVM library's cold child on the common model
against a minimal program on the same class path and flags, in alternating rounds.

The child prints the protocol's line; its figure is model + init + first_op (main → model, then
fixture → first). The minimal program (`<Lib>CommonMinimal` beside the child's classes) prints
its five System.nanoTime reads: before and after the model's classes, before and after the
library's object, after the call; its figure is the same three phases. With --classes, one more
run of each with -Xlog:class+load decorated with System.nanoTime counts the classes loaded before
the timed region (the library's state and the call) and inside it.
"""
import os, random, re, statistics, sys, tempfile, tomllib, json

from checked_run import checked_run  # (scripts/checked_run.py)

LIBS = ["kotlinx", "gson", "jackson", "fory"]
OPS = ["de", "ser"]
HERE = os.path.dirname(os.path.abspath(__file__))


def add_arguments(p):
    p.add_argument("--jvm", action="store_true", help="the JVM children of the common model")
    p.add_argument("--rounds", type=int, default=30, help="--jvm: rounds (each program once a round)")
    p.add_argument("--libs", default=",".join(LIBS), help="--jvm: of " + ",".join(LIBS))
    p.add_argument("--build", default=None, help="--jvm: the JVM children's build [target/external/jvm]")
    p.add_argument("--inputs", default=None, help="--jvm: a run folder's fixtures/ [results/cold/latest/fixtures]")
    p.add_argument("--classes", action="store_true", help="--jvm: count the classes loaded too")


def runtime(root):
    """The JDK 25 program and the flags before -cp, from runtime.toml (the runner's)."""
    jvm = os.path.join(root, "runtimes", "jvm")
    rt = tomllib.load(open(os.path.join(jvm, "runtime.toml"), "rb"))
    build = next(b for b in rt["builds"] if b["name"] == "jdk25")
    program = next((p for p in build["program"] if os.path.exists(p)), None)
    if program is None:
        sys.exit("no JDK 25 among " + ", ".join(build["program"]) + ": scripts/install-runtimes.sh")
    flags = rt["command"][:rt["command"].index("-cp")]
    return jvm, program, flags


def inputs_and_libs(inputs, a):
    """users-2kb's document and neutral tree in `inputs`, and the libraries --libs asks for."""
    doc, tree = (os.path.join(inputs, "users-2kb" + e) for e in (".json", ".tree.txt"))
    for path in (doc, tree):
        if not os.path.exists(path):
            sys.exit(f"no {path}: give --inputs the fixtures/ of a run of the JVM children")
    libs = [x for x in a.libs.split(",") if x]
    if any(x not in LIBS for x in libs) or a.rounds < 1:
        sys.exit(f"--libs: valid are {', '.join(LIBS)}; --rounds: at least 1")
    return doc, tree, libs


def child_of(jvm, build, codec_id):
    """A JVM codec's description (runtimes/jvm/codec-<id>.toml) and its child's class path."""
    codec = tomllib.load(open(os.path.join(jvm, f"codec-{codec_id}.toml"), "rb"))
    cp_file = os.path.join(build, "classpath", codec["classpath"] + ".txt")
    if not os.path.exists(cp_file):
        sys.exit(f"no {cp_file}: build the JVM children (a `cold run --codecs {codec_id}`)")
    return codec, open(cp_file).read().strip()


def programs(root, a):
    jvm, java, flags = runtime(root)
    build = a.build or os.path.join(root, "target", "external", "jvm")
    inputs = a.inputs or os.path.join(root, "results", "cold", "latest", "fixtures")
    doc, tree, libs = inputs_and_libs(inputs, a)
    out = {}
    for lib in libs:
        codec, cp = child_of(jvm, build, f"{lib}-common")
        child, minimal = codec["class"], codec["class"].replace("Child", "Minimal")
        for op in OPS:
            inp = doc if op == "de" else tree
            base = [java] + flags + ["-cp", cp]
            out[(lib, op, "child")] = base + [child, "--op", op, "--batch", "1", "--input", inp]
            out[(lib, op, "minimal")] = base + [minimal, op, inp]
    return out


def stamps(kind, text):
    """(main or t0, start of the timed region, first, model + init + first) of one run's stdout."""
    if kind == "child":
        s = json.loads(text.strip().splitlines()[-1])
        figure = (s["model"] - s["main"]) + (s["first"] - s["fixture"])
        return s["main"], s["fixture"], s["first"], figure
    t = [int(x) for x in text.split()]
    if len(t) != 5:
        raise ValueError(f"a minimal program prints five reads, not {text!r}")
    return t[0], t[2], t[4], (t[1] - t[0]) + (t[4] - t[2])


def run(argv, env, kind, cpus=None):
    """stamps() of one run, pinned to `cpus` when given. What the program printed is shown
    escaped (repr), never as it is, when it failed or printed no line of its kind."""
    p = checked_run(argv, env=env, cpus=cpus)
    try:
        return stamps(kind, p.stdout)
    except (IndexError, ValueError, KeyError, TypeError):
        sys.exit(f"{' '.join(argv[-6:])}: no {kind}'s line of stamps (it printed {p.stdout[-300:]!r})")


LOADED = re.compile(r"^\[(\d+)ns\] (\S+) source: ")


def loaded(log):
    """(time, class name) of every class in a -Xlog:class+load log decorated with timenanos."""
    lines = (LOADED.match(x) for x in open(log, encoding="utf-8", errors="replace"))
    return [(int(m.group(1)), m.group(2)) for m in lines if m]


def classes(argv, env, kind):
    """The names of the classes loaded before the timed region, and inside it (up to the first
    call's end)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "load.log")
        at = argv.index("-cp")
        logged = argv[:at] + [f"-Xlog:class+load=info:file={log}:timenanos"] + argv[at:]
        _, start, first, _ = run(logged, env, kind)
        names = loaded(log)
        return ([n for t, n in names if t < start], [n for t, n in names if start <= t <= first])


def cells(progs):
    """The (library, op) pairs of programs keyed (library, op, kind), in LIBS order."""
    return sorted({(k[0], k[1]) for k in progs}, key=lambda x: (LIBS.index(x[0]), x[1]))


def alternate(progs, rounds, seed, figure, progress=False):
    """Each program once a round, in a seeded shuffle per round: key → its figures (`figure`
    of its key and argv), the r-th of each from round r; with `progress`, each round's end is
    told on stderr."""
    figures = {k: [] for k in progs}
    rng = random.Random(seed)
    keys = list(progs)
    for r in range(rounds):
        rng.shuffle(keys)
        for k in keys:
            figures[k].append(figure(k, progs[k]))
        if progress:
            print(f"round {r + 1}/{rounds}", file=sys.stderr)
    return figures


def print_paired(figures, progs, other, label):
    """Per (library, op): the medians of the child's and `other`'s figures, and the median of the
    paired ratios child / `other` with its quartiles."""
    print(f"{'library':<9} {'op':<4} {'child':>9} {label:>9} {'ratio':>7}  quartiles")
    for lib, op in cells(progs):
        child, them = figures[(lib, op, "child")], figures[(lib, op, other)]
        ratios = sorted(x / y for x, y in zip(child, them))
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
        print(f"{lib:<9} {op:<4} {statistics.median(child) / 1e6:>7.1f}ms {statistics.median(them) / 1e6:>7.1f}ms "
              f"{statistics.median(ratios):>7.3f}  [{q1:.3f}, {q3:.3f}]")


def env_of_children():
    """PATH and HOME only, as the runner starts its children."""
    return {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}


def main(a, root):
    progs = programs(root, a)
    env = env_of_children()
    figures = alternate(progs, a.rounds, a.seed, lambda k, argv: run(argv, env, k[2])[3])
    print(f"model + init + first call, users-2kb, JDK 25, {a.rounds} rounds (medians; ratio: median "
          f"of the paired child / minimal ratios, with its quartiles)")
    print_paired(figures, progs, "minimal", "minimal")
    if a.classes:
        print("\nclasses loaded (-Xlog:class+load), one run each: before the timed region / inside it")
        for lib, op in cells(progs):
            c = classes(progs[(lib, op, "child")], env, "child")
            m = classes(progs[(lib, op, "minimal")], env, "minimal")
            print(f"{lib:<9} {op:<4} child {len(c[0]):>5} / {len(c[1]):>5}   "
                  f"minimal {len(m[0]):>5} / {len(m[1]):>5}")
