#!/usr/bin/env bash
# The Node warm track: mitata benchmarks of every Node codec of the cold track, through the
# children's own calls (runtimes/node/bench.mjs), on the same documents, with the packages
# runtimes/node/package-lock.json pins (mitata among them; scripts/install-runtimes.sh installs
# them with npm ci). Each fork round is one fresh `node` process running every cell; what mitata
# prints (its JSON, without its samples) goes to OUT/fork-<k>.json (results/warm/node/ by
# default), and `analysis report` takes each cell's figure as the median of its rounds' medians
# (analysis/src/inputs/mitata.rs).
#
#   scripts/warm-node.sh [--inputs FIXTURES_DIR] [--fixtures users-2kb,users-10kb] [--forks 5]
#                        [--codecs ajv,node-json] [--out results/warm/node]
#
# FIXTURES_DIR holds <fixture>.json and <fixture>.tree.txt, as a cold run of both ops writes them
# (results/cold/latest/fixtures by default).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
inputs="$root/results/cold/latest/fixtures"
names="users-2kb"
forks=5
codecs=""
out="$root/results/warm/node"
while [ $# -gt 0 ]; do
  case "$1" in
  --inputs) inputs=$2; shift 2 ;;
  --fixtures) names=$2; shift 2 ;;
  --forks) forks=$2; shift 2 ;;
  --codecs) codecs=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "warm-node: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$forks" =~ ^[1-9][0-9]?$ ]] || { echo "warm-node: --forks $forks: give 1 to 99" >&2; exit 2; }
for n in ${names//,/ }; do
  for f in "$inputs/$n.json" "$inputs/$n.tree.txt"; do
    [ -f "$f" ] || { echo "warm-node: no $f: give --inputs a cold run's fixtures/ (a run of both ops on $n)" >&2; exit 2; }
  done
done
inputs="$(cd "$inputs" && pwd)"
command -v node >/dev/null || { echo "warm-node: no node: run scripts/install-runtimes.sh" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/fork-*.json
for k in $(seq 1 "$forks"); do
  node "$root/runtimes/node/bench.mjs" --inputs "$inputs" --fixtures "$names" --codecs "$codecs" \
    >"$out/.fork-$k.json.partial"
  mv "$out/.fork-$k.json.partial" "$out/fork-$k.json"
done
echo "warm-node: wrote $out/fork-1.json … fork-$forks.json ($forks fork rounds)" >&2
