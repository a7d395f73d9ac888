#!/usr/bin/env bash
# Installs what thaw's optional features need beyond Rust, idempotently (what is there already is
# left alone): Valgrind (`cold run --measure instructions`), hyperfine (scripts/bench-harness.sh),
# and the runtimes of the non-Rust children: a JDK with Jackson and Gson, Python 3 with orjson,
# Node.js. Debian or Ubuntu, as root (CI runs it so); elsewhere it says what to install and
# exits 1. A runtime that is still missing afterwards makes its cells unsupported, with the
# reason, never a failed run.
#
#   scripts/install-runtimes.sh
set -euo pipefail

packages=(
  valgrind            # cold run --measure instructions
  hyperfine           # scripts/bench-harness.sh
  default-jdk-headless libjackson2-databind-java libgoogle-gson-java   # JVM children
  python3 python3-pip # Python children
  nodejs              # Node children
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-runtimes: no apt-get here; install these yourself: ${missing[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "install-runtimes: run as root (sudo $0) to install: ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# orjson for the Python children, from PyPI, for the python3 the children run.
if ! python3 -c "import orjson" 2>/dev/null; then
  echo "installing: orjson (pip)"
  python3 -m pip install -q orjson 2>/dev/null ||
    python3 -m pip install -q --break-system-packages orjson
fi

echo "install-runtimes: ready:" \
  "$(valgrind --version 2>/dev/null || echo 'no valgrind')," \
  "$(hyperfine --version 2>/dev/null || echo 'no hyperfine')," \
  "$(java -version 2>&1 | head -1 || echo 'no java')," \
  "python $(python3 -c 'import sys, orjson; print(sys.version.split()[0], "orjson", orjson.__version__)' 2>/dev/null || echo '?')," \
  "node $(node --version 2>/dev/null || echo '?')"
