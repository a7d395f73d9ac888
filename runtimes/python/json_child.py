"""The cold child of Python's standard `json` module (docs/child-protocol.md): `json.loads` of
the document's bytes, `json.dumps` of the value (a new string per call, its natural API),
written compact and in UTF-8 as serde_json writes (`separators=(",", ":")`, `ensure_ascii=False`;
its defaults write `", "`, `": "` and escape every non-ASCII character)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402

json = None


def init():
    global json
    import json as library

    json = library


def de(data):
    return json.loads(data)


def ser(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def write_back(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def version():
    import platform

    return platform.python_version()


if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
