"""The --python and --node modes of first-call-vs-minimal.py: each Python or Node library's cold
child (runtimes/<runtime>/<child>, started as the runner starts it: the runtime's executable,
the script, the protocol's arguments, no shell, PATH and HOME only) against a minimal program
that links only that library (runtimes/<runtime>/minimal/minimal_<id>.<ext>: read the document,
copy it, then the library's part once), in alternating rounds in a seeded random order.

The figure is the library's part of the process:
  * the child: init + first op (`first` - `fixture`), and for a typed Python child also its
    model phase (`model` - `main`: the library's import and its classes, where pydantic builds its
    code; it also holds the harness's own import, which the runtime's floor measures);
  * the minimal program: `after` - `before` (the library's import or require, its classes or
    compile, and the one call; a typed Node program loads the schema, and a `ser` program makes
    its value, before `before`, as the child does before its clock).
Prints, per library, the medians and the median of the paired ratios child / minimal with its
distribution-free 95% interval and its quartiles, and each round's ratio with --each.
"""
import json, os, random, statistics, sys

from checked_run import checked_run  # (scripts/checked_run.py)
from median_interval import median_interval  # (scripts/median_interval.py)

# id: (child script, op, whether the model phase is the library's)
PYTHON = {
    "pydantic": ("pydantic_child.py", "de", True),
    "msgspec": ("msgspec_child.py", "de", True),
    "msgspec-decoder": ("msgspec_decoder_child.py", "de", True),
    "ujson": ("ujson_child.py", "de", False),
    "pysimdjson": ("pysimdjson_child.py", "de", False),
}
NODE = {
    "node-json": ("json_child.js", "de", False),
    # node-json's child against the same bare script with its call made through the two small
    # functions the child's harness calls (init, de), made before the clock: the experiment that
    # explains node-json's excess over the bare script (docs/findings.md, 2026-12-07).
    "node-json-functions": ("json_child.js", "de", False),
    "secure-json-parse": ("secure_json_parse_child.js", "de", False),
    "ajv": ("ajv_child.js", "de", False),
    "ajv-standalone": ("ajv_standalone_child.js", "de", False),
    "fast-json-stringify": ("fast_json_stringify_child.js", "ser", False),
    "fast-json-stringify-standalone": ("fast_json_stringify_standalone_child.js", "ser", False),
}


def add_arguments(p):
    p.add_argument("--python", action="store_true", help="the Python children against minimal Python programs")
    p.add_argument("--node", action="store_true", help="the Node children against minimal Node programs")
    p.add_argument("--script-libs", default="", help="--python, --node: of " + ",".join(list(PYTHON) + list(NODE)))
    p.add_argument("--each", action="store_true", help="--python, --node: print every round's ratio")
    p.add_argument("--runtime-flags", default="",
                   help="--python, --node: flags given to the runtime before the script, for child and minimal alike "
                        "(an experiment: --runtime-flags=--no-sparkplug)")


def shown(ns):
    """A duration in ns, as µs below 10 ms, as ms from there."""
    return f"{ns / 1e3:>8.1f}µs" if ns < 1e7 else f"{ns / 1e6:>8.2f}ms"


def line_of(argv, what, env):
    out = checked_run(argv, what, env)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        sys.exit(f"{what}: no line of stamps (it printed {out.stdout[-300:]!r})")


def main(a, root):
    runtime = "python" if a.python else "node"
    table = PYTHON if a.python else NODE
    libs = [x for x in a.script_libs.split(",") if x] or list(table)
    if any(x not in table for x in libs) or a.rounds < 1:
        sys.exit(f"--script-libs: valid are {', '.join(table)}; --rounds: at least 1")
    inputs = a.inputs or os.path.join(root, "results", "cold", "latest", "fixtures")
    doc = os.path.join(inputs, "users-2kb.json")
    tree = os.path.join(inputs, "users-2kb.tree.txt")
    if not (os.path.exists(doc) and os.path.exists(tree)):
        sys.exit(f"no {doc} and {tree}: give --inputs the fixtures/ of a run of both ops on users-2kb")
    folder = os.path.join(root, "runtimes", runtime)
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    if a.python:
        program = os.path.join(root, "target", "external", "python-venv", "bin", "python")
        if not os.path.exists(program):
            sys.exit(f"no {program}: run scripts/install-python-env.sh")
    else:
        program = checked_run(["node", "-p", "process.execPath"], "node", env).stdout.strip()
    flags = a.runtime_flags.split()
    programs = {}
    for lib in libs:
        script, op, _ = table[lib]
        minimal = os.path.join(folder, "minimal", f"minimal_{lib.replace('-', '_')}.{'py' if a.python else 'js'}")
        if not os.path.exists(minimal):
            sys.exit(f"no {minimal}")
        programs[(lib, "child")] = [program, *flags, os.path.join(folder, script), "--op", op, "--batch", "1",
                                    "--input", doc if op == "de" else tree]
        programs[(lib, "minimal")] = [program, *flags, minimal, doc]
    times = {k: [] for k in programs}
    rng = random.Random(a.seed)
    keys = list(programs)
    for _ in range(a.rounds):
        rng.shuffle(keys)
        for k in keys:
            line = line_of(programs[k], f"{k[0]}'s {k[1]}", env)
            if k[1] == "child":
                model = line["model"] - line["main"] if table[k[0]][2] else 0
                times[k].append(model + line["first"] - line["fixture"])
            else:
                times[k].append(line["after"] - line["before"])
    print(f"{runtime}{' ' + a.runtime_flags if flags else ''}: the library's part of the process ({'model + ' if a.python else ''}init + first op), "
          f"users-2kb, {a.rounds} rounds (medians; ratio: median of the paired child / minimal "
          f"ratios, its 95% distribution-free interval, its quartiles)")
    print(f"{'library':<32} {'op':<4} {'child':>10} {'minimal':>10} {'ratio':>7}  [95% interval]  quartiles")
    for lib in libs:
        child, ref = times[(lib, "child")], times[(lib, "minimal")]
        ratios = [x / y for x, y in zip(child, ref)]
        m, lo, hi = median_interval(ratios)
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (m, m, m)
        print(f"{lib:<32} {table[lib][1]:<4} {shown(statistics.median(child))} "
              f"{shown(statistics.median(ref))} {m:>7.3f}  [{lo:.3f}, {hi:.3f}]  [{q1:.3f}, {q3:.3f}]")
        if a.each:
            print("    each round: " + " ".join(f"{r:.2f}" for r in ratios))
