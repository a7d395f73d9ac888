#!/usr/bin/env bash
# Creates the virtual environment the Python children run in, the way a Python tool is deployed:
# from the system's interpreter (/usr/bin/python3, not whatever `python3` is first on PATH: a
# pyenv shim or an interpreter with site-packages .pth hooks would be timed with every child),
# holding only what the children need (runtimes/python/requirements.txt: the libraries and every
# dependency of theirs, pinned, with hashes). Idempotent: the environment is made again only when
# it is missing, broken, or made from another requirements file or another base interpreter.
# Prints the interpreter the runner starts children with (and nothing else on stdout).
#
#   scripts/install-python-env.sh            # -> <repo>/target/external/python-venv/bin/python
#   scripts/install-python-env.sh --warm     # -> <repo>/target/external/python-warm-venv/bin/python
#   THAW_PYTHON_BASE=/usr/bin/python3.12 scripts/install-python-env.sh
#
# --warm makes the warm track's environment instead (requirements-warm.txt: the same libraries and
# pyperf, with its dependency), apart from the children's, so that no child runs beside pyperf.
#
# Needs Debian's python3 and python3-pip (scripts/install-runtimes.sh installs them): the
# environment is made --without-pip (so no pip or setuptools, whose distutils-precedence.pth
# would run at every start, lands in it) and the system's pip installs into it (--python).
set -euo pipefail

say() { echo "install-python-env: $*" >&2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${THAW_PYTHON_BASE:-/usr/bin/python3}"
venv="$root/target/external/python-venv"
requirements="$root/runtimes/python/requirements.txt"
imports='import orjson, ujson, simdjson, msgspec, pydantic'
if [ "${1:-}" = --warm ]; then
  venv="$root/target/external/python-warm-venv"
  requirements="$root/runtimes/python/requirements-warm.txt"
  imports="$imports, pyperf"
elif [ $# -gt 0 ]; then
  say "unknown argument $1 (give --warm, or nothing)"
  exit 2
fi
python="$venv/bin/python"
stamp="$venv/.thaw-stamp"

if [ ! -x "$base" ]; then
  say "no $base: install Debian's python3 and python3-pip (scripts/install-runtimes.sh)"
  exit 1
fi

# What the environment is made of: the requirements, the base interpreter and its version.
version="$("$base" -c 'import sys; print(sys.version.split()[0])')"
want="$(cat "$requirements" "$root/runtimes/python/requirements.txt" | sha256sum | cut -d' ' -f1) $base $version"

if [ -x "$python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] &&
  "$python" -c "$imports" 2>/dev/null; then
  echo "$python"
  exit 0
fi

if ! "$base" -m pip --version >/dev/null 2>&1; then
  say "$base has no pip: apt-get install python3-pip (scripts/install-runtimes.sh)"
  exit 1
fi

say "making $venv from $base"
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$base" -m venv --without-pip "$venv"
"$base" -m pip --python "$python" install --quiet --disable-pip-version-check --no-input \
  --require-hashes --only-binary=:all: -r "$requirements" >&2
"$python" -c "$imports" >&2
printf '%s\n' "$want" >"$stamp"
say "ready: python $version, $("$python" -c 'from importlib.metadata import version as v; print(", ".join(f"{p} {v(p)}" for p in ("orjson", "ujson", "pysimdjson", "msgspec", "pydantic")))')"
echo "$python"
