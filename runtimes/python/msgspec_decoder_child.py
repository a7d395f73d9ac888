"""The cold child of msgspec with its decoder built in init (docs/child-protocol.md): the Users
Structs of `msgspec_model.py` (declared in the model phase), `msgspec.json.Decoder(Users)` made in
`init`, as a program that decodes one type many times keeps one, then its `decode` of the
document's bytes; `ser` is an `msgspec.json.Encoder`'s `encode` (made in init too; new bytes per
call). Beside it, `msgspec_child.py` builds the decoder in the first call."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402
import msgspec_model  # noqa: E402

classes = None
json = None
decoder = encoder = None


def model():
    global classes, json
    classes = msgspec_model.declare()
    import msgspec.json as library

    json = library


def init():
    global decoder, encoder
    decoder = json.Decoder(classes[0])
    encoder = json.Encoder()


def de(data):
    return decoder.decode(data)


def ser(value):
    return encoder.encode(value)


def write_back(value):
    return json.encode(value)


def from_tree(tree):
    return msgspec_model.from_tree(tree, classes)


as_tree = msgspec_model.as_tree
version = msgspec_model.version

if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
