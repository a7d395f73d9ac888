#!/usr/bin/env bash
# How much the cold runner adds to what it measures: the `noop` child, run through `cold run`
# and through `hyperfine -N` (no shell) on the very same command line, in alternating rounds.
# Prints each round's two wall-time medians, and the ratio of the medians over all rounds
# (cold / hyperfine: 1.00 means the runner measures a process exactly as hyperfine does; the aim
# is within 10%).
#
#   scripts/bench-harness.sh                  3 rounds of 200 samples each way
#   THAW_HARNESS_ROUNDS=5 THAW_HARNESS_SAMPLES=500 scripts/bench-harness.sh
#
# Needs hyperfine on PATH (Debian: apt-get install -y hyperfine; elsewhere: cargo install
# hyperfine). Everything it writes goes to a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hyperfine >/dev/null 2>&1; then
  echo "bench-harness: needs hyperfine on PATH;" \
    "install it with \`apt-get install -y hyperfine\` (Debian/Ubuntu) or \`cargo install hyperfine\`" >&2
  exit 2
fi

rounds="${THAW_HARNESS_ROUNDS:-3}"
samples="${THAW_HARNESS_SAMPLES:-200}"
fixture="${THAW_HARNESS_FIXTURE:-users-2kb}"
op="${THAW_HARNESS_OP:-de}"
seed=20261130

cargo build --release -p cold --bins >&2
bin="$PWD/target/release"
work="$(mktemp -d "${TMPDIR:-/tmp}/thaw-bench-harness.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The median of the numbers on stdin (one per line).
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The wall_ns of the ok rows of a samples.csv, one per line.
wall_ns() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "wall_ns") w = i; if ($i == "status") s = i }; next }
           $s == "ok" { print $w }' "$1"
}

cold_medians=()
hf_medians=()
printf '%-6s %16s %16s %8s\n' round "cold run (us)" "hyperfine (us)" ratio
for round in $(seq 1 "$rounds"); do
  run="$work/cold-$round"
  "$bin/cold" run --codecs noop --ops "$op" --batches 1 --samples "$samples" \
    --fixture "$fixture" --seed "$seed" --out "$run" >"$work/cold-$round.log" 2>&1 \
    || { cat "$work/cold-$round.log" >&2; exit 1; }
  cold_ns="$(wall_ns "$run/samples.csv" | median)"

  # The exact command line the runner gave its children.
  hyperfine -N --style none --warmup 5 --runs "$samples" \
    --export-json "$work/hyperfine-$round.json" \
    -- "$bin/child-noop --op $op --batch 1 --fixture-file $run/fixtures/$fixture.json --fixture $fixture --seed $seed" \
    >"$work/hyperfine-$round.log" 2>&1 || { cat "$work/hyperfine-$round.log" >&2; exit 1; }
  hf_s="$(grep -o '"median": *[0-9.eE+-]*' "$work/hyperfine-$round.json" | head -1 | sed 's/.*: *//')"
  hf_ns="$(awk -v s="$hf_s" 'BEGIN { printf "%.0f", s * 1e9 }')"

  cold_medians+=("$cold_ns")
  hf_medians+=("$hf_ns")
  awk -v r="$round" -v c="$cold_ns" -v h="$hf_ns" \
    'BEGIN { printf "%-6s %16.1f %16.1f %8.3f\n", r, c / 1e3, h / 1e3, c / h }'
done

cold_all="$(printf '%s\n' "${cold_medians[@]}" | median)"
hf_all="$(printf '%s\n' "${hf_medians[@]}" | median)"
awk -v c="$cold_all" -v h="$hf_all" -v n="$samples" -v r="$rounds" 'BEGIN {
  printf "\nnoop wall median (median of %d rounds of %d samples): cold run %.1f us, hyperfine -N %.1f us\n", r, n, c / 1e3, h / 1e3
  printf "ratio cold/hyperfine: %.3f (%+.1f%%)\n", c / h, (c / h - 1) * 100 }'
