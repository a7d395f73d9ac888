"""The cold child of pydantic v2 with its build deferred (docs/child-protocol.md), `de` only:
the Users classes of `pydantic_model.py` declared in the model phase with `defer_build=True`, so
pydantic-core builds their validator (and serializer) at the first use, `Users.model_validate_json`
of the document's bytes, inside the first call: beside `pydantic`, which builds them as the
classes are made, it shows what moves. Not `ser`: its value is built with the classes'
constructors before the clock, which would build them there. `write_back` runs only in the
preflight (`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402
import pydantic_model  # noqa: E402

classes = None


def model():
    global classes
    classes = pydantic_model.declare(defer_build=True)


def init():
    pass


def de(data):
    return classes[0].model_validate_json(data)


def ser(value):
    return value.model_dump_json()


def write_back(value):
    return value.model_dump_json()


def from_tree(tree):
    return pydantic_model.from_tree(tree, classes)


as_tree = pydantic_model.as_tree
version = pydantic_model.version

if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
