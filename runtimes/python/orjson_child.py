"""The cold child of orjson (docs/child-protocol.md): `orjson.loads` of the document's bytes,
`orjson.dumps` of the value (new bytes per call, its natural API; compact UTF-8 by default).
`write_back` runs only in the preflight (`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402

orjson = None


def init():
    global orjson
    import orjson as library

    orjson = library


def de(data):
    return orjson.loads(data)


def ser(value):
    return orjson.dumps(value)


def write_back(value):
    return orjson.dumps(value)


def version():
    import orjson as library

    return library.__version__


if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
