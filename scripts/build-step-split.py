#!/usr/bin/env python3
"""Where each Python and Node library of thaw's typed children builds its code, split finer than
the protocol's phases: each step of a library's first use timed on its own in a fresh process
(the import or require; declaring the classes, or making the validator or serializer; the first
call; a second call), run N times in alternating order, as the runner starts children (PATH and
HOME only), with the children's interpreters (thaw's Python environment, node). Prints the
median of each step per library, in µs. The programs are below, each a few lines; the Users
model and schema are the children's own (runtimes/python/pydantic_model.py and msgspec_model.py,
runtimes/node/users_schema.js), so the classes and schema are exactly theirs.

    scripts/build-step-split.py [--runs 20] [--inputs results/cold/latest/fixtures]
"""
import argparse, json, os, random, statistics, sys

from checked_run import checked_run  # (scripts/checked_run.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Each program prints one JSON object of step -> ns, in order; argv[1] is the document.
PY_PRELUDE = """
import sys, time
sys.path.insert(0, %r)
doc = open(sys.argv[1], "rb").read()
t = [("start", time.monotonic_ns())]
def stamp(name): t.append((name, time.monotonic_ns()))
""" % os.path.join(ROOT, "runtimes", "python")
PY_END = """
print(__import__("json").dumps({b[0]: b[1] - a[1] for a, b in zip(t, t[1:])}))
"""
PROGRAMS = {
    "pydantic": ("python", PY_PRELUDE + """
from pydantic import BaseModel, ConfigDict; stamp("import")
import pydantic_model; Users = pydantic_model.declare()[0]; stamp("classes")
Users.model_validate_json(doc); stamp("first call")
Users.model_validate_json(doc); stamp("second call")
""" + PY_END),
    "pydantic-deferred": ("python", PY_PRELUDE + """
from pydantic import BaseModel, ConfigDict; stamp("import")
import pydantic_model; Users = pydantic_model.declare(defer_build=True)[0]; stamp("classes")
Users.model_validate_json(doc); stamp("first call")
Users.model_validate_json(doc); stamp("second call")
""" + PY_END),
    "msgspec": ("python", PY_PRELUDE + """
import msgspec, msgspec.json; stamp("import")
import msgspec_model; Users = msgspec_model.declare()[0]; stamp("classes")
msgspec.json.decode(doc, type=Users); stamp("first call")
msgspec.json.decode(doc, type=Users); stamp("second call")
""" + PY_END),
    "msgspec-decoder": ("python", PY_PRELUDE + """
import msgspec, msgspec.json; stamp("import")
import msgspec_model; Users = msgspec_model.declare()[0]; stamp("classes")
d = msgspec.json.Decoder(Users); stamp("build")
d.decode(doc); stamp("first call")
d.decode(doc); stamp("second call")
""" + PY_END),
    "ajv": ("node", """
const t = [['start', process.hrtime.bigint()]]; const stamp = (n) => t.push([n, process.hrtime.bigint()]);
const text = require('fs').readFileSync(process.argv[1], 'utf8');
const schema = require('%(node)s/users_schema'); t[0][1] = process.hrtime.bigint();
const Ajv = require('%(node)s/node_modules/ajv'); stamp('import');
const ajv = new Ajv(); stamp('instance');
const validate = ajv.compile(schema); stamp('build');
validate(JSON.parse(text)); stamp('first call');
validate(JSON.parse(text)); stamp('second call');
console.log(JSON.stringify(Object.fromEntries(t.slice(1).map((s, i) => [s[0], Number(s[1] - t[i][1])]))));
"""),
    "fast-json-stringify": ("node", """
const t = [['start', process.hrtime.bigint()]]; const stamp = (n) => t.push([n, process.hrtime.bigint()]);
const value = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
const schema = require('%(node)s/users_schema'); t[0][1] = process.hrtime.bigint();
const fastJson = require('%(node)s/node_modules/fast-json-stringify'); stamp('import');
const stringify = fastJson(schema); stamp('build');
stringify(value); stamp('first call');
stringify(value); stamp('second call');
console.log(JSON.stringify(Object.fromEntries(t.slice(1).map((s, i) => [s[0], Number(s[1] - t[i][1])]))));
"""),
}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--inputs", default=os.path.join(ROOT, "results", "cold", "latest", "fixtures"))
    p.add_argument("--seed", type=int, default=20261207)
    a = p.parse_args()
    doc = os.path.join(a.inputs, "users-2kb.json")
    if not os.path.exists(doc) or a.runs < 1:
        sys.exit(f"no {doc} (give --inputs a run folder's fixtures/), or --runs below 1")
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    python = os.path.join(ROOT, "target", "external", "python-venv", "bin", "python")
    node = checked_run(["node", "-p", "process.execPath"], "node", env).stdout.strip()
    argv = {}
    for lib, (runtime, text) in PROGRAMS.items():
        if runtime == "python":
            argv[lib] = [python, "-c", text, doc]
        else:
            argv[lib] = [node, "-e", text % {"node": os.path.join(ROOT, "runtimes", "node")}, doc]
    steps = {lib: {} for lib in PROGRAMS}
    rng = random.Random(a.seed)
    libs = list(PROGRAMS)
    for _ in range(a.runs):
        rng.shuffle(libs)
        for lib in libs:
            out = checked_run(argv[lib], lib, env).stdout
            try:
                line = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                sys.exit(f"{lib}: no line of steps (it printed {out[-300:]!r})")
            for step, ns in line.items():
                steps[lib].setdefault(step, []).append(ns)
    print(f"each step of a library's first use, median of {a.runs} fresh processes, µs")
    for lib in PROGRAMS:
        # a step's name is the program's own, but printed escaped all the same
        shown = ", ".join(f"{ascii(s)[1:-1]} {statistics.median(v) / 1e3:.0f}" for s, v in steps[lib].items())
        print(f"{lib:<22} {shown}")


if __name__ == "__main__":
    main()
