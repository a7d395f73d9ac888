"""The cold child of pysimdjson (docs/child-protocol.md), `de` only (it has no writer): a
`simdjson.Parser` made in init (its users make one and reuse it), then per call `parser.parse`
of the document's bytes with the value materialised, `as_dict()` of an object root and
`as_list()` of an array root, so that the call ends, as every other Python DOM's, with the
whole document as dicts and lists (a parsed document is otherwise a lazy proxy, which reads
nothing until asked, and which the next `parse` invalidates). `write_back` (the standard
`json`, since pysimdjson writes nothing) runs only in the preflight (`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402

parser = None
Object = Array = None


def init():
    global parser, Object, Array
    import simdjson

    parser = simdjson.Parser()
    Object, Array = simdjson.Object, simdjson.Array


def de(data):
    v = parser.parse(data)
    if isinstance(v, Object):
        return v.as_dict()
    if isinstance(v, Array):
        return v.as_list()
    return v


def ser(value):
    raise NotImplementedError("pysimdjson has no writer")


def write_back(value):
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def version():
    from importlib.metadata import version

    return version("pysimdjson")


if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
