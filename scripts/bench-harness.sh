#!/usr/bin/env bash
# How much the cold runner adds to what it measures: the `noop` child's wall time, through
# `cold run` started directly, through `cold run` started by `cargo run` (which fills its own
# environment with cargo's variables: the children must not inherit them), and through
# `hyperfine -N` (no shell) on the very same command line and environment, in alternating
# rounds; then both again pinned to one CPU (`cold run --pin CPU`, `taskset -c CPU hyperfine`).
# Prints each round's medians, then the medians over all rounds and their ratios: cargo/direct
# should be 1.00 within noise, and so should pinned direct/pinned hyperfine. Unpinned, the
# runner's three processes (runner, spawner, child) cross between CPUs where hyperfine's two need
# not, which costs several per cent on a 2-CPU virtual machine.
#
# Beside them, the minimal spawner (scripts/minimal-spawner.c, compiled here with cc): posix_spawn
# then wait4, CLOCK_MONOTONIC read around both and nothing else, on the same command line and
# environment; once as hyperfine starts a child (output to /dev/null) and once as thaw's spawner
# does (its own process group, output to a file). docs/development.md explains the differences.
#
# Then the ladder: the minimal spawner again with thaw's steps added one at a time (its options,
# documented in minimal-spawner.c: -g own process group, -o memfd thaw's capture files, -p the
# wait on a pidfd, -r the rest of Rust's Command::spawn, -s a separate spawner process asked over
# a pipe, -m that spawner's memory limit, subreaper and cleanup between samples), in the same rounds, every rung interleaved sample by sample in a shuffled order (-l) and thaw's runner in
# turn with the ladder by chunks of 20 samples; printed as a table of each rung's median, its increment over the
# rung below, and the remainder thaw - top rung; then each step alone, over the minimal spawner.
#
# Last, scripts/harness-phases.py: thaw, the minimal spawner, the ladder's top rung and
# hyperfine -N in many short rounds of 20 samples each (a chunk of each, in a shuffled order),
# each round's difference of medians paired, with a 95% interval, and the walls of thaw and the
# two spawners split into the child's phases. This is the comparison to quote: a few long
# rounds (above) move with the machine by more than the differences they look for, and the
# ladder, whose rungs run interleaved in one process, read its rungs tens of microseconds under
# thaw where short paired rounds of each, run as thaw runs them, do not (docs/development.md).
#
#   scripts/bench-harness.sh                  3 rounds of 200 samples each way
#   THAW_HARNESS_ROUNDS=5 THAW_HARNESS_SAMPLES=500 scripts/bench-harness.sh
#   THAW_HARNESS_CPU=0 scripts/bench-harness.sh   pin to CPU 0 (default: the last CPU)
#   THAW_HARNESS_CHUNK=10 scripts/bench-harness.sh  thaw and the ladder in turn by 10 samples (20)
#   THAW_HARNESS_PHASE_ROUNDS=400 scripts/bench-harness.sh  short paired rounds of the last step (200)
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
cpu="${THAW_HARNESS_CPU:-$(($(nproc) - 1))}"
chunk="${THAW_HARNESS_CHUNK:-20}"
if ! command -v taskset >/dev/null 2>&1; then
  echo "bench-harness: needs taskset on PATH for the pinned rounds (Debian: util-linux)" >&2
  exit 2
fi
if ! command -v cc >/dev/null 2>&1; then
  echo "bench-harness: needs a C compiler (cc) for the minimal spawner (Debian: apt-get install -y gcc)" >&2
  exit 2
fi

cargo build --release -p cold -p spawner -p children --bin cold --bin cold-spawner --bin "child-noop-$op-any" >&2
bin="$PWD/target/release"
work="$(mktemp -d "${TMPDIR:-/tmp}/thaw-bench-harness.XXXXXX")"
# thaw's children run as an unprivileged user (docs/containment.md): they read from here
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/minimal-spawner" scripts/minimal-spawner.c

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

run_cold() { # $1: how the runner is started (direct | cargo | pinned), $2: the run folder
  local args=(run --codecs noop --ops "$op" --batches 1 --samples "$samples" --fixture "$fixture" --out "$2")
  if [ "$1" = pinned ]; then
    "$bin/cold" "${args[@]}" --pin "$cpu" >"$2.log" 2>&1 || { cat "$2.log" >&2; exit 1; }
  elif [ "$1" = cargo ]; then
    cargo run --release -q -p cold -- "${args[@]}" >"$2.log" 2>&1 || { cat "$2.log" >&2; exit 1; }
  else
    "$bin/cold" "${args[@]}" >"$2.log" 2>&1 || { cat "$2.log" >&2; exit 1; }
  fi
  wall_ns "$2/samples.csv" | median
}

# hyperfine -N on the exact command line and environment the runner gave its children (PATH
# and HOME only); $1: the run folder whose fixture it reads, $2: the JSON to write, then the
# command to start hyperfine under (nothing, or taskset). Prints the median in ns.
run_hyperfine() {
  local input="$1/fixtures/$fixture.json" json="$2"
  shift 2
  env -i PATH="$PATH" HOME="$HOME" "$@" hyperfine -N --style none --warmup 5 --runs "$samples" \
    --export-json "$json" \
    -- "$bin/child-noop-$op-any --op $op --batch 1 --input $input --drops end" \
    >"$json.log" 2>&1 || { cat "$json.log" >&2; exit 1; }
  local s
  s="$(grep -o '"median": *[0-9.eE+-]*' "$json" | head -1 | sed 's/.*: *//')"
  awk -v s="$s" 'BEGIN { printf "%.0f", s * 1e9 }'
}

# The minimal spawner on the same command line and environment; $1: the run folder whose fixture
# it reads, then its own options (-g, -o FILE). Prints the median in ns.
run_minimal() {
  local input="$1/fixtures/$fixture.json"
  shift
  "$work/minimal-spawner" -n "$samples" -w 5 "$@" -e "PATH=$PATH" -e "HOME=$HOME" -- \
    "$bin/child-noop-$op-any" --op "$op" --batch 1 --input "$input" --drops end
}

# The ladder's rungs, each one of thaw's steps on top of the one before, and each step alone.
rung_names=("minimal (as hyperfine)" "+ own group (-g)" "+ capture memfds (-o memfd)"
  "+ pidfd wait (-p)" "+ Rust spawn steps (-r)" "+ separate spawner (-s)"
  "+ spawner limits, cleanup (-m)")
rung_opts=("" "-g" "-g -o memfd" "-g -o memfd -p" "-g -o memfd -p -r" "-g -o memfd -p -r -s"
  "-g -o memfd -p -r -s -m")
alone_names=("-g" "-o memfd" "-o FILE" "-p" "-r" "-s" "-s -m")
alone_opts=("-g" "-o memfd" "-o $work/minimal-capture" "-p" "-r" "-s" "-s -m")

direct=() ; cargo=() ; hf=() ; pinned=() ; hf_pinned=() ; minimal=() ; minimal_thaw=()
printf '%-6s %14s %14s %14s %14s %14s %14s %14s\n' round "direct (us)" "cargo run (us)" \
  "hyperfine (us)" "minimal (us)" "min. thaw (us)" "pinned (us)" "hf pinned (us)"
for round in $(seq 1 "$rounds"); do
  d_ns="$(run_cold direct "$work/direct-$round")"
  c_ns="$(run_cold cargo "$work/cargo-$round")"
  h_ns="$(run_hyperfine "$work/direct-$round" "$work/hyperfine-$round.json")"
  m_ns="$(run_minimal "$work/direct-$round")"
  t_ns="$(run_minimal "$work/direct-$round" -g -o "$work/minimal-capture")"
  p_ns="$(run_cold pinned "$work/pinned-$round")"
  hp_ns="$(run_hyperfine "$work/direct-$round" "$work/hyperfine-pinned-$round.json" taskset -c "$cpu")"
  direct+=("$d_ns"); cargo+=("$c_ns"); hf+=("$h_ns"); pinned+=("$p_ns"); hf_pinned+=("$hp_ns")
  minimal+=("$m_ns"); minimal_thaw+=("$t_ns")
  awk -v r="$round" -v d="$d_ns" -v c="$c_ns" -v h="$h_ns" -v m="$m_ns" -v t="$t_ns" -v p="$p_ns" -v q="$hp_ns" \
    'BEGIN { printf "%-6s %14.1f %14.1f %14.1f %14.1f %14.1f %14.1f %14.1f\n", r, d / 1e3, c / 1e3, h / 1e3, m / 1e3, t / 1e3, p / 1e3, q / 1e3 }'
  # The ladder in the same round, its rungs interleaved sample by sample (minimal-spawner -l: a
  # drift of the machine's speed reaches every rung alike, where separate runs per rung cannot
  # resolve steps of a few microseconds), and thaw beside it: chunks of $chunk samples of each in
  # turn, so that thaw and the ladder are never further apart than one chunk; one median per
  # chunk in $work/rung-K, thaw's walls in $work/thaw-beside, each step alone in $work/alone-K.
  for c in $(seq 1 $(((samples + chunk - 1) / chunk))); do
    "$bin/cold" run --codecs noop --ops "$op" --batches 1 --samples "$chunk" --fixture "$fixture" \
      --out "$work/beside-$round-$c" >"$work/beside.log" 2>&1 || { cat "$work/beside.log" >&2; exit 1; }
    wall_ns "$work/beside-$round-$c/samples.csv" >>"$work/thaw-beside"
    mapfile -t ladder < <(samples="$chunk" run_minimal "$work/direct-$round" -l)
    [ "${#ladder[@]}" -eq "${#rung_opts[@]}" ] \
      || { echo "bench-harness: minimal-spawner -l gave ${#ladder[@]} rungs" >&2; exit 1; }
    for k in "${!ladder[@]}"; do echo "${ladder[$k]}" >>"$work/rung-$k"; done
  done
  line="ladder"
  for k in "${!rung_opts[@]}"; do
    line="$line $(median <"$work/rung-$k" | awk '{ printf "%.1f", $1 / 1e3 }')"
  done
  line="$line thaw $(median <"$work/thaw-beside" | awk '{ printf "%.1f", $1 / 1e3 }')"
  line="$line | alone"
  for k in "${!alone_opts[@]}"; do
    # shellcheck disable=SC2086
    ns="$(run_minimal "$work/direct-$round" ${alone_opts[$k]})"
    echo "$ns" >>"$work/alone-$k"
    line="$line $(awk -v n="$ns" 'BEGIN { printf "%.1f", n / 1e3 }')"
  done
  echo "       $line (us)"
done

d_all="$(printf '%s\n' "${direct[@]}" | median)"
c_all="$(printf '%s\n' "${cargo[@]}" | median)"
h_all="$(printf '%s\n' "${hf[@]}" | median)"
p_all="$(printf '%s\n' "${pinned[@]}" | median)"
q_all="$(printf '%s\n' "${hf_pinned[@]}" | median)"
m_all="$(printf '%s\n' "${minimal[@]}" | median)"
t_all="$(printf '%s\n' "${minimal_thaw[@]}" | median)"
awk -v d="$d_all" -v c="$c_all" -v h="$h_all" -v m="$m_all" -v t="$t_all" -v p="$p_all" -v q="$q_all" -v n="$samples" -v r="$rounds" -v cpu="$cpu" 'BEGIN {
  printf "\nnoop wall, median of %d rounds of %d samples: direct %.1f us, cargo run %.1f us, hyperfine -N %.1f us;\n", r, n, d / 1e3, c / 1e3, h / 1e3
  printf "minimal spawner: as hyperfine starts a child %.1f us, as thaw does (own group, output to a file) %.1f us\n", m / 1e3, t / 1e3
  printf "side by side: thaw %.1f us, hyperfine -N %.1f us, minimal %.1f us; thaw / minimal %.3f (%+.1f%%), thaw / minimal as thaw %.3f (%+.1f%%), hyperfine / minimal %.3f (%+.1f%%)\n", d / 1e3, h / 1e3, m / 1e3, d / m, (d / m - 1) * 100, d / t, (d / t - 1) * 100, h / m, (h / m - 1) * 100
  printf "pinned to CPU %s: cold run --pin %.1f us, taskset hyperfine -N %.1f us\n", cpu, p / 1e3, q / 1e3
  printf "cargo run / direct: %.3f (%+.1f%%); direct / hyperfine: %.3f (%+.1f%%); pinned / pinned: %.3f (%+.1f%%)\n", c / d, (c / d - 1) * 100, d / h, (d / h - 1) * 100, p / q, (p / q - 1) * 100 }'

# The ladder: each rung's median over the rounds, its increment over the rung below, and what is
# left between thaw and the top rung.
printf '\n%-30s %12s %12s\n' "ladder (median of chunks)" "median (us)" "step (us)"
prev=""
for k in "${!rung_opts[@]}"; do
  v="$(median <"$work/rung-$k")"
  awk -v name="${rung_names[$k]}" -v v="$v" -v p="$prev" 'BEGIN {
    if (p == "") printf "%-30s %12.1f %12s\n", name, v / 1e3, "";
    else printf "%-30s %12.1f %+12.1f\n", name, v / 1e3, (v - p) / 1e3 }'
  prev="$v"
done
base="$(median <"$work/rung-0")"
beside="$(median <"$work/thaw-beside")"
awk -v d="$beside" -v top="$prev" -v m="$base" 'BEGIN {
  printf "%-30s %12.1f %+12.1f   (thaw beside the ladder - top rung: the remainder)\n", "thaw (cold run)", d / 1e3, (d - top) / 1e3
  printf "thaw - the ladder'"'"'s minimal %+.1f us, of which the rungs %+.1f us and the remainder %+.1f us\n", (d - m) / 1e3, (top - m) / 1e3, (d - top) / 1e3 }'
printf '\n%-30s %12s %12s\n' "each step alone" "median (us)" "over min. (us)"
for k in "${!alone_opts[@]}"; do
  v="$(median <"$work/alone-$k")"
  awk -v name="${alone_names[$k]}" -v v="$v" -v m="$m_all" 'BEGIN {
    printf "%-30s %12.1f %+12.1f\n", name, v / 1e3, (v - m) / 1e3 }'
done

printf '\nshort paired rounds (scripts/harness-phases.py):\n'
python3 scripts/harness-phases.py --rounds "${THAW_HARNESS_PHASE_ROUNDS:-200}" --samples 20 \
  --op "$op" --fixture "$fixture" --quiet
