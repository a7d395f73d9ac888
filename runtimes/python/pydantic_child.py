"""The cold child of pydantic v2 (docs/child-protocol.md), on the Users model
(`pydantic_model.py`): its classes are declared in the model phase (`model`), where pydantic-core
builds each class's validator and serializer as the class is made; `Users.model_validate_json` of
the document's bytes (jiter parses and validates in one pass), `Users.model_dump_json` of the
value (a new string per call; compact UTF-8 by default). `write_back` runs only in the preflight
(`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402
import pydantic_model  # noqa: E402

classes = None


def model():
    global classes
    classes = pydantic_model.declare()


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
