"""The cold child of msgspec (docs/child-protocol.md), on the Users model as Structs
(`msgspec_model.py`, declared in the model phase), its decoder built in the first call:
`msgspec.json.decode(data, type=Users)`, which compiles and caches the type's decoder on its first
use; `msgspec.json.encode` of the value (new bytes per call). Beside it, `msgspec_decoder_child.py`
builds the decoder in init. `write_back` runs only in the preflight (`--check-file`)."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402
import msgspec_model  # noqa: E402

classes = None
json = None


def model():
    global classes, json
    classes = msgspec_model.declare()
    import msgspec.json as library

    json = library


def init():
    pass


def de(data):
    return json.decode(data, type=classes[0])


def ser(value):
    return json.encode(value)


def write_back(value):
    return json.encode(value)


def from_tree(tree):
    return msgspec_model.from_tree(tree, classes)


as_tree = msgspec_model.as_tree
version = msgspec_model.version

if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
