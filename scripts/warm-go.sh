#!/usr/bin/env bash
# The Go warm track: the `go test -bench` benchmarks of runtimes/go/bench (every Go codec of the
# cold track on the same documents, with -benchmem), in fresh processes: each fork round runs
# the default build's test binary, then the GOEXPERIMENT=jsonv2 build's (encoding-json-jsonv2,
# encoding-json-v2), each once. The raw output is Go's standard benchmark format, every round
# after a configuration line `fork: <k>`, into OUT/bench.txt (results/warm/go/ by default), so
# `benchstat OUT/bench.txt` reads it as it is and `analysis report` takes each cell's figure as
# the median of its processes (analysis/src/inputs/gobench.rs).
#
#   scripts/warm-go.sh [--inputs FIXTURES_DIR] [--fixtures users-2kb,users-10kb] [--forks 5]
#                      [--benchtime 1s] [--out results/warm/go]
#
# FIXTURES_DIR holds <fixture>.json and <fixture>.tree.txt, as a cold run of a Go codec writes
# them (results/cold/latest/fixtures by default). Offline: the modules come from the cache that
# scripts/install-go-env.sh fills.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
inputs="$root/results/cold/latest/fixtures"
names="users-2kb"
forks=5
benchtime=1s
out="$root/results/warm/go"
while [ $# -gt 0 ]; do
  case "$1" in
  --inputs) inputs=$2; shift 2 ;;
  --fixtures) names=$2; shift 2 ;;
  --forks) forks=$2; shift 2 ;;
  --benchtime) benchtime=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "warm-go: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$forks" =~ ^[1-9][0-9]?$ ]] || { echo "warm-go: --forks $forks: give 1 to 99" >&2; exit 2; }
for n in ${names//,/ }; do
  for f in "$inputs/$n.json" "$inputs/$n.tree.txt"; do
    [ -f "$f" ] || { echo "warm-go: no $f: give --inputs a cold run's fixtures/ (a run of a Go codec on $n)" >&2; exit 2; }
  done
done
inputs="$(cd "$inputs" && pwd)"
go="$(command -v go || echo /usr/local/go/bin/go)"
[ -x "$go" ] || { echo "warm-go: no Go toolchain: run scripts/install-runtimes.sh" >&2; exit 1; }

bin="$root/target/external/go-bench"
mkdir -p "$bin" "$out"
export GOFLAGS=-mod=readonly GOPROXY=off GOTOOLCHAIN=local
(cd "$root/runtimes/go" && "$go" test -c -trimpath -o "$bin/bench.test" ./bench)
(cd "$root/runtimes/go" && GOEXPERIMENT=jsonv2 "$go" test -c -trimpath -o "$bin/bench-jsonv2.test" ./bench)

export THAW_GO_FIXTURES="$inputs" THAW_GO_FIXTURE_NAMES="$names"
tmp="$out/.bench.txt.partial"
{
  echo "go: $("$go" env GOVERSION)"
  echo "benchtime: $benchtime"
  for k in $(seq 1 "$forks"); do
    echo "fork: $k"
    for t in bench.test bench-jsonv2.test; do
      (cd "$root/runtimes/go/bench" && "$bin/$t" -test.run '^$' -test.bench . -test.benchmem \
        -test.count 1 -test.benchtime "$benchtime")
    done
  done
} >"$tmp"
mv "$tmp" "$out/bench.txt"
echo "warm-go: wrote $out/bench.txt ($forks fork rounds)" >&2
