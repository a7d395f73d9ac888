"""The reference for the cold child `pysimdjson` (scripts/first-call-vs-minimal.py --python): a
Python program that reads one Users document, copies it, and imports simdjson, makes a `Parser`
and decodes it once, materialised with `as_dict()`, and nothing else of the protocol: no harness,
no arguments but the document's path, no other library. It prints its CLOCK_MONOTONIC reads
(time.monotonic_ns, the harness's clock): at main, before the library's part and after it."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

with open(sys.argv[1], "rb") as f:
    document = f.read()
copied = bytes(memoryview(document))
before = time.monotonic_ns()
import simdjson  # noqa: E402

value = simdjson.Parser().parse(copied).as_dict()
users = value["users"]
after = time.monotonic_ns()
sys.stdout.write('{"main":%d,"before":%d,"after":%d,"users":%d}\n' % (MAIN, before, after, len(users)))
