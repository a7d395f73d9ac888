#!/usr/bin/env bash
# The Python warm track: pyperf benchmarks of every Python codec of the cold track, through the
# children's own calls (runtimes/python/bench.py), on the same documents, in thaw's warm
# environment (scripts/install-python-env.sh --warm: the children's libraries and pyperf, pinned
# with hashes). pyperf runs each benchmark in --processes fresh worker processes of its own
# (after one calibration process); its JSON goes to OUT/bench.json (results/warm/python/ by
# default), which `python -m pyperf stats` reads as it is and `analysis report` takes each cell's
# figure from as the median of its processes' medians (analysis/src/inputs/pyperf.rs).
#
#   scripts/warm-python.sh [--inputs FIXTURES_DIR] [--fixtures users-2kb,users-10kb]
#                          [--processes 5] [--codecs pydantic,msgspec] [--out results/warm/python]
#
# FIXTURES_DIR holds <fixture>.json and <fixture>.tree.txt, as a cold run of both ops writes them
# (results/cold/latest/fixtures by default).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
inputs="$root/results/cold/latest/fixtures"
names="users-2kb"
processes=5
codecs=""
out="$root/results/warm/python"
while [ $# -gt 0 ]; do
  case "$1" in
  --inputs) inputs=$2; shift 2 ;;
  --fixtures) names=$2; shift 2 ;;
  --processes) processes=$2; shift 2 ;;
  --codecs) codecs=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "warm-python: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$processes" =~ ^[1-9][0-9]?$ ]] || { echo "warm-python: --processes $processes: give 1 to 99" >&2; exit 2; }
for n in ${names//,/ }; do
  for f in "$inputs/$n.json" "$inputs/$n.tree.txt"; do
    [ -f "$f" ] || { echo "warm-python: no $f: give --inputs a cold run's fixtures/ (a run of both ops on $n)" >&2; exit 2; }
  done
done
inputs="$(cd "$inputs" && pwd)"
python="$("$root/scripts/install-python-env.sh" --warm)"
mkdir -p "$out"
tmp="$out/.bench.json.partial"
rm -f "$tmp"
"$python" "$root/runtimes/python/bench.py" --quiet --processes "$processes" --inputs "$inputs" \
  --fixtures "$names" --codecs "$codecs" -o "$tmp"
mv "$tmp" "$out/bench.json"
echo "warm-python: wrote $out/bench.json ($processes processes a cell)" >&2
