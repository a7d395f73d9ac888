#!/usr/bin/env bash
# Installs what thaw's optional features need beyond Rust, idempotently (what is there already is
# left alone), and says what it could not install:
#   - Valgrind (`cold run --measure instructions`) and hyperfine (scripts/bench-harness.sh);
#   - the JVM children: Maven, a JDK 17 (Debian's), and this project's Maven dependencies and
#     plugins fetched once into ~/.m2 (so a run compiles offline); JDK 25 (Temurin) is not a
#     Debian package: it must be at /usr/lib/jvm/temurin-25-jdk-amd64 (CI carries it);
#   - the Python children: Debian's python3 and pip, and thaw's virtual environment holding only
#     what the children need (scripts/install-python-env.sh: requirements.txt, pinned with
#     hashes), and the warm track's beside it (--warm: the same and pyperf);
#   - the Node children: Debian's nodejs, and the packages runtimes/node/package-lock.json pins,
#     installed with `npm ci` into runtimes/node/node_modules (so a run requires them offline);
#   - the Go children: their modules fetched through the module proxy and every child built once
#     offline (scripts/install-go-env.sh); Go 1.26 itself is not a Debian package at that
#     version: it must be on PATH or at /usr/local/go (https://go.dev/dl/; CI carries it);
#   - the JVM warm track's JMH project, fetched once (scripts/resolve-warm-jvm.sh).
# Debian or Ubuntu, as root for the packages (CI runs it so). Exits 1 when something is still
# missing at the end, naming it: a runtime that is missing makes its cells unsupported, with
# the reason, in a run; CI, which promises every runtime, fails instead.
#
#   scripts/install-runtimes.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# What a tool prints of its own version may carry terminal colour codes (Maven's `-v` does, even
# with -B): the summary is for a log, so escape sequences and other control characters are dropped.
say() { echo "install-runtimes: $*" | sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/[[:cntrl:]]//g' >&2; }

packages=(
  valgrind                 # cold run --measure instructions
  hyperfine                # scripts/bench-harness.sh
  maven                    # the JVM children and the JMH benches
  openjdk-17-jdk-headless  # the JVM children's second build (jdk17)
  python3 python3-pip      # the Python children's interpreter, and pip to fill its environment
  nodejs                   # the Node children
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get here; install these yourself: ${missing[*]}"
  elif [ "$(id -u)" != 0 ]; then
    say "run as root (sudo $0) to install: ${missing[*]}"
  else
    say "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# The Python children's environment.
if command -v python3 >/dev/null 2>&1; then
  "$root/scripts/install-python-env.sh" >/dev/null || say "the Python environment could not be made (above)"
  "$root/scripts/install-python-env.sh" --warm >/dev/null || say "the Python warm track's environment could not be made (above)"
fi

# The Node children's packages, exactly as package-lock.json pins them (npm ci), when they are not
# all there already. Debian's npm only where no npm came with node (NodeSource's nodejs has its
# own, and Debian's npm package would conflict with it).
node_dir="$root/runtimes/node"
node_packages='for (const p of ["ajv", "fast-json-stringify", "secure-json-parse", "mitata"]) require(require.resolve(p, { paths: [process.argv[1]] }))'
node_ready=no
if command -v node >/dev/null 2>&1; then
  if node -e "$node_packages" "$node_dir" 2>/dev/null && [ "$node_dir/package-lock.json" -ot "$node_dir/node_modules/.package-lock.json" ]; then
    node_ready=yes
  else
    if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      say "installing: npm"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
    fi
    say "installing the Node children's packages (npm ci, runtimes/node/package-lock.json)"
    (cd "$node_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) &&
      node -e "$node_packages" "$node_dir" && node_ready=yes ||
      say "npm ci in runtimes/node failed"
  fi
fi

# The Go children's modules, and each child built once offline.
go_ready=no
"$root/scripts/install-go-env.sh" && go_ready=yes || say "the Go children cannot be built (above)"

# The JVM children's dependencies and plugins, fetched once: a compile into a scratch folder
# that works offline means they are there.
jvm="$root/runtimes/jvm/pom.xml"
jvm_offline=no
if command -v mvn >/dev/null 2>&1; then
  scratch="$(mktemp -d)"
  if mvn -o -q -f "$jvm" -Dthaw.build="$scratch" package >/dev/null 2>&1; then
    jvm_offline=yes
  else
    say "fetching the JVM children's dependencies from Maven Central"
    rm -rf "$scratch" && scratch="$(mktemp -d)"
    mvn -q -f "$jvm" -Dthaw.build="$scratch" dependency:go-offline package >/dev/null &&
      rm -rf "$scratch" && scratch="$(mktemp -d)" &&
      mvn -o -q -f "$jvm" -Dthaw.build="$scratch" package >/dev/null 2>&1 && jvm_offline=yes ||
      say "fetching the JVM children's dependencies failed"
  fi
  rm -rf "$scratch"
  if [ -x "$root/scripts/resolve-warm-jvm.sh" ]; then
    "$root/scripts/resolve-warm-jvm.sh" || say "fetching the JMH benches' dependencies failed"
  fi
fi

# What is there now, and what is not.
absent=()
have() { command -v "$1" >/dev/null 2>&1 || absent+=("$2"); }
have valgrind "valgrind"
have hyperfine "hyperfine"
have mvn "maven"
have node "nodejs"
[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] ||
  [ -x /usr/lib/jvm/java-25-openjdk-amd64/bin/java ] ||
  absent+=("JDK 25 (Temurin, at /usr/lib/jvm/temurin-25-jdk-amd64)")
[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ] ||
  [ -x /usr/lib/jvm/temurin-17-jdk-amd64/bin/java ] || absent+=("JDK 17")
venv_python="$root/target/external/python-venv/bin/python"
"$venv_python" -c 'import orjson, ujson, simdjson, msgspec, pydantic' 2>/dev/null ||
  absent+=("thaw's Python environment (scripts/install-python-env.sh)")
[ "$node_ready" = yes ] || absent+=("the Node children's packages (npm ci in runtimes/node)")
[ "$jvm_offline" = yes ] || absent+=("the JVM children's Maven dependencies (offline)")
[ "$go_ready" = yes ] || absent+=("Go 1.26 and the Go children's modules (scripts/install-go-env.sh)")

say "ready: $(valgrind --version 2>/dev/null || echo 'no valgrind');" \
  "$(hyperfine --version 2>/dev/null || echo 'no hyperfine');" \
  "$(mvn -B -v 2>/dev/null | sed -n 1p);" \
  "python $("$venv_python" -c 'import sys, orjson; print(sys.version.split()[0], "orjson", orjson.__version__)' 2>/dev/null || echo '?');" \
  "node $(node --version 2>/dev/null || echo '?');" \
  "$({ command -v go >/dev/null && go version; } || /usr/local/go/bin/go version 2>/dev/null || echo 'no go')"
if [ "${#absent[@]}" -gt 0 ]; then
  say "still missing: ${absent[*]}"
  exit 1
fi
