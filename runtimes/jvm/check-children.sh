#!/usr/bin/env bash
# Checks every JVM child by hand, outside the Rust runner (bash and python3 only): for each JDK,
# child (codec-*.toml), fixture and op it runs the child as the runner would (the runtime's flags,
# the child's class path file) with --batch 1 and --batch 100, each with --check-file, and checks
#   - the line, strictly (keys, order, digits, stamps in order), and exit status 0;
#   - the model work: every child of a mode loads the same classes before its `model` stamp, in
#     both ops (-Xlog:class+load up to the harness's marker; see model_checks);
#   - by meaning, that what it wrote equals the document (members in any order, integers exact,
#     the Clients balance exact as a decimal, other doubles within 3 ULP);
#   - `bytes` (the document's length for de, the output's for ser) and, for ser, that the
#     checksum is FNV-1a of the output (for the floor: of the input);
#   - that the checksum is the same for --batch 1, --batch 100 and (de) --drops each, and differs
#     when one character of a string in the input is changed;
#   - that a model the child does not list is refused with status 2 (or, with --all-models, how
#     the child does on it: informational);
#   - curve mode (--window), on the first fixture: --batch 120 --window 7 with --check-file
#     prints the curve line, then the line; its reads are exactly the schedule (re-derived here
#     by brute force from the rule), in order, from `init` on, the first and last being the
#     `first` and `done` stamps; the checksum, bytes and check file are those of --batch 1;
#     --batch 1 --window 1 and --batch 100 --window 1000 too; a bad --window is refused.
# It also says whether ser's output equals the fixture document byte for byte (and if not,
# where), and compares checksums across JDKs and across children of one fixture.
#
#   runtimes/jvm/check-children.sh [--build DIR] [--no-build] [--inputs DIR]
#       [--jdks 25,17] [--children a,b] [--fixtures users-1kb,...] [--ops de,ser] [--all-models]
#
# --build: the build folder (default /tmp/thaw-jvm-check), built first with `mvn -o` unless
# --no-build. --inputs: the fixtures' inputs (<fixture>.json, <fixture>.tree.txt; default
# /tmp/thaw-inputs/fixtures). Ends with "N passed, M failed"; exits 1 when any check failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=/tmp/thaw-jvm-check
inputs=/tmp/thaw-inputs/fixtures
do_build=1
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --no-build) do_build=0; shift ;;
        --inputs) inputs=$2; shift 2 ;;
        --jdks|--children|--fixtures|--ops) args+=("$1" "$2"); shift 2 ;;
        --all-models) args+=("$1"); shift ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "check-children: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac

if [ "$do_build" = 1 ]; then
    echo "building into $build (mvn -o) ..."
    mvn -o -q -f "$here/pom.xml" -Dthaw.build="$build" package
fi

exec python3 - "$here" "$build" "$inputs" "${args[@]}" <<'PY'
import glob, json, math, os, re, struct, subprocess, sys, tempfile, tomllib
from datetime import datetime
from decimal import Decimal

here, build, inputs = sys.argv[1:4]
opts = sys.argv[4:]
def opt(name, default):
    return opts[opts.index(name) + 1].split(",") if name in opts else default
JDKS = {"25": "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
        "17": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"}
jdks = opt("--jdks", ["25", "17"])
ops = opt("--ops", ["de", "ser"])
all_models = "--all-models" in opts
runtime = tomllib.load(open(os.path.join(here, "runtime.toml"), "rb"))
flags = runtime["command"][:runtime["command"].index("-cp")]

children = []
for path in sorted(glob.glob(os.path.join(here, "codec-*.toml"))):
    c = tomllib.load(open(path, "rb"))
    children.append(c)
wanted = opt("--children", [c["id"] for c in children])
children = [c for c in children if c["id"] in wanted]
fixtures = opt("--fixtures", sorted(
    os.path.basename(p)[:-5] for p in glob.glob(os.path.join(inputs, "*.json"))))

FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3
def fnv1a(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h

NUM = r"(0|[1-9][0-9]*)"
LINE = re.compile(r'\{"main":%s,"model":%s,"fixture":%s,"init":%s,"first":%s,"done":%s,"checked":%s,'
                  r'"checksum":"([0-9a-f]{16})","bytes":%s,"hwm_kib":%s,"rss_kib":%s\}\n' % ((NUM,) * 7 + (NUM,) * 3))
STAMP = {s: i for i, s in enumerate(["main", "model", "fixture", "init", "first", "done", "checked"])}

WHOLE = r"(?:0|[1-9][0-9]*)"
CURVE = re.compile(r'\{"ops":\[(%s(?:,%s)*)\],"ns":\[(%s(?:,%s)*)\],"clock_1000_ns":(%s)\}\n' % ((WHOLE,) * 5))

def is_checkpoint(n):
    while n % 10 == 0:
        n //= 10
    return n in (1, 2, 3, 5, 7, 15)

def curve_schedule(batch, window):
    """Every operation after which a curve child reads its clock, by the rule, one by one."""
    return [i for i in range(1, batch + 1) if is_checkpoint(i) or i % window == 0 or i == batch]

def parse_curve(out, batch, window):
    """The curve line and the line after it, each checked, and against each other."""
    head, _, rest = out.partition("\n")
    c = CURVE.fullmatch(head + "\n")
    if not c:
        return None, "bad curve line: %r" % head[:200]
    line, why = parse_line(rest)
    if why:
        return None, "after the curve line, " + why
    ops = [int(x) for x in c.group(1).split(",")]
    ns = [int(x) for x in c.group(2).split(",")]
    stamps = line["stamps"]
    want = curve_schedule(batch, window)
    if ops != want:
        return None, f"ops {ops}, the schedule is {want}"
    init, first, done = stamps[STAMP["init"]], stamps[STAMP["first"]], stamps[STAMP["done"]]
    if len(ns) != len(ops) or ns != sorted(ns) or ns[0] < init:
        return None, f"reads not one per op, not in order, or before init: {ns} (init {init})"
    if (ns[0], ns[-1]) != (first, done):
        return None, f"first/done {first}, {done} are not the first and last reads {ns[0]}, {ns[-1]}"
    line["clock_1000_ns"] = int(c.group(3))
    return line, None

def parse_line(out):
    m = LINE.fullmatch(out)
    if not m:
        return None, "bad line: %r" % out[:300]
    g = m.groups()
    stamps = [int(x) for x in g[:7]]
    if stamps != sorted(stamps):
        return None, "stamps out of order: %s" % stamps
    return {"stamps": stamps, "checksum": g[7], "bytes": int(g[8])}, None

def run(jdk, child, args, heap=None, extra=()):
    cp = open(os.path.join(build, "classpath", child["classpath"] + ".txt")).read().strip()
    f = list(flags) + list(extra)
    if heap:
        f = [x for x in f if not x.startswith(("-Xms", "-Xmx"))] + ["-Xmx" + heap]
    cmd = [JDKS[jdk]] + f + ["-cp", cp, child["class"]] + args
    p = subprocess.run(cmd, capture_output=True, env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "")})
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

# --- by meaning -----------------------------------------------------------------------------
def ulps(x, y):
    def key(f):
        i = struct.unpack("<q", struct.pack("<d", f))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)
    return abs(key(x) - key(y))

RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")
def instant(s):
    if not RFC3339.fullmatch(s):
        return None
    frac = re.search(r"\.(\d+)", s)
    base = re.sub(r"\.\d+", "", s).replace("Z", "+00:00")
    return datetime.fromisoformat(base), (frac.group(1).ljust(9, "0") if frac else "0" * 9), s[-6:] if s[-1] != "Z" else "Z"

def compare(a, b, path, soft):
    """None when `b` means `a`; else the first difference. `soft` collects date-time texts that
    differ only in their fraction's trailing zeros (the same instant and offset)."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return None if (a is b or (type(a) is type(b) and a == b)) else f"at {path}: expected {a!r}, got {b!r}"
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return f"at {path}: expected an object, got {type(b).__name__}"
        for k in a:
            if k not in b:
                return f"at {path}.{k}: field missing"
            d = compare(a[k], b[k], f"{path}.{k}" if path else k, soft)
            if d:
                return d
        extra = [k for k in b if k not in a]
        return f"at {path}.{extra[0]}: no such field" if extra else None
    if isinstance(a, list):
        if not isinstance(b, list):
            return f"at {path}: expected an array"
        for i, (x, y) in enumerate(zip(a, b)):
            d = compare(x, y, f"{path}[{i}]", soft)
            if d:
                return d
        return None if len(a) == len(b) else f"at {path}: {len(a)} elements, got {len(b)}"
    if isinstance(a, str):
        if a == b:
            return None
        if isinstance(b, str):
            ia, ib = instant(a), instant(b)
            if ia and ib and ia == ib:
                soft.append(f"{path}: {a} written {b}")
                return None
        return f"at {path}: expected {a!r}, got {b!r}"
    if isinstance(a, (int, Decimal)) and isinstance(b, (int, Decimal)):
        if Decimal(a) == Decimal(b):
            return None
        if isinstance(a, int) and isinstance(b, int):
            return f"at {path}: expected {a}, got {b}"
        if path.endswith(".balance") and path.startswith("clients"):
            return f"at {path}: expected the decimal {a}, got {b}"
        if ulps(float(a), float(b)) <= 3:
            return None
        return f"at {path}: expected {a}, got {b} ({ulps(float(a), float(b))} ULP)"
    return f"at {path}: expected {a!r}, got {b!r}"

def load(data):
    return json.loads(data, parse_float=Decimal, parse_int=int)

TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|[{}\[\]:,]|true|false|null|\s+')
def tokens(data):
    return [t for t in TOKEN.findall(data) if not t.isspace()]

def byte_story(doc, out):
    """How ser's bytes differ from the document: key order and strings by token, and each number
    text: a double 1-3 ULP away (the neutral tree's value: the input, not the library) or the
    same double in other text (the library's formatting)."""
    a, b = tokens(doc), tokens(out)
    if len(a) != len(b):
        return f"other tokens ({len(a)} vs {len(b)}): spacing, order or fields"
    ulp = fmt = 0
    first_fmt = None
    for x, y in zip(a, b):
        if x == y:
            continue
        if x[:1] in b"-0123456789" and y[:1] in b"-0123456789":
            fx, fy = float(x), float(y)
            if fx == fy:
                fmt += 1
                first_fmt = first_fmt or (x.decode(), y.decode())
            else:
                ulp += 1
            continue
        return f"token {x[:40]!r} written {y[:40]!r} (order or text)"
    parts = []
    if ulp:
        parts.append(f"{ulp} doubles 1-3 ULP off (as the tree holds them)")
    if fmt:
        parts.append(f"{fmt} numbers in other text, e.g. {first_fmt[0]} as {first_fmt[1]}")
    return "; ".join(parts)

def first_byte_difference(doc, out):
    n = next((i for i in range(min(len(doc), len(out))) if doc[i] != out[i]), min(len(doc), len(out)))
    return n, doc[max(0, n - 25):n + 15].decode("utf-8", "replace"), out[max(0, n - 25):n + 15].decode("utf-8", "replace")

# --- a corrupted input: one character of a string value changed -------------------------------
def corrupt(data, kind):
    if kind == "json":
        i = data.index(b'"name":"') + len(b'"name":"')
        c = data[i]
        return data[:i] + bytes([c + 1 if c not in b"zZ9" else c - 1]) + data[i + 1:]
    lines = data.split(b"\n")
    for n, line in enumerate(lines):
        if line.startswith(b"s ") and len(line) >= 4:
            c = int(line[2:4], 16)
            if 0x30 <= c <= 0x7a:
                lines[n] = b"s %02x" % (c + 1 if c not in b"zZ9" else c - 1) + line[4:]
                return b"\n".join(lines)
    raise ValueError("no string to corrupt")

# ---------------------------------------------------------------------------------------------
passed = failed = 0
failures, notes = [], []
checksums = {}  # (jdk, child, fixture, op) -> checksum
tmp = tempfile.mkdtemp(prefix="thaw-jvm-check-")

def ok(label, detail=""):
    global passed
    passed += 1
    print(f"ok    {label}{'  ' + detail if detail else ''}", flush=True)

def bad(label, why):
    global failed
    failed += 1
    failures.append(f"{label}: {why}")
    print(f"FAIL  {label}: {why}", flush=True)

clock_1000 = {}  # (jdk, child) -> ns of 1,000 clock reads

def curve_checks(jdk, child, op, inp, line, written, heap):
    label = f"jdk{jdk} {child['id']:<16} {op:<3} curve"
    path = os.path.join(tmp, "curve-check.out")
    if os.path.exists(path):
        os.remove(path)
    for batch, window, check in ((120, 7, path), (1, 1, None), (100, 1000, None)):
        args = ["--op", op, "--batch", str(batch), "--input", inp, "--window", str(window)]
        rc, out, err = run(jdk, child, args + (["--check-file", check] if check else []), heap)
        got, why = parse_curve(out, batch, window) if rc == 0 else (None, f"status {rc}: {err[-200:]}")
        if why:
            bad(label, f"--batch {batch} --window {window}: {why}")
            return
        if (got["checksum"], got["bytes"]) != (line["checksum"], line["bytes"]):
            bad(label, f"--batch {batch} --window {window} printed {got['checksum']}/{got['bytes']}, --batch 1 {line['checksum']}/{line['bytes']}")
            return
        if check and open(check, "rb").read() != written:
            bad(label, "--check-file in curve mode wrote other bytes than --batch 1")
            return
        if check:
            clock_1000[(jdk, child["id"])] = got["clock_1000_ns"]
    for window in ("0", "01", "x", "") if op == "de" else ():
        rc, out, err = run(jdk, child, ["--op", op, "--batch", "3", "--input", inp, "--window", window])
        if rc != 2 or out:
            bad(label, f"--window {window!r}: status {rc}, stdout {out[:100]!r}")
            return
    ok(label, f"reads the schedule of 120 ops in windows of 7; 1,000 clock reads {clock_1000[(jdk, child['id'])]} ns")

for jdk in jdks:
    for child in children:
        rc, out, err = run(jdk, child, ["--version"])
        v = out.strip()
        if rc == 0 and v and "\n" not in v:
            ok(f"jdk{jdk} {child['id']} --version", v)
        else:
            bad(f"jdk{jdk} {child['id']} --version", f"status {rc}, {out!r} {err[-200:]!r}")

for jdk in jdks:
    for child in children:
        baseline = child["style"] == "baseline" and "models" not in child
        listed = child.get("models", ["users", "clients"])
        for fixture in fixtures:
            model = fixture.split("-")[0]
            doc_path = os.path.join(inputs, fixture + ".json")
            tree_path = os.path.join(inputs, fixture + ".tree.txt")
            doc = open(doc_path, "rb").read()
            expected_doc = load(doc)
            for op in ops:
                label = f"jdk{jdk} {child['id']:<16} {fixture:<14} {op:<3}"
                inp = doc_path if op == "de" else tree_path
                input_bytes = open(inp, "rb").read()
                if model not in listed and not baseline:
                    rc, out, err = run(jdk, child, ["--op", op, "--batch", "1", "--input", inp])
                    if not all_models:
                        if rc == 2 and out == "" and err.strip():
                            ok(label, f"refused (status 2): {err.strip().splitlines()[-1][:90]}")
                        elif rc == 0:
                            ok(label, "runs, though the toml does not list the model (see --all-models)")
                        else:
                            bad(label, f"an unlisted model: status {rc}, stdout {out[:100]!r}")
                        continue
                    if rc != 0:
                        ok(label, f"unlisted model, refused (status {rc})")
                        continue
                check = os.path.join(tmp, "check.json")
                results = {}
                problem = None
                heap = None
                for batch in ("1", "100"):
                    if os.path.exists(check):
                        os.remove(check)
                    args = ["--op", op, "--batch", batch, "--input", inp, "--check-file", check]
                    rc, out, err = run(jdk, child, args, heap)
                    if rc != 0 and batch == "100" and "OutOfMemoryError" in err:
                        notes.append(f"{label}: --batch 100 does not fit -Xmx64m (the copies and kept values); checked with -Xmx1g")
                        heap = "1g"
                        rc, out, err = run(jdk, child, args, heap)
                    if rc != 0:
                        problem = f"--batch {batch}: status {rc}: {err.strip()[-300:]}"
                        break
                    line, why = parse_line(out)
                    if why:
                        problem = f"--batch {batch}: {why}"
                        break
                    written = open(check, "rb").read()
                    results[batch] = (line, written)
                if problem:
                    bad(label, problem)
                    continue
                line, written = results["1"]
                # bytes and checksum against what it wrote
                if baseline or child["style"] == "baseline":
                    if line["checksum"] != fnv1a(input_bytes) or written != input_bytes or line["bytes"] != len(input_bytes):
                        bad(label, "the floor's checksum, bytes or check file is not its input's")
                        continue
                elif op == "ser":
                    if line["checksum"] != fnv1a(written) or line["bytes"] != len(written):
                        bad(label, f"ser: checksum {line['checksum']} / bytes {line['bytes']} are not its output's ({fnv1a(written)}, {len(written)})")
                        continue
                elif line["bytes"] != len(doc):
                    bad(label, f"de: bytes {line['bytes']}, the document has {len(doc)}")
                    continue
                # the same checksum and bytes for --batch 100 (and the same output)
                line100, written100 = results["100"]
                if (line100["checksum"], line100["bytes"]) != (line["checksum"], line["bytes"]) or written100 != written:
                    bad(label, f"--batch 100 printed {line100['checksum']}/{line100['bytes']}, --batch 1 {line['checksum']}/{line['bytes']}")
                    continue
                # de: the same checksum with --drops each
                if op == "de":
                    rc, out, err = run(jdk, child, ["--op", op, "--batch", "3", "--drops", "each", "--input", inp], heap)
                    l3, why = parse_line(out) if rc == 0 else (None, f"status {rc}: {err[-200:]}")
                    if why or l3["checksum"] != line["checksum"]:
                        bad(label, f"--drops each: {why or l3['checksum']}")
                        continue
                # by meaning
                soft = []
                if not (child["style"] == "baseline" and op == "ser"):
                    try:
                        got = load(written)
                    except Exception as e:
                        bad(label, f"what it wrote is not JSON: {e}")
                        continue
                    d = compare(expected_doc, got, "", soft)
                    if d:
                        bad(label, d)
                        continue
                # a changed input changes the checksum
                cpath = os.path.join(tmp, "corrupt" + (".json" if op == "de" else ".tree.txt"))
                open(cpath, "wb").write(corrupt(input_bytes, "json" if op == "de" else "tree"))
                rc, out, err = run(jdk, child, ["--op", op, "--batch", "1", "--input", cpath])
                lc, why = parse_line(out) if rc == 0 else (None, f"status {rc}: {err[-200:]}")
                if why or lc["checksum"] == line["checksum"]:
                    bad(label, f"a changed input: {why or 'the same checksum'}")
                    continue
                checksums[(jdk, child["id"], fixture, op)] = line["checksum"]
                if fixture == fixtures[0]:
                    curve_checks(jdk, child, op, inp, line, written, heap)
                detail = f"{line['checksum']} bytes={line['bytes']}"
                if op == "ser" and child["style"] != "baseline":
                    if written == doc:
                        detail += "  ser == document"
                    else:
                        detail += f"  ser != document: {byte_story(doc, written)}"
                if soft:
                    detail += f"  NOTE {len(soft)} date-time texts differ only in trailing zeros, e.g. {soft[0]}"
                    if model not in listed:
                        detail += " (why the toml does not list this model)"
                    else:
                        bad(label, f"date-time text differs: {soft[0]}")
                        continue
                ok(label, detail)

# The model work: every child of a mode loads the same classes before its `model` stamp, in both
# ops. -Dthaw.diagnose.model=true makes the harness load thaw.jvm.Diagnostics right after the
# stamp; -Xlog:class+load lists, in order, what each child loaded before it. Kept: the classes not
# from the JDK (its runtime image or CDS archive) and not the child's own main class or its
# supertypes (`*Child`): the model's classes and what their initialisers pulled in from the jars.
# Children that load the same model classes (a mode's model) must load exactly the same set, in
# both ops; every child with a model must load its model's classes there, and none a JSON library.
LIBRARY = ("com.google.gson.", "com.fasterxml.", "org.apache.fory.", "kotlinx.serialization.json.")
LOADED = re.compile(r"\[class,load\] (\S+) source: (.*)$")

def before_model(jdk, child, op, inp):
    log = os.path.join(tmp, "model-load.log")
    if os.path.exists(log):
        os.remove(log)
    rc, out, err = run(jdk, child, ["--op", op, "--batch", "1", "--input", inp],
                       extra=["-Dthaw.diagnose.model=true", f"-Xlog:class+load=info:file={log}"])
    if rc != 0 or parse_line(out)[1]:
        return None, f"status {rc}: {err[-200:]}"
    seen = []
    for text in open(log, encoding="utf-8", errors="replace"):
        m = LOADED.search(text)
        if not m:
            continue
        name, source = m.groups()
        if name == "thaw.jvm.Diagnostics":
            return seen, None
        jdk_class = source.startswith(("jrt:/", "shared objects file"))
        if not jdk_class and not re.search(r"\.\w*Child(\$.*)?$", name):
            seen.append(re.sub(r"/0x[0-9a-f]+$", "", name))  # a lambda's hidden class: its address varies
    return None, "thaw.jvm.Diagnostics never loaded: no model marker"

def model_checks(jdk):
    users = next((f for f in fixtures if f.startswith("users-")), None)
    if users is None:
        return
    groups = {}  # the model classes -> [(child, op, what it loaded)]
    for child in children:
        for op in ops:
            label = f"jdk{jdk} {child['id']:<16} {op:<3} model"
            inp = os.path.join(inputs, users + (".json" if op == "de" else ".tree.txt"))
            seen, why = before_model(jdk, child, op, inp)
            if why:
                bad(label, why)
                continue
            # the model's classes: thaw's below thaw.jvm (the harness is thaw.jvm's own)
            model = tuple(sorted({n for n in seen if re.match(r"thaw\.jvm\.\w+\.", n)}))
            library = [n for n in seen if n.startswith(LIBRARY)]
            has_model = not (child["style"] == "baseline" and "models" not in child)
            if library or has_model != bool(model):
                bad(label, f"before the model stamp: model classes {list(model)}, library classes {library[:3]}")
                continue
            groups.setdefault((child.get("mode"), model), []).append((child["id"], op, sorted(seen)))
    for (mode, model), members in sorted(groups.items(), key=lambda g: str(g[0])):
        roots = sorted(n for n in model if re.search(r"\.(Users|Clients)$", n))
        label = f"jdk{jdk} {mode} mode, model {', '.join(roots) or '(none)'}"
        first = members[0][2]
        odd = [f"{c} {o}" for c, o, seen in members if seen != first]
        if odd:
            bad(label, f"{', '.join(odd)} loaded other classes before the model stamp than {members[0][0]} {members[0][1]}")
        else:
            ok(label, f"{len(members)} children × ops load the same {len(first)} classes before the model stamp: " + ", ".join(sorted({f'{c} {o}' for c, o, _ in members})))

for jdk in jdks:
    model_checks(jdk)

# across JDKs and across children
print()
for (jdk, cid, fixture, op), c in sorted(checksums.items()):
    if jdk != jdks[0]:
        continue
    others = {j: checksums.get((j, cid, fixture, op)) for j in jdks[1:]}
    for j, c2 in others.items():
        if c2 is not None and c2 != c:
            print(f"note  {cid} {fixture} {op}: checksum on JDK {jdk} {c}, on JDK {j} {c2}")
for jdk in jdks:
    for fixture in fixtures:
        for op in ops:
            got = {cid: c for (j, cid, f, o), c in checksums.items() if (j, f, o) == (jdk, fixture, op)}
            libs = {cid: c for cid, c in got.items() if not cid.startswith("jvm-floor")}
            distinct = sorted(set(libs.values()))
            if len(distinct) > 1:
                groups = {c: sorted(k for k, v in libs.items() if v == c) for c in distinct}
                print(f"note  jdk{jdk} {fixture} {op}: children differ: " + "; ".join(f"{c}: {', '.join(g)}" for c, g in groups.items()))
for n in notes:
    print("note  " + n)
if failures:
    print("\nfailures:")
    for f in failures:
        print("  " + f)
print(f"\n{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
