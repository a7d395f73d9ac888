#!/usr/bin/env bash
# How much the cold runner adds to what it measures: the `noop` child's wall time, through
# `cold run` started directly, through `cold run` started by `cargo run` (which fills its own
# environment with cargo's variables: the children must not inherit them), and through
# `hyperfine -N` (no shell) on the very same command line and environment, in alternating
# rounds. Prints each round's medians, then the medians over all rounds and their ratios:
# cargo/direct should be 1.00 within noise, and direct/hyperfine within a few per cent.
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

cargo build --release -p cold -p children --bin cold --bin cold-spawner --bin "child-noop-$op-any" >&2
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

run_cold() { # $1: how the runner is started (direct | cargo), $2: the run folder
  local args=(run --codecs noop --ops "$op" --batches 1 --samples "$samples" --fixture "$fixture" --out "$2")
  if [ "$1" = cargo ]; then
    cargo run --release -q -p cold -- "${args[@]}" >"$2.log" 2>&1 || { cat "$2.log" >&2; exit 1; }
  else
    "$bin/cold" "${args[@]}" >"$2.log" 2>&1 || { cat "$2.log" >&2; exit 1; }
  fi
  wall_ns "$2/samples.csv" | median
}

direct=() ; cargo=() ; hf=()
printf '%-6s %14s %14s %14s\n' round "direct (us)" "cargo run (us)" "hyperfine (us)"
for round in $(seq 1 "$rounds"); do
  d_ns="$(run_cold direct "$work/direct-$round")"
  c_ns="$(run_cold cargo "$work/cargo-$round")"
  # The exact command line and environment the runner gave its children (PATH and HOME only).
  input="$work/direct-$round/fixtures/$fixture.json"
  env -i PATH="$PATH" HOME="$HOME" hyperfine -N --style none --warmup 5 --runs "$samples" \
    --export-json "$work/hyperfine-$round.json" \
    -- "$bin/child-noop-$op-any --op $op --batch 1 --input $input --drops end" \
    >"$work/hyperfine-$round.log" 2>&1 || { cat "$work/hyperfine-$round.log" >&2; exit 1; }
  hf_s="$(grep -o '"median": *[0-9.eE+-]*' "$work/hyperfine-$round.json" | head -1 | sed 's/.*: *//')"
  h_ns="$(awk -v s="$hf_s" 'BEGIN { printf "%.0f", s * 1e9 }')"
  direct+=("$d_ns"); cargo+=("$c_ns"); hf+=("$h_ns")
  awk -v r="$round" -v d="$d_ns" -v c="$c_ns" -v h="$h_ns" \
    'BEGIN { printf "%-6s %14.1f %14.1f %14.1f\n", r, d / 1e3, c / 1e3, h / 1e3 }'
done

d_all="$(printf '%s\n' "${direct[@]}" | median)"
c_all="$(printf '%s\n' "${cargo[@]}" | median)"
h_all="$(printf '%s\n' "${hf[@]}" | median)"
awk -v d="$d_all" -v c="$c_all" -v h="$h_all" -v n="$samples" -v r="$rounds" 'BEGIN {
  printf "\nnoop wall, median of %d rounds of %d samples: direct %.1f us, cargo run %.1f us, hyperfine -N %.1f us\n", r, n, d / 1e3, c / 1e3, h / 1e3
  printf "cargo run / direct: %.3f (%+.1f%%); direct / hyperfine: %.3f (%+.1f%%)\n", c / d, (c / d - 1) * 100, d / h, (d / h - 1) * 100 }'
