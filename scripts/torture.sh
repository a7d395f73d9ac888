#!/usr/bin/env bash
# The hostile cases of the cold runner, the conformance command and the report, run against the
# built binaries in a temporary folder: two writers on one run folder, kills and signals
# mid-run, a full disk, edited or damaged run folders, children that hang, flood their output
# or leave processes behind, numbers out of range, a wrong corpus. Prints one row per probe:
# what was expected and what was seen. Exits 1 if any probe saw something else.
#
#   scripts/torture.sh            every probe (about two minutes)
#   scripts/torture.sh --quick    the fast ones (CI)
#
# The binaries come from target/release (THAW_BIN=DIR for others); build them with
#   cargo build --release -p cold -p children -p analysis -p fixtures --bins
# The full-disk probe mounts a small tmpfs, so it needs root; elsewhere it says it was skipped.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=false
case "${1:-}" in
  --quick) quick=true ;;
  "") ;;
  *) echo "usage: $0 [--quick]  (unknown argument \`$1\`)" >&2; exit 2 ;;
esac

bin="$(cd "${THAW_BIN:-target/release}" 2>/dev/null && pwd)" || {
  echo "no binaries at ${THAW_BIN:-target/release}: build them with" \
    "cargo build --release -p cold -p children -p analysis -p fixtures --bins" >&2
  exit 2
}
for b in cold cold-spawner analysis fixtures child-noop-de-any child-noop-ser-any; do
  [ -x "$bin/$b" ] || { echo "no $bin/$b: build it with" \
    "cargo build --release -p cold -p children -p analysis -p fixtures --bins" >&2; exit 2; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/thaw-torture.XXXXXX")"
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  pkill -KILL -f "$work/" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

probes=() expected=() seen=() verdicts=()
# record PROBE EXPECTED SEEN PASSED(0|1)
record() {
  probes+=("$1") expected+=("$2") seen+=("$3")
  if [ "$4" = 0 ]; then verdicts+=("pass"); else verdicts+=("FAIL"); fi
  printf '%-4s %s\n' "${verdicts[-1]}" "$1" >&2
}

cold() { "$bin/cold" "$@"; }

# Lines of a file, 0 when absent.
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }

# Waits until FILE has at least N lines (at most 60 s).
wait_lines() {
  local file=$1 n=$2 i
  for i in $(seq 1 6000); do
    [ "$(lines "$file")" -ge "$n" ] && return 0
    sleep 0.01
  done
  return 1
}

# "N rows, each of P plan indices once" or what differs, for a run folder.
indices() {
  local dir=$1 planned rows distinct
  planned=$(($(lines "$dir/plan.csv") - 1))
  rows=$(($(lines "$dir/samples.csv") - 1))
  distinct=$(tail -n +2 "$dir/samples.csv" | cut -d, -f1 | sort -un | wc -l)
  if [ "$rows" = "$planned" ] && [ "$distinct" = "$planned" ]; then
    echo "each of $planned plan indices once"
  else
    echo "$rows rows, $distinct distinct indices, $planned planned"
  fi
}

finished() { grep -o '"finished": *[a-z]*' "$1/manifest.json" | grep -o '[a-z]*$'; }

# A folder of children: copies of the real noop children, where the ones named in "$@" are
# replaced by shell scripts (given as NAME=SCRIPT) that run the real one at the end.
kids() {
  local dir=$1; shift
  mkdir -p "$dir"
  cp "$bin/child-noop-de-any" "$bin/child-noop-ser-any" "$dir/"
  local spec name body
  for spec in "$@"; do
    name=${spec%%=*} body=${spec#*=}
    printf '#!/bin/sh\n%s\nexec %s "$@"\n' "$body" "$bin/$name" >"$dir/$name"
    chmod +x "$dir/$name"
  done
}

# Processes whose command line contains $1 (other than pgrep itself).
alive() { pgrep -f "$1" | wc -l; }

small_run=(run --codecs noop --fixture small --batches 1,2)

# ---- two writers, kills and signals ------------------------------------------------------

probe_two_writers() {
  local dir=$work/lock out code pid
  "$bin/cold" "${small_run[@]}" --samples 150 --out "$dir" >/dev/null 2>&1 &
  pid=$!
  wait_lines "$dir/samples.csv" 5
  out=$(cold "${small_run[@]}" --samples 150 --seed 7 --out "$dir" 2>&1); code=$?
  record "a second run into a folder being written" \
    "refused (exit 1), naming the holder" \
    "exit $code: $(grep -o 'another cold run (pid [0-9]*' <<<"$out" | head -1)" \
    "$([ $code = 1 ] && grep -q "another cold run (pid $pid" <<<"$out"; echo $?)"
  out=$(cold run --resume "$dir" 2>&1); code=$?
  record "a resume of a folder being written" \
    "refused (exit 1), naming the holder" \
    "exit $code: $(grep -o 'another cold run (pid [0-9]*' <<<"$out" | head -1)" \
    "$([ $code = 1 ] && grep -q "another cold run (pid $pid" <<<"$out"; echo $?)"
  kill -STOP "$pid"
  local at; at=$(($(lines "$dir/samples.csv") - 1))
  kill -KILL "$pid"; wait "$pid" 2>/dev/null
  sleep 0.2
  local left; left=$(alive "$bin/child-noop")
  out=$(cold run --resume "$dir" 2>&1); code=$?
  local got; got=$(indices "$dir")
  record "SIGKILL mid-run ($at of 600 done), then --resume" \
    "nothing left running; resume exit 0; each of 600 plan indices once" \
    "$left left running; exit $code; $got" \
    "$([ "$left" = 0 ] && [ $code = 0 ] && [ "$got" = "each of 600 plan indices once" ]; echo $?)"
}

probe_signal() {
  local signal=$1 want=$2 dir=$work/sig-$1 pid code out
  "$bin/cold" "${small_run[@]}" --samples 150 --out "$dir" >"$work/sig-$1.out" 2>&1 &
  pid=$!
  wait_lines "$dir/samples.csv" 5
  kill "-$signal" "$pid"; wait "$pid"; code=$?
  out=$(cat "$work/sig-$1.out")
  local f; f=$(finished "$dir")
  local says=no; grep -q -- "--resume $dir" <<<"$out" && says=yes
  cold run --resume "$dir" >/dev/null 2>&1
  local got; got=$(indices "$dir")
  record "SIG$signal mid-run, then --resume" \
    "exit $want, says how to resume, finished false; then each index once" \
    "exit $code, says how: $says, finished $f; then $got" \
    "$([ $code = "$want" ] && [ $says = yes ] && [ "$f" = false ] && [ "$got" = "each of 600 plan indices once" ]; echo $?)"
}

probe_disk_full() {
  local mnt=$work/tiny dir code out
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=96k tmpfs "$mnt" 2>/dev/null; then
    record "a full disk mid-run" "a clear error, then resumable" "skipped: cannot mount a tmpfs (not root)" 0
    return
  fi
  mounted=$mnt
  dir=$mnt/run
  out=$(cold "${small_run[@]}" --samples 300 --out "$dir" 2>&1); code=$?
  local said; said=$(grep -o 'No space left on device' <<<"$out" | head -1)
  mount -o remount,size=8m "$mnt"
  cold run --resume "$dir" >/dev/null 2>&1
  local got; got=$(indices "$dir")
  record "a full disk mid-run, space freed, --resume" \
    "exit 1 naming the cause; then each of 1200 plan indices once" \
    "exit $code: ${said:-$(tail -1 <<<"$out")}; then $got" \
    "$([ $code = 1 ] && [ -n "$said" ] && [ "$got" = "each of 1200 plan indices once" ]; echo $?)"
  umount "$mnt"; mounted=""
}

# ---- folders that are not what they claim -------------------------------------------------

probe_not_a_run() {
  local dir=$work/mine code out before after
  mkdir -p "$dir"; echo "my notes" >"$dir/notes.txt"
  before=$(cat "$dir/notes.txt")
  out=$(cold "${small_run[@]}" --samples 2 --out "$dir" 2>&1); code=$?
  after=$(cat "$dir/notes.txt"); local n; n=$(ls -A "$dir" | wc -l)
  record "--out into a folder of the user's files" \
    "refused (exit 1); the folder untouched" \
    "exit $code; $n file(s), notes.txt $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)" \
    "$([ $code = 1 ] && [ "$n" = 1 ] && [ "$before" = "$after" ]; echo $?)"
}

# A finished run of noop on users-1kb (its seed matters) with its own copy of the children.
finished_run() {
  local dir=$1
  kids "$dir.kids"
  cold run --codecs noop --fixture users-1kb --batches 1 --samples 3 \
    --children-dir "$dir.kids" --out "$dir" >/dev/null 2>&1
}

# refused_resume PROBE DIR NEEDLE
refused_resume() {
  local out code
  out=$(cold run --resume "$2" 2>&1); code=$?
  record "$1" "refused (exit 1): \"$3\"" \
    "exit $code: $(grep -o "$3" <<<"$out" | head -1)" \
    "$([ $code = 1 ] && grep -q "$3" <<<"$out"; echo $?)"
}

probe_edited_folders() {
  local dir=$work/edited m
  finished_run "$dir"
  m=$(cat "$dir/manifest.json")
  sed -E 's/"seed": *([0-9]+)/"seed": 12345/' <<<"$m" >"$dir/manifest.json"
  refused_resume "--resume after the manifest's seed was edited" "$dir" "does not generate the fixture"
  sed -E 's/"plan_seed": *([0-9]+)/"plan_seed": 12345/' <<<"$m" >"$dir/manifest.json"
  refused_resume "--resume after the manifest's plan seed was edited" "$dir" "is not the plan manifest.json describes"
  echo "$m" >"$dir/manifest.json"
  cp "$dir/fixtures/users-1kb.json" "$work/saved.json"
  printf '{"users":[]}' >"$dir/fixtures/users-1kb.json"
  refused_resume "--resume after an input file changed" "$dir" "is not the input this run started with"
  cp "$work/saved.json" "$dir/fixtures/users-1kb.json"
  cp "$dir.kids/child-noop-de-any" "$work/saved-child"
  printf '\0' >>"$dir.kids/child-noop-de-any"
  refused_resume "--resume after a child was rebuilt" "$dir" "is not the one this run started with"
  cp "$work/saved-child" "$dir.kids/child-noop-de-any"
  tail -1 "$dir/samples.csv" | sed 's/^[0-9]*,/99,/' >>"$dir/samples.csv"
  refused_resume "--resume of samples.csv with a plan index beyond the plan" "$dir" "beyond its plan"
}

probe_damaged_folders() {
  local dir=$work/damaged out code plan
  finished_run "$dir"
  plan=$(cat "$dir/plan.csv")
  rm "$dir/plan.csv"
  touch "$dir/.manifest.json.tmp-99999"
  printf '2,1,noo' >>"$dir/samples.csv"
  out=$(cold run --resume "$dir" 2>&1); code=$?
  local same=no; [ "$(cat "$dir/plan.csv")" = "$plan" ] && same=yes
  local tmp=gone; [ -e "$dir/.manifest.json.tmp-99999" ] && tmp=left
  local cut=no; grep -q "cut a partial last row" <<<"$out" && cut=yes
  local got; got=$(indices "$dir")
  record "--resume with plan.csv missing, a torn last row, a temporary file left" \
    "exit 0; plan.csv written back the same; the row cut; the temporary removed" \
    "exit $code; plan.csv same: $same; cut: $cut; temporary $tmp; $got" \
    "$([ $code = 0 ] && [ $same = yes ] && [ $cut = yes ] && [ $tmp = gone ] && [ "$got" = "each of 6 plan indices once" ]; echo $?)"
}

# ---- children that misbehave -------------------------------------------------------------

# A noop run over fake children; prints the statuses of its samples as "status×count, …".
statuses() {
  tail -n +2 "$1/samples.csv" | cut -d, -f8 | sort | uniq -c | awk '{printf "%s%s×%s", (NR>1?", ":""), $2, $1}'
}

probe_orphan() {
  local dir=$work/orphan kidsdir=$work/orphan.kids
  # Every call leaves a process behind that holds the child's stdout open.
  kids "$kidsdir" "child-noop-de-any=sleep 31$$ &"
  cold run --codecs noop --ops de --fixture small --batches 1 --samples 20 \
    --children-dir "$kidsdir" --out "$dir" >/dev/null 2>&1
  local code=$? left; left=$(alive "sleep 31$$")
  local got; got=$(statuses "$dir")
  record "a child that leaves a process behind (holding its stdout)" \
    "every sample ok; nothing left running" \
    "exit $code; $got; $left left running" \
    "$([ $code = 0 ] && [ "$got" = "ok×20" ] && [ "$left" = 0 ]; echo $?)"
}

# A child script that counts its calls in COUNTER and does BODY on call number N.
on_call() {
  echo "n=\$(cat $1 2>/dev/null || echo 0); n=\$((n+1)); echo \$n >$1; if [ \$n = $2 ]; then $3; fi"
}

probe_hang() {
  local dir=$work/hang kidsdir=$work/hang.kids
  kids "$kidsdir" "child-noop-de-any=$(on_call "$work/hang.count" 5 "exec sleep 32$$")"
  cold run --codecs noop --ops de --fixture small --batches 1 --samples 10 --timeout 1 \
    --children-dir "$kidsdir" --out "$dir" >/dev/null 2>&1
  local code=$? left; left=$(alive "sleep 32$$")
  local got; got=$(statuses "$dir")
  record "a child that hangs on one sample (--timeout 1)" \
    "that sample a timeout, the rest ok; nothing left running" \
    "exit $code; $got; $left left running" \
    "$([ "$got" = "ok×9, timeout×1" ] && [ "$left" = 0 ]; echo $?)"
}

probe_flood() {
  local dir=$work/flood kidsdir=$work/flood.kids
  kids "$kidsdir" "child-noop-de-any=$(on_call "$work/flood.count" 4 "exec yes")"
  cold run --codecs noop --ops de --fixture small --batches 1 --samples 5 --timeout 60 \
    --children-dir "$kidsdir" --out "$dir" >/dev/null 2>&1
  local code=$? got; got=$(statuses "$dir")
  local why; why=$(grep -o 'SIGXFSZ: it wrote more than [0-9]* MiB' "$dir/samples.csv" | head -1)
  record "a child that floods its stdout" \
    "cut at the output cap (signal 25), the rest ok" \
    "exit $code; $got; ${why:-no reason given}" \
    "$([ "$got" = "ok×4, signal:25×1" ] && [ -n "$why" ]; echo $?)"
}

probe_runner_killed() {
  local dir=$work/orphaned kidsdir=$work/orphaned.kids pid
  kids "$kidsdir" "child-noop-de-any=$(on_call "$work/orphaned.count" 4 "sleep 33$$")"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 5 --timeout 600 \
    --children-dir "$kidsdir" --out "$dir" >/dev/null 2>&1 &
  pid=$!
  local i; for i in $(seq 1 1000); do [ "$(alive "sleep 33$$")" -gt 0 ] && break; sleep 0.01; done
  local before; before=$(alive "sleep 33$$")
  kill -KILL "$pid"; wait "$pid" 2>/dev/null
  sleep 0.5
  local left; left=$(($(alive "sleep 33$$") + $(alive "$bin/cold-spawner")))
  record "the runner killed while a child runs (timeout 600 s)" \
    "the spawner and the child die with it" \
    "$before child running before; $left process(es) left after" \
    "$([ "$before" -gt 0 ] && [ "$left" = 0 ]; echo $?)"
}

# ---- numbers and names out of range -------------------------------------------------------

probe_bad_numbers() {
  local args out code dir=$work/numbers
  for args in "--timeout 1e20" "--samples 4294967295" "--batches 1000000000" "--samples 0" \
    "--timeout -1" "--codecs yaml" "--fixture huge"; do
    # shellcheck disable=SC2086
    out=$(cold run $args --out "$dir" 2>&1); code=$?
    local made=no; [ -e "$dir" ] && made=yes
    record "cold run $args" "refused (exit 1 or 2) with the valid range or names; no folder" \
      "exit $code: $(head -c 90 <<<"$out" | tr '\n' ' ')…; folder made: $made" \
      "$([[ $code = 1 || $code = 2 ]] && [ $made = no ] && ! grep -q panicked <<<"$out"; echo $?)"
  done
}

probe_wrong_corpus() {
  local corpora=$work/corpora out code
  mkdir -p "$corpora"; echo '{"statuses": []}' >"$corpora/twitter.json"
  out=$(cold run --dry-run --codecs noop --fixture twitter --corpora "$corpora" 2>&1); code=$?
  record "a twitter.json that is not the classic one" \
    "refused (exit 1): not the classic corpus file" \
    "exit $code: $(grep -o 'is not the classic corpus file' <<<"$out")" \
    "$([ $code = 1 ] && grep -q 'is not the classic corpus file' <<<"$out"; echo $?)"
}

probe_conformance() {
  local dir=$work/conformance out code
  mkdir -p "$dir/empty"; echo "the previous table" >"$dir/table.csv"
  out=$("$bin/fixtures" conformance --cases "$dir/empty" --out "$dir/table.csv" 2>&1); code=$?
  local kept=no; [ "$(cat "$dir/table.csv")" = "the previous table" ] && kept=yes
  record "conformance --cases with no cases" \
    "refused (exit 1); the previous table kept" \
    "exit $code; table kept: $kept" \
    "$([ $code = 1 ] && [ $kept = yes ]; echo $?)"
}

# ---- the report ---------------------------------------------------------------------------

probe_report_columns() {
  local dir=$work/report-cols out code
  finished_run "$dir" 
  sed -i '1s/init_plus_ops_ns/init_ops_ns/; 1s/wall_ns/wall/' "$dir/samples.csv"
  out=$("$bin/analysis" report "$dir" --warm "$work/no-warm" --conformance "$work/none.csv" \
    --out "$work/report-cols.out" 2>&1); code=$?
  record "a report of samples.csv with its key columns renamed" \
    "refused (non-zero), naming the missing column" \
    "exit $code: $(grep -o 'init_plus_ops_ns[^.]*' <<<"$out" | head -1)" \
    "$([ $code != 0 ] && grep -q init_plus_ops_ns <<<"$out"; echo $?)"
}

probe_compare_disjoint() {
  local a=$work/cmp-a b=$work/cmp-b out code
  cold run --codecs noop --fixture small --batches 1 --samples 3 --out "$a" >/dev/null 2>&1
  cold run --codecs noop --fixture users-1kb --batches 1 --samples 3 --out "$b" >/dev/null 2>&1
  out=$("$bin/analysis" compare "$a" "$b" --fail-on-regression 2>&1); code=$?
  record "compare two runs with no cell in common" \
    "exit 2: no cell in common, no verdict" \
    "exit $code: $(grep -io 'no cell[^.]*' <<<"$out" | head -1)" \
    "$([ $code = 2 ] && grep -qi 'no cell' <<<"$out"; echo $?)"
}

probe_compare_small_n() {
  local a=$work/one-a b=$work/one-b out code
  cold run --codecs noop,serde_json --fixture small --batches 1 --samples 1 --out "$a" >/dev/null 2>&1
  cold run --codecs noop,serde_json --fixture small --batches 1 --samples 1 --out "$b" >/dev/null 2>&1
  out=$("$bin/analysis" compare "$a" "$b" --fail-on-regression 2>&1); code=$?
  local regressed; regressed=$(grep -ci 'regressed' <<<"$out")
  record "compare two one-sample runs with --fail-on-regression" \
    "no verdict at n = 1 (says so); exit 0 or 2, never 1" \
    "exit $code; lines saying regressed: $regressed" \
    "$([ $code != 1 ] && grep -qiE 'n ?< ?2|too few|one sample' <<<"$out"; echo $?)"
}

# ---- run -----------------------------------------------------------------------------------

probe_not_a_run
probe_edited_folders
probe_damaged_folders
probe_bad_numbers
probe_wrong_corpus
probe_conformance
probe_two_writers
probe_signal INT 130
probe_orphan
probe_hang
probe_report_columns
probe_compare_disjoint
probe_compare_small_n
if ! $quick; then
  probe_signal TERM 143
  probe_disk_full
  probe_flood
  probe_runner_killed
fi

failed=0
for v in "${verdicts[@]}"; do [ "$v" = pass ] || failed=$((failed + 1)); done
{
  printf '| probe | expected | seen | |\n|---|---|---|---|\n'
  for i in "${!probes[@]}"; do
    printf '| %s | %s | %s | %s |\n' "${probes[$i]}" "${expected[$i]}" "${seen[$i]}" "${verdicts[$i]}"
  done
} | tee "${TORTURE_TABLE:-/dev/null}"
echo
echo "${#probes[@]} probes, $failed failed"
[ "$failed" = 0 ]
