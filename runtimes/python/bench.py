"""thaw's warm track for Python: pyperf benchmarks of the same libraries, through the same calls,
as the cold children (each codec-*.toml of this folder, its child module imported, not run), on
the same documents. pyperf runs every benchmark in worker processes of its own, one fresh
process per run (its `--processes`), and writes its JSON (`-o`), which `analysis report` reads
(analysis/src/inputs/pyperf.rs): a cell's figure is the median of its processes' medians.

Each benchmark is named `thaw/codec=<id>/fixture=<name>/op=<de|ser>`. In the worker that runs
it, and only there, the child module's `model()` and `init()` run first, then one call whose
result is checked against the document by meaning (the standard `json`'s reading of it, doubles
within a relative 1e-15), then pyperf times the call: `de` the document's bytes (immutable, so
one object serves every call), `ser` the value the child builds from the neutral tree. A typed
codec runs only on the fixtures of its models (a fixture `users-2kb` is of the model `users`);
a codec runs only the ops its description names.

    scripts/warm-python.sh [--inputs FIXTURES_DIR] [--fixtures users-2kb] [--processes 5]
        [--codecs pydantic,msgspec]
"""
import importlib.util
import json
import math
import os
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
import pyperf  # noqa: E402


def codecs():
    """Every library codec described here: (id, source, style, ops, models), by id."""
    out = []
    for name in sorted(os.listdir(HERE)):
        if name.startswith("codec-") and name.endswith(".toml"):
            with open(os.path.join(HERE, name), "rb") as f:
                d = tomllib.load(f)
            if d["style"] != "baseline":
                out.append((d["id"], d["source"], d["style"], d.get("ops", ["de", "ser"]), d.get("models", [])))
    return out


def cells(fixtures, only):
    """The (codec, source, fixture, op) cells, in a fixed order."""
    out = []
    for cid, source, style, ops, models in codecs():
        if only and cid not in only:
            continue
        for fixture in fixtures:
            if style == "typed" and not any(fixture.startswith(m + "-") for m in models):
                continue
            for op in ("de", "ser"):
                if op in ops:
                    out.append((cid, source, fixture, op))
    return out


def same(a, b, at="$"):
    """Where `a` and `b` differ by meaning (None when they do not): members in any order, doubles
    within a relative 1e-15 (a few ULP), every other value equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{at}: members {sorted(a.keys() ^ b.keys())[:3]}"
        return next((d for k in a if (d := same(a[k], b[k], f"{at}.{k}"))), None)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{at}: {len(a)} items against {len(b)}"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := same(x, y, f"{at}[{i}]"))), None)
    if isinstance(a, float) or isinstance(b, float):
        ok = type(a) in (int, float) and type(b) in (int, float) and math.isclose(a, b, rel_tol=1e-15)
        return None if ok else f"{at}: {a!r} against {b!r}"
    return None if (type(a) is type(b) and a == b) else f"{at}: {a!r} against {b!r}"


def prepared(source, fixture, op, inputs):
    """The child module made ready, and the checked call pyperf times with its argument."""
    spec = importlib.util.spec_from_file_location(source[:-3], os.path.join(HERE, source))
    lib = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lib)
    with open(os.path.join(inputs, fixture + ".json"), "rb") as f:
        document = f.read()
    getattr(lib, "model", lambda: None)()
    if op == "de":
        call, arg = lib.de, document
    else:
        with open(os.path.join(inputs, fixture + ".tree.txt"), "rb") as f:
            tree = harness.read_tree(f.read().decode("utf-8"))
        call, arg = lib.ser, getattr(lib, "from_tree", lambda t: t)(tree)
    lib.init()
    out = call(arg)
    got = getattr(lib, "as_tree", lambda v: v)(out) if op == "de" else json.loads(harness.as_bytes(out))
    wrong = same(got, json.loads(document))
    if wrong:
        sys.exit(f"{source} {op} {fixture}: not the document, at {ascii(wrong)}")  # escaped: names come from the document
    return call, arg


def main():
    def forward(cmd, args):
        cmd.extend(["--inputs", args.inputs, "--fixtures", args.fixtures, "--codecs", args.codecs])

    runner = pyperf.Runner(add_cmdline_args=forward)
    runner.argparser.add_argument("--inputs", required=True, help="a cold run's fixtures/")
    runner.argparser.add_argument("--fixtures", default="users-2kb")
    runner.argparser.add_argument("--codecs", default="", help="codec ids (default: every one)")
    args = runner.parse_args()
    only = [c for c in args.codecs.split(",") if c]
    fixtures = [f for f in args.fixtures.split(",") if f]
    known = {c[0] for c in codecs()}
    if any(c not in known for c in only):
        sys.exit(f"--codecs: valid are {', '.join(sorted(known))}")
    for task, (cid, source, fixture, op) in enumerate(cells(fixtures, only)):
        name = f"thaw/codec={cid}/fixture={fixture}/op={op}"
        # Only the worker that runs this benchmark prepares it; pyperf counts the others' calls.
        if args.worker and args.worker_task == task:
            call, arg = prepared(source, fixture, op, args.inputs)
            runner.bench_func(name, call, arg)
        else:
            runner.bench_func(name, lambda: None)


if __name__ == "__main__":
    main()
