#!/usr/bin/env bash
# The first-call regression check: two builds of the children (BASE and CANDIDATE, each `portable`,
# `native`, or described in cold/variants/ or $THAW_VARIANTS: a library at another version, from
# a path or a git revision, other flags), counted in one run (`--measure instructions`, so a
# shared CI runner's noise cannot matter: every sample of a library's phases counts alike) and
# compared cell by cell; exits 1 when CANDIDATE's PHASE (first_op by default) costs more than
# BASE's by more than THRESHOLD in any cell, naming it, and writes a Markdown table fit for a
# pull request's comment. With --timed P, also a timed run of both builds in every block,
# sampled to ±P (`--precision`), and its report (the build comparison, paired within blocks).
#
#   scripts/ab-check.sh BASE CANDIDATE [--codecs a,b] [--fixture F] [--batches 1,100]
#       [--phase first_op] [--threshold 0.005] [--timed 3%] [--out DIR]
#
# It builds what it needs (cold run builds a described build's children), so on a fresh clone
# it needs a Rust toolchain and Valgrind (scripts/install-runtimes.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

usage() {
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -ge 2 ] || usage
base=$1 candidate=$2
shift 2
codecs=serde_json fixture=users-2kb batches=1 phase=first_op threshold=0.005 timed="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --codecs) codecs=$2 ;;
    --fixture) fixture=$2 ;;
    --batches) batches=$2 ;;
    --phase) phase=$2 ;;
    --threshold) threshold=$2 ;;
    --timed) timed=$2 ;;
    --out) out=$2 ;;
    *) echo "ab-check: unknown option $1" >&2; usage ;;
  esac
  shift 2
done
out=${out:-results/ab/$base-vs-$candidate}
rm -rf "$out"
mkdir -p "$out"

cargo build -q --release -p cold -p analysis -p spawner -p alloc-phases
cold=target/release/cold
analysis=target/release/analysis

echo "== counted: $base and $candidate in every block ($codecs on $fixture)" >&2
"$cold" run --measure instructions --variant "$base,$candidate" --codecs "$codecs" \
  --fixture "$fixture" --batches "$batches" --samples 3 --out "$out/counted" >&2

status=0
"$analysis" compare "$out/counted" --variants "$base,$candidate" --phase "$phase" \
  --threshold "$threshold" --format markdown --fail-on-regression >"$out/check.md" || status=$?
cat "$out/check.md"

if [ -n "$timed" ]; then
  echo "== timed: $base and $candidate in every block, to ±$timed" >&2
  "$cold" run --variant "$base,$candidate" --codecs "$codecs" --fixture "$fixture" \
    --batches "$batches" --precision "$timed" --out "$out/timed" >&2 || true
  "$analysis" report "$out/timed" --out "$out/timed/report" >&2
  echo "timed report (the build comparison, paired within blocks): $out/timed/report/report.md" >&2
fi
exit "$status"
