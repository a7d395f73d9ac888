"""The Python floor (docs/child-protocol.md): the interpreter's start and the harness, with no
library: `de` takes the input's length, `ser` hands the input's bytes back. Every Python figure
can be read against it."""
import time

MAIN = time.monotonic_ns()

import platform  # noqa: E402
import sys  # noqa: E402

import harness  # noqa: E402

BASELINE = True


def init():
    pass


def de(data):
    return len(data)


def ser(value):
    return value


def write_back(value):
    return str(value).encode()


def version():
    return platform.python_version()


harness.run(MAIN, sys.modules[__name__])
