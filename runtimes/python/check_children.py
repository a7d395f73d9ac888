#!/usr/bin/env python3
"""Checks the Python and Node children by hand, outside the runner (docs/child-protocol.md):

  * each child's line is exactly the protocol's, its stamps in order, its exit status 0;
  * the preflight's check file means the document (Python json, members in any order, ints
    equal, doubles within 3 ULP as the runner's rule), the floor's is its input;
  * the checksum is the same across runs, batch sizes (1, 10) and --drops, is the digest the
    harness promises (ser: of the output; floor: of the input; Python de: of the walk of
    json.loads' value), and changes when one character of the input changes;
  * no library call in the check phase: a fake library's write_back runs only with
    --check-file, and after `checked`;
  * each `de` call's input is a fresh copy (its own object and memory);
  * curve mode (`--window`): the curve line before the protocol line, its reads exactly the
    schedule (re-derived here by brute force from the rule, not from the harness), in order,
    from `init` on, its first and last the `first` and `done` stamps; the checksum and check
    file the same as outside curve mode; a bad `--window` refused with status 2;
  * what each ser child writes, compared with the document byte for byte (report only).

    python3 runtimes/python/check_children.py [--python PY] [--node NODE]
        [--fixtures DIR] [--only users-1kb,clients-10kb]

PY defaults to target/external/python-venv/bin/python (scripts/install-python-env.sh), NODE to
`node` on PATH, DIR to /tmp/thaw-inputs/fixtures. Needs python3 and bash only (and the
runtimes it checks). Exits 1 when a check fails, with `N passed, N failed` as its last line.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # the repository: runtimes/python is two below it
NODE_DIR = os.path.join(os.path.dirname(HERE), "node")
sys.path.insert(0, HERE)
import harness  # noqa: E402  (its walk, for the expected Python `de` checksum)

LINE = re.compile(
    r'\{"main":(0|[1-9]\d*),"model":(0|[1-9]\d*),"fixture":(0|[1-9]\d*),"init":(0|[1-9]\d*),"first":(0|[1-9]\d*),'
    r'"done":(0|[1-9]\d*),"checked":(0|[1-9]\d*),"checksum":"([0-9a-f]{16})",'
    r'"bytes":(0|[1-9]\d*),"hwm_kib":(0|[1-9]\d*),"rss_kib":(0|[1-9]\d*)\}\n'
)

passed = 0
failed = 0


def ok(what):
    global passed
    passed += 1
    print(f"  ok   {what}")


def bad(what):
    global failed
    failed += 1
    print(f"  FAIL {what}")


def check(cond, what):
    ok(what) if cond else bad(what)
    return cond


def env():
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def blake2b64(data):
    return harness.digest(data)


def run_child(program, child, op, batch, path, check_file=None, drops=None):
    argv = [program, child, "--op", op, "--batch", str(batch), "--input", path]
    if drops:
        argv += ["--drops", drops]
    if check_file:
        argv += ["--check-file", check_file]
    p = subprocess.run(argv, capture_output=True, env=env(), cwd=ROOT)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.decode('utf-8', 'replace').strip()}"
    m = LINE.fullmatch(out)
    if not m:
        return None, f"bad line {out!r}"
    v = m.groups()
    stamps = [int(x) for x in v[:7]]
    if stamps != sorted(stamps) or stamps[0] == 0:
        return None, f"stamps out of order {stamps}"
    return {"checksum": v[7], "bytes": int(v[8]), "stamps": stamps}, None


# --- curve mode ----------------------------------------------------------------------------

CURVE = re.compile(r'\{"ops":\[((?:0|[1-9]\d*)(?:,(?:0|[1-9]\d*))*)\],'
                   r'"ns":\[((?:0|[1-9]\d*)(?:,(?:0|[1-9]\d*))*)\],"clock_1000_ns":(0|[1-9]\d*)\}\n')


def is_checkpoint(n):
    while n % 10 == 0:
        n //= 10
    return n in (1, 2, 3, 5, 7, 15)


def curve_schedule(batch, window):
    """Every operation after which a curve child reads its clock, by the rule, one by one."""
    return [i for i in range(1, batch + 1) if is_checkpoint(i) or i % window == 0 or i == batch]


def run_curve(program, child, op, batch, window, path, check_file=None):
    """A curve child's two lines checked against each other and the schedule: (the protocol
    line's fields, the curve's reads), or None and why."""
    argv = [program, child, "--op", op, "--batch", str(batch), "--input", path,
            "--window", str(window)]
    if check_file:
        argv += ["--check-file", check_file]
    p = subprocess.run(argv, capture_output=True, env=env(), cwd=ROOT)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.decode('utf-8', 'replace').strip()}"
    first_line, _, rest = out.partition("\n")
    c = CURVE.fullmatch(first_line + "\n")
    if not c:
        return None, f"bad curve line {first_line[:200]!r}"
    m = LINE.fullmatch(rest)
    if not m:
        return None, f"bad line after the curve line {rest!r}"
    ops = [int(x) for x in c.group(1).split(",")]
    ns = [int(x) for x in c.group(2).split(",")]
    stamps = [int(x) for x in m.groups()[:7]]
    want = curve_schedule(batch, window)
    if ops != want:
        return None, f"ops {ops}, the schedule is {want}"
    if len(ns) != len(ops) or ns != sorted(ns) or ns[0] < stamps[3]:
        return None, f"reads not one per op, not in order, or before init: {ns} (init {stamps[3]})"
    if (ns[0], ns[-1]) != (stamps[4], stamps[5]):
        return None, f"first/done {stamps[4:6]} are not the first and last reads {ns[0]}, {ns[-1]}"
    if stamps != sorted(stamps) or int(c.group(3)) == 0:
        return None, f"stamps out of order {stamps} or clock_1000_ns 0"
    return {"checksum": m.group(8), "bytes": int(m.group(9)), "stamps": stamps,
            "clock_1000_ns": int(c.group(3)), "reads": len(ops)}, None


def check_curve(program, codec, child, op, in_path, tmp, line, written):
    """Curve mode of one cell, against what its preflight (batch 1) printed and wrote."""
    name = f"{codec} {op} curve"
    check_path = os.path.join(tmp, "curve-check.out")
    if os.path.exists(check_path):
        os.remove(check_path)
    r, err = run_curve(program, child, op, 120, 7, in_path, check_file=check_path)
    if not check(r is not None, f"{name}: --batch 120 --window 7: two lines, the reads the "
                                f"schedule {err or ''}"):
        return None
    check((r["checksum"], r["bytes"]) == (line["checksum"], line["bytes"]),
          f"{name}: checksum and bytes as outside curve mode ({r['checksum']})")
    check(os.path.exists(check_path) and open(check_path, "rb").read() == written,
          f"{name}: --check-file writes what it writes outside curve mode")
    for batch, window in ((1, 1), (100, 1000)):
        r2, err = run_curve(program, child, op, batch, window, in_path)
        check(r2 is not None and r2["checksum"] == line["checksum"],
              f"{name}: --batch {batch} --window {window} {err or ''}")
    return r["clock_1000_ns"]


def check_bad_window(program, child, in_path):
    for window in ("0", "01", "x", "-1", ""):
        argv = [program, child, "--op", "de", "--batch", "3", "--input", in_path,
                "--window", window]
        p = subprocess.run(argv, capture_output=True, env=env(), cwd=ROOT)
        check(p.returncode == 2 and not p.stdout,
              f"{os.path.basename(child)}: --window {window!r} refused with status 2")


# --- meaning -------------------------------------------------------------------------------


def ulps(a, b):
    if a == b:
        return 0
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return math.inf
    import struct

    def key(x):
        i = struct.unpack("<q", struct.pack("<d", x))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)

    return abs(key(a) - key(b))


def same_meaning(want, got, at="$"):
    """None when `got` means `want`, else where and how it differs."""
    if isinstance(want, bool) or isinstance(got, bool) or want is None or got is None:
        return None if (want is got) else f"at {at}: expected {want!r}, got {got!r}"
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        if isinstance(want, int) and isinstance(got, int):
            return None if want == got else f"at {at}: expected {want}, got {got}"
        if isinstance(want, float) and isinstance(got, float):
            return None if ulps(want, got) <= 3 else f"at {at}: expected {want!r}, got {got!r}"
        return (f"at {at}: expected {want!r} ({type(want).__name__}), "
                f"got {got!r} ({type(got).__name__})")
    if type(want) is not type(got):
        return f"at {at}: expected a {type(want).__name__}, got a {type(got).__name__}"
    if isinstance(want, str):
        return None if want == got else f"at {at}: expected {want!r}, got {got!r}"
    if isinstance(want, list):
        if len(want) != len(got):
            return f"at {at}: expected {len(want)} items, got {len(got)}"
        for i, (a, b) in enumerate(zip(want, got)):
            d = same_meaning(a, b, f"{at}[{i}]")
            if d:
                return d
        return None
    if set(want) != set(got):
        return f"at {at}: members {sorted(set(want) ^ set(got))} differ"
    for k in want:
        d = same_meaning(want[k], got[k], f"{at}.{k}")
        if d:
            return d
    return None


# --- one character changed ------------------------------------------------------------------


def mutate_document(doc):
    """The document with one letter inside its first string value changed."""
    m = re.search(rb'":"[^"\\]*?([a-y])', doc)
    i = m.start(1)
    return doc[:i] + bytes([doc[i] + 1]) + doc[i + 1:]


def mutate_tree(tree):
    """The tree text with one letter of its first string (`s HEX`, 0x61-0x79) changed."""
    for m in re.finditer(rb"\ns ((?:[0-9a-f]{2})*)", tree):
        hexs = m.group(1)
        for j in range(0, len(hexs), 2):
            if b"61" <= hexs[j:j + 2] <= b"79":
                i = m.start(1) + j
                new = b"%02x" % (int(hexs[j:j + 2], 16) + 1)
                return tree[:i] + new + tree[i + 2:]
    raise ValueError("no ASCII letter in any string of the tree")


# --- the reference for ser bytes -----------------------------------------------------------


class Raw(str):
    """A number as the document writes it."""


def reference_in_tree_order(doc, tree_value):
    """The document's own tokens, its objects' members in the tree's order (what a ser child,
    which writes the tree's order, would write if it wrote numbers as the document does)."""
    value = json.loads(doc, parse_float=Raw, parse_int=Raw)
    out = []

    def write(v, t):
        if isinstance(v, Raw):
            out.append(str(v))
        elif isinstance(v, str):
            out.append(json.dumps(v, ensure_ascii=False))
        elif v is True or v is False or v is None:
            out.append(json.dumps(v))
        elif isinstance(v, list):
            out.append("[")
            for i, (a, b) in enumerate(zip(v, t)):
                if i:
                    out.append(",")
                write(a, b)
            out.append("]")
        else:
            out.append("{")
            for i, k in enumerate(t):
                if i:
                    out.append(",")
                out.append(json.dumps(k, ensure_ascii=False) + ":")
                write(v[k], t[k])
            out.append("}")

    write(value, tree_value)
    return "".join(out).encode("utf-8")


TOKEN = re.compile(
    rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[{}\[\]:,]|true|false|null'
)


def token_differences(ref, out):
    """How `out` differs from `ref` (the document in the tree's member order), token by token."""
    a, b = TOKEN.findall(ref), TOKEN.findall(out)
    if len(a) != len(b):
        return first_difference(ref, out)
    pairs = [(x, y) for x, y in zip(a, b) if x != y]
    doubles = [(x, y) for x, y in pairs if re.fullmatch(rb"-?[\d.eE+-]+", x) and
               re.fullmatch(rb"-?[\d.eE+-]+", y) and b"." in x]
    if len(doubles) != len(pairs):
        return first_difference(ref, out)
    worst = max(ulps(float(x), float(y)) for x, y in doubles)
    x, y = doubles[0]
    return (f"member order, and {len(doubles)} doubles written differently, each at most "
            f"{worst} ULP from the document's (e.g. {x.decode()} -> {y.decode()}): the tree's "
            f"doubles, written shortest, are not the document's")


def first_difference(a, b):
    n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    lo = max(0, n - 30)
    return (
        f"first difference at byte {n}: expected …{a[lo:n + 30].decode('utf-8', 'replace')}… "
        f"got …{b[lo:n + 30].decode('utf-8', 'replace')}…"
    )


# --- the checks ----------------------------------------------------------------------------


def check_fresh_copies(python, node, doc_path):
    print("fresh copies of the input (de)")
    code = (
        "import sys; sys.path.insert(0, %r); import harness\n"
        "d = open(%r, 'rb').read()\n"
        "c = harness.fresh_copies(d, 3)\n"
        "print(bytes(d) is d, all(x is not d for x in c), len({id(x) for x in c}) == 3,"
        " all(x == d and type(x) is bytes for x in c))\n" % (HERE, doc_path)
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env())
    check(out.stdout.split() == ["True", "True", "True", "True"],
          f"python: bytes(data) is data (the old copy was none); fresh_copies are new bytes "
          f"objects, distinct, equal ({out.stdout.strip()} {out.stderr.strip()})")
    code = (
        "const h = require(%r); const d = require('fs').readFileSync(%r);"
        "const c = h.freshCopies(d, 3);"
        "const distinct = c.every((x) => x !== d) && c[0] !== c[1] && c[1] !== c[2];"
        "const equal = c.every((x) => x.equals(d));"
        "c[0][0] ^= 0xff; c[1][1] ^= 0xff;"
        "const own = d[0] !== c[0][0] && c[1][0] === d[0] && c[2][1] === d[1] && d[1] !== c[1][1];"
        "console.log(distinct, equal, own);" % (os.path.join(NODE_DIR, "harness.js"), doc_path)
    )
    out = subprocess.run([node, "-e", code], capture_output=True, text=True, env=env())
    check(out.stdout.split() == ["true", "true", "true"],
          f"node: freshCopies are distinct Buffers with their own memory ({out.stdout.strip()} "
          f"{out.stderr.strip()})")


def check_no_library_in_check_phase(python, node, doc_path, tmp):
    print("no library call in a timed sample's check phase")
    driver = os.path.join(tmp, "fake_child.py")
    with open(driver, "w") as f:
        f.write(
            "import time\nMAIN = time.monotonic_ns()\nimport sys, types\n"
            "sys.path.insert(0, %r)\nimport harness\n"
            "def write_back(v):\n"
            "    sys.stderr.write('WRITE_BACK %%d\\n' %% time.monotonic_ns())\n"
            "    return b'{}'\n"
            "def de(data):\n"
            "    return {'n': len(data)}\n"
            "lib = types.SimpleNamespace(init=lambda: None, de=de, ser=lambda v: b'',"
            " write_back=write_back, version=lambda: '0')\n"
            "harness.run(MAIN, lib)\n" % HERE
        )
    for with_file in (False, True):
        argv = [python, driver, "--op", "de", "--batch", "3", "--input", doc_path]
        if with_file:
            argv += ["--check-file", os.path.join(tmp, "fake.out")]
        p = subprocess.run(argv, capture_output=True, text=True, env=env())
        calls = [int(x.split()[1]) for x in p.stderr.splitlines() if x.startswith("WRITE_BACK")]
        m = LINE.fullmatch(p.stdout)
        if not with_file:
            check(p.returncode == 0 and m and not calls,
                  "python: without --check-file write_back is never called")
        else:
            check(p.returncode == 0 and m and len(calls) == 1 and calls[0] > int(m.group(7)),
                  "python: with --check-file write_back is called once, after `checked`")
    driver = os.path.join(tmp, "fake_child.js")
    with open(driver, "w") as f:
        f.write(
            "'use strict';\nconst main = process.hrtime.bigint();\n"
            "const { run } = require(%r);\n"
            "run(main, { init() {}, de: (b) => ({ n: b.length }), ser: () => '',"
            " writeBack: () => { process.stderr.write(`WRITE_BACK ${process.hrtime.bigint()}\\n`);"
            " return '{}'; }, version: () => '0' });\n" % os.path.join(NODE_DIR, "harness.js")
        )
    for with_file in (False, True):
        argv = [node, driver, "--op", "de", "--batch", "3", "--input", doc_path]
        if with_file:
            argv += ["--check-file", os.path.join(tmp, "fake.out")]
        p = subprocess.run(argv, capture_output=True, text=True, env=env())
        calls = [int(x.split()[1]) for x in p.stderr.splitlines() if x.startswith("WRITE_BACK")]
        m = LINE.fullmatch(p.stdout)
        if not with_file:
            check(p.returncode == 0 and m and not calls,
                  "node: without --check-file writeBack is never called")
        else:
            check(p.returncode == 0 and m and len(calls) == 1 and calls[0] > int(m.group(7)),
                  "node: with --check-file writeBack is called once, after `checked`")


CHILDREN = [
    # (runtime, codec, child file, digest of bytes)
    ("python", "python-floor", os.path.join(HERE, "floor_child.py"), blake2b64),
    ("python", "python-json", os.path.join(HERE, "json_child.py"), blake2b64),
    ("python", "orjson", os.path.join(HERE, "orjson_child.py"), blake2b64),
    ("node", "node-floor", os.path.join(NODE_DIR, "floor_child.js"), fnv1a),
    ("node", "node-json", os.path.join(NODE_DIR, "json_child.js"), fnv1a),
]


def check_cell(program, runtime, codec, child, digest, fixture, op, fixtures, tmp, learned,
               ser_out, curve_fixture, clock_1000):
    doc_path = os.path.join(fixtures, f"{fixture}.json")
    in_path = doc_path if op == "de" else os.path.join(fixtures, f"{fixture}.tree.txt")
    doc = open(doc_path, "rb").read()
    data = open(in_path, "rb").read()
    floor = codec.endswith("-floor")
    known_inexact = runtime == "node" and fixture.startswith("clients") and not floor
    name = f"{codec} {op} {fixture}"
    check_path = os.path.join(tmp, "check.out")
    if os.path.exists(check_path):
        os.remove(check_path)

    first, err = run_child(program, child, op, 1, in_path, check_file=check_path)
    if not check(first is not None, f"{name}: preflight (batch 1, --check-file) {err or ''}"):
        return
    written = open(check_path, "rb").read()
    runs = [first]
    for batch, drops in ((10, None), (10, "each"), (3, None)):
        r, err = run_child(program, child, op, batch, in_path, drops=drops)
        if not check(r is not None, f"{name}: batch {batch} drops {drops or 'end'} {err or ''}"):
            return
        runs.append(r)
    sums = {r["checksum"] for r in runs}
    check(len(sums) == 1, f"{name}: checksum {first['checksum']} the same in 4 runs "
                          f"(batch 1, 10, 10 --drops each, 3)")
    want_bytes = len(doc) if op == "de" else (len(data) if floor else len(written))
    check(all(r["bytes"] == want_bytes for r in runs), f"{name}: bytes {want_bytes}")

    if floor:
        check(written == data, f"{name}: the check file is the input")
        check(first["checksum"] == digest(data), f"{name}: checksum = digest of the input")
    else:
        try:
            diff = same_meaning(json.loads(doc), json.loads(written))
        except ValueError as e:
            diff = f"not JSON: {e}"
        if known_inexact:
            print(f"  note {name}: by meaning: {diff or 'same'} (known: Node's numbers are "
                  f"doubles; the runner refuses these cells)")
        else:
            check(diff is None, f"{name}: the check file means the document {diff or ''}")
        if op == "ser":
            check(first["checksum"] == digest(written),
                  f"{name}: checksum = digest of the output it wrote")
            ser_out[(codec, fixture)] = written
        elif runtime == "python":
            want = digest(harness.walk_bytes(json.loads(doc)))
            check(first["checksum"] == want,
                  f"{name}: checksum = digest of the walk of json.loads(document)")
    learned[(runtime, codec, op, fixture)] = first["checksum"]
    if fixture == curve_fixture:
        clock = check_curve(program, codec, child, op, in_path, tmp, first, written)
        if clock is not None:
            clock_1000[codec] = clock

    mutated = mutate_document(data) if op == "de" else mutate_tree(data)
    assert len(mutated) == len(data) and mutated != data
    mpath = os.path.join(tmp, "mutated" + (".json" if op == "de" else ".tree.txt"))
    with open(mpath, "wb") as f:
        f.write(mutated)
    r, err = run_child(program, child, op, 1, mpath)
    check(r is not None and r["checksum"] != first["checksum"],
          f"{name}: one character changed changes the checksum "
          f"({first['checksum']} -> {r['checksum'] if r else err})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--python",
                    default=os.path.join(ROOT, "target/external/python-venv/bin/python"))
    ap.add_argument("--node", default="node")
    ap.add_argument("--fixtures", default="/tmp/thaw-inputs/fixtures")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    fixtures = sorted(
        f[: -len(".json")] for f in os.listdir(a.fixtures)
        if f.endswith(".json") and not f.endswith(".tree.txt")
    )
    fixtures.sort(key=lambda f: (f.split("-")[0], int(re.sub(r"\D", "", f.split("-")[1]))))
    if a.only:
        fixtures = [f for f in fixtures if f in a.only.split(",")]
    print(f"python: {a.python}\nnode: {a.node}\nfixtures: {a.fixtures}: {' '.join(fixtures)}")

    with tempfile.TemporaryDirectory(prefix="thaw-check-") as tmp:
        small = os.path.join(a.fixtures, f"{fixtures[0]}.json")
        check_fresh_copies(a.python, a.node, small)
        check_no_library_in_check_phase(a.python, a.node, small, tmp)
        learned = {}
        ser_out = {}
        clock_1000 = {}
        for runtime, codec, child, digest in CHILDREN:
            program = a.python if runtime == "python" else a.node
            print(f"{codec} ({child})")
            for fixture in fixtures:
                for op in ("de", "ser"):
                    check_cell(program, runtime, codec, child, digest, fixture, op, a.fixtures,
                               tmp, learned, ser_out, fixtures[0], clock_1000)
            check_bad_window(program, child, small)

        print("curve mode: 1,000 clock reads after `checked` (the price of a read), ns")
        for codec, ns in sorted(clock_1000.items()):
            print(f"  {codec:12} {ns:8} ns for 1,000 reads: {ns / 1000:.0f} ns a read")

        print("across codecs")
        for fixture in fixtures:
            a_ = learned.get(("python", "python-json", "de", fixture))
            b_ = learned.get(("python", "orjson", "de", fixture))
            if a_ and b_:
                check(a_ == b_, f"python-json and orjson decode {fixture} to the same walk ({a_})")

        print("ser bytes against the document (report)")
        for (codec, fixture), out in sorted(ser_out.items()):
            if not fixture.startswith("users"):
                continue
            doc = open(os.path.join(a.fixtures, f"{fixture}.json"), "rb").read()
            tree = harness.read_tree(
                open(os.path.join(a.fixtures, f"{fixture}.tree.txt"), "rb").read().decode("utf-8"))
            ref = reference_in_tree_order(doc, tree)
            if out == doc:
                how = "byte-identical to the document"
            elif out == ref:
                how = ("not the document's bytes; the same bytes as the document with its "
                       "members in the tree's order (member order is the only difference)")
            else:
                how = "not the document's bytes; " + token_differences(ref, out)
            print(f"  {codec:12} {fixture:14} {len(out):8} bytes: {how}")
        for fixture in fixtures:
            outs = {c: o for (c, f), o in ser_out.items() if f == fixture}
            if len(outs) > 1:
                same = len(set(outs.values())) == 1
                print(f"  {fixture:14} ser bytes of {', '.join(sorted(outs))}: "
                      f"{'identical' if same else 'NOT identical'}")

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
