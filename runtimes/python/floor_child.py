"""The Python floor (docs/child-protocol.md): the interpreter's start and the harness, with no
library: `de` takes the input's length, `ser` hands the input's bytes back; its checksum is the
digest of the input's bytes for both ops, and its check file the input itself. Every Python
figure can be read against it."""
import time

MAIN = time.monotonic_ns()

import sys  # noqa: E402

import harness  # noqa: E402

BASELINE = True


def init():
    pass


def de(data):
    return len(data)


def ser(value):
    return value


def version():
    # Imported here, not at the top: the floor's fixture phase imports no more than a library's.
    import platform

    return platform.python_version()


if __name__ == "__main__":  # run as a child; imported, it is the warm track's (bench.py)
    harness.run(MAIN, sys.modules[__name__])
