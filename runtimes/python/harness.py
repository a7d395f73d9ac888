"""thaw's Python child harness: the cold child protocol (docs/child-protocol.md) around a
library module, so that a library's child file holds only what is the library's.

A library's child file stamps `main` first, then, run as a script, calls `harness.run(MAIN,
module)` (imported, as the warm track's bench.py imports it, it runs nothing) with a module that
defines:
    init()             make the library's state; import the library here (its import is init)
    de(data: bytes)    decode one document
    ser(value)         encode one value, returning bytes or str (the library's natural API)
    write_back(value)  the decoded value written back by the same library: called only in the
                       preflight (`--check-file`), after `checked`, never in a timed sample
    version()          the library's version
and, for a typed library, the hooks of its model (docs/child-protocol.md, the model phase):
    model()            declare the model's classes (importing what they need): before the
                       `model` stamp, the same work in both ops
    from_tree(tree)    a `ser` child's value, built from the neutral tree's dicts with the
                       model's constructors, before the clock (`fixture`)
    as_tree(value)     a decoded value as dicts and lists, by hand, for the walk, in the check
and, for the runtime's floor, BASELINE = True. Nothing here imports a JSON library: a `ser`
input (a neutral tree, docs/child-protocol.md) is read by hand, and the checksum is computed by
hand.

Curve mode (`--window W`, docs/child-protocol.md; schema::curve declares it): the batch of N
operations runs in one loop that reads the clock after operation i when i is in the schedule
(`curve_schedule`: a checkpoint m·10^e with m one of 1, 2, 3, 5, 7, 15, a multiple of W, or N),
into lists made before the clock; the read after op 1 is `first`, the one after op N `done`. `de`
cannot hold N copies nor N values: before each call it makes one new bytes object copied from the
document (bytes are immutable, so "refreshing the working copy" is a new copy, the same kind
`fresh_copies` makes before the clock; the previous one is freed when the name is rebound), and
each decoded value is freed when the next replaces it, the last kept for the check, whatever
`--drops` says. `ser` calls the library on its one value as outside curve mode. After `checked`
it times 1,000 back-to-back clock reads, and it prints the curve line
`{"ops":[…],"ns":[…],"clock_1000_ns":X}` before its protocol line. Without `--window` nothing
of this runs.

The checksum (16 hex digits) is BLAKE2b with an 8-byte digest (`blake2b(digest_size=8)`, the
C implementation that comes with CPython) of:
  - `ser`: the output's UTF-8 bytes;
  - `de`: the bytes of a structural walk of the last decoded value (`walk_bytes`, below);
  - the floor (`BASELINE`), both ops: the input's bytes.
Not FNV-1a as the Rust children print: FNV-1a is a per-byte loop, and in pure Python that
costs about 65 ms per MB on this machine (BLAKE2b in C: about 1.3 ms per MB).

The walk (`walk_bytes`), written by hand, in the value's own iteration order (dicts in their
insertion order, which is the document's for every Python JSON library):
    null 'n'   true 't'   false 'f'
    int 'i' DECIMAL ';'   float 'd' repr(x) ';'
    str 's' LEN ':' TEXT                    (LEN: its length in code points)
    list '[' COUNT ':' item...              dict '{' COUNT ':' (key-as-str value)...
the whole text then encoded as UTF-8 ('surrogatepass', so a lone surrogate is kept too). Every
value is tagged and every string and container carries its length, so two values with the same
walk are the same value.
"""
import sys
import time

FAILURE_EXIT = 2


def fail(message):
    sys.stderr.write(f"child: {message}\n")
    sys.exit(FAILURE_EXIT)


def parse_args(argv):
    args = {"--drops": "end"}
    it = iter(argv)
    for flag in it:
        if flag not in ("--op", "--batch", "--input", "--drops", "--check-file", "--window"):
            fail(f"unknown argument `{flag}`")
        try:
            args[flag] = next(it)
        except StopIteration:
            fail(f"{flag} needs a value")
    for needed in ("--op", "--batch", "--input"):
        if needed not in args:
            fail(f"missing {needed}")
    try:
        batch = int(args["--batch"])
    except ValueError:
        fail(f"--batch {args['--batch']}: give 1 to 1000000")
    if not 1 <= batch <= 1_000_000:
        fail(f"--batch {batch}: give 1 to 1000000")
    if args["--op"] not in ("ser", "de"):
        fail(f"--op {args['--op']}: give ser or de")
    if args["--drops"] not in ("end", "each"):
        fail(f"--drops {args['--drops']}: give end or each")
    window = None
    if "--window" in args:
        text = args["--window"]
        if not (text.isdigit() and text.isascii() and text[0] != "0"):
            fail(f"--window {text}: give a whole number from 1")
        window = int(text)
    return args["--op"], batch, args["--input"], args["--drops"], args.get("--check-file"), window


def curve_schedule(batch, window):
    """Every operation count after which a curve child reads its clock, ascending (what
    schema::curve::schedule gives): each checkpoint m·10^e (m one of 1, 2, 3, 5, 7, 15) up to
    `batch`, each multiple of `window`, and `batch`."""
    ops = set(range(window, batch + 1, window))
    ops.add(batch)
    decade = 1
    while decade <= batch:
        for m in (1, 2, 3, 5, 7, 15):
            if m * decade <= batch:
                ops.add(m * decade)
        decade *= 10
    return sorted(ops)


def curve_line(ops, ns, clock_1000_ns):
    """The curve line, `\n` included: no spaces, whole numbers."""
    return '{"ops":[%s],"ns":[%s],"clock_1000_ns":%d}\n' % (
        ",".join(map(str, ops)), ",".join(map(str, ns)), clock_1000_ns)


def curve_ops(lib, op, batch, data, value, ops, ns, clock):
    """Curve mode's operations (the module's docstring): `batch` calls, the clock read into
    `ns[k]` after each operation `ops[k]`; returns the last call's result."""
    k = 0
    at = ops[0]
    last = len(ops) - 1
    out = None
    if op == "de":
        document = memoryview(data)
        for i in range(1, batch + 1):
            # The working copy: a new bytes object with its own memory, copied from the document.
            out = lib.de(bytes(document))
            if i == at:
                ns[k] = clock()
                if k < last:
                    k += 1
                    at = ops[k]
    else:
        for i in range(1, batch + 1):
            out = lib.ser(value)
            if i == at:
                ns[k] = clock()
                if k < last:
                    k += 1
                    at = ops[k]
    return out


def clock_1000(clock):
    """The time of 1,000 back-to-back clock reads, ns."""
    start = clock()
    for _ in range(1000):
        clock()
    return clock() - start


def read_tree(text):
    """The neutral tree (one value per line, pre-order) as dicts, lists and scalars."""
    lines = text.split("\n")
    pos = 0

    def value():
        nonlocal pos
        line = lines[pos]
        pos += 1
        tag, _, rest = line.partition(" ")
        if tag == "{":
            obj = {}
            for _ in range(int(rest)):
                key_line = lines[pos]
                pos += 1
                obj[bytes.fromhex(key_line[2:]).decode("utf-8")] = value()
            return obj
        if tag == "[":
            return [value() for _ in range(int(rest))]
        if tag == "s":
            return bytes.fromhex(rest).decode("utf-8")
        if tag == "i":
            return int(rest)
        if tag == "f":
            return float(rest)
        if tag == "t":
            return True
        if tag == "F":
            return False
        if tag == "n":
            return None
        fail(f"bad tree line `{line}`")

    return value()


def fresh_copies(data, batch):
    """`batch` copies of `data`, each a new bytes object with its own memory (`bytes(data)` and
    `data[:]` hand back `data` itself)."""
    return [bytes(memoryview(data)) for _ in range(batch)]


def walk_bytes(value):
    """The structural walk of a decoded value (the grammar is in the module's docstring)."""
    pieces = []
    append = pieces.append

    def walk(v):
        t = type(v)
        if t is dict:
            append(f"{{{len(v)}:")
            for k, x in v.items():
                t = type(x)
                if t is str:
                    append(f"s{len(k)}:{k}s{len(x)}:")
                    append(x)
                    continue
                append(f"s{len(k)}:")
                append(k)
                if t is int:
                    append(f"i{x};")
                elif t is float:
                    append(f"d{x!r};")
                elif t is bool:
                    append("t" if x else "f")
                elif x is None:
                    append("n")
                else:
                    walk(x)
        elif t is list:
            append(f"[{len(v)}:")
            for x in v:
                t = type(x)
                if t is str:
                    append(f"s{len(x)}:")
                    append(x)
                elif t is int:
                    append(f"i{x};")
                elif t is float:
                    append(f"d{x!r};")
                elif t is bool:
                    append("t" if x else "f")
                elif x is None:
                    append("n")
                else:
                    walk(x)
        elif t is str:
            append(f"s{len(v)}:")
            append(v)
        elif t is int:
            append(f"i{v};")
        elif t is float:
            append(f"d{v!r};")
        elif t is bool:
            append("t" if v else "f")
        elif v is None:
            append("n")
        else:
            raise TypeError(f"a decoded value of type {t.__name__}")

    walk(value)
    return "".join(pieces).encode("utf-8", "surrogatepass")


def digest(data):
    """The checksum of `data` (bytes): BLAKE2b-64 as 16 lowercase hex digits."""
    try:
        from _blake2 import blake2b  # built into CPython; `hashlib` would load OpenSSL (~10 ms)
    except ImportError:
        from hashlib import blake2b
    return blake2b(data, digest_size=8).hexdigest()


def memory_kib():
    hwm = rss = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return hwm, rss


def as_bytes(produced):
    return produced.encode("utf-8") if isinstance(produced, str) else bytes(produced)


def run(main_ns, lib):
    """The child: the protocol's steps around `lib`; `--version` alone prints its version."""
    if sys.argv[1:] == ["--version"]:
        print(lib.version())
        return
    try:
        _run(main_ns, lib)
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001 - the protocol: a message and status 2
        fail(f"{type(e).__name__}: {e}")


def _run(main_ns, lib):
    # The model: a typed child declares its classes here (pydantic builds each class's validator
    # and serializer as the class is made); a DOM child decodes to the runtime's own dicts and
    # lists, so its model phase is one more read of the clock (docs/child-protocol.md).
    model = getattr(lib, "model", None)
    if model is not None:
        model()
    model_ns = time.monotonic_ns()
    op, batch, path, drops, check_file, window = parse_args(sys.argv[1:])
    with open(path, "rb") as f:
        data = f.read()
    baseline = getattr(lib, "BASELINE", False)
    from_tree = getattr(lib, "from_tree", lambda tree: tree)
    as_tree = getattr(lib, "as_tree", lambda value: value)
    curve = window is not None
    value = None
    if curve:
        clock = time.monotonic_ns
        ops = curve_schedule(batch, window)
        ns = [0] * len(ops)
        if op == "ser":
            value = data if baseline else from_tree(read_tree(data.decode("utf-8")))
    elif op == "de":
        copies = fresh_copies(data, batch)
    else:
        value = data if baseline else from_tree(read_tree(data.decode("utf-8")))
    fixture_ns = time.monotonic_ns()

    lib.init()
    init_ns = time.monotonic_ns()

    keep = []
    first_ns = 0
    if curve:
        keep.append(curve_ops(lib, op, batch, data, value, ops, ns, clock))
        first_ns = ns[0]
        done_ns = ns[-1]
    elif op == "de":
        for i in range(batch):
            out = lib.de(copies[i])
            if drops == "end" or i == batch - 1:
                keep.append(out)
            if i == 0:
                first_ns = time.monotonic_ns()
        done_ns = time.monotonic_ns()
    else:
        for i in range(batch):
            out = lib.ser(value)
            if i == 0:
                first_ns = time.monotonic_ns()
        keep.append(out)
        done_ns = time.monotonic_ns()

    # The check: no library code, only the harness's walk and digest.
    last = keep[-1]
    if baseline:
        check = digest(data)
        size = len(data)
    elif op == "de":
        check = digest(walk_bytes(as_tree(last)))
        size = len(data)
    else:
        output = as_bytes(last)
        check = digest(output)
        size = len(output)
    checked_ns = time.monotonic_ns()
    if curve:
        clock_1000_ns = clock_1000(clock)

    # The preflight only: what the operations produced, for the runner's check by meaning (for
    # `de`, written back by the library itself, outside every timed phase).
    if check_file:
        if baseline:
            written = data
        elif op == "de":
            written = as_bytes(lib.write_back(last))
        else:
            written = output
        with open(check_file, "wb") as f:
            f.write(written)
    hwm, rss = memory_kib()
    if curve:
        sys.stdout.write(curve_line(ops, ns, clock_1000_ns))
    sys.stdout.write(
        '{"main":%d,"model":%d,"fixture":%d,"init":%d,"first":%d,"done":%d,"checked":%d,'
        '"checksum":"%s","bytes":%d,"hwm_kib":%d,"rss_kib":%d}\n'
        % (main_ns, model_ns, fixture_ns, init_ns, first_ns, done_ns, checked_ns, check, size, hwm, rss)
    )
    sys.stdout.flush()
