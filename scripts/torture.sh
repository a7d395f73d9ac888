#!/usr/bin/env bash
# The hostile cases of thaw, run against the built binaries in a temporary folder, each with its
# exact expected outcome: the exit code, a stable part of the message (the file or option it
# names), the data intact (a victim file's SHA-256 before and after; a run folder's samples.csv
# unchanged where it must be) and nothing left running (no process whose command line holds the
# temporary folder's path: every binary, child and hostile helper runs from inside it).
#
# The probes are issue 21's nineteen defects (hostile run folders, warm folders, children and
# external descriptions: `p01`…`p19`), issue 31's sixteen (limits a child cannot lift, outputs
# that never land on inputs, hard links, bounded reads, clipped and escaped text: `q01`…`q16`),
# issue 60's (a child without privileges in namespaces of its own, a lock that is not a name, a
# samples file that cannot shrink unseen: `s01`…`s06`, each with a neighbour),
# and the older probes of the runner (two writers, kills
# and signals, a full disk, edited or damaged folders, children that hang, flood or leave
# processes behind, numbers out of range, a wrong corpus, conformance, compare), made exact as
# issue 20 asks. No sleep decides a result: where a probe waits for an event (a child started,
# a process died) it polls for it with a generous bound and fails, saying so, if it never comes.
#
# Prints one table, probe | expected | seen | verdict, and exits 1 if any probe failed.
#
#   scripts/torture.sh            every probe
#   scripts/torture.sh --quick    the fast ones (CI)
#   scripts/torture.sh --only P   the probes whose function name holds P (e.g. p04), for debugging
#
# The binaries come from target/release, built first (THAW_BIN=DIR for others, not built); by hand:
#   cargo build --release -p cold -p spawner -p analysis -p fixtures --bins \
#     && cargo build --release -p children --bin child-noop-de-any --bin child-noop-ser-any \
#          --bin child-serde_json-de-small --bin child-serde_json-ser-small
# They are copied into the temporary folder first, so a build running meanwhile cannot change
# them under a probe and every process a probe starts carries the folder's path.
# TORTURE_TABLE=FILE also writes the table there; TORTURE_KEEP=1 keeps the temporary folder.
# The full-disk probe mounts a small tmpfs and the device probe makes a device node, so they
# need root; elsewhere they say they were skipped (SKIP, which does not fail the script, except
# under THAW_CI=1: CI states that it runs as root, so there a skipped probe fails).
# Needs perl, setsid, pgrep, timeout, prlimit, mkfifo, python3, truncate, and a grep with -P.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

quick=false
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=true ;;
    --only) only=${2:-}; shift ;;
    *) echo "usage: $0 [--quick] [--only NAME]  (unknown argument \`$1\`)" >&2; exit 2 ;;
  esac
  shift
done

build_hint="cargo build --release -p cold -p spawner -p analysis -p fixtures --bins && cargo build --release -p children --bin child-noop-de-any --bin child-noop-ser-any --bin child-serde_json-de-small --bin child-serde_json-ser-small"
# Without THAW_BIN the probes use this checkout's release build, built here first (cargo does
# nothing when it is up to date), so a fresh clone and CI need no step before this one.
if [ -z "${THAW_BIN:-}" ]; then
  cargo build --quiet --release -p cold -p spawner -p analysis -p fixtures --bins \
    && cargo build --quiet --release -p children --bin child-noop-de-any --bin child-noop-ser-any \
      --bin child-serde_json-de-small --bin child-serde_json-ser-small \
    || { echo "$0: the build failed: $build_hint" >&2; exit 2; }
fi
src="$(cd "${THAW_BIN:-target/release}" 2>/dev/null && pwd)" || {
  echo "no binaries at ${THAW_BIN:-target/release}: build them with $build_hint" >&2
  exit 2
}
needed=(cold cold-spawner analysis fixtures child-noop-de-any child-noop-ser-any
  child-serde_json-de-small child-serde_json-ser-small)
for b in "${needed[@]}"; do
  [ -x "$src/$b" ] || { echo "no $src/$b: build it with $build_hint" >&2; exit 2; }
done
for tool in perl setsid pgrep pkill timeout prlimit mkfifo sha256sum python3 truncate; do
  command -v "$tool" >/dev/null || { echo "$0 needs $tool" >&2; exit 2; }
done
echo x | grep -qP 'x' 2>/dev/null || { echo "$0 needs a grep with -P (PCRE)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/thaw-torture.XXXXXX")"
work="$(cd "$work" && pwd -P)"
# Children run as an unprivileged user (docs/containment.md, "The child"): they must reach their
# programs, and the hostile children leave their marks (calls, pids) here. The run folders the
# probes make below it are root's, as a user's would be.
chmod 777 "$work"
bin=$work/bin
mkdir -p "$bin"
for b in "${needed[@]}"; do cp "$src/$b" "$bin/"; done
# A sleep whose command line holds the folder's path, for the hostile children's helpers.
cp "$(command -v sleep)" "$bin/tsleep"
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  # Stopped processes first woken, then everything of ours killed (a probe that failed may
  # have left some; the probes themselves check that none is left).
  pkill -CONT -f "$work/" 2>/dev/null
  pkill -KILL -f "$work/" 2>/dev/null
  if [ -n "${TORTURE_KEEP:-}" ]; then echo "kept $work" >&2; else
    chmod -R u+rwX "$work" 2>/dev/null
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the table -------------------------------------------------------------------------------

probes=() expected=() seen=() verdicts=()
# record PROBE EXPECTED SEEN STATUS: STATUS 0 passes, anything else fails.
record() {
  probes+=("$1") expected+=("$2") seen+=("$3")
  if [ "$4" = 0 ]; then verdicts+=("PASS"); else verdicts+=("FAIL"); fi
  printf '%-4s %s\n' "${verdicts[-1]}" "$1" >&2
  [ "$4" = 0 ] || printf '       expected: %s\n       seen:     %s\n' "$2" "$3" >&2
}
skip() {
  probes+=("$1") expected+=("$2") seen+=("skipped: $3") verdicts+=("SKIP")
  printf 'SKIP %s (%s)\n' "$1" "$3" >&2
}

# ---- helpers ---------------------------------------------------------------------------------

# Every command runs with THAW_EXTERNAL unset (a probe that needs it sets it) and a bound.
LIMIT=120
cold() { env -u THAW_EXTERNAL timeout -k 5 "$LIMIT" "$bin/cold" "$@"; }
analysis() { timeout -k 5 "$LIMIT" "$bin/analysis" "$@"; }

# run OUT CMD…: runs CMD with stdout and stderr into OUT; returns its exit code.
run() { local out=$1; shift; "$@" >"$out" 2>&1; }

# Text for the table: control characters shown as \xNN (this script prints nothing raw either),
# cut to 160 characters.
inert() { perl -CS -Mutf8 -ne 'chomp; s/([\x00-\x1f\x7f-\x9f])/sprintf("\\x%02x", ord $1)/ge; print substr($_, 0, 160)' 2>/dev/null; }
# The first line of OUT holding NEEDLE (fixed string), inert, or "(nothing)".
said() { local l; l=$(grep -aF -m1 -- "$2" "$1" 2>/dev/null | inert); echo "${l:-(nothing)}"; }
has() { grep -qaF -- "$2" "$1" 2>/dev/null; }
# The last line of OUT (what a refused command said), inert.
last() { tail -n 1 "$1" 2>/dev/null | inert; }

# SHA-256 of a file ("absent" when there is none).
sha() { if [ -f "$1" ]; then sha256sum "$1" | cut -c1-64; else echo absent; fi; }
# The folder's names and contents, as one hash.
tree_sha() {
  (cd "$1" 2>/dev/null && find . -print0 | LC_ALL=C sort -z |
    while IFS= read -r -d '' f; do
      printf '%s\n' "$f"
      [ -f "$f" ] && [ ! -L "$f" ] && sha256sum <"$f"
      [ -L "$f" ] && readlink "$f"
    done) | sha256sum | cut -c1-64
}

# Lines of FILE holding a raw control character (C0 but tab and newline, DEL, C1 in UTF-8).
raw_controls() {
  LC_ALL=C grep -caP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$@" 2>/dev/null |
    awk -F: '{n += $NF} END {print n + 0}'
}

# Processes of ours (their command line holds the temporary folder), other than pgrep.
ours() { pgrep -f -- "$work/" | wc -l; }
# Polls (at most SECS) until none of ours is left; prints how many are.
settle() {
  local secs=${1:-10} i
  for ((i = 0; i < secs * 100; i++)); do
    [ "$(ours)" = 0 ] && { echo 0; return; }
    sleep 0.01
  done
  ours
}
# Kills whatever of ours a probe left (after it counted them), so the next starts clean.
sweep() { pkill -CONT -f -- "$work/" 2>/dev/null; pkill -KILL -f -- "$work/" 2>/dev/null; settle 10 >/dev/null; }

# until_true SECS CMD…: polls CMD until it succeeds (at most SECS); fails if it never does.
until_true() {
  local secs=$1 i; shift
  for ((i = 0; i < secs * 100; i++)); do
    "$@" && return 0
    sleep 0.01
  done
  return 1
}

lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
rows() { echo $(($(lines "$1/samples.csv") - 1)); }
# "each of N plan indices once" or what differs, for a run folder.
indices() {
  local dir=$1 planned n distinct
  planned=$(($(lines "$dir/plan.csv") - 1))
  n=$(rows "$dir")
  distinct=$(tail -n +2 "$dir/samples.csv" 2>/dev/null | cut -d, -f1 | sort -un | wc -l)
  if [ "$n" = "$planned" ] && [ "$distinct" = "$planned" ]; then
    echo "each of $planned plan indices once"
  else
    echo "$n rows, $distinct distinct indices, $planned planned"
  fi
}
finished() { grep -o '"finished": *[a-z]*' "$1/manifest.json" 2>/dev/null | grep -o '[a-z]*$'; }
# What contained a run's samples, as its manifest says (docs/containment.md): whether a pid
# namespace held them (a child can then neither see its runner nor kill or stop its spawner),
# and whether a memory cgroup did.
pidns() { grep -q '"containment": "a pid namespace' "$1/manifest.json" 2>/dev/null; }
memcg() { grep -q '"containment": "[^"]*a memory cgroup v' "$1/manifest.json" 2>/dev/null; }
# The statuses of a run's samples as "status×count, …".
statuses() {
  tail -n +2 "$1/samples.csv" 2>/dev/null | cut -d, -f8 | sort | uniq -c |
    awk '{printf "%s%s×%s", (NR>1?", ":""), $2, $1}'
}
# The `error` field (the last) of the row of plan index I.
row_error() { awk -F, -v i="$2" 'NR > 1 && $1 == i' "$1/samples.csv" | perl -ne 'chomp; s/^.*?((?:"(?:[^"]|"")*"|[^,]*))$/$1/; print'; }

# A folder of children: copies of the real noop children, where the ones named are replaced by
# shell scripts (given as NAME=BODY) that count their calls in $0.count (the call number is
# `$n`; the preflight is call 1 when the run has one batch), run BODY, then the real child. In
# BODY, $W is the temporary folder, $B its binaries, $K the children's folder.
kids() {
  local dir=$1; shift
  mkdir -p "$dir"
  # the hostile children (an unprivileged user) keep their counts and marks here
  chmod 777 "$dir"
  cp "$bin/child-noop-de-any" "$bin/child-noop-ser-any" "$dir/"
  local spec name body
  for spec in "$@"; do
    name=${spec%%=*} body=${spec#*=}
    {
      printf '#!/bin/sh\nW=%q; B=%q; K=%q\n' "$work" "$bin" "$dir"
      printf 'n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n+1)); echo "$n" >"$0.count"\n'
      printf '%s\n' "$body"
      printf 'exec "$B/%s" "$@"\n' "$name"
    } >"$dir/$name"
    chmod +x "$dir/$name"
  done
}
# A BODY that, on call N, says so ($K/blocked) and waits until $K/release exists (60 s at most).
gate() {
  echo "if [ \"\$n\" = $1 ]; then touch \"\$K/blocked\"; i=0; while [ ! -e \"\$K/release\" ] && [ \$i -lt 6000 ]; do \"\$B/tsleep\" 0.01; i=\$((i+1)); done; fi"
}

# A finished run of noop de and ser on small, batch 1, 3 samples (6 children), with its own
# children; `unfinished_run` then drops its last row so that a resume has something to do.
finished_run() {
  local dir=$1
  kids "$dir.kids"
  cold run --codecs noop --fixture small --batches 1 --samples 3 \
    --children-dir "$dir.kids" --out "$dir" >"$dir.out" 2>&1
}
unfinished_run() { finished_run "$1" && sed -i '$d' "$1/samples.csv"; }

# A synthetic run folder (57 cells, 114 samples) and its warm results.
synth_run() { local dir=$1 warm=${2:-}; shift; shift; analysis synth --out "$dir" --samples 60 ${warm:+--warm "$warm"} "$@" >/dev/null 2>&1; }
# TEXT=… hostile_manifest FILE: TEXT (JSON string content) after serde_json's library name and as
# its version, as the CPU, as the detail of a failed check and as the reason of an unsupported cell.
hostile_manifest() {
  perl -0777 -i -pe 's/"library": "serde_json"/"library": "serde_json$ENV{TEXT}"/;
    s/"version": "([^"]*)"/"version": "$1$ENV{TEXT}"/;
    s/"cpu_model": "[^"]*"/"cpu_model": "cpu$ENV{TEXT}"/;
    s/"verification": \[/"verification": [{"codec": "simd-json", "fixture": "users-2kb", "op": "de", "status": "fail", "detail": "detail$ENV{TEXT}"},/;
    s/"unsupported": \[\]/"unsupported": [{"codec": "jiter", "fixture": "users-2kb", "op": "ser", "reason": "reason$ENV{TEXT}"}]/' "$1"
}
# TEXT=… hostile_errors FILE: TEXT (raw) as the error of every failed sample of a synthetic run.
hostile_errors() {
  perl -0777 -i -pe 's/,child did not finish within the timeout$/",\"" . $ENV{TEXT} . "\""/mge' "$1"
}

# `analysis report RUN` with no warm results and no conformance table, and more arguments.
report() { local dir=$1; shift; analysis report "$dir" --warm "$work/no-warm" --conformance "$work/none.csv" "$@"; }

# Perl edits of a JSON or CSV file in place (the expression sees the whole file in $_).
edit() { local file=$1; shift; perl -0777 -i -pe "$@" "$file"; }

victim_text="the victim's own data, which nothing thaw does may change"
victim() { printf '%s\n' "$victim_text" >"$1"; }

# ---- issue 21 ----------------------------------------------------------------------------------

# 1. Symbolic links inside a run or report folder are never followed when writing.
p01_links() {
  local d=$work/p01 out code before after bs as
  mkdir -p "$d"; victim "$d/victim"; before=$(sha "$d/victim")

  unfinished_run "$d/lock"
  rm -f "$d/lock/.lock"; ln -s "$d/victim" "$d/lock/.lock"
  bs=$(sha "$d/lock/samples.csv")
  run "$d/lock.said" cold resume "$d/lock"; code=$?
  after=$(sha "$d/victim"); as=$(sha "$d/lock/samples.csv")
  record "p01a RUN/.lock linked to a victim, then cold resume" \
    "exit 1 naming .lock (a symbolic link); the victim and samples.csv unchanged; nothing left" \
    "exit $code: $(said "$d/lock.said" .lock); victim $([ "$before" = "$after" ] && echo unchanged || echo CHANGED); samples.csv $([ "$bs" = "$as" ] && echo unchanged || echo CHANGED); $(ours) left" \
    "$(test $code = 1 -a "$before" = "$after" -a "$bs" = "$as" -a "$(ours)" = 0 && has "$d/lock.said" .lock && has "$d/lock.said" "symbolic link" && echo 0 || echo 1)"
  sweep

  unfinished_run "$d/dangling"
  rm -f "$d/dangling/.lock"; ln -s "$d/created-by-thaw" "$d/dangling/.lock"
  run "$d/dangling.said" cold resume "$d/dangling"; code=$?
  record "p01b RUN/.lock a dangling link, then cold resume" \
    "exit 1 naming .lock; the link's target not created" \
    "exit $code: $(said "$d/dangling.said" .lock); target $([ -e "$d/created-by-thaw" ] && echo CREATED || echo absent)" \
    "$(test $code = 1 -a ! -e "$d/created-by-thaw" && has "$d/dangling.said" .lock && echo 0 || echo 1)"

  unfinished_run "$d/samples"
  cp "$d/samples/samples.csv" "$d/victim-samples.csv"; echo '2,1,no' >>"$d/victim-samples.csv"
  local vb; vb=$(sha "$d/victim-samples.csv")
  rm "$d/samples/samples.csv"; ln -s "$d/victim-samples.csv" "$d/samples/samples.csv"
  run "$d/samples.said" cold resume "$d/samples"; code=$?
  record "p01c RUN/samples.csv linked outside (torn last row), then cold resume" \
    "exit 1 naming samples.csv; the linked file unchanged (not cut, not appended to)" \
    "exit $code: $(said "$d/samples.said" samples.csv); linked file $([ "$vb" = "$(sha "$d/victim-samples.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$vb" = "$(sha "$d/victim-samples.csv")" && has "$d/samples.said" samples.csv && echo 0 || echo 1)"

  unfinished_run "$d/manifest"
  cp "$d/manifest/manifest.json" "$d/victim-manifest.json"
  local mb; mb=$(sha "$d/victim-manifest.json")
  rm "$d/manifest/manifest.json"; ln -s "$d/victim-manifest.json" "$d/manifest/manifest.json"
  run "$d/manifest.said" cold resume "$d/manifest"; code=$?
  record "p01d RUN/manifest.json linked outside, then cold resume" \
    "exit 1 naming manifest.json; the linked file unchanged" \
    "exit $code: $(said "$d/manifest.said" manifest.json); linked file $([ "$mb" = "$(sha "$d/victim-manifest.json")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$mb" = "$(sha "$d/victim-manifest.json")" && has "$d/manifest.said" manifest.json && echo 0 || echo 1)"
  sweep

  synth_run "$d/synth"
  local f
  for f in report.md charts/cost-0.svg; do
    rm -rf "$d/synth/report"; mkdir -p "$d/synth/report/charts"
    ln -s "$d/victim" "$d/synth/report/$f"
    run "$d/report.said" report "$d/synth"; code=$?
    after=$(sha "$d/victim")
    local now=link; [ -L "$d/synth/report/$f" ] || { [ -f "$d/synth/report/$f" ] && now="a regular file"; }
    record "p01e RUN/report/$f linked to a victim, then analysis report RUN" \
      "exit 0; the victim unchanged; the link replaced by a regular file (written anew, then renamed)" \
      "exit $code: $(last "$d/report.said"); victim $([ "$before" = "$after" ] && echo unchanged || echo CHANGED); $f now $now" \
      "$(test $code = 0 -a "$before" = "$after" -a "$now" = "a regular file" && echo 0 || echo 1)"
  done

  rm -rf "$d/synth/report"; mkdir -p "$d/elsewhere"; ln -s "$d/elsewhere" "$d/synth/report"
  run "$d/report.said" report "$d/synth"; code=$?
  local n; n=$(ls -A "$d/elsewhere" | wc -l)
  record "p01f RUN/report itself linked to another folder, then analysis report RUN" \
    "exit 2 naming report; nothing written into the other folder" \
    "exit $code: $(said "$d/report.said" report); $n file(s) in the other folder" \
    "$(test $code = 2 -a "$n" = 0 && has "$d/report.said" "report" && echo 0 || echo 1)"

  rm -f "$d/synth/report"; mkdir -p "$d/out"; ln -s "$d/victim" "$d/out/summary.csv"
  run "$d/report.said" report "$d/synth" --out "$d/out"; code=$?
  after=$(sha "$d/victim")
  local now=link; [ -L "$d/out/summary.csv" ] || { [ -f "$d/out/summary.csv" ] && now="a regular file"; }
  record "p01g report --out OUT whose summary.csv is linked to a victim" \
    "exit 0; the victim unchanged; the link replaced by a regular file" \
    "exit $code: $(last "$d/report.said"); victim $([ "$before" = "$after" ] && echo unchanged || echo CHANGED); summary.csv now $now" \
    "$(test $code = 0 -a "$before" = "$after" -a "$now" = "a regular file" && echo 0 || echo 1)"
}

# 2. A warm estimate of 1e308 ns (it once looped for ever in the chart's ticks).
p02_huge_estimate() {
  local d=$work/p02 code secs t0
  mkdir -p "$d"; synth_run "$d/run" "$d/warm"
  local est=$d/warm/criterion/portable/users-2kb_de/serde_json/new/estimates.json
  edit "$est" 's/"point_estimate":[0-9.e+-]+/"point_estimate":1e308/g; s/"(lower|upper)_bound":[0-9.e+-]+/"$1_bound":1e308/g'
  t0=$(date +%s)
  run "$d/said" timeout -k 5 60 prlimit --as=$((4 << 30)) -- "$bin/analysis" report "$d/run" \
    --warm "$d/warm" --conformance "$work/none.csv" --out "$d/report"; code=$?
  secs=$(($(date +%s) - t0))
  local in_md=no; grep -qF "serde_json/new/estimates.json" "$d/report/report.md" 2>/dev/null && in_md=yes
  record "p02 a criterion estimates.json of 1e308 ns (report, 60 s and 4 GiB at most)" \
    "exit 0 in bounded time; that estimates.json named as skipped on the terminal and in report.md; no 1e308 shown outside that note" \
    "exit $code after ${secs} s; terminal: $(said "$d/said" "serde_json/new/estimates.json"); report.md names it: $in_md" \
    "$(test $code = 0 -a $in_md = yes && has "$d/said" "serde_json/new/estimates.json" && has "$d/said" skipped && ! grep -v skipped "$d/report/report.md" | grep -qiE '(^|[^0-9])1(\.0+)?e\+?308' && echo 0 || echo 1)"
}

# 3. A child that leaves a daemon in a session of its own (setsid), deaf to SIGHUP and SIGTERM,
# which stays quiet during its own sample and then prints into whatever comes next.
p03_setsid_daemon() {
  local d=$work/p03 code
  mkdir -p "$d"
  local body
  body=$(cat <<'EOF'
pgrep -f "$K/daemo[n]" | wc -l >>"$K/survivors"
setsid sh -c 'trap "" HUP TERM INT; echo "$2" >>"$4/started"; while [ "$(cat "$1")" = "$2" ]; do "$3" 0.01; done; while :; do echo junk; echo junk >&2; "$3" 0.01; done' "$K/daemon" "$0.count" "$n" "$B/tsleep" "$K" </dev/null &
i=0; while ! grep -qx "$n" "$K/started" 2>/dev/null && [ $i -lt 3000 ]; do "$B/tsleep" 0.01; i=$((i+1)); done
EOF
)
  kids "$d/kids" "child-noop-de-any=$body"
  run "$d/said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 12 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local survived; survived=$(awk '{n += $1} END {print n + 0}' "$d/kids/survivors" 2>/dev/null)
  local got; got=$(statuses "$d/run"); local left; left=$(ours)
  local started; started=$(lines "$d/kids/started")
  record "p03 a child leaves a setsid daemon (HUP and TERM ignored) every sample" \
    "13 daemons started (preflight and 12 samples); exit 0; ok×12; none alive when the next child starts; nothing left after" \
    "$started started; exit $code; $got; $survived earlier daemon(s) alive at later starts; $left left after" \
    "$(test "$started" = 13 -a $code = 0 -a "$got" = "ok×12" -a "$survived" = 0 -a "$left" = 0 && echo 0 || echo 1)"
  sweep
}

# 4. A child that stops (or kills) its spawner; the runner signalled while its spawner is stopped.
p04_spawner() {
  local d=$work/p04 code t0 secs
  mkdir -p "$d"
  kids "$d/stop" 'child-noop-de-any=if [ "$n" = 4 ]; then kill -STOP $PPID; fi'
  t0=$(date +%s)
  run "$d/stop.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 6 \
    --timeout 1 --children-dir "$d/stop" --out "$d/stop-run"; code=$?
  secs=$(($(date +%s) - t0))
  local got; got=$(statuses "$d/stop-run"); local left; left=$(ours)
  local idx; idx=$(indices "$d/stop-run")
  # In a pid namespace the spawner is the namespace's init: the kernel drops a SIGSTOP or SIGKILL
  # a child sends it, and the sample is ok.
  local want_code=3 want="ok×5, spawner-lost×1" how="spawner-lost×1"
  pidns "$d/stop-run" && { want_code=0 want="ok×6" how="the spawner out of reach (pid namespace)"; }
  record "p04a a child stops its spawner (kill -STOP \$PPID), --timeout 1" \
    "exit $want_code within 60 s; $want ($how); each index once; nothing left (no stopped spawner)" \
    "exit $code after ${secs} s; $got; $idx; $left left" \
    "$(test $code = $want_code -a "$secs" -le 60 -a "$got" = "$want" -a "$idx" = "each of 6 plan indices once" -a "$left" = 0 && echo 0 || echo 1)"
  sweep

  kids "$d/kill" 'child-noop-de-any=if [ "$n" = 4 ]; then kill -KILL $PPID; fi'
  run "$d/kill.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 6 \
    --children-dir "$d/kill" --out "$d/kill-run"; code=$?
  got=$(statuses "$d/kill-run"); left=$(ours); idx=$(indices "$d/kill-run")
  want_code=3 want="ok×5, spawner-lost×1" how="spawner-lost×1"
  pidns "$d/kill-run" && { want_code=0 want="ok×6" how="the spawner out of reach (pid namespace)"; }
  record "p04b a child kills its spawner (kill -KILL \$PPID)" \
    "exit $want_code; $want ($how); each index once; nothing left" \
    "exit $code; $got; $idx; $left left" \
    "$(test $code = $want_code -a "$got" = "$want" -a "$idx" = "each of 6 plan indices once" -a "$left" = 0 && echo 0 || echo 1)"
  sweep

  # --timeout 60: the watchdog would wait 60 s and more; SIGTERM must end the run at once. The
  # child stops its spawner, or, where it cannot (a pid namespace), the probe stops it.
  kids "$d/term" 'child-noop-de-any=if [ "$n" = 4 ]; then touch "$K/blocked"; kill -STOP $PPID; "$B/tsleep" 60; fi'
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 6 --timeout 60 \
    --children-dir "$d/term" --out "$d/term-run" >"$d/term.said" 2>&1 &
  local pid=$!
  spawner_stopped() {
    [ -e "$d/term/blocked" ] || return 1
    pidns "$d/term-run" && pkill -STOP -f -- "$bin/cold-spawner"
    pgrep -f -- "$bin/cold-spawner" | while read -r p; do awk '{print $3}' "/proc/$p/stat" 2>/dev/null; done | grep -q T
  }
  if ! until_true 60 spawner_stopped; then
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    record "p04c SIGTERM to the runner while its spawner is stopped" "exit 143 at once" \
      "the child never stopped its spawner within 60 s" 1
    sweep; return
  fi
  t0=$(date +%s)
  kill -TERM $pid
  gone() { ! kill -0 $pid 2>/dev/null; }
  until_true 30 gone
  secs=$(($(date +%s) - t0))
  wait $pid 2>/dev/null; code=$?
  left=$(settle 10)
  record "p04c SIGTERM to the runner while its spawner is stopped (--timeout 60)" \
    "exit 143 within 30 s, saying how to resume; nothing left (the stopped spawner killed)" \
    "exit $code after ${secs} s: $(said "$d/term.said" "resume"); $left left" \
    "$(test $code = 143 -a "$secs" -le 30 -a "$left" = 0 && has "$d/term.said" "resume" && echo 0 || echo 1)"
  sweep
}

# 5. Terminal escapes from a child's stderr and from a crafted folder never reach a terminal raw.
p05_escapes() {
  local d=$work/p05 code
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any=printf "boom\033]0;pwned-title\007\033[2J\033[31mred\233[1m\r\n" >&2; exit 1'
  run "$d/cold.said" cold run --codecs noop --fixture small --batches 1 --samples 2 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local raw; raw=$(raw_controls "$d/cold.said")
  record "p05a a preflight fails with escape sequences in the child's stderr" \
    "exit 3 (noop de left out); the stderr shown escaped (\\u{1b}); no raw control character printed" \
    "exit $code: $(said "$d/cold.said" 'boom'); $raw line(s) with raw control characters" \
    "$(test $code = 3 -a "$raw" = 0 && has "$d/cold.said" 'boom\u{1b}' && echo 0 || echo 1)"

  # Free text of a crafted folder: the manifest's names, versions, details, the CPU; a sample's error.
  synth_run "$d/a" "" --fail-rate 0.05
  TEXT='\u001b]0;pwned-title\u0007\u001b[2J\u001b[31mTORTURE\u009b1m' hostile_manifest "$d/a/manifest.json"
  TEXT=$'error\e]0;pwned-title\a\e[2J\e[31mTORTURE\xc2\x9b1m' hostile_errors "$d/a/samples.csv"
  cp -r "$d/a" "$d/b"
  run "$d/report.said" report "$d/a" --out "$d/report"; code=$?
  raw=$(raw_controls "$d/report.said")
  record "p05b analysis report of a folder whose manifest and samples hold escape sequences" \
    "exit 0; no raw control character printed" \
    "exit $code: $(last "$d/report.said"); $raw line(s) with raw control characters" \
    "$(test $code = 0 -a "$raw" = 0 && echo 0 || echo 1)"
  run "$d/compare.said" analysis compare "$d/a" "$d/b"; code=$?
  raw=$(raw_controls "$d/compare.said")
  record "p05c analysis compare of two such folders" \
    "exit 0; no raw control character printed" \
    "exit $code: $(last "$d/compare.said"); $raw line(s) with raw control characters" \
    "$(test $code = 0 -a "$raw" = 0 && echo 0 || echo 1)"

  synth_run "$d/c"
  edit "$d/c/plan.csv" 's/,jiter,/,jiter\x1b[2J,/g'
  edit "$d/c/samples.csv" 's/,jiter,/,jiter\x1b[2J,/g'
  run "$d/names.said" report "$d/c" --out "$d/names-report"; code=$?
  raw=$(raw_controls "$d/names.said")
  record "p05d a codec name holding an escape sequence in plan.csv and samples.csv" \
    "exit 2 naming the file and the name's rule; no raw control character printed" \
    "exit $code: $(said "$d/names.said" ".csv"); $raw line(s) with raw control characters" \
    "$(test $code = 2 -a "$raw" = 0 && grep -qE 'plan\.csv|samples\.csv' "$d/names.said" && echo 0 || echo 1)"

  cp -r "$d/c" "$d/c2"
  run "$d/names-compare.said" analysis compare "$d/c" "$d/c2"; code=$?
  raw=$(raw_controls "$d/names-compare.said")
  unfinished_run "$d/r"
  sed -i $'2s/,noop,/,noop\e[2J\e]0;pwned\a,/' "$d/r/samples.csv"
  run "$d/names-resume.said" cold resume "$d/r"; local code2=$?
  local raw2; raw2=$(raw_controls "$d/names-resume.said")
  record "p05e the same name to analysis compare; a samples.csv row's codec with escapes to cold resume" \
    "compare exit 2 and resume exit 1, each naming its file; no raw control character printed" \
    "compare exit $code: $(said "$d/names-compare.said" ".csv" | cut -c1-80); $raw raw; resume exit $code2: $(said "$d/names-resume.said" "samples.csv" | cut -c1-80); $raw2 raw" \
    "$(test $code = 2 -a "$raw" = 0 -a $code2 = 1 -a "$raw2" = 0 && grep -qE 'plan\.csv|samples\.csv' "$d/names-compare.said" && has "$d/names-resume.said" samples.csv && echo 0 || echo 1)"
}

# 6. Markdown and HTML in names and free text never become markup in report.md or report.html.
p06_markdown() {
  local d=$work/p06 code
  mkdir -p "$d"
  synth_run "$d/names"
  edit "$d/names/plan.csv" 's/,users-2kb,/,"users-2kb\n## TORTURE ![](https:\/\/evil.example\/p.png)",/g'
  edit "$d/names/samples.csv" 's/,users-2kb,/,"users-2kb\n## TORTURE ![](https:\/\/evil.example\/p.png)",/g'
  run "$d/names.said" report "$d/names" --out "$d/names-report"; code=$?
  record "p06a a fixture name holding a newline, a heading and a remote image (plan.csv, samples.csv)" \
    "exit 2 naming the file; no report.md written" \
    "exit $code: $(said "$d/names.said" ".csv"); report.md $([ -e "$d/names-report/report.md" ] && echo WRITTEN || echo absent)" \
    "$(test $code = 2 -a ! -e "$d/names-report/report.md" && grep -qE 'plan\.csv|samples\.csv' "$d/names.said" && echo 0 || echo 1)"

  synth_run "$d/text" "" --fail-rate 0.05
  TEXT='x\n## TORTURE heading ![](https://evil.example/p.png) <img src=x onerror=alert(1)> | cell |' \
    hostile_manifest "$d/text/manifest.json"
  TEXT=$'x\n## TORTURE heading ![](https://evil.example/p.png) <img src=x onerror=alert(1)> | cell |' \
    hostile_errors "$d/text/samples.csv"
  run "$d/text.said" report "$d/text" --out "$d/text-report"; code=$?
  local md_file=$d/text-report/report.md html=$d/text-report/report.html bad=""
  [ -f "$md_file" ] || bad+=" no report.md;"
  grep -q 'TORTURE' "$md_file" 2>/dev/null || bad+=" the text is not in report.md;"
  grep -qE '^ {0,3}#+ +TORTURE' "$md_file" 2>/dev/null && bad+=" a heading made;"
  grep -qE '(^|[^\\])!\[[^]]*\]\(https://evil' "$md_file" 2>/dev/null && bad+=" a remote image;"
  grep -qiE '<img' "$md_file" "$html" 2>/dev/null && bad+=" raw <img>;"
  record "p06b markup in the manifest's library, version, CPU, a check's detail, a reason, a sample's error" \
    "exit 0; in report.md and report.html: the text shown, no heading, no image, no raw HTML" \
    "exit $code:${bad:- all literal}" \
    "$(test $code = 0 -a -z "$bad" && echo 0 || echo 1)"
}

# 7. Sizes are bounded: names, manifest values, and files that are not regular files.
p07_bounds() {
  local d=$work/p07 code t0 secs
  mkdir -p "$d"
  synth_run "$d/name"
  perl -0777 -i -pe 's/,jiter,/",jiter" . ("L" x 1000000) . ","/ge' "$d/name/plan.csv" "$d/name/samples.csv"
  run "$d/name.said" report "$d/name" --out "$d/name-report"; code=$?
  local size; size=$(du -sk "$d/name-report" 2>/dev/null | cut -f1)
  record "p07a a 1 MB codec name in plan.csv and samples.csv" \
    "exit 2 naming the file; no report written; the message short" \
    "exit $code: $(said "$d/name.said" ".csv" | cut -c1-120); report ${size:-0} KB; longest output line $(awk '{ if (length > m) m = length } END {print m + 0}' "$d/name.said")" \
    "$(test $code = 2 -a "${size:-0}" -lt 64 -a "$(awk '{ if (length > m) m = length } END {print m + 0}' "$d/name.said")" -lt 2000 && grep -qE 'plan\.csv|samples\.csv' "$d/name.said" && echo 0 || echo 1)"

  synth_run "$d/library"
  perl -0777 -i -pe 's/"library": "serde_json"/"\"library\": \"" . ("L" x 1000000) . "\""/e' "$d/library/manifest.json"
  run "$d/library.said" report "$d/library" --out "$d/library-report"; code=$?
  size=$(du -sk "$d/library-report" 2>/dev/null | cut -f1)
  record "p07b a 1 MB library name in manifest.json (stricter choice: refused like a long codec id)" \
    "exit 2 naming manifest.json and library; no report written" \
    "exit $code: $(said "$d/library.said" "manifest.json" | cut -c1-120); report ${size:-0} KB" \
    "$(test $code = 2 -a "${size:-0}" -lt 64 && has "$d/library.said" manifest.json && has "$d/library.said" library && echo 0 || echo 1)"

  synth_run "$d/big"
  truncate -s 70M "$d/big/manifest.json"
  run "$d/big.said" report "$d/big" --out "$d/big-report"; code=$?
  record "p07c a 70 MB manifest.json (sparse)" \
    "exit 2 naming manifest.json: larger than the bytes thaw reads of it" \
    "exit $code: $(said "$d/big.said" manifest.json)" \
    "$(test $code = 2 && has "$d/big.said" manifest.json && has "$d/big.said" "larger than" && echo 0 || echo 1)"

  local what
  for what in zero fifo; do
    synth_run "$d/$what"
    rm "$d/$what/manifest.json"
    if [ $what = zero ]; then ln -s /dev/zero "$d/$what/manifest.json"; else mkfifo "$d/$what/manifest.json"; fi
    t0=$(date +%s)
    run "$d/$what.said" timeout -k 5 30 prlimit --as=$((2 << 30)) -- "$bin/analysis" report "$d/$what" \
      --warm "$work/no-warm" --conformance "$work/none.csv" --out "$d/$what-report"; code=$?
    secs=$(($(date +%s) - t0))
    record "p07d RUN/manifest.json $([ $what = zero ] && echo 'linked to /dev/zero' || echo 'a FIFO') (report, 30 s and 2 GiB at most)" \
      "exit 2 at once naming manifest.json" \
      "exit $code after ${secs} s: $(said "$d/$what.said" manifest.json)" \
      "$(test $code = 2 && has "$d/$what.said" manifest.json && echo 0 || echo 1)"
  done

  unfinished_run "$d/resume"
  rm "$d/resume/manifest.json"; mkfifo "$d/resume/manifest.json"
  t0=$(date +%s)
  run "$d/resume.said" env -u THAW_EXTERNAL timeout -k 5 30 "$bin/cold" resume "$d/resume"; code=$?
  secs=$(($(date +%s) - t0))
  record "p07e RUN/manifest.json a FIFO, then cold resume (30 s at most)" \
    "exit 1 at once naming manifest.json" \
    "exit $code after ${secs} s: $(said "$d/resume.said" manifest.json)" \
    "$(test $code = 1 && has "$d/resume.said" manifest.json && echo 0 || echo 1)"

  synth_run "$d/samples-fifo"
  rm "$d/samples-fifo/samples.csv"; mkfifo "$d/samples-fifo/samples.csv"
  run "$d/samples-fifo.said" timeout -k 5 30 "$bin/analysis" report "$d/samples-fifo" \
    --warm "$work/no-warm" --conformance "$work/none.csv" --out "$d/samples-fifo-report"; code=$?
  record "p07f RUN/samples.csv a FIFO (report, 30 s at most)" \
    "exit 2 at once naming samples.csv" \
    "exit $code: $(said "$d/samples-fifo.said" samples.csv)" \
    "$(test $code = 2 && has "$d/samples-fifo.said" samples.csv && echo 0 || echo 1)"

  synth_run "$d/device"
  rm "$d/device/manifest.json"
  if mknod "$d/device/manifest.json" c 1 5 2>/dev/null; then
    run "$d/device.said" timeout -k 5 30 prlimit --as=$((2 << 30)) -- "$bin/analysis" report "$d/device" \
      --warm "$work/no-warm" --conformance "$work/none.csv" --out "$d/device-report"; code=$?
    record "p07g RUN/manifest.json a character device (/dev/zero's numbers)" \
      "exit 2 at once naming manifest.json" \
      "exit $code: $(said "$d/device.said" manifest.json)" \
      "$(test $code = 2 && has "$d/device.said" manifest.json && echo 0 || echo 1)"
  else
    skip "p07g RUN/manifest.json a character device" "exit 2 naming manifest.json" "cannot make a device node (not root)"
  fi
}

# 7, at the issue's scale: a 300 MB codec name (it once took 24 GB and left a 2.4 GB report.md).
p07_huge_name() {
  local d=$work/p07h code t0 secs
  mkdir -p "$d"
  synth_run "$d/run"
  perl -0777 -i -pe 's/,jiter,/",jiter" . ("L" x 300000000) . ","/e' "$d/run/samples.csv"
  t0=$(date +%s)
  run "$d/said" timeout -k 5 120 prlimit --as=$((2 << 30)) -- "$bin/analysis" report "$d/run" \
    --warm "$work/no-warm" --conformance "$work/none.csv" --out "$d/report"; code=$?
  secs=$(($(date +%s) - t0))
  local size; size=$(du -sk "$d/report" 2>/dev/null | cut -f1)
  local longest; longest=$(awk '{ if (length > m) m = length } END {print m + 0}' "$d/said")
  record "p07h a 300 MB codec name in samples.csv (report, 120 s and 2 GiB at most)" \
    "exit 2 naming samples.csv; no report written; the message short" \
    "exit $code after ${secs} s: $(said "$d/said" samples.csv | cut -c1-100); report ${size:-0} KB; longest output line $longest" \
    "$(test $code = 2 -a "${size:-0}" -lt 64 -a "$longest" -lt 2000 && has "$d/said" samples.csv && echo 0 || echo 1)"
  rm -rf "$d"
}

# 8. A JSON file that is not the run's manifest never reaches a report.
p08_foreign_json() {
  local d=$work/p08 code
  mkdir -p "$d"
  printf '{"token": "TORTURE-SECRET-8c1f", "thaw_version": "TORTURE-SECRET-8c1f"}\n' >"$d/secret.json"
  local before; before=$(sha "$d/secret.json")
  synth_run "$d/link"
  rm "$d/link/manifest.json"; ln -s "$d/secret.json" "$d/link/manifest.json"
  run "$d/link.said" report "$d/link" --out "$d/link-report"; code=$?
  local leaked; leaked=$(grep -rlF TORTURE-SECRET "$d/link-report" "$d/link.said" 2>/dev/null | wc -l)
  record "p08a RUN/manifest.json linked to a secret JSON file" \
    "exit 2 naming manifest.json; the secret in no output; the secret file unchanged" \
    "exit $code: $(said "$d/link.said" manifest.json); secret in $leaked output(s)" \
    "$(test $code = 2 -a "$leaked" = 0 -a "$before" = "$(sha "$d/secret.json")" && has "$d/link.said" manifest.json && echo 0 || echo 1)"

  synth_run "$d/copy"
  cp "$d/secret.json" "$d/copy/manifest.json"
  run "$d/copy.said" report "$d/copy" --out "$d/copy-report"; code=$?
  leaked=$(grep -rlF TORTURE-SECRET "$d/copy-report" "$d/copy.said" 2>/dev/null | wc -l)
  local why=no; grep -qF 'is not a thaw manifest' "$d/copy-report/report.md" 2>/dev/null && why=yes
  record "p08b RUN/manifest.json a copy of a secret JSON file (not a manifest)" \
    "exit 0 warning on the terminal naming manifest.json; report.md says it is not a thaw manifest; the secret in no output" \
    "exit $code: $(said "$d/copy.said" 'manifest.json' | sed 's/^ *//'); report.md says why: $why; secret in $leaked output(s)" \
    "$(test $code = 0 -a "$leaked" = 0 -a $why = yes && has "$d/copy.said" 'manifest.json' && echo 0 || echo 1)"
}

# 9. synth never writes over a run.
p09_synth_over_run() {
  local d=$work/p09 code before after
  mkdir -p "$d"
  finished_run "$d/run"
  before=$(tree_sha "$d/run")
  run "$d/said" analysis synth --out "$d/run" --samples 60; code=$?
  after=$(tree_sha "$d/run")
  record "p09a analysis synth --out a finished cold run" \
    "exit 2 naming the folder (it holds a run); the folder unchanged" \
    "exit $code: $(said "$d/said" "$d/run"); folder $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$after" && has "$d/said" "holds a run" && echo 0 || echo 1)"

  # The same while a run is being written into it.
  kids "$d/kids" "child-noop-de-any=$(gate 3)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 5 \
    --children-dir "$d/kids" --out "$d/live" >"$d/live.said" 2>&1 &
  local pid=$!
  if until_true 60 test -e "$d/kids/blocked"; then
    before=$(tree_sha "$d/live")
    run "$d/said2" analysis synth --out "$d/live" --samples 60; code=$?
    after=$(tree_sha "$d/live")
    touch "$d/kids/release"; wait $pid; local runcode=$?
    record "p09b analysis synth --out a run being written" \
      "exit 2 naming the folder; the folder unchanged by synth; the run then finishes (exit 0)" \
      "exit $code: $(said "$d/said2" "$d/live"); folder $([ "$before" = "$after" ] && echo unchanged || echo CHANGED); run exit $runcode, $(statuses "$d/live")" \
      "$(test $code = 2 -a "$before" = "$after" -a $runcode = 0 -a "$(statuses "$d/live")" = "ok×5" && has "$d/said2" "$d/live" && echo 0 || echo 1)"
  else
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    record "p09b analysis synth --out a run being written" "exit 2" "the run's third child never started within 60 s" 1
  fi
  sweep
}

# 10. A child's memory is bounded (--memory-limit, recorded; `memory` when hit).
p10_memory() {
  local d=$work/p10 code t0 secs
  mkdir -p "$d"
  kids "$d/kids"
  t0=$(date +%s)
  run "$d/said" cold run --codecs noop --ops de --fixture users-100kb --batches 1,1000000 \
    --samples 2 --memory-limit 256 --children-dir "$d/kids" --out "$d/run"; code=$?
  secs=$(($(date +%s) - t0))
  local limit; limit=$(grep -o '"memory_limit_mib": *[0-9]*' "$d/run/manifest.json" 2>/dev/null | grep -o '[0-9]*$')
  local excluded; excluded=$(grep -c '"detail": "batch 1000000: memory: it ran out of its 256 MiB' "$d/run/manifest.json" 2>/dev/null)
  record "p10a --batches 1,1000000 of noop de on users-100kb (100 GB), --memory-limit 256" \
    "exit 1 within 60 s (every cell left out by its preflight): \"it ran out of its 256 MiB (--memory-limit)\"; the manifest says why and holds the limit; no sample; nothing left" \
    "exit $code after ${secs} s: $(said "$d/said" "ran out of" | sed 's/^ *//' | cut -c1-110); excluded entries saying so: ${excluded:-0}; manifest limit ${limit:-none}; $(rows "$d/run") samples; $(ours) left" \
    "$(test $code = 1 -a "$secs" -le 60 -a "${excluded:-0}" -ge 1 -a "${limit:-}" = 256 -a "$(rows "$d/run")" -le 0 -a "$(ours)" = 0 && has "$d/said" "it ran out of its 256 MiB (--memory-limit)" && echo 0 || echo 1)"

  # In a timed sample: the child asks for a million copies on its third call.
  kids "$d/greedy" 'child-noop-de-any=if [ "$n" = 3 ]; then set -- $(echo "$@" | sed "s/--batch 1 /--batch 1000000 /"); fi'
  run "$d/greedy.said" cold run --codecs noop --ops de --fixture users-100kb --batches 1 \
    --samples 4 --memory-limit 256 --children-dir "$d/greedy" --out "$d/greedy-run"; code=$?
  record "p10b a child that takes unbounded memory in a timed sample (--memory-limit 256)" \
    "exit 3; ok×3 and memory×1; nothing left" \
    "exit $code; $(statuses "$d/greedy-run"); $(ours) left" \
    "$(test $code = 3 -a "$(statuses "$d/greedy-run")" = "memory×1, ok×3" -a "$(ours)" = 0 && echo 0 || echo 1)"

  kids "$d/default"
  run "$d/default.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 1 \
    --children-dir "$d/default" --out "$d/default-run"; code=$?
  limit=$(grep -o '"memory_limit_mib": *[0-9]*' "$d/default-run/manifest.json" 2>/dev/null | grep -o '[0-9]*$')
  record "p10c a run without --memory-limit" \
    "exit 0; the default limit (8192 MiB) in the manifest" \
    "exit $code; manifest limit ${limit:-none}" \
    "$(test $code = 0 -a "${limit:-}" = 8192 && echo 0 || echo 1)"
  sweep
}

# 11. Whatever a child prints, what is kept of it is cut to a stated length (1000 characters).
p11_long_errors() {
  local d=$work/p11 code
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any=if [ "$n" = 3 ]; then printf "{\"%s\":1}\n" "$(head -c 60000 /dev/zero | tr "\0" k)"; exit 0; fi
if [ "$n" = 4 ]; then head -c 1000000 /dev/zero | tr "\0" e >&2; exit 1; fi'
  run "$d/said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 4 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local e1 e2; e1=$(row_error "$d/run" 1 | wc -m); e2=$(row_error "$d/run" 2 | wc -m)
  local longest; longest=$(awk '{ if (length > m) m = length } END {print m + 0}' "$d/run/samples.csv" "$d/said")
  record "p11 a child prints a 60 KB unknown key; another 1 MB of stderr" \
    "exit 3; bad-output×1, crash×1, ok×2; each error at most 1000 characters (+ quotes)" \
    "exit $code; $(statuses "$d/run"); errors of $e1 and $e2 characters; longest line $longest" \
    "$(test $code = 3 -a "$(statuses "$d/run")" = "bad-output×1, crash×1, ok×2" -a "$e1" -le 1003 -a "$e2" -le 1003 -a "$e1" -gt 10 -a "$longest" -lt 3000 && echo 0 || echo 1)"
}

# Fields of CSV files that a spreadsheet would run (= + - @ tab CR first) and hold TORTURE.
formulas() {
  perl -ne 'chomp; s/\r$//; while (/\G(?:"((?:[^"]|"")*)"|([^,]*))(,|$)/g) { my $v = defined $1 ? $1 : $2; $v =~ s/""/"/g; print "$ARGV:$.: $v\n" if $v =~ /^[=+\-\@\t\r]/ && $v =~ /TORTURE/; last if $3 eq "" }' "$@"
}

# 12. CSV cells a spreadsheet would run never reach summary.csv or compare --out.
p12_formulas() {
  local d=$work/p12 code code2
  mkdir -p "$d"
  synth_run "$d/names"
  local f
  for f in plan.csv samples.csv manifest.json; do
    edit "$d/names/$f" 's/([,"])jiter([,"])/$1+TORTURE$2/g; s/([,"])miniserde([,"])/$1-TORTURE$2/g'
  done
  cp -r "$d/names" "$d/names-b"
  run "$d/names-report.said" report "$d/names" --out "$d/names-report"; code=$?
  run "$d/names-compare.said" analysis compare "$d/names" "$d/names-b" --out "$d/names-compare.csv"; code2=$?
  local risky; risky=$(formulas "$d/names-report/summary.csv" "$d/names-compare.csv" 2>/dev/null | head -2 | sed "s|$d/||g" | tr '\n' ' ')
  record "p12a codec ids +TORTURE and -TORTURE (stricter choice: refused, a name starts with a letter or a digit)" \
    "report and compare exit 2 naming manifest.json (its codec ids are checked first), plan.csv or samples.csv; no CSV written with a formula" \
    "report exit $code: $(grep -m1 -oE '[a-z]+\.(csv|json): (line [0-9]+: codec|codecs\[[0-9]+\]\.id) `[^`]*`' "$d/names-report.said"); compare exit $code2; formulas: ${risky:-none}" \
    "$(test $code = 2 -a $code2 = 2 -a -z "$risky" && grep -qE 'plan\.csv|samples\.csv|manifest\.json' "$d/names-report.said" && grep -qE 'plan\.csv|samples\.csv|manifest\.json' "$d/names-compare.said" && echo 0 || echo 1)"

  # Free text of the manifest that reaches the CSV files: a codec's runtime, library, version.
  synth_run "$d/text"
  perl -0777 -i -pe 's/("id": "serde_json",\s*"library": )"serde_json",\s*"version": "[^"]*",/$1"=HYPERLINK(\\"https:\/\/evil.example\\",\\"TORTURE\\")", "version": "\@SUM(1+1)TORTURE", "runtime": "=HYPERLINK(\\"https:\/\/evil.example\\",\\"TORTURE\\")",/' "$d/text/manifest.json"
  cp -r "$d/text" "$d/text-b"
  run "$d/text-report.said" report "$d/text" --out "$d/text-report"; code=$?
  run "$d/text-compare.said" analysis compare "$d/text" "$d/text-b" --out "$d/text-compare.csv"; code2=$?
  local found; found=$(grep -lF TORTURE "$d/text-report/summary.csv" 2>/dev/null | wc -l)
  risky=$(formulas "$d/text-report/summary.csv" "$d/text-compare.csv" 2>/dev/null | head -2 | sed "s|$d/||g" | tr '\n' ' ')
  record "p12b a manifest whose serde_json has runtime and library =HYPERLINK(…), version @SUM(…)" \
    "report and compare exit 0; summary.csv shows the runtime, but no cell of it or compare.csv is a formula (a ' first)" \
    "exit $code and $code2; in summary.csv: $([ "$found" = 1 ] && echo yes || echo no); formulas: ${risky:-none}" \
    "$(test $code = 0 -a $code2 = 0 -a "$found" = 1 -a -z "$risky" && echo 0 || echo 1)"
}

# 13. The resume hints thaw prints are shell-quoted.
# hint_ok HINT DIR: pasting HINT (the folder argument) into a shell gives DIR alone, runs nothing.
hint_ok() {
  local hint=$1 dir=$2 here=$work/p13/paste
  rm -rf "$here"; mkdir -p "$here"
  local n got
  n=$(cd "$here" && eval "set -- $hint" 2>/dev/null && echo "$#")
  got=$(cd "$here" && eval "set -- $hint" 2>/dev/null && printf '%s' "$1")
  [ "$(ls -A "$here" | wc -l)" = 0 ] && [ "$n" = 1 ] && [ "$got" = "$dir" ]
}
p13_hint() {
  local d=$work/p13 code
  mkdir -p "$d"
  local dir="$d/run \$(touch PWNED) 'q' \`touch PWNED2\` ;x"
  kids "$d/kids" "child-noop-de-any=$(gate 3)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 5 \
    --children-dir "$d/kids" --out "$dir" >"$d/int.said" 2>&1 &
  local pid=$!
  if until_true 60 test -e "$d/kids/blocked"; then
    kill -INT $pid; wait $pid; code=$?
    local hint; hint=$(grep -o -- '-- resume .*' "$d/int.said" | head -1 | sed 's/^-- resume //')
    record "p13a SIGINT to a run whose --out holds \$(…), quotes and backquotes" \
      "exit 130; the printed resume command, pasted, gives the folder as one argument and runs nothing" \
      "exit $code; hint: ${hint:0:100}; pasted $(hint_ok "$hint" "$dir" && echo 'safely' || echo 'UNSAFELY (or not the folder)')" \
      "$(test $code = 130 && hint_ok "$hint" "$dir" && echo 0 || echo 1)"
  else
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    record "p13a SIGINT to a run whose --out holds \$(…)" "exit 130, a quoted hint" "the third child never started within 60 s" 1
  fi
  sweep
  run "$d/again.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 5 \
    --children-dir "$d/kids" --out "$dir"; code=$?
  local hint2; hint2=$(sed -n 's/.*`cold resume \(.*\)`, or give another --out.*/\1/p' "$d/again.said" | head -1)
  record "p13b cold run --out that folder again (it holds a run)" \
    "exit 1; the suggested cold resume command, pasted, gives the folder as one argument and runs nothing" \
    "exit $code; hint: ${hint2:0:100}; pasted $(hint_ok "$hint2" "$dir" && echo 'safely' || echo 'UNSAFELY (or not the folder)')" \
    "$(test $code = 1 && hint_ok "$hint2" "$dir" && echo 0 || echo 1)"
  sweep
}

# 14. A relative --children-dir is recorded absolute: a resume from another folder works.
p14_relative_children() {
  local d=$work/p14 code
  mkdir -p "$d/elsewhere"
  kids "$d/kids"
  (cd "$d" && env -u THAW_EXTERNAL timeout -k 5 "$LIMIT" "$bin/cold" run --codecs noop --fixture small \
    --batches 1 --samples 3 --children-dir kids --out run >"$d/run.said" 2>&1)
  local recorded; recorded=$(grep -o '"children_dir": *"[^"]*"' "$d/run/manifest.json" | sed 's/.*: *"//; s/"$//')
  sed -i '$d' "$d/run/samples.csv"
  (cd "$d/elsewhere" && env -u THAW_EXTERNAL timeout -k 5 "$LIMIT" "$bin/cold" resume ../run >"$d/resume.said" 2>&1); code=$?
  record "p14 cold run --children-dir kids (relative), then cold resume from another folder" \
    "children_dir recorded as $d/kids; resume exit 0; each of 6 plan indices once" \
    "recorded $recorded; exit $code: $(last "$d/resume.said"); $(indices "$d/run")" \
    "$(test "$recorded" = "$d/kids" -a $code = 0 -a "$(indices "$d/run")" = "each of 6 plan indices once" && echo 0 || echo 1)"
}

# 15. Rows that contradict plan.csv are refused by report and resume; samples.csv left as it is.
p15_plan_rows() {
  local d=$work/p15 code code2 before
  mkdir -p "$d"
  local kind
  for kind in relabelled duplicate; do
    unfinished_run "$d/$kind"
    if [ $kind = relabelled ]; then
      sed -i '2s/,noop,\(de\|ser\),/,serde_json,\1,/' "$d/$kind/samples.csv"
    else
      sed -n 2p "$d/$kind/samples.csv" >>"$d/$kind/samples.csv"
    fi
    before=$(sha "$d/$kind/samples.csv")
    run "$d/$kind-report.said" report "$d/$kind" --out "$d/$kind-report"; code=$?
    run "$d/$kind-resume.said" cold resume "$d/$kind"; code2=$?
    if [ $kind = relabelled ]; then
      record "p15 samples.csv with a $kind row (plan index 0)" \
        "report exit 2 and resume exit 1, both naming samples.csv and \"plan index\"; samples.csv unchanged" \
        "report exit $code: $(said "$d/$kind-report.said" samples.csv | cut -c1-90); resume exit $code2: $(said "$d/$kind-resume.said" samples.csv | cut -c1-90); samples.csv $([ "$before" = "$(sha "$d/$kind/samples.csv")" ] && echo unchanged || echo CHANGED)" \
        "$(test $code = 2 -a $code2 = 1 -a "$before" = "$(sha "$d/$kind/samples.csv")" && has "$d/$kind-report.said" "plan index" && has "$d/$kind-resume.said" "plan index" && has "$d/$kind-resume.said" samples.csv && echo 0 || echo 1)"
    else
      # an index twice is what two runners on one folder leave: resume keeps the first row of
      # each index, sets the other aside and finishes the run (issue 60)
      record "p15 samples.csv with a $kind row (plan index 0)" \
        "report exit 2 naming samples.csv and \"has a row already\"; resume exit 0, the repeat set aside, each of 6 plan indices once" \
        "report exit $code: $(said "$d/$kind-report.said" samples.csv | cut -c1-90); resume exit $code2: $(said "$d/$kind-resume.said" set-aside | cut -c1-60); $(indices "$d/$kind"); $(($(lines "$d/$kind/samples.set-aside.csv") - 1)) set aside" \
        "$(test $code = 2 -a $code2 = 0 -a "$(indices "$d/$kind")" = "each of 6 plan indices once" -a "$(lines "$d/$kind/samples.set-aside.csv")" = 2 && has "$d/$kind-report.said" "has a row already" && has "$d/$kind-resume.said" "samples.set-aside.csv" && echo 0 || echo 1)"
    fi
  done
  sweep
}

# 16. External descriptions (THAW_EXTERNAL) are validated.
# describe DIR RUNTIME-NAME CODEC-ID [SOURCE] [EXTRA runtime.toml LINES]: one runtime, one codec.
describe() {
  local dir=$1 name=$2 id=$3 source=${4:-child.sh} extra=${5:-}
  mkdir -p "$dir/rt"
  printf '#!/bin/sh\nexit 0\n' >"$dir/rt/child.sh"
  cat >"$dir/rt/runtime.toml" <<EOF
name = "$name"
version = ["-c", "echo 1"]
command = ["{source}"]
install = "nothing"
$extra
[[builds]]
name = "tort"
about = "a shell"
program = ["/bin/sh"]
EOF
  printf 'id = "%s"\nlibrary = "torture"\nstyle = "dom"\nsource = "%s"\noutput = "new-string"\n' \
    "$id" "$source" >"$dir/rt/codec-x.toml"
}
p16_external() {
  local d=$work/p16 code
  mkdir -p "$d"
  # list_with DIR: `cold list` with THAW_EXTERNAL=DIR.
  list_with() { THAW_EXTERNAL=$1 timeout -k 5 "$LIMIT" "$bin/cold" list; }
  describe "$d/shadow" tort serde_json
  run "$d/shadow.said" list_with "$d/shadow"; code=$?
  record "p16a1 cold list, THAW_EXTERNAL describing a codec with the id serde_json (a Rust codec's)" \
    "exit 1 naming its description (codec-x.toml) and the id" \
    "exit $code: $(last "$d/shadow.said")" \
    "$(test $code = 1 && has "$d/shadow.said" codec-x.toml && has "$d/shadow.said" serde_json && echo 0 || echo 1)"

  run "$d/shadow-run.said" env THAW_EXTERNAL="$d/shadow" timeout -k 5 "$LIMIT" "$bin/cold" run --dry-run \
    --codecs serde_json --fixture small --batches 1 --samples 1; code=$?
  record "p16a2 cold run --codecs serde_json --dry-run, THAW_EXTERNAL describing another serde_json" \
    "exit 1 naming codec-x.toml and the id (not the Rust one taken silently)" \
    "exit $code: $(last "$d/shadow-run.said")" \
    "$(test $code = 1 && has "$d/shadow-run.said" codec-x.toml && has "$d/shadow-run.said" serde_json && echo 0 || echo 1)"

  describe "$d/comma" tort 'a,b'
  run "$d/comma.said" list_with "$d/comma"; code=$?
  record "p16b an external codec id holding a comma" \
    "exit 1 naming codec-x.toml" \
    "exit $code: $(last "$d/comma.said")" \
    "$(test $code = 1 && has "$d/comma.said" codec-x.toml && echo 0 || echo 1)"

  describe "$d/newline" tort 'a\nb'
  run "$d/newline.said" list_with "$d/newline"; code=$?
  record "p16c an external codec id holding a newline" \
    "exit 1 naming codec-x.toml" \
    "exit $code: $(last "$d/newline.said")" \
    "$(test $code = 1 && has "$d/newline.said" codec-x.toml && echo 0 || echo 1)"

  # A runtime name that would put its build folder (target/external/NAME) in $d/escape.
  local up; up=$(printf '../%.0s' $(seq 1 $(($(tr -cd / <<<"$repo/target/external" | wc -c) + 1))))
  describe "$d/runtime" "${up}${d#/}/escape" torture-ok child.sh 'compile = ["/bin/sh", "-c", "true"]
sources = ["child.sh"]'
  run "$d/runtime.said" list_with "$d/runtime"; code=$?
  run "$d/runtime-run.said" env THAW_EXTERNAL="$d/runtime" timeout -k 5 "$LIMIT" "$bin/cold" run --codecs torture-ok \
    --fixture small --batches 1 --samples 1 --out "$d/runtime-run"; local code2=$?
  record "p16d an external runtime named ../../…/escape, with a compile step" \
    "cold list and cold run exit 1 naming runtime.toml; nothing made outside target/external" \
    "list exit $code: $(last "$d/runtime.said" | cut -c1-80); run exit $code2; $d/escape $([ -e "$d/escape" ] && echo MADE || echo absent)" \
    "$(test $code = 1 -a $code2 = 1 -a ! -e "$d/escape" && has "$d/runtime.said" runtime.toml && echo 0 || echo 1)"

  describe "$d/source" tort torture-src ../outside.sh
  printf '#!/bin/sh\nexit 0\n' >"$d/source/outside.sh"
  run "$d/source.said" list_with "$d/source"; code=$?
  record "p16e an external codec whose source is ../outside.sh (outside its runtime's folder)" \
    "exit 1 naming codec-x.toml and the source" \
    "exit $code: $(last "$d/source.said")" \
    "$(test $code = 1 && has "$d/source.said" codec-x.toml && has "$d/source.said" outside.sh && echo 0 || echo 1)"
}

# 17. Impossible warm values are never shown as figures.
p17_warm_values() {
  local d=$work/p17 code v
  mkdir -p "$d"
  synth_run "$d/run" "$d/warm"
  cp "$d/warm/alloc.csv" "$d/alloc.csv.good"
  for v in NaN inf -5 1e308; do
    cp "$d/alloc.csv.good" "$d/warm/alloc.csv"
    sed -i 's/^users-2kb,de,serde_json,[^,]*,/users-2kb,de,serde_json,'"$v"',/' "$d/warm/alloc.csv"
    run "$d/alloc.said" analysis report "$d/run" --warm "$d/warm" --conformance "$work/none.csv" \
      --out "$d/alloc-report-$v"; code=$?
    record "p17a alloc.csv with allocs_per_op = $v (stricter choice: refused like a bad samples.csv value)" \
      "exit 2 naming alloc.csv, the line and allocs_per_op" \
      "exit $code: $(said "$d/alloc.said" alloc.csv)$([ -f "$d/alloc-report-$v/report.md" ] && echo "; report.md's allocation table shows: $(awk '/allocations \/ op/ {t = 1} t && index($0, "| users\\-2kb | de | serde\\_json |") == 1 {print; exit}' "$d/alloc-report-$v/report.md")")" \
      "$(test $code = 2 && has "$d/alloc.said" alloc.csv && has "$d/alloc.said" allocs_per_op && echo 0 || echo 1)"
  done
  cp "$d/alloc.csv.good" "$d/warm/alloc.csv"
  local est=$d/warm/criterion/portable/users-2kb_de/serde_json/new/estimates.json
  cp "$est" "$d/est.good"
  for v in -5 0 1e400 NaN; do
    cp "$d/est.good" "$est"
    edit "$est" 's/"point_estimate":[0-9.e+-]+/"point_estimate":'"$v"'/g; s/"lower_bound":[0-9.e+-]+/"lower_bound":'"$v"'/g'
    run "$d/est.said" analysis report "$d/run" --warm "$d/warm" --conformance "$work/none.csv" \
      --out "$d/est-report"; code=$?
    local shown="" in_md=no
    grep -qE '(^|[^0-9.])-5(\.0+)? ?(ns|µs)|NaN|inf×|∞' "$d/est-report/report.md" 2>/dev/null && shown=" but report.md shows it"
    grep -qF "serde_json/new/estimates.json" "$d/est-report/report.md" 2>/dev/null && in_md=yes
    record "p17b estimates.json with a median of $v ns" \
      "exit 0; that estimates.json named as skipped on the terminal and in report.md; no -5 ns, NaN or inf shown" \
      "exit $code; terminal: $(said "$d/est.said" "serde_json/new/estimates.json" | cut -c1-100); report.md names it: $in_md$shown" \
      "$(test $code = 0 -a -z "$shown" -a $in_md = yes && has "$d/est.said" "serde_json/new/estimates.json" && echo 0 || echo 1)"
  done
}

# 18. A report of a run being written; an empty plan.csv; batch 0.
p18_folder_state() {
  local d=$work/p18 code
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 4)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 6 \
    --children-dir "$d/kids" --out "$d/live" >"$d/live.said" 2>&1 &
  local pid=$!
  if until_true 60 test -e "$d/kids/blocked"; then
    run "$d/report.said" report "$d/live" --out "$d/live-report"; code=$?
    touch "$d/kids/release"; wait $pid; local runcode=$?
    record "p18a analysis report of a run being written (its cold run pid $pid)" \
      "exit 0; says the run is being written, naming pid $pid; never advises cold resume; the run then finishes" \
      "exit $code: $(grep -m1 -aiE "pid $pid|writing|being written" "$d/report.said" | inert); pid named: $(has "$d/report.said" "$pid" && echo yes || echo NO); resume advised: $(has "$d/report.said" "cold resume" && said "$d/report.said" "cold resume" | sed 's/^ *//' || echo no); run exit $runcode" \
      "$(test $code = 0 -a $runcode = 0 && has "$d/report.said" "$pid" && ! has "$d/report.said" "cold resume" && echo 0 || echo 1)"
  else
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    record "p18a analysis report of a run being written" "exit 0, naming the holder" "the third child never started within 60 s" 1
  fi
  sweep

  local kind
  for kind in rows header; do
    synth_run "$d/empty-$kind"
    : >"$d/empty-$kind/plan.csv"
    [ $kind = header ] && sed -i '2,$d' "$d/empty-$kind/samples.csv"
    run "$d/empty-$kind.said" report "$d/empty-$kind" --out "$d/empty-$kind-report"; code=$?
    record "p18b a 0-byte plan.csv, samples.csv $([ $kind = rows ] && echo 'with its 114 rows' || echo 'a header only') (stricter choice: refused)" \
      "exit 2 naming plan.csv" \
      "exit $code: $(said "$d/empty-$kind.said" plan.csv | cut -c1-120)" \
      "$(test $code = 2 && has "$d/empty-$kind.said" plan.csv && echo 0 || echo 1)"
  done

  synth_run "$d/zero"
  edit "$d/zero/plan.csv" 's/^(\d+,\d+,[^,]+,[^,]+),1,/$1,0,/mg'
  edit "$d/zero/samples.csv" 's/^(\d+,\d+,[^,]+,[^,]+),1,/$1,0,/mg'
  run "$d/zero.said" report "$d/zero" --out "$d/zero-report"; code=$?
  record "p18c rows with batch 0 (plan.csv and samples.csv alike)" \
    "exit 2 naming the file and batch" \
    "exit $code: $(said "$d/zero.said" "batch")" \
    "$(test $code = 2 && has "$d/zero.said" batch && grep -qE 'plan\.csv|samples\.csv' "$d/zero.said" && echo 0 || echo 1)"
}

# 19. What thaw trusts: --env values are exposed (and said so), a folder's programs run on resume.
p19_trust() {
  local d=$work/p19 code
  mkdir -p "$d"
  local env_line; env_line=$(grep -F -- '--env' docs/manual.md | grep -iE 'secret|manifest|report' | head -1 | cut -c1-100)
  record "p19a the manual says what --env exposes" \
    "a docs/manual.md line on --env saying its values go into the manifest and reports (never a secret)" \
    "${env_line:-no such line}" \
    "$(test -n "$env_line" && echo 0 || echo 1)"
  local trust; trust=$(grep -iE "(do not|don't|never).{0,40}trust|untrusted" docs/manual.md | grep -iE 'resume|report|folder' | head -1 | cut -c1-100)
  record "p19b the manual says never to resume or report a folder you do not trust" \
    "a docs/manual.md sentence on untrusted folders (resume, report)" \
    "${trust:-no such sentence}" \
    "$(test -n "$trust" && echo 0 || echo 1)"
  run "$d/help.said" cold run --help
  record "p19c cold run --help on --env" "it says the value goes into the manifest and reports: never a secret" \
    "$(said "$d/help.said" 'never a secret' | sed 's/^ *//' | cut -c1-100)" \
    "$(has "$d/help.said" 'never a secret' && echo 0 || echo 1)"

  # A folder whose manifest names a hostile child (its hash made to match): a dry run of its
  # resume shows what is left and runs nothing.
  unfinished_run "$d/run"
  mkdir -p "$d/evil"
  printf '#!/bin/sh\ntouch %q\nexec %q "$@"\n' "$d/PWNED" "$bin/child-noop-de-any" >"$d/evil/child-noop-de-any"
  cp "$bin/child-noop-ser-any" "$d/evil/"
  chmod +x "$d/evil/child-noop-de-any"
  local new bytes
  new=$(sha "$d/evil/child-noop-de-any"); bytes=$(stat -c %s "$d/evil/child-noop-de-any")
  edit "$d/run/manifest.json" "s|\Q$d/run.kids\E|$d/evil|g; s|(\"path\": \"\Q$d/evil/child-noop-de-any\E\",\s*\"bytes\": )\d+(,\s*\"sha256\": \")[0-9a-f]+|\${1}$bytes\${2}$new|"
  local crafted=no
  grep -q "\"sha256\": \"$new\"" "$d/run/manifest.json" && grep -q "\"children_dir\": \"$d/evil\"" "$d/run/manifest.json" && crafted=yes
  run "$d/dry.said" cold resume --dry-run "$d/run"; code=$?
  record "p19d cold resume --dry-run of a folder whose manifest names a hostile child" \
    "exit 0 printing the one sample left; the child never run" \
    "manifest names the hostile child with its hash: $crafted; exit $code: $(grep -cE '^[0-9]+,[0-9]+,' "$d/dry.said") row(s) left; child $([ -e "$d/PWNED" ] && echo RUN || echo 'not run')" \
    "$(test $crafted = yes -a $code = 0 -a ! -e "$d/PWNED" -a "$(grep -cE '^[0-9]+,[0-9]+,' "$d/dry.said")" = 1 && echo 0 || echo 1)"
  sweep
}

# ---- the older probes, exact (issue 20) -------------------------------------------------------

small_run=(run --codecs noop --fixture small --batches 1,2)

# Two writers; SIGKILL mid-run (the run provably unfinished), then --resume.
o_two_writers() {
  local d=$work/lock code pid out
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 5)"
  "$bin/cold" run --codecs noop --fixture small --batches 1,2 --samples 50 --children-dir "$d/kids" \
    --out "$d/run" >"$d/first.said" 2>&1 &
  pid=$!
  if ! until_true 60 test -e "$d/kids/blocked"; then
    kill -KILL $pid; wait $pid 2>/dev/null
    record "a second run into a folder being written" "refused" "the first run's child never started within 60 s" 1
    sweep; return
  fi
  local before; before=$(sha "$d/run/samples.csv")
  run "$d/second.said" cold run --codecs noop --fixture small --batches 1,2 --samples 50 --seed 7 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  record "a second run into a folder being written" \
    "exit 1 naming the holder: another cold run (pid $pid; samples.csv untouched" \
    "exit $code: $(said "$d/second.said" 'another cold run')" \
    "$(test $code = 1 -a "$before" = "$(sha "$d/run/samples.csv")" && has "$d/second.said" "another cold run (pid $pid" && echo 0 || echo 1)"
  run "$d/resume.said" cold resume "$d/run"; code=$?
  record "a resume of a folder being written" \
    "exit 1 naming the holder: another cold run (pid $pid" \
    "exit $code: $(said "$d/resume.said" 'another cold run')" \
    "$(test $code = 1 && has "$d/resume.said" "another cold run (pid $pid" && echo 0 || echo 1)"
  local at; at=$(rows "$d/run"); local fin; fin=$(finished "$d/run")
  kill -KILL $pid; wait $pid 2>/dev/null
  local left; left=$(settle 10)
  touch "$d/kids/release"
  run "$d/resume2.said" cold resume "$d/run"; code=$?
  local got; got=$(indices "$d/run")
  record "SIGKILL mid-run, then cold resume" \
    "killed unfinished (rows < 200, finished false); nothing left within 10 s; resume exit 0; each of 200 plan indices once" \
    "killed at $at rows, finished $fin; $left left; exit $code; $got" \
    "$(test "$at" -lt 200 -a "$fin" = false -a "$left" = 0 -a $code = 0 -a "$got" = "each of 200 plan indices once" && echo 0 || echo 1)"
  sweep
}

o_signal() {
  local signal=$1 want=$2 d=$work/sig-$1 pid code
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 5)"
  "$bin/cold" run --codecs noop --fixture small --batches 1,2 --samples 50 --children-dir "$d/kids" \
    --out "$d/run" >"$d/said" 2>&1 &
  pid=$!
  if ! until_true 60 test -e "$d/kids/blocked"; then
    kill -KILL $pid; wait $pid 2>/dev/null
    record "SIG$signal mid-run" "exit $want" "the child never started within 60 s" 1; sweep; return
  fi
  kill "-$signal" $pid; wait $pid; code=$?
  local left; left=$(ours); local f; f=$(finished "$d/run")
  touch "$d/kids/release"
  run "$d/resume.said" cold resume "$d/run"
  local got; got=$(indices "$d/run")
  record "SIG$signal mid-run, then cold resume" \
    "exit $want, saying how to resume ($d/run); finished false; nothing left; then each of 200 indices once" \
    "exit $code: $(said "$d/said" "resume" | cut -c1-60)…; finished $f; $left left; then $got" \
    "$(test $code = "$want" -a "$f" = false -a "$left" = 0 -a "$got" = "each of 200 plan indices once" && has "$d/said" "resume $d/run" && echo 0 || echo 1)"
  sweep
}

o_disk_full() {
  local mnt=$work/tiny dir code
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=96k tmpfs "$mnt" 2>/dev/null; then
    skip "a full disk mid-run" "exit 1 naming the cause, then resumable" "cannot mount a tmpfs (not root)"
    return
  fi
  mounted=$mnt
  dir=$mnt/run
  kids "$work/tiny.kids"
  run "$work/tiny.said" cold "${small_run[@]}" --samples 300 --children-dir "$work/tiny.kids" --out "$dir"; code=$?
  mount -o remount,size=8m "$mnt"
  run "$work/tiny-resume.said" cold resume "$dir"
  local got; got=$(indices "$dir")
  record "a full disk mid-run, space freed, then cold resume" \
    "exit 1: No space left on device; then each of 1200 plan indices once" \
    "exit $code: $(said "$work/tiny.said" 'No space left on device'); then $got" \
    "$(test $code = 1 -a "$got" = "each of 1200 plan indices once" && has "$work/tiny.said" 'No space left on device' && echo 0 || echo 1)"
  umount "$mnt"; mounted=""
}

o_not_a_run() {
  local dir=$work/mine code before after
  mkdir -p "$dir"; victim "$dir/notes.txt"
  before=$(tree_sha "$dir")
  run "$work/mine.said" cold "${small_run[@]}" --samples 2 --out "$dir"; code=$?
  after=$(tree_sha "$dir")
  record "cold run --out a folder of the user's files" \
    "exit 1 naming the folder; the folder unchanged" \
    "exit $code: $(said "$work/mine.said" "$dir" | cut -c1-100); folder $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$after" && has "$work/mine.said" "$dir" && echo 0 || echo 1)"
}

# refused_resume PROBE DIR NEEDLE: exit 1 with NEEDLE, samples.csv unchanged.
refused_resume() {
  local code before; before=$(sha "$2/samples.csv")
  run "$work/refused.said" cold resume "$2"; code=$?
  record "$1" "exit 1: \"$3\"; samples.csv unchanged" \
    "exit $code: $(said "$work/refused.said" "$3" | cut -c1-100); samples.csv $([ "$before" = "$(sha "$2/samples.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$(sha "$2/samples.csv")" && has "$work/refused.said" "$3" && echo 0 || echo 1)"
}

o_edited_folders() {
  local dir=$work/edited m
  cold run --codecs noop --fixture users-1kb --batches 1 --samples 3 --out "$dir" \
    --children-dir "$bin" >/dev/null 2>&1
  kids "$dir.kids"
  edit "$dir/manifest.json" "s|\"children_dir\": \"\Q$bin\E\"|\"children_dir\": \"$dir.kids\"|; s|\Q$bin\E/child-noop|$dir.kids/child-noop|g"
  sed -i '$d' "$dir/samples.csv"
  m=$(cat "$dir/manifest.json")
  sed -E 's/"seed": *([0-9]+)/"seed": 12345/' <<<"$m" >"$dir/manifest.json"
  refused_resume "cold resume after the manifest's seed was edited" "$dir" "does not generate the fixture"
  sed -E 's/"plan_seed": *([0-9]+)/"plan_seed": 12345/' <<<"$m" >"$dir/manifest.json"
  refused_resume "cold resume after the manifest's plan seed was edited" "$dir" "is not the plan manifest.json describes"
  echo "$m" >"$dir/manifest.json"
  cp "$dir/fixtures/users-1kb.json" "$work/saved.json"
  printf '{"users":[]}' >"$dir/fixtures/users-1kb.json"
  refused_resume "cold resume after an input file changed" "$dir" "is not the input this run started with"
  cp "$work/saved.json" "$dir/fixtures/users-1kb.json"
  cp "$dir.kids/child-noop-de-any" "$work/saved-child"
  printf '\0' >>"$dir.kids/child-noop-de-any"
  refused_resume "cold resume after a child was rebuilt" "$dir" "is not the one this run started with"
  cp "$work/saved-child" "$dir.kids/child-noop-de-any"
  tail -1 "$dir/samples.csv" | sed 's/^[0-9]*,/99,/' >>"$dir/samples.csv"
  refused_resume "cold resume of samples.csv with a plan index beyond the plan" "$dir" "samples.csv: line 7: plan_index 99 is not in plan.csv"
  sweep
}

o_damaged_folders() {
  local dir=$work/damaged code plan
  finished_run "$dir"
  plan=$(cat "$dir/plan.csv")
  rm "$dir/plan.csv"
  touch "$dir/.manifest.json.tmp-99999"
  printf '2,1,noo' >>"$dir/samples.csv"
  run "$work/damaged.said" cold resume "$dir"; code=$?
  local same=no; [ "$(cat "$dir/plan.csv")" = "$plan" ] && same=yes
  local tmp=gone; [ -e "$dir/.manifest.json.tmp-99999" ] && tmp=left
  local got; got=$(indices "$dir")
  record "cold resume with plan.csv missing, a torn last row, a temporary file left" \
    "exit 0 saying it cut a partial last row; plan.csv written back the same; the temporary removed; each of 6 indices once" \
    "exit $code: $(said "$work/damaged.said" 'cut a partial last row' | cut -c1-60); plan.csv same: $same; temporary $tmp; $got" \
    "$(test $code = 0 -a $same = yes -a $tmp = gone -a "$got" = "each of 6 plan indices once" && has "$work/damaged.said" "cut a partial last row" && echo 0 || echo 1)"
  sweep
}

# A child that leaves a process behind holding its stdout.
o_orphan() {
  local d=$work/orphan code
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any="$B/tsleep" 300 & echo $! >>"$K/started"'
  run "$d/said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 20 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local got; got=$(statuses "$d/run"); local left; left=$(ours)
  local started; started=$(lines "$d/kids/started")
  record "a child that leaves a process behind (holding its stdout)" \
    "21 left behind (preflight and 20 samples); exit 0; ok×20; nothing left running" \
    "$started left behind; exit $code; $got; $left left" \
    "$(test "$started" = 21 -a $code = 0 -a "$got" = "ok×20" -a "$left" = 0 && echo 0 || echo 1)"
  sweep
}

o_hang() {
  local d=$work/hang code
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any=if [ "$n" = 5 ]; then exec "$B/tsleep" 300; fi'
  run "$d/said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 10 --timeout 1 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local got; got=$(statuses "$d/run"); local left; left=$(ours)
  record "a child that hangs on one sample (--timeout 1)" \
    "exit 3; ok×9 and timeout×1 (\"killed after 1 s\"); nothing left" \
    "exit $code; $got; $(grep -o 'killed after [0-9.]* s' "$d/run/samples.csv" | head -1); $left left" \
    "$(test $code = 3 -a "$got" = "ok×9, timeout×1" -a "$left" = 0 && grep -q 'killed after 1 s' "$d/run/samples.csv" && echo 0 || echo 1)"
  sweep
}

o_flood() {
  local d=$work/flood code
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any=if [ "$n" = 4 ]; then exec yes "$W"; fi'
  run "$d/said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 5 --timeout 60 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  local got; got=$(statuses "$d/run")
  local why; why=$(grep -o 'SIGXFSZ: it wrote more than [0-9]* MiB' "$d/run/samples.csv" | head -1)
  record "a child that floods its stdout" \
    "exit 3; ok×4 and signal:25×1 (SIGXFSZ: it wrote more than N MiB); nothing left" \
    "exit $code; $got; ${why:-no reason given}; $(ours) left" \
    "$(test $code = 3 -a "$got" = "ok×4, signal:25×1" -a -n "$why" -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
}

o_runner_killed() {
  local d=$work/orphaned pid
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 4)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 5 --timeout 600 \
    --children-dir "$d/kids" --out "$d/run" >/dev/null 2>&1 &
  pid=$!
  if ! until_true 60 test -e "$d/kids/blocked"; then
    kill -KILL $pid; wait $pid 2>/dev/null
    record "the runner killed while a child runs" "the spawner and the child die with it" "the child never started within 60 s" 1
    sweep; return
  fi
  local before; before=$(pgrep -f -- "$d/kids/" | wc -l)
  kill -KILL $pid; wait $pid 2>/dev/null
  local left; left=$(settle 10)
  record "the runner killed (SIGKILL) while a child runs (timeout 600 s)" \
    "the spawner and the child die with it (nothing left within 10 s)" \
    "$before child process(es) running before; $left left after" \
    "$(test "$before" -gt 0 -a "$left" = 0 && echo 0 || echo 1)"
  sweep
}

o_bad_numbers() {
  local d=$work/numbers spec args want code
  mkdir -p "$d"
  # ARGS|EXIT|NEEDLE
  for spec in \
    "--timeout 1e20|1|--timeout 100000000000000000000: give a number of seconds above 0 and at most 86400" \
    "--timeout=-1|1|--timeout -1: give a number of seconds above 0" \
    "--timeout -1|2|unexpected argument '-1'" \
    "--samples 4294967295|1|--samples 4294967295: give 1 to 100000" \
    "--samples 0|1|--samples 0: give 1 to 100000" \
    "--batches 1000000000|1|--batches: 1000000000 operations per child; give 1 to 1000000" \
    "--batches 0|1|--batches: 0 operations per child; give 1 to 1000000" \
    "--memory-limit 10|1|--memory-limit 10: give 64 to 1048576 MiB" \
    "--memory-limit 99999999|1|--memory-limit 99999999: give 64 to 1048576 MiB" \
    "--codecs yaml|1|unknown codec \`yaml\`" \
    "--fixture huge|1|unknown fixture \`huge\`"; do
    args=${spec%%|*} want=${spec#*|}; local needle=${want#*|}; want=${want%%|*}
    # shellcheck disable=SC2086
    run "$d/said" cold run $args --out "$d/run"; code=$?
    local made=no; [ -e "$d/run" ] && made=yes
    record "cold run $args" "exit $want: \"$needle\"; no folder; no panic" \
      "exit $code: $(head -1 "$d/said" | cut -c1-100); folder made: $made" \
      "$(test $code = "$want" -a $made = no && has "$d/said" "$needle" && ! has "$d/said" panicked && echo 0 || echo 1)"
    rm -rf "$d/run"
  done
}

o_wrong_corpus() {
  local corpora=$work/corpora code
  mkdir -p "$corpora"; echo '{"statuses": []}' >"$corpora/twitter.json"
  run "$work/corpus.said" cold run --dry-run --codecs noop --fixture twitter --corpora "$corpora"; code=$?
  record "a twitter.json that is not the classic one" \
    "exit 1 naming $corpora/twitter.json: is not the classic corpus file" \
    "exit $code: $(said "$work/corpus.said" 'is not the classic corpus file' | cut -c1-100)" \
    "$(test $code = 1 && has "$work/corpus.said" 'is not the classic corpus file' && has "$work/corpus.said" "twitter.json" && echo 0 || echo 1)"
}

o_conformance() {
  local d=$work/conformance code
  mkdir -p "$d/empty"; victim "$d/table.csv"
  local before; before=$(sha "$d/table.csv")
  run "$d/said" timeout -k 5 "$LIMIT" "$bin/fixtures" conformance --cases "$d/empty" --out "$d/table.csv"; code=$?
  record "fixtures conformance --cases with no cases" \
    "exit 1 naming the cases folder; the previous table unchanged" \
    "exit $code: $(said "$d/said" "$d/empty" | cut -c1-100); table $([ "$before" = "$(sha "$d/table.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$(sha "$d/table.csv")" && has "$d/said" "$d/empty" && echo 0 || echo 1)"
}

o_report_columns() {
  local d=$work/report-cols code
  finished_run "$d"
  sed -i '1s/init_plus_ops_ns/init_ops_ns/; 1s/wall_ns/wall/' "$d/samples.csv"
  run "$d.said" report "$d" --out "$d.report"; code=$?
  record "a report of samples.csv with its key columns renamed" \
    "exit 2 naming samples.csv and init_plus_ops_ns; no panic" \
    "exit $code: $(said "$d.said" init_plus_ops_ns | cut -c1-100)" \
    "$(test $code = 2 && has "$d.said" init_plus_ops_ns && has "$d.said" samples.csv && ! has "$d.said" panicked && echo 0 || echo 1)"
}

o_compare_disjoint() {
  local a=$work/cmp-a b=$work/cmp-b code
  cold run --codecs noop --fixture small --batches 1 --samples 3 --children-dir "$bin" --out "$a" >/dev/null 2>&1
  cold run --codecs noop --fixture users-1kb --batches 1 --samples 3 --children-dir "$bin" --out "$b" >/dev/null 2>&1
  run "$work/cmp.said" analysis compare "$a" "$b" --fail-on-regression; code=$?
  record "compare two runs with no cell in common" \
    "exit 2: no cell in common; no verdict; no panic" \
    "exit $code: $(said "$work/cmp.said" 'no cell' | cut -c1-100)" \
    "$(test $code = 2 && grep -qi 'no cell in common' "$work/cmp.said" && ! has "$work/cmp.said" panicked && echo 0 || echo 1)"
}

o_compare_small_n() {
  local a=$work/one-a b=$work/one-b code
  cold run --codecs noop,serde_json --fixture small --batches 1 --samples 1 --children-dir "$bin" --out "$a" >/dev/null 2>&1
  cold run --codecs noop,serde_json --fixture small --batches 1 --samples 1 --children-dir "$bin" --out "$b" >/dev/null 2>&1
  run "$work/one.said" analysis compare "$a" "$b" --fail-on-regression; code=$?
  record "compare two one-sample runs with --fail-on-regression" \
    "exit 0; no verdict at n = 1: \"0 improved, 0 regressed, 0 unchanged; 4 with too few samples\"; no panic" \
    "exit $code: $(grep -m1 -oE '[0-9]+ improved.*too few samples' "$work/one.said" | cut -c1-100)" \
    "$(test $code = 0 && has "$work/one.said" "0 improved, 0 regressed, 0 unchanged; 4 with too few samples" && ! has "$work/one.said" panicked && echo 0 || echo 1)"
}

# ---- issue 31 ----------------------------------------------------------------------------------

# 1. The memory limit holds whatever the child does: it raises its own limit (RLIMIT_DATA to
# unlimited: refused without privilege, allowed as root) or takes shared memory, which
# RLIMIT_DATA does not count. Either way its peak is past the limit and the sample is `memory`.
q01_memory() {
  local d=$work/q01 code kind body
  mkdir -p "$d"
  for kind in lift shared; do
    if [ $kind = lift ]; then
      body='if [ "$n" -ge 2 ]; then python3 -c "import resource as r
try: r.setrlimit(r.RLIMIT_DATA, (-1, -1))
except (ValueError, OSError): pass
b = bytearray(700 << 20)" || exit 1; fi'
    else
      body='if [ "$n" -ge 2 ]; then python3 -c "import mmap
m = mmap.mmap(-1, 700 << 20, mmap.MAP_SHARED)
for i in range(0, 700 << 20, 4096): m[i] = 1" || exit 1; fi'
    fi
    kids "$d/$kind" "child-noop-de-any=$body"
    run "$d/$kind.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 2 \
      --memory-limit 256 --children-dir "$d/$kind" --out "$d/$kind-run"; code=$?
    record "q01 $([ $kind = lift ] && echo 'a child raises its RLIMIT_DATA to unlimited, then takes 700 MB' || echo 'a child touches a 700 MB shared anonymous mapping') (--memory-limit 256)" \
      "exit 3; memory×2 (never ok); nothing left" \
      "exit $code; $(statuses "$d/$kind-run"); $(row_error "$d/$kind-run" 1 | cut -c1-90); $(ours) left" \
      "$(test $code = 3 -a "$(statuses "$d/$kind-run")" = "memory×2" -a "$(ours)" = 0 && echo 0 || echo 1)"
    sweep
  done
}

# 2. No output lands on an input: a run's files, warm results, a file of the user's, a link.
q02_outputs() {
  local d=$work/q02 code before
  mkdir -p "$d"; victim "$d/victim"; local vb; vb=$(sha "$d/victim")
  synth_run "$d/a"; synth_run "$d/b"
  before=$(tree_sha "$d/a")
  run "$d/cmp.said" analysis compare "$d/a" "$d/b" --out "$d/a/samples.csv"; code=$?
  record "q02a analysis compare A B --out A/samples.csv" \
    "exit 2 naming --out A/samples.csv (a file is there already); A unchanged" \
    "exit $code: $(said "$d/cmp.said" "--out" | cut -c1-110); A $([ "$before" = "$(tree_sha "$d/a")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$d/a")" && has "$d/cmp.said" "a file is there already" && echo 0 || echo 1)"

  run "$d/new.said" analysis compare "$d/a" "$d/b" --out "$d/a/new.csv"; code=$?
  record "q02b analysis compare A B --out A/new.csv (a new file in a run folder)" \
    "exit 2: its folder holds a run; A unchanged" \
    "exit $code: $(said "$d/new.said" "--out" | cut -c1-110); A $([ "$before" = "$(tree_sha "$d/a")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$d/a")" && has "$d/new.said" "holds a run" && echo 0 || echo 1)"

  run "$d/export.said" analysis export --format hyperfine "$d/a" --out "$d/a/manifest.json"; code=$?
  record "q02c analysis export --out RUN/manifest.json" \
    "exit 2 naming --out; the run unchanged" \
    "exit $code: $(said "$d/export.said" "--out" | cut -c1-110); run $([ "$before" = "$(tree_sha "$d/a")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$d/a")" && has "$d/export.said" "manifest.json" && echo 0 || echo 1)"

  synth_run "$d/s1" "$d/warm"
  local wb; wb=$(tree_sha "$d/warm")
  run "$d/warm.said" analysis synth --out "$d/s2" --samples 60 --warm "$d/warm"; code=$?
  record "q02d analysis synth --out NEW --warm WARM (WARM holds warm results)" \
    "exit 2 naming --warm; WARM unchanged; NEW not made" \
    "exit $code: $(said "$d/warm.said" "--warm" | cut -c1-110); warm $([ "$wb" = "$(tree_sha "$d/warm")" ] && echo unchanged || echo CHANGED); NEW $([ -e "$d/s2" ] && echo MADE || echo absent)" \
    "$(test $code = 2 -a "$wb" = "$(tree_sha "$d/warm")" -a ! -e "$d/s2" && has "$d/warm.said" "--warm" && echo 0 || echo 1)"

  run "$d/conf.said" analysis synth --out "$d/s3" --samples 60 --conformance "$d/victim"; code=$?
  record "q02e analysis synth --conformance FILE (a file of the user's)" \
    "exit 2 naming --conformance; the file unchanged" \
    "exit $code: $(said "$d/conf.said" "--conformance" | cut -c1-110); file $([ "$vb" = "$(sha "$d/victim")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$vb" = "$(sha "$d/victim")" && has "$d/conf.said" "--conformance" && echo 0 || echo 1)"

  ln -s "$d/victim" "$d/link.csv"
  run "$d/link.said" analysis compare "$d/a" "$d/b" --out "$d/link.csv"; code=$?
  run "$d/force.said" analysis compare "$d/a" "$d/b" --out "$d/link.csv" --force; local code2=$?
  local now=link; [ -L "$d/link.csv" ] || { [ -f "$d/link.csv" ] && now="a regular file"; }
  record "q02f compare --out LINK (a symbolic link to a victim), then with --force" \
    "exit 2, then exit 0; the victim unchanged; the link replaced by a regular file" \
    "exit $code then $code2; victim $([ "$vb" = "$(sha "$d/victim")" ] && echo unchanged || echo CHANGED); link.csv now $now" \
    "$(test $code = 2 -a $code2 = 0 -a "$vb" = "$(sha "$d/victim")" -a "$now" = "a regular file" && echo 0 || echo 1)"

  run "$d/rep.said" report "$d/b" --out "$d/a"; code=$?
  record "q02g analysis report B --out A (A a run folder)" \
    "exit 2 naming --out (it holds a run); A unchanged" \
    "exit $code: $(said "$d/rep.said" "--out" | cut -c1-110); A $([ "$before" = "$(tree_sha "$d/a")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$d/a")" && has "$d/rep.said" "holds a run" && echo 0 || echo 1)"
}

# 3. The runner killed with SIGKILL (by the user, or by its own child) while a child that left a
# daemon (its own session, HUP and TERM ignored) runs: nothing of the run is left.
q03_runner_killed() {
  local d=$work/q03 kind pid
  mkdir -p "$d"
  local daemon='setsid sh -c '\''trap "" HUP TERM; exec "$0" 1000'\'' "$B/tsleep" </dev/null >/dev/null 2>&1 & touch "$K/daemon"'
  for kind in outside child; do
    if [ $kind = outside ]; then
      kids "$d/$kind" "child-noop-de-any=if [ \"\$n\" = 3 ]; then $daemon; fi
$(gate 3)"
    else
      kids "$d/$kind" "child-noop-de-any=if [ \"\$n\" = 3 ]; then $daemon; touch \"\$K/blocked\"; kill -KILL \"\$(awk '{print \$4}' /proc/\$PPID/stat)\"; \"\$B/tsleep\" 60; fi"
    fi
    "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 5 --timeout 600 \
      --children-dir "$d/$kind" --out "$d/$kind-run" >"$d/$kind.said" 2>&1 &
    pid=$!
    if ! until_true 60 test -e "$d/$kind/blocked"; then
      kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
      record "q03 the runner killed ($kind)" "nothing left" "the third child never started within 60 s" 1
      sweep; continue
    fi
    [ $kind = outside ] && kill -KILL $pid
    wait $pid 2>/dev/null; local code=$?
    local left; left=$(settle 10)
    # In a pid namespace a child cannot name its runner (its parent is the namespace's init,
    # whose parent it reads as 0: `kill -KILL 0` ends its own group): the run goes on.
    local want=137 how="the runner dies of SIGKILL (137)"
    [ $kind = child ] && pidns "$d/$kind-run" && { want=3; how="the runner out of reach (pid namespace): exit 3, the sample signal:9"; }
    record "q03 $([ $kind = outside ] && echo 'kill -9 of the runner' || echo 'a child kills its own runner (kill -9)') while a child with a setsid daemon (HUP, TERM ignored) runs" \
      "$how; the daemon started; nothing left within 10 s (spawner, child, daemon)" \
      "runner exit $code; daemon $([ -e "$d/$kind/daemon" ] && echo started || echo 'NOT started'); $left left" \
      "$(test $code = $want -a -e "$d/$kind/daemon" -a "$left" = 0 && echo 0 || echo 1)"
    sweep
  done
}

# 4. Hard links (which O_NOFOLLOW does not see) in a run folder and a report folder.
q04_hard_links() {
  local d=$work/q04 code before after bs
  mkdir -p "$d"; victim "$d/victim"; before=$(sha "$d/victim")
  unfinished_run "$d/lock"
  rm -f "$d/lock/.lock"; ln "$d/victim" "$d/lock/.lock"
  bs=$(sha "$d/lock/samples.csv")
  run "$d/lock.said" cold resume "$d/lock"; code=$?
  record "q04a RUN/.lock a hard link to a victim, then cold resume" \
    "exit 1 naming .lock (hard links); the victim and samples.csv unchanged; nothing left" \
    "exit $code: $(said "$d/lock.said" .lock | cut -c1-110); victim $([ "$before" = "$(sha "$d/victim")" ] && echo unchanged || echo CHANGED); samples.csv $([ "$bs" = "$(sha "$d/lock/samples.csv")" ] && echo unchanged || echo CHANGED); $(ours) left" \
    "$(test $code = 1 -a "$before" = "$(sha "$d/victim")" -a "$bs" = "$(sha "$d/lock/samples.csv")" -a "$(ours)" = 0 && has "$d/lock.said" "hard links" && echo 0 || echo 1)"

  unfinished_run "$d/samples"
  cp "$d/samples/samples.csv" "$d/victim-samples.csv"; printf '2,1,no' >>"$d/victim-samples.csv"
  local vb; vb=$(sha "$d/victim-samples.csv")
  rm "$d/samples/samples.csv"; ln "$d/victim-samples.csv" "$d/samples/samples.csv"
  run "$d/samples.said" cold resume "$d/samples"; code=$?
  # resume gives samples.csv a file of its own (issue 60: a link made mid-run is repaired)
  record "q04b RUN/samples.csv a hard link to a file outside (a torn last row), then cold resume" \
    "exit 0 saying samples.csv had another name; samples.csv a file of its own; the other file unchanged (not cut, not appended to); each of 6 indices once" \
    "exit $code: $(said "$d/samples.said" samples.csv | cut -c1-80); $(stat -c %h "$d/samples/samples.csv") link(s); other file $([ "$vb" = "$(sha "$d/victim-samples.csv")" ] && echo unchanged || echo CHANGED); $(indices "$d/samples")" \
    "$(test $code = 0 -a "$vb" = "$(sha "$d/victim-samples.csv")" -a "$(stat -c %h "$d/samples/samples.csv")" = 1 -a "$(indices "$d/samples")" = "each of 6 plan indices once" && has "$d/samples.said" "another name" && echo 0 || echo 1)"
  sweep

  synth_run "$d/synth"
  mkdir -p "$d/synth/report"; ln "$d/victim" "$d/synth/report/report.md"
  run "$d/report.said" report "$d/synth"; code=$?
  record "q04c RUN/report/report.md a hard link to a victim, then analysis report RUN" \
    "exit 0; the victim unchanged (report.md written new and renamed)" \
    "exit $code: $(last "$d/report.said"); victim $([ "$before" = "$(sha "$d/victim")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 0 -a "$before" = "$(sha "$d/victim")" && echo 0 || echo 1)"
}

# 5. A sparse 4 GB file in a run or warm folder: a clear error at once, in little memory.
q05_sparse() {
  local d=$work/q05 code kind t0 ms
  mkdir -p "$d"
  for kind in newline torn gate; do
    synth_run "$d/$kind" "$d/$kind-warm"
    local f=$d/$kind/samples.csv
    if [ $kind = gate ]; then f=$d/$kind-warm/gate.csv; printf 'fixture,op,codec\n' >"$f"; fi
    truncate -s +4G "$f"
    [ $kind = torn ] || echo >>"$f"
    t0=$(date +%s%N)
    run "$d/$kind.said" timeout -k 5 60 prlimit --data=$((100 << 20)) -- "$bin/analysis" report "$d/$kind" \
      --warm "$d/$kind-warm" --conformance "$work/none.csv" --out "$d/$kind-report"; code=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    local name; name=$(basename "$f")
    record "q05 a sparse 4 GB $name ($([ $kind = torn ] && echo 'no final newline' || echo 'a final newline')), report in 100 MB of data" \
      "exit 2 within 1 s naming $name: a line longer than 1 MiB" \
      "exit $code after $ms ms: $(said "$d/$kind.said" "$name" | cut -c1-120)" \
      "$(test $code = 2 -a $ms -lt 1000 && has "$d/$kind.said" "$name" && has "$d/$kind.said" "longer than 1 MiB" && echo 0 || echo 1)"
    rm -f "$f"
  done
}

# 6. RUN_DIR (or the `latest` pointer) a FIFO or a device.
q06_pointer() {
  local d=$work/q06 code t0 secs
  mkdir -p "$d/root"; mkfifo "$d/root/latest"
  t0=$(date +%s)
  run "$d/fifo.said" timeout -k 5 30 "$bin/analysis" report "$d/root/latest" --warm "$work/no-warm" \
    --conformance "$work/none.csv"; code=$?
  secs=$(($(date +%s) - t0))
  record "q06a results/cold/latest a FIFO, then analysis report of it (30 s at most)" \
    "exit 2 at once naming latest: it is a FIFO" \
    "exit $code after ${secs} s: $(said "$d/fifo.said" latest | cut -c1-120)" \
    "$(test $code = 2 && has "$d/fifo.said" latest && has "$d/fifo.said" FIFO && echo 0 || echo 1)"
  run "$d/zero.said" timeout -k 5 30 prlimit --as=$((2 << 30)) -- "$bin/analysis" report /dev/zero \
    --warm "$work/no-warm" --conformance "$work/none.csv"; code=$?
  record "q06b analysis report /dev/zero (30 s and 2 GiB at most)" \
    "exit 2 at once naming /dev/zero: it is a device" \
    "exit $code: $(said "$d/zero.said" /dev/zero | cut -c1-120)" \
    "$(test $code = 2 && has "$d/zero.said" /dev/zero && has "$d/zero.said" device && echo 0 || echo 1)"
}

# 7. A child that stops the runner (SIGSTOP): the spawner continues it once the sample is over.
q07_runner_stopped() {
  local d=$work/q07 code t0 secs
  mkdir -p "$d"
  kids "$d/kids" 'child-noop-de-any=if [ "$n" = 3 ]; then kill -STOP "$(awk "{print \$4}" /proc/$PPID/stat)"; touch "$K/stopped"; fi'
  t0=$(date +%s)
  run "$d/said" env -u THAW_EXTERNAL timeout -k 5 60 "$bin/cold" run --codecs noop --ops de --fixture small \
    --batches 1 --samples 5 --timeout 1 --children-dir "$d/kids" --out "$d/run"; code=$?
  secs=$(($(date +%s) - t0))
  # In a pid namespace the child cannot name its runner: `kill -STOP 0` stops its own group,
  # and the sample times out.
  local stopped=stopped want_code=0 want="ok×5"
  pidns "$d/run" && { stopped="NOT stopped" want_code=3 want="ok×4, timeout×1"; }
  record "q07 a child stops its runner (kill -STOP), --timeout 1 (60 s at most)" \
    "the runner $stopped; exit $want_code within 60 s; $want; each index once; nothing left" \
    "runner $([ -e "$d/kids/stopped" ] && echo stopped || echo 'NOT stopped'); exit $code after ${secs} s; $(statuses "$d/run"); $(indices "$d/run"); $(ours) left" \
    "$(test "$([ -e "$d/kids/stopped" ] && echo stopped || echo 'NOT stopped')" = "$stopped" -a $code = $want_code -a "$(statuses "$d/run")" = "$want" -a "$(indices "$d/run")" = "each of 5 plan indices once" -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
}

# 8. Notes from hostile warm and conformance files are clipped: a line, and the list.
q08_notes() {
  local d=$work/q08 code kind
  mkdir -p "$d"
  for kind in name junk detail; do
    synth_run "$d/$kind" "$d/$kind-warm" --conformance "$d/$kind-conformance.csv"
    case $kind in
      name) mkdir -p "$d/$kind-warm/jmh/jdk25"
        perl -e 'print "[{\"benchmark\": \"" . ("B" x 5000000) . "\", \"mode\": \"avgt\"}]\n"' >"$d/$kind-warm/jmh/jdk25/jmh.json" ;;
      junk) mkdir -p "$d/$kind-warm/jmh/jdk25"
        perl -e 'print "[" . join(",", map { "{\"benchmark\": \"junk$_\"}" } 1 .. 20000) . "]\n"' >"$d/$kind-warm/jmh/jdk25/jmh.json" ;;
      detail) perl -0777 -i -pe 's/^([^,\n]+,[^,\n]+,[^,\n]+,[^,\n]+,)false,[^\n]*$/$1 . "false," . ("D" x 200000)/me' "$d/$kind-conformance.csv" ;;
    esac
    run "$d/$kind.said" analysis report "$d/$kind" --warm "$d/$kind-warm" \
      --conformance "$d/$kind-conformance.csv" --out "$d/$kind-report"; code=$?
    local longest; longest=$(cat "$d/$kind.said" "$d/$kind-report/report.md" 2>/dev/null | awk '{ if (length > m) m = length } END {print m + 0}')
    local kb; kb=$(du -k "$d/$kind-report/report.md" 2>/dev/null | cut -f1)
    # report.html takes the same clip as report.md (issue 50, moderate 9): a 5 MB name is not
    # shown whole there either
    local html; html=$(du -k "$d/$kind-report/report.html" 2>/dev/null | cut -f1)
    record "q08 $(case $kind in name) echo 'a JMH result named by 5 MB' ;; junk) echo '20,000 junk JMH results' ;; detail) echo 'a conformance detail of 200 KB' ;; esac)" \
      "exit 0; every line of the terminal and report.md under 5,000 characters; report.md and report.html under 1 MB" \
      "exit $code; longest line $longest; report.md ${kb:-0} KB, report.html ${html:-0} KB" \
      "$(test $code = 0 -a "$longest" -lt 5000 -a "${kb:-0}" -gt 0 -a "${kb:-0}" -lt 1024 -a "${html:-0}" -gt 0 -a "${html:-0}" -lt 1024 && echo 0 || echo 1)"
  done
}

# 9. A dry run builds nothing: no cargo, no linker, for a described build or the default one.
q09_dry_run() {
  local d=$work/q09 code
  mkdir -p "$d/variants" "$d/fakebin"
  printf '#!/bin/sh\ntouch %q\nexit 1\n' "$d/linked" >"$d/linker.sh"
  printf '#!/bin/sh\ntouch %q\nexit 1\n' "$d/cargo-ran" >"$d/fakebin/cargo"
  chmod +x "$d/linker.sh" "$d/fakebin/cargo"
  printf 'about = "torture"\nrustflags = "-C linker=%s"\n' "$d/linker.sh" >"$d/variants/torture.toml"
  run "$d/said" env PATH="$d/fakebin:$PATH" CARGO="$d/fakebin/cargo" THAW_VARIANTS="$d/variants" \
    timeout -k 5 "$LIMIT" "$bin/cold" run --dry-run --variant torture,portable --codecs noop --ops de \
    --fixture small --batches 1 --samples 1; code=$?
  record "q09 cold run --dry-run --variant torture,portable (torture's linker a script; cargo a script)" \
    "neither cargo nor the linker runs; no panic" \
    "exit $code: $(last "$d/said" | cut -c1-100); cargo $([ -e "$d/cargo-ran" ] && echo RAN || echo 'not run'); linker $([ -e "$d/linked" ] && echo RAN || echo 'not run')" \
    "$(test ! -e "$d/cargo-ran" -a ! -e "$d/linked" && ! has "$d/said" panicked && echo 0 || echo 1)"
  sweep
}

# 10. cold list of a $THAW_EXTERNAL whose library name holds escapes.
q10_list_escapes() {
  local d=$work/q10 code
  describe "$d/esc" tort torture-esc
  perl -0777 -i -pe 's/library = "torture"/library = "torture\\u001b]0;pwned\\u0007\\u001b[2J"/' "$d/esc/rt/codec-x.toml"
  run "$d/said" env THAW_EXTERNAL="$d/esc" timeout -k 5 "$LIMIT" "$bin/cold" list; code=$?
  local raw; raw=$(raw_controls "$d/said")
  record "q10 cold list, THAW_EXTERNAL's library name holding ESC and BEL" \
    "exit 0; the name shown escaped (torture\\u{1b}); no raw control character" \
    "exit $code: $(said "$d/said" torture-esc | cut -c1-100); $raw line(s) with raw control characters" \
    "$(test $code = 0 -a "$raw" = 0 && has "$d/said" 'torture\u{1b}' && echo 0 || echo 1)"
}

# 11. Bare URLs from a manifest, --env, a sample's error and a conformance detail never become
# links in report.md.
q11_urls() {
  local d=$work/q11 code
  mkdir -p "$d"
  synth_run "$d/run" "" --fail-rate 0.05 --conformance "$d/conformance.csv"
  TEXT=' https://evil.example/p www.evil.example' hostile_manifest "$d/run/manifest.json"
  TEXT=' https://evil.example/error www.evil.example' hostile_errors "$d/run/samples.csv"
  perl -0777 -i -pe 's/"child_env": \[\]/"child_env": [["TORTURE", "https:\/\/evil.example\/env"]]/' "$d/run/manifest.json"
  perl -0777 -i -pe 's/^([^,\n]+,[^,\n]+,[^,\n]+,[^,\n]+,)false,[^\n]*$/$1false,https:\/\/evil.example\/detail/mg' "$d/conformance.csv"
  run "$d/said" analysis report "$d/run" --warm "$work/no-warm" --conformance "$d/conformance.csv" \
    --out "$d/report"; code=$?
  local bare; bare=$(grep -cE 'https?://evil|www\.evil' "$d/report/report.md" "$d/said" 2>/dev/null | awk -F: '{n += $NF} END {print n + 0}')
  local shown; shown=$(grep -c 'evil' "$d/report/report.md" 2>/dev/null)
  record "q11 URLs in the manifest (library, version, CPU, details, reasons, --env), a sample's error, a conformance detail" \
    "exit 0; report.md shows them (evil.example) but holds no bare URL (https[:]//, www[.]); nor does the terminal" \
    "exit $code; lines of report.md showing evil.example: ${shown:-0}; lines with a bare URL: $bare" \
    "$(test $code = 0 -a "$bare" = 0 -a "${shown:-0}" -gt 0 && grep -q 'https\[:\]//evil' "$d/report/report.md" && echo 0 || echo 1)"
}

# 12. Criterion estimates too small to be a time per operation.
q12_tiny_estimates() {
  local d=$work/q12 code v
  mkdir -p "$d"
  synth_run "$d/run" "$d/warm"
  local est=$d/warm/criterion/portable/users-2kb_de/serde_json/new/estimates.json
  cp "$est" "$d/est.good"
  for v in 1e-9 1e-300 5e-324; do
    cp "$d/est.good" "$est"
    edit "$est" 's/"point_estimate":[0-9.e+-]+/"point_estimate":'"$v"'/g; s/"(lower|upper)_bound":[0-9.e+-]+/"$1_bound":'"$v"'/g'
    rm -rf "$d/report"
    run "$d/said" analysis report "$d/run" --warm "$d/warm" --conformance "$work/none.csv" --out "$d/report"; code=$?
    local in_md=no shown=""
    grep -qF "serde_json/new/estimates.json" "$d/report/report.md" 2>/dev/null && in_md=yes
    grep -qE '[0-9]{9,}(\.[0-9]+)?×|inf×' "$d/report/report.md" 2>/dev/null && shown=" but report.md shows an impossible penalty"
    record "q12 estimates.json with a median of $v ns" \
      "exit 0; that estimates.json named as skipped on the terminal and in report.md; no impossible cold penalty" \
      "exit $code; terminal: $(said "$d/said" "serde_json/new/estimates.json" | cut -c1-90); report.md names it: $in_md$shown" \
      "$(test $code = 0 -a $in_md = yes -a -z "$shown" && has "$d/said" "serde_json/new/estimates.json" && echo 0 || echo 1)"
  done
}

# 13. A shard with no block.
q13_empty_shard() {
  local d=$work/q13 code
  mkdir -p "$d"
  run "$d/said" cold run --codecs noop --fixture small --batches 1 --samples 3 --shard 1/4 \
    --children-dir "$bin" --out "$d/run"; code=$?
  record "q13 cold run --samples 3 --shard 1/4" \
    "exit 1 saying the shard gets no block (not that the gate failed); no folder" \
    "exit $code: $(last "$d/said" | cut -c1-120); folder $([ -e "$d/run" ] && echo MADE || echo absent)" \
    "$(test $code = 1 -a ! -e "$d/run" && has "$d/said" "gets none" && ! has "$d/said" "correctness gate" && echo 0 || echo 1)"
}

# 14. Names in a manifest that no run writes: a codec id ../../x, a child's binary ../../x.
q14_manifest_names() {
  local d=$work/q14 code bs
  mkdir -p "$d"
  synth_run "$d/synth"
  edit "$d/synth/manifest.json" 's/"id": "serde_json"/"id": "..\/..\/x"/'
  run "$d/id.said" report "$d/synth" --out "$d/id-report"; code=$?
  record "q14a a manifest codec id ../../x, then analysis report" \
    "exit 2 naming manifest.json and the id; no report" \
    "exit $code: $(said "$d/id.said" manifest.json | cut -c1-120); report $([ -e "$d/id-report/report.md" ] && echo WRITTEN || echo absent)" \
    "$(test $code = 2 -a ! -e "$d/id-report/report.md" && has "$d/id.said" '../../x' && echo 0 || echo 1)"

  unfinished_run "$d/run"
  edit "$d/run/manifest.json" 's/"binary": "child-noop-de-any"/"binary": "..\/..\/x"/'
  bs=$(sha "$d/run/samples.csv")
  run "$d/binary.said" cold resume "$d/run"; code=$?
  record "q14b a manifest child's binary ../../x, then cold resume" \
    "exit 1 naming manifest.json and binary; samples.csv unchanged; nothing run" \
    "exit $code: $(said "$d/binary.said" manifest.json | cut -c1-120); samples.csv $([ "$bs" = "$(sha "$d/run/samples.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$bs" = "$(sha "$d/run/samples.csv")" && has "$d/binary.said" binary && has "$d/binary.said" manifest.json && echo 0 || echo 1)"
  sweep
}

# 15. Long values the user gave are echoed clipped.
q15_long_values() {
  local d=$work/q15 code
  mkdir -p "$d"
  run "$d/codec.said" cold run --codecs "$(head -c 100000 /dev/zero | tr '\0' y)" --out "$d/run"; code=$?
  local longest; longest=$(awk '{ if (length > m) m = length } END {print m + 0}' "$d/codec.said")
  record "q15a cold run --codecs (a 100 KB unknown name)" \
    "exit 1: unknown codec, the name clipped; every line under 2,000 characters; no folder" \
    "exit $code: $(said "$d/codec.said" "unknown codec" | cut -c1-90); longest line $longest" \
    "$(test $code = 1 -a "$longest" -lt 2000 -a ! -e "$d/run" && has "$d/codec.said" "unknown codec" && echo 0 || echo 1)"
  run "$d/timeout.said" cold run --timeout 1e300 --out "$d/run"; code=$?
  record "q15b cold run --timeout 1e300" \
    "exit 1: \"--timeout 1e300: give\"; no folder" \
    "exit $code: $(last "$d/timeout.said" | cut -c1-120)" \
    "$(test $code = 1 -a ! -e "$d/run" && has "$d/timeout.said" "--timeout 1e300: give" && echo 0 || echo 1)"
}

# 16. A run killed before its manifest (its preflight running): its folder is reused by a new run.
q16_killed_before_manifest() {
  local d=$work/q16 pid code
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 1)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 3 \
    --children-dir "$d/kids" --out "$d/run" >"$d/first.said" 2>&1 &
  pid=$!
  if ! until_true 60 test -e "$d/kids/blocked"; then
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    record "q16 a run killed before its manifest" "reusable" "the preflight never started within 60 s" 1
    sweep; return
  fi
  kill -KILL $pid; wait $pid 2>/dev/null
  settle 10 >/dev/null
  local manifest=absent; [ -e "$d/run/manifest.json" ] && manifest=present
  run "$d/resume.said" cold resume "$d/run"; local rcode=$?
  kids "$d/kids2"
  run "$d/again.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 3 \
    --children-dir "$d/kids2" --out "$d/run"; code=$?
  record "q16 a run killed (SIGKILL) in its preflight, before its manifest; then resume; then run --out the same folder" \
    "no manifest; resume exit 1 naming cold run --out; the new run exit 0, each of 3 plan indices once" \
    "manifest $manifest; resume exit $rcode: $(said "$d/resume.said" "cold run --out" | cut -c1-80); run exit $code: $(indices "$d/run")" \
    "$(test $manifest = absent -a $rcode = 1 -a $code = 0 -a "$(indices "$d/run")" = "each of 3 plan indices once" && has "$d/resume.said" "cold run --out" && echo 0 || echo 1)"
  sweep
}

# ---- issue 50 ----------------------------------------------------------------------------------

# 1. Memory a child's own peak does not show: memfd files it keeps open, a grandchild's mapping.
# With a memory cgroup (docs/containment.md) the cgroup's peak and OOM kills count them; each
# has a neighbour just under the limit, which stays ok.
r01_memory_outside() {
  local d=$work/r01 code kind body want
  mkdir -p "$d"
  local py='python3 -c "import mmap, os, sys, time
kind, mib = sys.argv[1], int(sys.argv[2])
keep = []
if kind == \"memfd\":
    for i in range(4):
        fd = os.memfd_create(\"x\"); b = b\"x\" * (1 << 20)
        for j in range(mib // 4): os.write(fd, b)
        keep.append(fd)
else:
    flags = mmap.MAP_SHARED if kind == \"shared\" else mmap.MAP_PRIVATE | 0x0100
    m = mmap.mmap(-1, mib << 20, flags)
    for i in range(0, mib << 20, 4096): m[i] = 1
    keep.append(m)
open(sys.argv[3], \"a\").write(\"touched\\n\")
if kind != \"memfd\": time.sleep(60)"'
  for kind in memfd:800 memfd:128 shared:700 shared:64 growsdown:700 growsdown:64; do
    local what=${kind%%:*} mib=${kind##*:} tag=${kind/:/-}
    if [ "$what" = memfd ]; then
      # the child itself: four memfd files written and kept open while it runs
      body="if [ \"\$n\" -ge 2 ]; then $py $what $mib \"\$K/touched\" || exit 1; fi"
    else
      # a grandchild the child never waits for touches its mapping while the child runs
      # (until it ended, touched all or killed by the kernel: a subshell that the child never
      # waits for says so)
      body="if [ \"\$n\" -ge 2 ]; then ( $py $what $mib \"\$K/touched\"; echo \$? >>\"\$K/ended\" ) & i=0; while [ \"\$(lines \"\$K/touched\")\" -lt \$((n-1)) ] && [ \"\$(lines \"\$K/ended\")\" -lt \$((n-1)) ] && [ \$i -lt 3000 ]; do \"\$B/tsleep\" 0.01; i=\$((i+1)); done; fi"
      body="lines() { [ -f \"\$1\" ] && wc -l <\"\$1\" || echo 0; }
$body"
    fi
    kids "$d/$tag" "child-noop-de-any=$body"
    run "$d/$tag.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 2 \
      --memory-limit 256 --children-dir "$d/$tag" --out "$d/$tag-run"; code=$?
    local left; left=$(settle 10)
    if ! memcg "$d/$tag-run"; then
      skip "r01 $tag (--memory-limit 256)" "memory×2" "no memory cgroup on this machine"
      sweep; continue
    fi
    if [ "$mib" -gt 256 ]; then want="exit 3; memory×2"; else want="exit 0; ok×2"; fi
    record "r01 $([ $what = memfd ] && echo "a child keeps four memfd files of $((mib / 4)) MB open" || echo "a grandchild the child never waits for touches a $mib MB $what mapping") (--memory-limit 256)" \
      "$want; nothing left" \
      "exit $code; $(statuses "$d/$tag-run"); $(row_error "$d/$tag-run" 1 | cut -c1-80); $left left" \
      "$(test "exit $code; $(statuses "$d/$tag-run")" = "$want" -a "$left" = 0 && echo 0 || echo 1)"
    sweep
  done
}

# 2. A child that kills its spawner, then its runner (or stops the runner, then kills the
# spawner), and leaves a process (or a setsid daemon) behind. In a pid namespace neither is in
# its reach: its parent is the namespace's init, which the kernel protects from it, and it reads
# that init's parent as 0 (`kill 0` ends its own group). The run ends within its timeout, exit
# 3, the sample failed, and nothing is left. Elsewhere (no pid namespace) it is skipped: the
# runner dies before it can act (docs/containment.md).
r02_kills_both() {
  local d=$work/r02 code kind body t0 secs
  mkdir -p "$d"
  local daemon='setsid sh -c '\''trap "" HUP TERM; exec "$0" 600'\'' "$B/tsleep" </dev/null >/dev/null 2>&1 &'
  for kind in kill-kill kill-kill-daemon stop-kill; do
    case $kind in
      kill-kill) body='R=$(awk '\''{print $4}'\'' /proc/$PPID/stat); kill -KILL $PPID; kill -KILL $R; exec "$B/tsleep" 600' ;;
      kill-kill-daemon) body="$daemon"' R=$(awk '\''{print $4}'\'' /proc/$PPID/stat); kill -KILL $PPID; kill -KILL $R; exec "$B/tsleep" 600' ;;
      stop-kill) body='R=$(awk '\''{print $4}'\'' /proc/$PPID/stat); kill -STOP $R; kill -KILL $PPID; exec "$B/tsleep" 600' ;;
    esac
    kids "$d/$kind" "child-noop-de-any=if [ \"\$n\" = 3 ]; then $body; fi"
    t0=$(date +%s)
    run "$d/$kind.said" env -u THAW_EXTERNAL timeout -k 5 60 "$bin/cold" run --codecs noop --ops de \
      --fixture small --batches 1 --samples 4 --timeout 2 --children-dir "$d/$kind" --out "$d/$kind-run"; code=$?
    secs=$(($(date +%s) - t0))
    local left; left=$(settle 10)
    if ! pidns "$d/$kind-run"; then
      skip "r02 $kind" "nothing left" "no pid namespace on this machine"
      sweep; continue
    fi
    local got; got=$(statuses "$d/$kind-run")
    record "r02 a child: $(case $kind in kill-kill) echo 'kill -9 its spawner, then its runner, then exec sleep 600' ;; kill-kill-daemon) echo 'a setsid daemon, then kill -9 its spawner and its runner' ;; stop-kill) echo 'kill -STOP its runner, kill -9 its spawner, exec sleep 600' ;; esac) (--timeout 2)" \
      "exit 3 within 60 s; ok×3 and one failed sample; each index once; nothing left" \
      "exit $code after ${secs} s; $got; $(indices "$d/$kind-run"); $left left" \
      "$(test $code = 3 -a "$secs" -le 60 -a "$(indices "$d/$kind-run")" = "each of 4 plan indices once" -a "$left" = 0 && [[ "$got" == ok×3,* || "$got" == *", ok×3" ]] && echo 0 || echo 1)"
    sweep
  done
}

# 3. No descriptor of the runner's reaches a child: a secret the runner's shell left open on fd 9.
# Its neighbour: the child's own stdout and stderr still work (the sample is ok).
r03_inherited_fd() {
  local d=$work/r03 code
  mkdir -p "$d"
  echo "the secret" >"$d/secret.txt"
  kids "$d/kids" 'child-noop-de-any=cat <&9 >>"$K/leak" 2>/dev/null; ls /proc/self/fd | wc -l >>"$K/fds"'
  ( exec 9<"$d/secret.txt"; run "$d/said" cold run --codecs noop --ops de --fixture small \
      --batches 1 --samples 2 --children-dir "$d/kids" --out "$d/run" ); code=$?
  local leaked; leaked=$(wc -c <"$d/kids/leak" 2>/dev/null || echo 0)
  record "r03 the runner started with fd 9 open on a secret; a child reads fd 9" \
    "exit 0; ok×2; nothing read from fd 9 (0 bytes); nothing left" \
    "exit $code; $(statuses "$d/run"); $leaked bytes read from fd 9; $(ours) left" \
    "$(test $code = 0 -a "$(statuses "$d/run")" = "ok×2" -a "$leaked" = 0 -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
}

# 4. A child replaces samples.csv by rename (`sed -i`); its neighbour only reads it. The runner
# never says "finished" over a file it no longer appends to.
r04_samples_replaced() {
  local d=$work/r04 code kind
  mkdir -p "$d"
  for kind in sed cat; do
    # A child cannot write the run folder (it runs without privileges: issue 60), so the
    # replacement is made beside it, by the run's own user, while the fourth child waits.
    if [ $kind = sed ]; then
      kids "$d/$kind" "child-noop-de-any=$(gate 4)"
      "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 12 \
        --children-dir "$d/$kind" --out "$d/$kind-run" >"$d/$kind.said" 2>&1 &
      local pid=$!
      until_true 60 test -e "$d/$kind/blocked" && sed -i 's/,ok,/,ok,/' "$d/$kind-run/samples.csv"
      touch "$d/$kind/release"
      wait $pid; code=$?
    else
      kids "$d/$kind" "child-noop-de-any=if [ \"\$n\" = 4 ]; then cat \"$d/$kind-run/samples.csv\" >/dev/null; fi"
      run "$d/$kind.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 12 \
        --children-dir "$d/$kind" --out "$d/$kind-run"; code=$?
    fi
    local fin; fin=$(finished "$d/$kind-run")
    if [ $kind = sed ]; then
      record "r04 RUN/samples.csv replaced by rename (sed -i) mid-run" \
        "exit 1 naming samples.csv (no longer the file this run appends to); not finished; no 'finished' said; nothing left" \
        "exit $code: $(said "$d/$kind.said" "no longer" | cut -c1-100); finished $fin; $(ours) left" \
        "$(test $code = 1 -a "$fin" = false -a "$(ours)" = 0 && has "$d/$kind.said" "samples.csv is no longer the file" && ! has "$d/$kind.said" "(finished)" && echo 0 || echo 1)"
    else
      record "r04 a child reads RUN/samples.csv mid-run (the neighbour)" \
        "exit 0; finished true; each of 12 plan indices once" \
        "exit $code; finished $fin; $(indices "$d/$kind-run")" \
        "$(test $code = 0 -a "$fin" = true -a "$(indices "$d/$kind-run")" = "each of 12 plan indices once" && echo 0 || echo 1)"
    fi
    sweep
  done
}

# 5. `fixtures generate` and `conformance` write through the safe layer: a link or a hard link at
# a document's name is replaced, never written through; and no output lands inside a folder
# that holds a run (its fixtures/ included), a subfolder of it or warm results. Neighbours: a
# fresh folder, and an old document replaced in a plain one.
r05_fixture_outputs() {
  local d=$work/r05 code before kind
  mkdir -p "$d"; victim "$d/victim"; before=$(sha "$d/victim")
  for kind in symlink hardlink; do
    mkdir -p "$d/$kind"
    if [ $kind = symlink ]; then ln -s "$d/victim" "$d/$kind/small.json"; else ln "$d/victim" "$d/$kind/small.json"; fi
    run "$d/$kind.said" "$bin/fixtures" generate --out "$d/$kind" small; code=$?
    local now=link; [ -L "$d/$kind/small.json" ] || now="a regular file"
    record "r05 fixtures generate --out D small, D/small.json a $kind to a victim" \
      "exit 0; the victim unchanged; small.json now a regular file of its own" \
      "exit $code; victim $([ "$before" = "$(sha "$d/victim")" ] && echo unchanged || echo CHANGED); small.json now $now" \
      "$(test $code = 0 -a "$before" = "$(sha "$d/victim")" -a "$now" = "a regular file" && echo 0 || echo 1)"
  done
  finished_run "$d/run"
  local ts; ts=$(tree_sha "$d/run")
  for inner in fixtures fixtures/sub report; do
    run "$d/inner.said" "$bin/fixtures" generate --out "$d/run/$inner" --seed 7 small; code=$?
    record "r05 fixtures generate --out RUN/$inner --seed 7 small" \
      "exit 1 naming the run's folder (holds a run); the run folder unchanged" \
      "exit $code: $(last "$d/inner.said" | cut -c1-100); run $([ "$ts" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
      "$(test $code = 1 -a "$ts" = "$(tree_sha "$d/run")" && has "$d/inner.said" "holds a run" && echo 0 || echo 1)"
  done
  run "$d/conf.said" "$bin/fixtures" conformance --cases "$d" --out "$d/run/fixtures/conformance.csv"; code=$?
  record "r05 fixtures conformance --out RUN/fixtures/conformance.csv" \
    "exit 1 naming the run's folder; the run folder unchanged" \
    "exit $code: $(last "$d/conf.said" | cut -c1-100); run $([ "$ts" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$ts" = "$(tree_sha "$d/run")" && has "$d/conf.said" "holds a run" && echo 0 || echo 1)"
  mkdir -p "$d/plain"; echo old >"$d/plain/small.json"
  run "$d/plain.said" "$bin/fixtures" generate --out "$d/plain" small; code=$?
  run "$d/fresh.said" "$bin/fixtures" generate --out "$d/fresh/deeper" small; local fcode=$?
  record "r05 fixtures generate into a plain folder with an old small.json, and into a new folder (the neighbours)" \
    "exit 0 and 0; the old document replaced; the new one written" \
    "exit $code and $fcode; old $(grep -q '^old$' "$d/plain/small.json" && echo KEPT || echo replaced); new $([ -s "$d/fresh/deeper/small.json" ] && echo written || echo MISSING)" \
    "$(test $code = 0 -a $fcode = 0 -a -s "$d/fresh/deeper/small.json" && ! grep -q '^old$' "$d/plain/small.json" && echo 0 || echo 1)"
  # the other outputs under the one rule: a report's folder and an export inside a run's folder
  synth_run "$d/synth"
  run "$d/report.said" report "$d/synth" --out "$d/run/fixtures/sub"; code=$?
  run "$d/export.said" analysis export --format hyperfine "$d/synth" --out "$d/run/fixtures/x.csv"; local ecode=$?
  record "r05 analysis report --out RUN/fixtures/sub and export --out RUN/fixtures/x.csv" \
    "exit 2 and 2, each naming the run's folder (holds a run); the run folder unchanged" \
    "exit $code and $ecode: $(last "$d/report.said" | cut -c1-80); run $([ "$ts" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a $ecode = 2 -a "$ts" = "$(tree_sha "$d/run")" && has "$d/report.said" "holds a run" && has "$d/export.said" "holds a run" && echo 0 || echo 1)"
  sweep
}

# 6. Under --cold-cache, a child replaces its --input with a FIFO: the runner, which opens each
# file to evict it, must not block on it. Its neighbour: --cold-cache with honest children.
r06_fifo_cold_cache() {
  local d=$work/r06 code t0 secs kind
  mkdir -p "$d"
  for kind in fifo plain; do
    # The input is replaced beside the run, by its own user, while the third child waits (a
    # child cannot write the run folder: issue 60).
    if [ $kind = fifo ]; then
      kids "$d/$kind" "child-noop-de-any=$(gate 3)"
    else
      kids "$d/$kind"
    fi
    t0=$(date +%s)
    env -u THAW_EXTERNAL timeout -k 5 60 "$bin/cold" run --codecs noop --ops de \
      --fixture small --batches 1 --samples 4 --timeout 2 --cold-cache --children-dir "$d/$kind" \
      --out "$d/$kind-run" >"$d/$kind.said" 2>&1 &
    local pid=$!
    if [ $kind = fifo ] && until_true 60 test -e "$d/$kind/blocked"; then
      for a in "$d/$kind-run"/fixtures/small.*; do rm -f "$a"; mkfifo "$a"; done
      touch "$d/$kind/release"
    fi
    wait $pid; code=$?
    secs=$(($(date +%s) - t0))
    if [ $kind = fifo ]; then
      record "r06 --cold-cache, the children's --input replaced with a FIFO mid-run (--timeout 2)" \
        "the run ends by itself (exit 3, not killed by the bound) within 60 s; no sample ok after the FIFO; nothing left" \
        "exit $code after ${secs} s; $(statuses "$d/$kind-run"); $(ours) left" \
        "$(test $code = 3 -a "$secs" -lt 60 -a "$(ours)" = 0 && echo 0 || echo 1)"
    else
      record "r06 --cold-cache with honest children (the neighbour)" \
        "exit 0; ok×4" "exit $code; $(statuses "$d/$kind-run")" \
        "$(test $code = 0 -a "$(statuses "$d/$kind-run")" = "ok×4" && echo 0 || echo 1)"
    fi
    sweep
  done
}

# 7. An edited manifest that asks for a billion samples per cell: `cold resume` refuses it
# before anything is allocated (issue 50, moderate 8); its neighbour, an honest unfinished run,
# resumes.
r07_edited_counts() {
  local d=$work/r07 code code2
  mkdir -p "$d"
  unfinished_run "$d/huge"
  unfinished_run "$d/honest"
  edit "$d/huge/manifest.json" 's/"samples_per_cell": \d+/"samples_per_cell": 1000000000/'
  # what a resume must not touch: its samples, plan and manifest (it takes the folder's lock)
  local before; before=$(cat "$d/huge/samples.csv" "$d/huge/plan.csv" "$d/huge/manifest.json" | sha256sum)
  run "$d/huge.said" timeout -k 5 "$LIMIT" "$bin/cold" resume "$d/huge"; code=$?
  run "$d/honest.said" timeout -k 5 "$LIMIT" "$bin/cold" resume "$d/honest"; code2=$?
  record "r07 manifest.json's samples_per_cell edited to 1,000,000,000, then cold resume (the neighbour: an honest unfinished run)" \
    "exit 1 naming manifest.json and the plan's bound; no abort; its samples, plan and manifest unchanged; the neighbour resumes (exit 0)" \
    "exit $code: $(last "$d/huge.said" | cut -c1-120); samples, plan and manifest $([ "$(cat "$d/huge/samples.csv" "$d/huge/plan.csv" "$d/huge/manifest.json" | sha256sum)" = "$before" ] && echo unchanged || echo CHANGED); neighbour exit $code2" \
    "$(test $code = 1 -a $code2 = 0 -a "$(cat "$d/huge/samples.csv" "$d/huge/plan.csv" "$d/huge/manifest.json" | sha256sum)" = "$before" && has "$d/huge.said" 'a plan holds at most' && has "$d/huge.said" manifest.json && ! has "$d/huge.said" 'memory allocation' && echo 0 || echo 1)"
  sweep
}

# A racer: exchanges the names A and B (renameat2 RENAME_EXCHANGE) in a loop until the file STOP
# exists (120 s at most), then prints how many exchanges it made; its command line holds the
# temporary folder, so that nothing of it outlives a probe unseen.
# unswap D: after a racer stopped, the run folder back at D/run and the link at D/swap.
unswap() { [ -L "$1/run" ] && { rm "$1/run"; mv "$1/swap" "$1/run"; ln -s "$1/victim" "$1/swap"; }; return 0; }

racer() {
  cat >"$work/racer.py" <<'PY'
import ctypes, os, sys, time
a, b, stop = (os.fsencode(x) for x in sys.argv[1:4])
open(stop + b".started", "w").close()  # a probe may wait for the racer before it starts
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
n, end = 0, time.time() + 120
while not os.path.exists(stop) and time.time() < end:
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0:
        n += 1
print(n)
PY
  python3 "$work/racer.py" "$@"
}

# 8. A racer exchanges the run folder with a link to another folder while `analysis report`
# runs (issue 50, severe 5): the report opens the run folder once and reaches every file from
# that descriptor, so the other folder never gets a file (a report that opened the link's side
# finds no run there and says so). Its neighbour: the same race on the report's own folder
# (RUN/report exchanged with a link to the other folder), which is reached from the run's
# descriptor without following a link.
r08_report_swapped() {
  local d=$work/r08 i code ok=0 refused=0 other=0 before swaps where
  mkdir -p "$d/victim"; victim "$d/victim/precious"; before=$(tree_sha "$d/victim")
  synth_run "$d/run"
  ln -s "$d/victim" "$d/swap"
  local n=20; $quick && n=12
  racer "$d/run" "$d/swap" "$d/stop" >"$d/swaps" 2>&1 &
  local rpid=$!
  for ((i = 0; i < n; i++)); do
    report "$d/run" >"$d/said.$i" 2>&1; code=$?
    case $code in
      0) ok=$((ok + 1)) ;;
      2) has "$d/said.$i" "not a cold run folder" && refused=$((refused + 1)) || other=$((other + 1)) ;;
      *) other=$((other + 1)) ;;
    esac
  done
  touch "$d/stop"; wait $rpid; swaps=$(cat "$d/swaps")
  # the run folder is under one of the two names now; the other is the link
  where=$d/run; [ -L "$d/run" ] && where=$d/swap
  record "r08 a racer exchanges RUN with a link to another folder (renameat2 RENAME_EXCHANGE, in a loop) during $n reports" \
    "the other folder unchanged; every report exit 0 (written into the run's report/) or 2 (no run where the link pointed); at least one exit 0; nothing left" \
    "$swaps exchanges; $ok exit 0, $refused exit 2, $other other; other folder $([ "$before" = "$(tree_sha "$d/victim")" ] && echo unchanged || echo CHANGED); run's report.md $([ -f "$where/report/report.md" ] && echo written || echo MISSING); $(ours) left" \
    "$(test "$before" = "$(tree_sha "$d/victim")" -a $other = 0 -a $ok -gt 0 -a "${swaps:-0}" -gt 0 -a -f "$where/report/report.md" -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
  # the neighbour: the report's folder itself raced against a link to the other folder
  unswap "$d"
  mkdir -p "$d/run/report"; rm -f "$d/stop"; ok=0 refused=0 other=0
  racer "$d/run/report" "$d/swap" "$d/stop" >"$d/swaps" 2>&1 &
  rpid=$!
  for ((i = 0; i < n; i++)); do
    report "$d/run" >"$d/sub.$i" 2>&1; code=$?
    case $code in
      0) ok=$((ok + 1)) ;;
      2) has "$d/sub.$i" "symbolic link" && refused=$((refused + 1)) || other=$((other + 1)) ;;
      *) other=$((other + 1)) ;;
    esac
  done
  touch "$d/stop"; wait $rpid; swaps=$(cat "$d/swaps")
  record "r08 the neighbour: RUN/report exchanged with a link to the other folder in a loop during $n reports" \
    "the other folder unchanged; every report exit 0 or 2 (naming the link, never followed); nothing left" \
    "$swaps exchanges; $ok exit 0, $refused exit 2, $other other; other folder $([ "$before" = "$(tree_sha "$d/victim")" ] && echo unchanged || echo CHANGED); $(ours) left" \
    "$(test "$before" = "$(tree_sha "$d/victim")" -a $other = 0 -a "${swaps:-0}" -gt 0 -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
}

# 9. A manifest child's binary that is no path of names (`../../x`, `/bin/true`) is refused with
# the value as given, not the part that failed (issue 50, low: mangled values). Its neighbour:
# the honest binary name resumes.
r09_values_as_given() {
  local d=$work/r09 code v kind
  mkdir -p "$d"
  for v in ../../x /bin/true; do
    kind=${v//\//_}
    unfinished_run "$d/run$kind"
    VALUE=$v edit "$d/run$kind/manifest.json" 's/"binary": "child-noop-de-any"/"binary": "$ENV{VALUE}"/'
    run "$d/$kind.said" cold resume "$d/run$kind"; code=$?
    record "r09 a manifest child's binary \`$v\`, then cold resume" \
      "exit 1 echoing \`$v\` whole (and the part that is no name)" \
      "exit $code: $(said "$d/$kind.said" binary | cut -c1-120)" \
      "$(test $code = 1 && has "$d/$kind.said" "binary \`$v\`" && echo 0 || echo 1)"
  done
  unfinished_run "$d/honest"
  run "$d/honest.said" cold resume "$d/honest"; code=$?
  record "r09 the neighbour: the honest binary child-noop-de-any, cold resume" \
    "exit 0; finished true" "exit $code; finished $(finished "$d/honest")" \
    "$(test $code = 0 -a "$(finished "$d/honest")" = true && echo 0 || echo 1)"
  sweep
}

# 10. One clip and escape for every echo, clap's own refusals included: a 100 KB value (ending in
# an escape sequence) that the argument parser refuses is echoed clipped and inert, under its
# exit code 2; `--env` with a 100 KB key is refused at the input, naming the limit (issue 50,
# low). Neighbours: a short wrong value is still echoed whole, and `--env` that fits is taken.
r10_echoes() {
  local d=$work/r10 code long esc bad=() shown=()
  mkdir -p "$d"
  long=$(head -c 100000 /dev/zero | tr '\0' y)
  esc=$'\e[2J'
  local cases=(
    "cold run --ops" "cold run --variant" "cold run --batches" "cold run --seed"
    "cold run --memory-limit" "cold run --drops" "cold run --curve" "cold run --measure"
    "analysis compare $d/a $d/b --phase" "analysis compare $d/a $d/b --figure"
    "analysis export $d/a --format" "analysis synth --out $d/s --samples"
    "analysis synth --out $d/s --machine" "analysis report $d/a --resamples"
  )
  local c i=0 n=0
  for c in "${cases[@]}"; do
    i=$((i + 1))
    local cmd=${c%% *} rest=${c#* }
    # shellcheck disable=SC2086
    run "$d/c$i.said" timeout -k 5 "$LIMIT" "$bin/$cmd" $rest "$long$esc"; code=$?
    local bytes longest ctl
    bytes=$(wc -c <"$d/c$i.said")
    longest=$(awk '{ if (length > m) m = length } END {print m + 0}' "$d/c$i.said")
    ctl=$(raw_controls "$d/c$i.said")
    n=$((n + 1))
    if [ $code = 2 ] && [ "$bytes" -lt 2000 ] && [ "$longest" -lt 400 ] && [ "$ctl" = 0 ] && has "$d/c$i.said" "yyyy…"; then :; else
      bad+=("$c: exit $code, $bytes bytes, longest line $longest, $ctl raw controls")
    fi
  done
  record "r10 a 100 KB value ending in ESC[2J refused by the parser, for ${n} options (cold run's --ops --variant --batches --seed --memory-limit --drops --curve --measure; compare's --phase --figure; export's --format; synth's --samples --machine; report's --resamples)" \
    "each exit 2, the value echoed clipped (…), under 2,000 bytes, no line over 400 characters, no raw control character" \
    "$([ ${#bad[@]} = 0 ] && echo "all $n so" || echo "${bad[*]}" | cut -c1-300)" \
    "$([ ${#bad[@]} = 0 ] && echo 0 || echo 1)"
  run "$d/short.said" cold run --ops dx; code=$?
  record "r10 the neighbour: cold run --ops dx (a short wrong value)" \
    "exit 2 echoing 'dx' whole" "exit $code: $(said "$d/short.said" "invalid value" | cut -c1-100)" \
    "$(test $code = 2 && has "$d/short.said" "invalid value 'dx'" && echo 0 || echo 1)"
  kids "$d/kids"
  run "$d/env.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 1 \
    --children-dir "$d/kids" --env "$long=1" --out "$d/env-run"; code=$?
  run "$d/env-ok.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 1 \
    --children-dir "$d/kids" --env "$(head -c 16000 /dev/zero | tr '\0' K)=1" --out "$d/env-ok"; local okcode=$?
  run "$d/env-report.said" report "$d/env-ok" --out "$d/env-ok-report"; local rcode=$?
  record "r10 cold run --env <100 KB key>=1 (the neighbour: a 16,000-character key, then its report)" \
    "exit 2 naming the limit (at most 16384), the key clipped, no run folder; the neighbour runs (exit 0) and its report is written (exit 0)" \
    "exit $code: $(said "$d/env.said" "at most" | cut -c1-120); folder $([ -e "$d/env-run" ] && echo MADE || echo none); neighbour exit $okcode, report exit $rcode" \
    "$(test $code = 2 -a ! -e "$d/env-run" -a $okcode = 0 -a $rcode = 0 -a "$(wc -c <"$d/env.said")" -lt 2000 && has "$d/env.said" "at most 16384" && echo 0 || echo 1)"
  sweep
}

# 11. A lock whose recorded pid has ended: the refusal says it is stale and what to do; the held
# lock is never taken over (issue 50, low). Its neighbour: a lock held by the live pid it names
# is refused naming that pid. The lock is held by a helper (flock) whose command line holds the
# temporary folder.
r11_stale_lock() {
  local d=$work/r11 code holder dead bs
  mkdir -p "$d"
  unfinished_run "$d/run"
  bs=$(sha "$d/run/samples.csv")
  "$bin/tsleep" 0 & dead=$!; wait $dead
  # the lock is the run folder's own (issue 60): held here on a descriptor of the folder
  python3 -c 'import fcntl, sys, time, os
f = os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]): time.sleep(0.01)' "$d/run" "$d/held" "$d/release" "$work/" &
  holder=$!
  until_true 30 test -e "$d/held"
  printf 'pid %s: cold run --out %s' "$dead" "$d/run" >"$d/run/.lock"
  run "$d/stale.said" cold resume "$d/run"; code=$?
  record "r11 a held lock whose .lock names pid $dead, which has ended; cold resume" \
    "exit 1 saying stale, naming pid $dead and fuser; samples.csv unchanged" \
    "exit $code: $(said "$d/stale.said" stale | cut -c1-140); samples.csv $([ "$bs" = "$(sha "$d/run/samples.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$bs" = "$(sha "$d/run/samples.csv")" && has "$d/stale.said" "stale" && has "$d/stale.said" "pid $dead" && has "$d/stale.said" fuser && echo 0 || echo 1)"
  printf 'pid %s: cold run --out %s' "$holder" "$d/run" >"$d/run/.lock"
  run "$d/live.said" cold resume "$d/run"; code=$?
  touch "$d/release"; wait $holder
  record "r11 the neighbour: the lock held by the live pid its .lock names" \
    "exit 1: being written by another cold run (pid $holder), not stale; nothing left" \
    "exit $code: $(said "$d/live.said" "being written" | cut -c1-120); $(ours) left" \
    "$(test $code = 1 -a "$(ours)" = 0 && has "$d/live.said" "being written by another cold run (pid $holder" && ! has "$d/live.said" stale && echo 0 || echo 1)"
  sweep
}

# 12. A full disk while a report is written over an older one: the report's folder is the old
# report whole, never a mix of new and old files (issue 50, low). Its neighbour: with room, the
# new report replaces the old whole, nothing temporary left. Needs root (a small tmpfs).
r12_report_disk_full() {
  local mnt=$work/r12 code before
  mkdir -p "$mnt"
  if ! mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null; then
    skip "r12 a full disk while a report is replaced" "the old report whole" "cannot mount a tmpfs (not root)"
    return
  fi
  mounted=$mnt
  synth_run "$mnt/run"
  report "$mnt/run" >"$work/r12.first" 2>&1
  before=$(tree_sha "$mnt/run/report")
  local size; size=$(du -sk "$mnt/run/report" | cut -f1)
  # fill the disk, then free a third of the report's size: the new report cannot fit
  cat /dev/zero >"$mnt/fill" 2>/dev/null
  truncate -s "-$((size / 3))K" "$mnt/fill"
  run "$work/r12.said" report "$mnt/run" --seed 2; code=$?
  record "r12 a full disk while analysis report replaces an older report" \
    "exit 2: No space left on device; the old report's folder unchanged; no temporary folder left" \
    "exit $code: $(said "$work/r12.said" 'No space left' | cut -c1-100); old report $([ "$before" = "$(tree_sha "$mnt/run/report")" ] && echo unchanged || echo CHANGED); $(ls -a "$mnt/run" | grep -c 'tmp-') temporary" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$mnt/run/report")" -a "$(ls -a "$mnt/run" | grep -c 'tmp-')" = 0 && has "$work/r12.said" 'No space left' && echo 0 || echo 1)"
  rm -f "$mnt/fill"
  run "$work/r12.again" report "$mnt/run" --seed 2; code=$?
  record "r12 the neighbour: room again, the same report" \
    "exit 0; the report's folder changed (the new one whole, its summary.json from this report); no temporary folder left" \
    "exit $code; report $([ "$before" = "$(tree_sha "$mnt/run/report")" ] && echo UNCHANGED || echo replaced); $(ls -a "$mnt/run" | grep -c 'tmp-') temporary" \
    "$(test $code = 0 -a "$before" != "$(tree_sha "$mnt/run/report")" -a "$(ls -a "$mnt/run" | grep -c 'tmp-')" = 0 && grep -q '"seed": 2' "$mnt/run/report/summary.json" && echo 0 || echo 1)"
  umount "$mnt"; mounted=""
}

# 13. A run that fails before its manifest (--children-dir /nonexistent) leaves nothing it made:
# no folder where there was none, an empty folder empty again (issue 50, low). Its neighbour: a
# folder holding someone's file is refused before anything is made, and kept whole.
r13_nothing_left_on_failure() {
  local d=$work/r13 code code2 code3
  mkdir -p "$d/empty" "$d/mine"; victim "$d/mine/notes.txt"
  local before; before=$(tree_sha "$d/mine")
  run "$d/new.said" cold run --codecs noop --ops de --fixture small --batches 1 --children-dir /nonexistent --out "$d/new"; code=$?
  run "$d/empty.said" cold run --codecs noop --ops de --fixture small --batches 1 --children-dir /nonexistent --out "$d/empty"; code2=$?
  record "r13 cold run --children-dir /nonexistent into a new folder and into an empty one" \
    "exit 1 and 1, naming the children's folder; no new folder; the empty folder still there and empty" \
    "exit $code and $code2: $(last "$d/new.said" | cut -c1-90); new $([ -e "$d/new" ] && echo LEFT || echo absent); empty folder $(ls -A "$d/empty" 2>/dev/null | wc -l) entries" \
    "$(test $code = 1 -a $code2 = 1 -a ! -e "$d/new" -a -d "$d/empty" && [ -z "$(ls -A "$d/empty")" ] && has "$d/new.said" /nonexistent && echo 0 || echo 1)"
  run "$d/mine.said" cold run --codecs noop --ops de --fixture small --batches 1 --children-dir /nonexistent --out "$d/mine"; code3=$?
  record "r13 the neighbour: --out a folder holding someone's file" \
    "exit 1: not an empty folder; the folder unchanged" \
    "exit $code3: $(last "$d/mine.said" | cut -c1-90); folder $([ "$before" = "$(tree_sha "$d/mine")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code3 = 1 -a "$before" = "$(tree_sha "$d/mine")" && has "$d/mine.said" "not an empty folder" && echo 0 || echo 1)"
  sweep
}

# 14. Every output under one rule: `synth --out` on or inside warm results, and `fixtures
# conformance --out` over a file there already (issue 50, low). Neighbours: synth into a new
# folder, and conformance with --force.
r14_outputs_one_rule() {
  local d=$work/r14 code code2 before
  mkdir -p "$d"
  synth_run "$d/run" "$d/warm"
  before=$(tree_sha "$d/warm")
  run "$d/warm.said" analysis synth --out "$d/warm" --samples 60; code=$?
  run "$d/inner.said" analysis synth --out "$d/warm/criterion/x" --samples 60; code2=$?
  record "r14 analysis synth --out WARM and --out WARM/criterion/x" \
    "exit 2 and 2, each naming the warm folder (holds warm results); the warm folder unchanged" \
    "exit $code and $code2: $(last "$d/warm.said" | cut -c1-100); warm $([ "$before" = "$(tree_sha "$d/warm")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a $code2 = 2 -a "$before" = "$(tree_sha "$d/warm")" && has "$d/warm.said" "holds warm results" && has "$d/inner.said" "holds warm results" && echo 0 || echo 1)"
  run "$d/fresh.said" analysis synth --out "$d/fresh" --samples 60; code=$?
  record "r14 the neighbour: analysis synth --out a new folder" "exit 0; a run there" \
    "exit $code; $([ -f "$d/fresh/samples.csv" ] && echo 'samples.csv written' || echo 'NO samples.csv')" \
    "$(test $code = 0 -a -f "$d/fresh/samples.csv" && echo 0 || echo 1)"
  mkdir -p "$d/cases"; echo '[1]' >"$d/cases/y_array.json"; echo '[1,]' >"$d/cases/n_comma.json"
  victim "$d/table.csv"; before=$(sha "$d/table.csv")
  run "$d/conf.said" "$bin/fixtures" conformance --codecs serde_json-value --cases "$d/cases" --out "$d/table.csv"; code=$?
  record "r14 fixtures conformance --out EXISTING (no --force)" \
    "exit 1: a file is there already (--force); the file unchanged" \
    "exit $code: $(last "$d/conf.said" | cut -c1-100); file $([ "$before" = "$(sha "$d/table.csv")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$(sha "$d/table.csv")" && has "$d/conf.said" "a file is there already" && echo 0 || echo 1)"
  run "$d/force.said" "$bin/fixtures" conformance --codecs serde_json-value --cases "$d/cases" --out "$d/table.csv" --force; code=$?
  record "r14 the neighbour: fixtures conformance --out EXISTING --force" \
    "exit 0; the file replaced by the table" \
    "exit $code; file $(grep -q y_array "$d/table.csv" && echo 'the table' || echo 'NOT the table')" \
    "$(test $code = 0 && grep -q y_array "$d/table.csv" && echo 0 || echo 1)"
  sweep
}

# 15. A warm estimate of 0.01 ns (below the clock's resolution) gives no cold penalty, not a
# 2,422,950× one (issue 50, low). Its neighbour: 1 ns, the floor, gives one.
r15_penalty_floor() {
  local d=$work/r15 code v
  mkdir -p "$d"
  synth_run "$d/run" "$d/warm"
  local est=$d/warm/criterion/portable/users-2kb_de/serde_json/new/estimates.json
  cp "$est" "$d/est.good"
  for v in 0.01 1.0; do
    cp "$d/est.good" "$est"
    edit "$est" 's/"point_estimate":[0-9.e+-]+/"point_estimate":'"$v"'/g; s/"(lower|upper)_bound":[0-9.e+-]+/"$1_bound":'"$v"'/g'
    rm -rf "$d/report"
    run "$d/said" analysis report "$d/run" --warm "$d/warm" --conformance "$work/none.csv" --out "$d/report"; code=$?
    # the cold penalty table's row of serde_json on users-2kb de
    local row; row=$(awk '/^### Cold penalty/ {on=1; next} /^#/ {on=0} on && /^\| users-2kb \| de \| serde_json \|/' "$d/report/report.md" | head -1)
    if [ "$v" = 0.01 ]; then
      record "r15 serde_json's warm estimate 0.01 ns (users-2kb de)" \
        "exit 0; no cold penalty row for it" "exit $code; row: ${row:-(none)}" \
        "$(test $code = 0 -a -z "$row" && echo 0 || echo 1)"
    else
      record "r15 the neighbour: its warm estimate 1 ns" \
        "exit 0; a cold penalty row for it" "exit $code; row: $(echo "${row:-(none)}" | cut -c1-120)" \
        "$(test $code = 0 -a -n "$row" && echo 0 || echo 1)"
    fi
  done
}


# ---- run ---------------------------------------------------------------------------------------

# The probes, in order; those after `slow` run only without --quick.

# 16. A racer exchanges a run's folder with a link to another folder while `cold run` writes it
# (issue 50: one handle per folder, the runner's too): the runner holds its folder from the
# moment it made it (a link already in its name is refused, not followed), so no write lands in
# the other folder; the children, given paths, may find their inputs gone, which the run records
# as failed samples. Its neighbour: the same race during `cold resume` of an unfinished run,
# which holds the folder it was named before it reads anything.
r16_run_swapped() {
  local d=$work/r16 code before swaps where
  mkdir -p "$d/victim"; victim "$d/victim/precious"; before=$(tree_sha "$d/victim")
  kids "$d/kids"
  ln -s "$d/victim" "$d/swap"
  racer "$d/run" "$d/swap" "$d/stop" >"$d/swaps" 2>&1 &
  local rpid=$!
  until_true 30 test -e "$d/stop.started"
  run "$d/run.said" cold run --codecs noop --fixture small --batches 1,2 --samples 30 \
    --children-dir "$d/kids" --out "$d/run"; code=$?
  touch "$d/stop"; wait $rpid; swaps=$(cat "$d/swaps")
  where=$d/run; [ -L "$d/run" ] && where=$d/swap
  record "r16 a racer exchanges a running run's folder with a link to another folder (renameat2 RENAME_EXCHANGE, in a loop)" \
    "the other folder unchanged; the run exits 0, 1 (refused) or 3 (samples failed: their inputs gone with the swap); nothing left" \
    "$swaps exchanges; exit $code: $(last "$d/run.said" | cut -c1-80); other folder $([ "$before" = "$(tree_sha "$d/victim")" ] && echo unchanged || echo CHANGED); $(ours) left" \
    "$(test "$before" = "$(tree_sha "$d/victim")" -a \( $code = 0 -o $code = 1 -o $code = 3 \) -a "${swaps:-0}" -gt 0 -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
  # the neighbour: an unfinished run resumed while raced
  unswap "$d"
  # a run of 120 samples of which 2 were taken
  cold run --codecs noop --fixture small --batches 1,2 --samples 60 --children-dir "$d/kids" \
    --out "$d/again" >"$d/again.out" 2>&1
  sed -i '4,$d' "$d/again/samples.csv"
  rm -f "$d/stop" "$d/stop.started"
  racer "$d/again" "$d/swap" "$d/stop" >"$d/swaps" 2>&1 &
  rpid=$!
  until_true 30 test -e "$d/stop.started"
  run "$d/resume.said" cold resume "$d/again"; code=$?
  touch "$d/stop"; wait $rpid; swaps=$(cat "$d/swaps")
  record "r16 the neighbour: cold resume of an unfinished run, its folder exchanged with a link in a loop" \
    "the other folder unchanged; exit 0, 1, 2 (no run where the link pointed) or 3 (samples failed); nothing left" \
    "$swaps exchanges; exit $code: $(last "$d/resume.said" | cut -c1-80); other folder $([ "$before" = "$(tree_sha "$d/victim")" ] && echo unchanged || echo CHANGED); $(ours) left" \
    "$(test "$before" = "$(tree_sha "$d/victim")" -a $code -le 3 -a "${swaps:-0}" -gt 0 -a "$(ours)" = 0 && echo 0 || echo 1)"
  sweep
}

# ---- issue 60: a child without privileges in namespaces of its own, a folder lock that cannot
# be removed, a samples file that cannot shrink unseen --------------------------------------------

# The host's view after a run: files in /dev/shm, System V segments, mounts, thaw cgroups.
host_state() {
  printf 'shm %s; ipc %s; mounts %s; cgroups %s' \
    "$(find /dev/shm -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" \
    "$(ipcs -m 2>/dev/null | grep -c '^0x')" \
    "$(wc -l </proc/self/mountinfo)" \
    "$(find /sys/fs/cgroup -maxdepth 3 -name 'thaw-*' -type d 2>/dev/null | wc -l)"
}

# 1. Memory that outlives its sample: 100 MB into /dev/shm on every call, --memory-limit 256; the
# neighbour: a 150 MB System V segment, touched and left.
s01_memory_outlives() {
  local d=$work/s01 code before after
  mkdir -p "$d"
  before=$(host_state)
  kids "$d/shm" 'child-noop-de-any=head -c 100000000 /dev/zero >/dev/shm/thaw-s01.$$ && echo "$n" >>"$K/wrote"'
  run "$d/shm.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 4 \
    --memory-limit 256 --children-dir "$d/shm" --out "$d/shm-run"; code=$?
  after=$(host_state)
  record "s01a a child writes 100 MB to /dev/shm on every call (--memory-limit 256)" \
    "exit 0; ok×4 (each sample charged its own 100 MB only); 5 writes; host after = before ($before)" \
    "exit $code; $(statuses "$d/shm-run"); $(lines "$d/shm/wrote") writes; host after: $after" \
    "$(test $code = 0 -a "$(statuses "$d/shm-run")" = "ok×4" -a "$(lines "$d/shm/wrote")" = 5 -a "$after" = "$before" && echo 0 || echo 1)"
  sweep
  rm -f /dev/shm/thaw-s01.* 2>/dev/null
  before=$(host_state)
  kids "$d/ipc" 'child-noop-de-any=python3 -c "
import ctypes; c = ctypes.CDLL(None); c.shmat.restype = ctypes.c_void_p
i = c.shmget(0, 150 << 20, 0o1600); a = c.shmat(i, None, 0); ctypes.memset(a, 1, 150 << 20)" && echo "$n" >>"$K/made"'
  run "$d/ipc.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 4 \
    --children-dir "$d/ipc" --out "$d/ipc-run"; code=$?
  after=$(host_state)
  record "s01b the neighbour: a child leaves a 150 MB System V segment on every call" \
    "exit 0; ok×4; 5 segments made; host after = before ($before): none left in ipcs" \
    "exit $code; $(statuses "$d/ipc-run"); $(lines "$d/ipc/made") made; host after: $after" \
    "$(test $code = 0 -a "$(statuses "$d/ipc-run")" = "ok×4" -a "$(lines "$d/ipc/made")" = 5 -a "$after" = "$before" && echo 0 || echo 1)"
  sweep
}

# 2. The limit lifted: a child moves itself into its cgroup's parent (memory and pids); the
# neighbour: a child writes its own cgroup's limit.
s02_limit_lifted() {
  local d=$work/s02 code
  mkdir -p "$d"
  local escape='for c in memory pids; do p=$(grep -E "^[0-9]+:([^:]*,)?$c(,[^:]*)?:" /proc/self/cgroup | cut -d: -f3); echo $$ >"/sys/fs/cgroup/$c${p%/*}/cgroup.procs" 2>/dev/null && echo "$c" >>"$K/escaped"; done'
  kids "$d/out" "child-noop-de-any=$escape"
  run "$d/out.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 3 \
    --children-dir "$d/out" --out "$d/out-run"; code=$?
  record "s02a a child writes its pid into its cgroup's parent (memory and pids)" \
    "exit 0; ok×3; no escape; the manifest says the children run without privileges" \
    "exit $code; $(statuses "$d/out-run"); $(lines "$d/out/escaped") escapes; $(grep -o 'children run as [^;"]*' "$d/out-run/manifest.json" | head -1)" \
    "$(test $code = 0 -a "$(statuses "$d/out-run")" = "ok×3" -a "$(lines "$d/out/escaped")" = 0 && grep -q 'children run as uid' "$d/out-run/manifest.json" && echo 0 || echo 1)"
  sweep
  local lift='p=$(grep -E "^[0-9]+:([^:]*,)?memory(,[^:]*)?:" /proc/self/cgroup | cut -d: -f3); for f in memory.memsw.limit_in_bytes memory.limit_in_bytes; do echo -1 >"/sys/fs/cgroup/memory$p/$f" 2>/dev/null && echo "$f" >>"$K/lifted"; done; mkdir "/sys/fs/cgroup/memory$p/x$$" 2>/dev/null && echo mkdir >>"$K/lifted"'
  kids "$d/lift" "child-noop-de-any=$lift"
  run "$d/lift.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 3 \
    --children-dir "$d/lift" --out "$d/lift-run"; code=$?
  record "s02b the neighbour: a child lifts its own cgroup's limit, or makes a cgroup below it" \
    "exit 0; ok×3; nothing written" \
    "exit $code; $(statuses "$d/lift-run"); $(lines "$d/lift/lifted") written" \
    "$(test $code = 0 -a "$(statuses "$d/lift-run")" = "ok×3" -a "$(lines "$d/lift/lifted")" = 0 && echo 0 || echo 1)"
  sweep
}

# 3. A frozen spawner: a child puts the spawner (found through /proc) and itself into a new
# freezer cgroup and freezes it, --timeout 2; the neighbour: it freezes the cgroup first and
# moves itself alone into it.
s03_frozen_spawner() {
  local d=$work/s03 code t0 secs fz=/sys/fs/cgroup/freezer/thaw-s03-probe
  mkdir -p "$d"
  local freeze='if [ "$n" = 3 ]; then for p in /proc/[0-9]*; do grep -qa cold-spawner "$p/cmdline" 2>/dev/null && echo "${p#/proc/}" >>"$K/targets"; done; mkdir '"$fz"' 2>/dev/null && { cat "$K/targets" 2>/dev/null; echo $$; } | while read q; do echo "$q" >'"$fz"'/cgroup.procs; done 2>/dev/null && echo FROZEN >'"$fz"'/freezer.state && echo froze >>"$K/froze"; fi'
  kids "$d/fz" "child-noop-de-any=$freeze"
  t0=$(date +%s)
  run "$d/fz.said" env -u THAW_EXTERNAL timeout -k 5 60 "$bin/cold" run --codecs noop --ops de \
    --fixture small --batches 1 --samples 4 --timeout 2 --children-dir "$d/fz" --out "$d/fz-run"; code=$?
  secs=$(($(date +%s) - t0))
  [ -d "$fz" ] && { echo THAWED >"$fz/freezer.state"; sleep 0.2; rmdir "$fz" 2>/dev/null; }
  local left; left=$(settle 10)
  record "s03a a child freezes its spawner in a new freezer cgroup (--timeout 2)" \
    "exit 0 or 3 within 60 s (no hang); every index once; nothing left; no D-state spawner" \
    "exit $code after ${secs} s; $(statuses "$d/fz-run"); $(indices "$d/fz-run"); $left left" \
    "$(test $code -le 3 -a $code != 1 -a $code != 2 -a "$secs" -lt 60 -a "$(indices "$d/fz-run")" = "each of 4 plan indices once" -a "$left" = 0 && echo 0 || echo 1)"
  sweep
  # the neighbour: a freezer cgroup frozen first, then the child moves itself into it (its
  # spawner then waits on a child no signal reaches)
  local fz2=/sys/fs/cgroup/freezer/thaw-s03b-probe
  local first='if [ "$n" = 3 ]; then mkdir '"$fz2"' 2>/dev/null && echo FROZEN >'"$fz2"'/freezer.state && echo moved >>"$K/moved" && echo $$ >'"$fz2"'/cgroup.procs; fi'
  kids "$d/stop" "child-noop-de-any=$first"
  t0=$(date +%s)
  run "$d/stop.said" env -u THAW_EXTERNAL timeout -k 5 60 "$bin/cold" run --codecs noop --ops de \
    --fixture small --batches 1 --samples 4 --timeout 2 --children-dir "$d/stop" --out "$d/stop-run"; code=$?
  secs=$(($(date +%s) - t0))
  [ -d "$fz2" ] && { echo THAWED >"$fz2/freezer.state"; sleep 0.2; rmdir "$fz2" 2>/dev/null; }
  left=$(settle 10)
  record "s03b the neighbour: a child freezes a new freezer cgroup first, then moves itself in (--timeout 2)" \
    "exit 0 within 60 s (no hang); ok×4; nothing moved; nothing left" \
    "exit $code after ${secs} s; $(statuses "$d/stop-run"); $(lines "$d/stop/moved") moved; $left left" \
    "$(test $code = 0 -a "$secs" -lt 60 -a "$(statuses "$d/stop-run")" = "ok×4" -a "$(lines "$d/stop/moved")" = 0 -a "$left" = 0 && echo 0 || echo 1)"
  pkill -CONT -f -- "$work/" 2>/dev/null
  sweep
}

# 4. Two runners on one folder: `rm RUN/.lock` (or `mv`) under a run, then `cold resume`; the
# neighbour: the folder itself renamed, then resumed under its new name; and a planted double
# write finished by resume.
s04_lock_not_a_name() {
  local d=$work/s04 code pid
  mkdir -p "$d"
  kids "$d/kids" "child-noop-de-any=$(gate 5)"
  "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 80 \
    --children-dir "$d/kids" --out "$d/run" >"$d/first.said" 2>&1 &
  pid=$!
  if ! until_true 60 test -e "$d/kids/blocked"; then
    kill -KILL $pid; wait $pid 2>/dev/null
    record "s04a rm RUN/.lock under a run, then cold resume" "refused" "the run's child never started within 60 s" 1
    sweep; return
  fi
  rm -f "$d/run/.lock"
  run "$d/rm.said" cold resume "$d/run"; local rm_code=$?
  mv "$d/run" "$d/moved"
  run "$d/mv.said" cold resume "$d/moved"; local mv_code=$?
  mv "$d/moved" "$d/run"
  touch "$d/kids/release"
  wait $pid; code=$?
  record "s04a rm RUN/.lock under a run, then cold resume" \
    "resume exit 1 (another cold run); the run exit 0, each of 80 indices once, finished" \
    "resume exit $rm_code: $(said "$d/rm.said" 'another cold run' | cut -c1-60); run exit $code; $(indices "$d/run"); finished $(finished "$d/run")" \
    "$(test $rm_code = 1 -a $code = 0 -a "$(indices "$d/run")" = "each of 80 plan indices once" -a "$(finished "$d/run")" = true && has "$d/rm.said" "another cold run" && echo 0 || echo 1)"
  record "s04b the neighbour: the run folder renamed under its run, resumed by its new name" \
    "resume exit 1 (another cold run)" \
    "exit $mv_code: $(said "$d/mv.said" 'another cold run' | cut -c1-60)" \
    "$(test $mv_code = 1 && has "$d/mv.said" "another cold run" && echo 0 || echo 1)"
  sweep
  # a double write planted: rows 0 to 9 again, after the others, in a finished run
  finished_run "$d/double"
  tail -n +2 "$d/double/samples.csv" | head -n 4 >>"$d/double/samples.csv"
  sed -i 's/"finished": *true/"finished": false/' "$d/double/manifest.json"
  run "$d/double.said" cold resume "$d/double"; code=$?
  record "s04c a planted double write (4 indices twice), then cold resume" \
    "exit 0; each of 6 plan indices once; 4 rows set aside; finished" \
    "exit $code: $(last "$d/double.said" | cut -c1-60); $(indices "$d/double"); $(($(lines "$d/double/samples.set-aside.csv") - 1)) set aside; finished $(finished "$d/double")" \
    "$(test $code = 0 -a "$(indices "$d/double")" = "each of 6 plan indices once" -a "$(lines "$d/double/samples.set-aside.csv")" = 5 -a "$(finished "$d/double")" = true && echo 0 || echo 1)"
  sweep
}

# 5. Rows lost, reported finished: samples.csv cut to its header line while the run runs (by the
# probe, as a child can no longer write it); the neighbours: cut to 0 bytes, a hard link made to
# it, and the child itself trying to cut it.
s05_samples_cut() {
  local d=$work/s05 code how
  mkdir -p "$d"
  for how in header zero link; do
    rm -rf "$d/kids-$how"
    kids "$d/kids-$how" "child-noop-de-any=$(gate 6)"
    "$bin/cold" run --codecs noop --ops de --fixture small --batches 1 --samples 10 \
      --children-dir "$d/kids-$how" --out "$d/$how" >"$d/$how.said" 2>&1 &
    local pid=$!
    if ! until_true 60 test -e "$d/kids-$how/blocked"; then
      kill -KILL $pid; wait $pid 2>/dev/null
      record "s05 samples.csv ($how) under a run" "unfinished" "the run's child never started within 60 s" 1
      sweep; continue
    fi
    case $how in
      header) head -n 1 "$d/$how/samples.csv" >"$d/h" && truncate -s "$(stat -c %s "$d/h")" "$d/$how/samples.csv" ;;
      zero) truncate -s 0 "$d/$how/samples.csv" ;;
      link) ln "$d/$how/samples.csv" "$d/elsewhere.csv" ;;
    esac
    touch "$d/kids-$how/release"
    wait $pid; code=$?
    local fin; fin=$(finished "$d/$how")
    run "$d/$how.resume" cold resume "$d/$how"; local rcode=$?
    record "s05 samples.csv $([ $how = link ] && echo "given a second name (ln)" || echo "cut to $how") while the run runs, then cold resume" \
      "run exit 1, unfinished, saying why; resume exit 0, each of 10 indices once, finished" \
      "run exit $code, finished $fin: $(said "$d/$how.said" 'samples.csv' | cut -c1-70); resume exit $rcode; $(indices "$d/$how"); finished $(finished "$d/$how")" \
      "$(test $code = 1 -a "$fin" = false -a $rcode = 0 -a "$(indices "$d/$how")" = "each of 10 plan indices once" -a "$(finished "$d/$how")" = true && echo 0 || echo 1)"
    sweep
  done
  rm -f "$d/elsewhere.csv"
  kids "$d/kids-child" 'child-noop-de-any=if [ "$n" = 6 ]; then R=$(dirname "$K")/child; head -n 1 "$R/samples.csv" >"$K/h" && truncate -s "$(stat -c %s "$K/h")" "$R/samples.csv" && echo cut >>"$K/cut"; fi'
  run "$d/child.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 10 \
    --children-dir "$d/kids-child" --out "$d/child"; code=$?
  record "s05d a child cuts samples.csv to its header line on its sixth call" \
    "exit 0; the cut refused (the child cannot write the run folder); each of 10 indices once; finished" \
    "exit $code; $(lines "$d/kids-child/cut") cuts; $(indices "$d/child"); finished $(finished "$d/child")" \
    "$(test $code = 0 -a "$(lines "$d/kids-child/cut")" = 0 -a "$(indices "$d/child")" = "each of 10 plan indices once" -a "$(finished "$d/child")" = true && echo 0 || echo 1)"
  # the report of a finished run whose samples.csv lost a row since
  sed -i '$d' "$d/child/samples.csv"
  run "$d/report.said" analysis report "$d/child" --out "$d/child-report"; code=$?
  run "$d/report2.said" analysis report "$d/child" --allow-unfinished --out "$d/child-report2"; local code2=$?
  record "s05e analysis report of a finished run whose samples.csv lost a row" \
    "refused (exit 2, naming --allow-unfinished); with --allow-unfinished exit 0" \
    "exit $code: $(said "$d/report.said" 'allow-unfinished' | cut -c1-60); with it exit $code2" \
    "$(test $code = 2 -a $code2 = 0 && has "$d/report.said" "allow-unfinished" && echo 0 || echo 1)"
  sweep
}

# 6. The host seen from inside: a child walks /proc to the runner and appends a forged row to its
# samples.csv descriptor; the neighbour: it bind-mounts a forged samples.csv over the run's.
s06_host_from_inside() {
  local d=$work/s06 code before
  mkdir -p "$d"
  kids "$d/fd" 'child-noop-de-any=if [ "$n" = 3 ]; then for p in /proc/[0-9]*; do tr "\0" " " <"$p/cmdline" 2>/dev/null | grep -q "cold run" || continue; echo "${p#/proc/}" >>"$K/found"; for f in "$p"/fd/*; do case "$(readlink "$f")" in *samples.csv) echo "99999,0,noop,de,1,small,portable,ok" >>"$f" && echo forged >>"$K/forged";; esac; done; done; fi'
  run "$d/fd.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 5 \
    --children-dir "$d/fd" --out "$d/fd-run"; code=$?
  record "s06a a child walks /proc to its runner and appends a row to its samples.csv descriptor" \
    "exit 0; the runner not found; each of 5 indices once; finished" \
    "exit $code; $(lines "$d/fd/found") found, $(lines "$d/fd/forged") forged; $(indices "$d/fd-run"); finished $(finished "$d/fd-run")" \
    "$(test $code = 0 -a "$(lines "$d/fd/found")" = 0 -a "$(indices "$d/fd-run")" = "each of 5 plan indices once" -a "$(finished "$d/fd-run")" = true && echo 0 || echo 1)"
  sweep
  before=$(wc -l </proc/self/mountinfo)
  printf 'plan_index\n' >"$d/forged.csv"; chmod 644 "$d/forged.csv"
  kids "$d/bind" "child-noop-de-any=if [ \"\$n\" = 3 ]; then mount --bind '$d/forged.csv' '$d/bind-run/samples.csv' 2>/dev/null && echo bound >>\"\$K/bound\"; fi"
  run "$d/bind.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 5 \
    --children-dir "$d/bind" --out "$d/bind-run"; code=$?
  local mounts; mounts=$(wc -l </proc/self/mountinfo)
  grep -q "$d/bind-run" /proc/self/mountinfo && umount "$d/bind-run/samples.csv" 2>/dev/null
  run "$d/bind.report" analysis report "$d/bind-run" --out "$d/bind-report"; local rcode=$?
  record "s06b the neighbour: a child bind-mounts a forged samples.csv over the run's" \
    "exit 0; the mount refused; mount table unchanged ($before lines); each of 5 indices once; report exit 0" \
    "exit $code; $(lines "$d/bind/bound") mounts; mount table $mounts lines; $(indices "$d/bind-run"); report exit $rcode" \
    "$(test $code = 0 -a "$(lines "$d/bind/bound")" = 0 -a "$mounts" = "$before" -a "$(indices "$d/bind-run")" = "each of 5 plan indices once" -a $rcode = 0 && echo 0 || echo 1)"
  sweep
}

# 7. A run's inputs written through a link: `fixtures generate --out L`, L a link to a run's
# fixtures/; the neighbours: `analysis merge --out` inside a shard it reads, `cold run --out`
# inside another run's fixtures/.
s07_outputs_through_links() {
  local d=$work/s07 code before
  mkdir -p "$d"
  finished_run "$d/run"
  before=$(tree_sha "$d/run")
  ln -s "$d/run/fixtures" "$d/L"
  run "$d/gen.said" "$bin/fixtures" generate --out "$d/L" --seed 7 users-1kb; code=$?
  record "s07a fixtures generate --out L, L a link to RUN/fixtures" \
    "exit 1 naming the run; the run folder unchanged" \
    "exit $code: $(last "$d/gen.said" | cut -c1-80); run folder $([ "$before" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$(tree_sha "$d/run")" && has "$d/gen.said" "$d/run" && echo 0 || echo 1)"
  run "$d/merge.said" analysis merge --out "$d/run/fixtures/m" "$d/run" "$d/run"; code=$?
  record "s07b the neighbour: analysis merge --out inside a shard it reads" \
    "exit 2 naming the run; the run folder unchanged" \
    "exit $code: $(last "$d/merge.said" | cut -c1-80); run folder $([ "$before" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 2 -a "$before" = "$(tree_sha "$d/run")" && has "$d/merge.said" "holds a run" && echo 0 || echo 1)"
  kids "$d/kids"
  run "$d/run2.said" cold run --codecs noop --ops de --fixture small --batches 1 --samples 2 \
    --children-dir "$d/kids" --out "$d/L/new"; code=$?
  record "s07c the neighbour: cold run --out L/new, L a link to another run's fixtures/" \
    "exit 1 naming the run; the run folder unchanged" \
    "exit $code: $(last "$d/run2.said" | cut -c1-80); run folder $([ "$before" = "$(tree_sha "$d/run")" ] && echo unchanged || echo CHANGED)" \
    "$(test $code = 1 -a "$before" = "$(tree_sha "$d/run")" && has "$d/run2.said" "holds a run" && echo 0 || echo 1)"
  sweep
}

# 8. A FIFO named twitter.json in --corpora: `cold list`, `fixtures list` and `cold run --fixture
# twitter` end by themselves; the neighbour: a FIFO as `fixtures parse-one`'s file.
s08_fifo_corpus() {
  local d=$work/s08 code t0 secs
  mkdir -p "$d/corpora"
  mkfifo "$d/corpora/twitter.json"
  kids "$d/kids"
  t0=$(date +%s)
  run "$d/list.said" env -u THAW_EXTERNAL timeout -k 5 30 "$bin/cold" list --corpora "$d/corpora"; local c1=$?
  run "$d/flist.said" timeout -k 5 30 "$bin/fixtures" --corpora "$d/corpora" list; local c2=$?
  run "$d/run.said" env -u THAW_EXTERNAL timeout -k 5 30 "$bin/cold" run --corpora "$d/corpora" \
    --codecs noop --ops de --fixture twitter --batches 1 --samples 2 --children-dir "$d/kids" --out "$d/run"; local c3=$?
  secs=$(($(date +%s) - t0))
  record "s08a a FIFO named twitter.json in --corpora: cold list, fixtures list, cold run --fixture twitter" \
    "none killed by the 30 s bound (exit 124); cold run refuses (exit 1 naming twitter.json)" \
    "exit $c1, $c2, $c3 in ${secs} s: $(last "$d/run.said" | cut -c1-80)" \
    "$(test $c1 != 124 -a $c2 != 124 -a $c3 = 1 && has "$d/run.said" "twitter.json" && echo 0 || echo 1)"
  mkfifo "$d/case.json"
  run "$d/parse.said" timeout -k 5 30 "$bin/fixtures" parse-one --codec serde_json "$d/case.json"; code=$?
  record "s08b the neighbour: a FIFO as fixtures parse-one's file" \
    "not killed by the 30 s bound: refused (exit 1)" \
    "exit $code: $(last "$d/parse.said" | cut -c1-80)" \
    "$(test $code = 1 && echo 0 || echo 1)"
  sweep
}

all=(
  p01_links p02_huge_estimate p03_setsid_daemon p04_spawner p05_escapes p06_markdown p07_bounds
  p08_foreign_json p09_synth_over_run p10_memory p11_long_errors p12_formulas p13_hint
  p14_relative_children p15_plan_rows p16_external p17_warm_values p18_folder_state p19_trust
  o_not_a_run o_edited_folders o_damaged_folders o_bad_numbers o_wrong_corpus o_conformance
  o_two_writers "o_signal INT 130" "o_signal TERM 143" o_orphan o_hang o_flood o_runner_killed
  o_report_columns o_compare_disjoint o_compare_small_n
  q01_memory q02_outputs q03_runner_killed q04_hard_links q05_sparse q06_pointer
  q07_runner_stopped q08_notes q09_dry_run q10_list_escapes q11_urls q12_tiny_estimates
  q13_empty_shard q14_manifest_names q15_long_values q16_killed_before_manifest
  r01_memory_outside r02_kills_both r03_inherited_fd r04_samples_replaced
  r05_fixture_outputs r06_fifo_cold_cache r07_edited_counts r08_report_swapped
  r09_values_as_given r10_echoes r11_stale_lock r12_report_disk_full r13_nothing_left_on_failure
  r14_outputs_one_rule r15_penalty_floor r16_run_swapped
  s01_memory_outlives s02_limit_lifted s03_frozen_spawner s04_lock_not_a_name s05_samples_cut
  s06_host_from_inside s07_outputs_through_links s08_fifo_corpus
  slow
  p07_huge_name o_disk_full
)
started=$(date +%s)
leaky=()
for p in "${all[@]}"; do
  if [ "$p" = slow ]; then $quick && break; continue; fi
  [ -n "$only" ] && [[ "$p" != *"$only"* ]] && continue
  t0=$(date +%s)
  $p
  printf '     (%s: %d s)\n' "${p%% *}" $(($(date +%s) - t0)) >&2
  # Nothing a probe started may outlive it (most probes also check this themselves).
  left=$(ours)
  [ "$left" = 0 ] || leaky+=("${p%% *}: $left ($(pgrep -f -- "$work/" | head -3 | xargs -r ps -o comm= -p | tr '\n' ' '))")
  sweep
done
record "every probe above: nothing of it left running when it ends" \
  "no process whose command line holds the temporary folder" \
  "$([ ${#leaky[@]} = 0 ] && echo none left || echo "left: ${leaky[*]}")" \
  "$([ ${#leaky[@]} = 0 ] && echo 0 || echo 1)"

failed=0
for v in "${verdicts[@]}"; do
  if [ "$v" = FAIL ] || { [ "$v" = SKIP ] && [ "${THAW_CI:-}" = 1 ]; }; then
    failed=$((failed + 1))
  fi
done
{
  printf '| probe | expected | seen | verdict |\n|---|---|---|---|\n'
  for i in "${!probes[@]}"; do
    printf '| %s | %s | %s | %s |\n' "${probes[$i]//|/\\|}" "${expected[$i]//|/\\|}" \
      "${seen[$i]//|/\\|}" "${verdicts[$i]}"
  done
} | tee "${TORTURE_TABLE:-/dev/null}"
echo
echo "${#probes[@]} probes, $failed failed, in $(($(date +%s) - started)) s"
[ "$failed" = 0 ]
