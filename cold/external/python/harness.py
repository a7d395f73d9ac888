"""thaw's Python child harness: the cold child protocol (docs/child-protocol.md) around a
library module, so that a library's child file holds only what is the library's.

A library's child file stamps `main` first, then calls `harness.run(MAIN, module)` with a module
that defines:
    init()             make the library's state; import the library here (its import is init)
    de(data: bytes)    decode one document
    ser(value)         encode one value, returning bytes or str (the library's natural API)
    write_back(value)  the decoded value written back by the same library (after the clock)
    version()          the library's version
and, for the runtime's floor, BASELINE = True. Nothing here imports a JSON library: a `ser`
input (a neutral tree, docs/child-protocol.md) is read by hand.
"""
import os
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
        if flag not in ("--op", "--batch", "--input", "--drops", "--check-file"):
            fail(f"unknown argument `{flag}`")
        try:
            args[flag] = next(it)
        except StopIteration:
            fail(f"{flag} needs a value")
    for needed in ("--op", "--batch", "--input"):
        if needed not in args:
            fail(f"missing {needed}")
    batch = int(args["--batch"])
    if not 1 <= batch <= 1_000_000:
        fail(f"--batch {batch}: give 1 to 1000000")
    return args["--op"], batch, args["--input"], args["--drops"], args.get("--check-file")


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


def memory_kib():
    hwm = rss = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return hwm, rss


def run(main_ns, lib):
    """The child: the protocol's steps around `lib`; `--version` alone prints its version."""
    if sys.argv[1:] == ["--version"]:
        print(lib.version())
        return
    op, batch, path, drops, check_file = parse_args(sys.argv[1:])
    with open(path, "rb") as f:
        data = f.read()
    baseline = getattr(lib, "BASELINE", False)
    if op == "de":
        copies = [bytes(data) for _ in range(batch)]
    elif op == "ser":
        value = read_tree(data.decode("utf-8")) if not baseline else data
    else:
        fail(f"--op {op}: give ser or de")
    fixture_ns = time.monotonic_ns()

    lib.init()
    init_ns = time.monotonic_ns()

    keep = []
    first_ns = 0
    if op == "de":
        for i in range(batch):
            out = lib.de(copies[i])
            if drops == "end" or i == batch - 1:
                keep.append(out)
            if i == 0:
                first_ns = time.monotonic_ns()
    else:
        for i in range(batch):
            out = lib.ser(value)
            if i == 0:
                first_ns = time.monotonic_ns()
        keep.append(out)
    done_ns = time.monotonic_ns()

    last = keep[-1]
    if op == "de":
        produced = lib.write_back(last)
        size = len(data)
    else:
        produced = last
        size = len(produced if isinstance(produced, bytes) else produced.encode("utf-8"))
    if isinstance(produced, str):
        produced = produced.encode("utf-8")
    check = len(produced)
    checked_ns = time.monotonic_ns()
    if check_file:
        with open(check_file, "wb") as f:
            f.write(produced)
    hwm, rss = memory_kib()
    sys.stdout.write(
        '{"main":%d,"fixture":%d,"init":%d,"first":%d,"done":%d,"checked":%d,'
        '"checksum":"%016x","bytes":%d,"hwm_kib":%d,"rss_kib":%d}\n'
        % (main_ns, fixture_ns, init_ns, first_ns, done_ns, checked_ns, check, size, hwm, rss)
    )
    sys.stdout.flush()
