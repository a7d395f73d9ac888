"""The cold child of ujson (docs/child-protocol.md): `ujson.loads` of the document's bytes to
dicts and lists, `ujson.dumps` of the value (a new string per call), written compact and in UTF-8
as serde_json writes (`ensure_ascii=False`, `escape_forward_slashes=False`: its defaults escape
every non-ASCII character and every `/`). `write_back` runs only in the preflight."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402

ujson = None


def init():
    global ujson
    import ujson as library

    ujson = library


def de(data):
    return ujson.loads(data)


def ser(value):
    return ujson.dumps(value, ensure_ascii=False, escape_forward_slashes=False)


def write_back(value):
    return ujson.dumps(value, ensure_ascii=False, escape_forward_slashes=False)


def version():
    import ujson as library

    return library.__version__


if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
