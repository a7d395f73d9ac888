#!/usr/bin/env bash
# The whole path of a job engine, on a real one (docs/machines.md): a one-node Slurm on this
# machine (scripts/slurm-local.sh), the recipe docs/recipes/slurm-array.sh submitted as a 4-task
# array whose first task submits the merge job, one task killed mid-run and requeued, the merge
# job waited for; then the merged run held against the plan of the same run unsharded.
#
#   scripts/slurm-check.sh      # as root; .ci/run runs it; exits 1 naming what broke
#
# It checks:
#   - each folder shard-K holds shard K/4: `--shard auto` read the array's index as Slurm set it;
#   - the killed task was resumed, not started over: the rows it had written before the kill are
#     still its first rows, and its manifest records the resume;
#   - merged plan.csv is, byte for byte, what `cold run --dry-run` prints for the same options;
#     merged samples.csv holds every plan index once, each ok;
#   - the report names the machine of each shard (its Machines section);
#   - the shards, each holding the node whole (--exclusive), did not overlap in time, and the
#     report has no overlap warning; a second submission sharing the node (--oversubscribe, on
#     2 cores two tasks at once) draws it.
# Slurm 22.05 requeues a task on a node's failure or a preemption, not when the task is killed
# (`--requeue` or not): `scancel --signal=KILL` of an array task cancels it as plain scancel does
# (SIGTERM first, which cold catches and stops cleanly on) and `scancel --batch --signal=KILL`
# kills it outright (the task FAILED); either way it is requeued by `scontrol requeue`, which
# holds it back ~2 minutes (its start is moved to now here), and the merge job's dependency on it,
# marked failed for good, is set again (`scontrol update ... dependency=`). This script does the
# outright kill, which is what a crashed node does to a shard.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$(date +%s)

say() { echo "slurm-check: $*"; }
fail() { echo "slurm-check: FAILED: $*" >&2; exit 1; }
elapsed() { echo "$(($(date +%s) - started)) s"; }

results=$root/results/ci/slurm
# 2 cells × 3000 blocks: each shard takes 1500 samples, a few seconds, long enough to be caught
# mid-run and for two shards sharing the node to overlap by whole seconds
# shellcheck disable=SC2054  # the commas are cold's list separators
opts=(--codecs noop,serde_json --ops de --batches 1 --samples 3000)
wait_secs=${THAW_SLURM_CHECK_WAIT:-600}

scripts/slurm-local.sh up || fail "the local Slurm did not come up (above)"
trap 'scripts/slurm-local.sh down || true' EXIT
say "Slurm up at $(elapsed)"

# The runner and analysis, built once (nothing to do when CI built them already); `cargo run`
# of the runner builds the children the plan needs, and prints the plan unsharded.
cargo build -q --release -p cold -p analysis || fail "cargo build"
rm -rf "$results"
mkdir -p "$results"
cargo run -q --release -p cold -- run --dry-run "${opts[@]}" >"$results/plan.csv" \
  2>"$results/dry-run.err" || { cat "$results/dry-run.err" >&2; fail "cold run --dry-run"; }
say "the plan unsharded: $(($(wc -l <"$results/plan.csv") - 1)) rows; built at $(elapsed)"

# A job's state (RUNNING, PENDING, COMPLETED, FAILED…), and its reason when pending.
state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true; }
reason() { scontrol show job "$1" 2>/dev/null | grep -o 'Reason=[^ ]*' | cut -d= -f2 || true; }

# Its input with every control character but a tab shown escaped (\x1b), lines cut at 300.
escaped() {
  python3 -c 'import sys
for line in sys.stdin.buffer.read().decode("utf-8", "backslashreplace").splitlines():
    print("".join(c if c.isprintable() or c == "\t" else ascii(c)[1:-1] for c in line[:300]))'
}

# Shows what the jobs of submission $1 printed, escaped, for a failure.
show_outputs() {
  local f
  for f in "$1"/slurm-*.out "$1"/merge.out; do
    [ -s "$f" ] || continue
    echo "--- $f (last lines)" >&2
    tail -n 15 "$f" | escaped >&2
  done
  squeue -a 2>&1 | escaped >&2 || true
}

# Submits the recipe into folder $1 with the extra sbatch options $2…; prints the array's id.
submit() {
  local dir=$1; shift
  mkdir -p "$dir"
  THAW_RESULTS=$dir sbatch --parsable --output="$dir/slurm-%A_%a.out" "$@" \
    docs/recipes/slurm-array.sh "${opts[@]}" || fail "sbatch docs/recipes/slurm-array.sh"
}

# The merge job's id, once the first task has submitted it (bounded).
merge_job() {
  local dir=$1
  for _ in $(seq 1 $((wait_secs * 5))); do
    [ -s "$dir/.merge/job" ] && { cat "$dir/.merge/job"; return 0; }
    sleep 0.2
  done
  show_outputs "$dir"
  fail "no merge job submitted by any task of $dir in ${wait_secs}s"
}

# Waits (bounded) for job $1 to end; fails unless it COMPLETED.
wait_done() {
  local job=$1 dir=$2 s
  for _ in $(seq 1 $((wait_secs * 2))); do
    s=$(state "$job")
    case $s in
      COMPLETED) return 0 ;;
      FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)
        show_outputs "$dir"; fail "job $job ended $s" ;;
    esac
    if [ "$(reason "$job")" = DependencyNeverSatisfied ]; then
      show_outputs "$dir"
      fail "job $job can never start: a task it waits for failed ($(scontrol show job "$job" | grep -o 'Dependency=[^ ]*'))"
    fi
    sleep 0.5
  done
  show_outputs "$dir"
  fail "job $job did not end within ${wait_secs}s (state ${s:-unknown})"
}

# --- 1. the recipe as written: the node whole for each task; one task killed and requeued
whole=$results/exclusive
array=$(submit "$whole")
say "array $array submitted (4 tasks, --exclusive)"
merge=$(merge_job "$whole")
say "merge job $merge, submitted by the first task"

# Catch a task while it takes samples: running, its samples.csv holding a row, not finished.
victim=""
for _ in $(seq 1 $((wait_secs * 20))); do
  for k in 1 2 3 4; do
    dir=$whole/shard-$k
    [ "$(state "${array}_$k")" = RUNNING ] || continue
    [ -s "$dir/samples.csv" ] && [ "$(wc -l <"$dir/samples.csv")" -ge 2 ] || continue
    grep -q '"finished": false' "$dir/manifest.json" 2>/dev/null || continue
    victim=$k
    break 2
  done
  sleep 0.05
done
[ -n "$victim" ] || { show_outputs "$whole"; fail "no task was caught taking samples within ${wait_secs}s"; }
scancel --batch --signal=KILL "${array}_$victim" || fail "scancel --batch --signal=KILL ${array}_$victim"
for _ in $(seq 1 100); do
  case $(state "${array}_$victim") in RUNNING|COMPLETING) sleep 0.1 ;; *) break ;; esac
done
killed=$whole/killed-samples.csv
cp "$whole/shard-$victim/samples.csv" "$killed"
say "task ${array}_$victim killed (SIGKILL) after $(($(wc -l <"$killed") - 1)) samples; now $(state "${array}_$victim")"
pgrep -f "shard-$victim( |$)" >/dev/null && fail "a process of the killed task ${array}_$victim still runs"
scontrol requeue "${array}_$victim" || fail "scontrol requeue ${array}_$victim"
scontrol update jobid="${array}_$victim" starttime=now || fail "scontrol update starttime=now"
scontrol update jobid="$merge" dependency="afterok:${array}_1:${array}_2:${array}_3:${array}_4" \
  || fail "scontrol update the merge job's dependency"
say "task ${array}_$victim requeued ($(state "${array}_$victim")); waiting for the merge job"
wait_done "$merge" "$whole"
say "merge job $merge completed at $(elapsed)"

python3 - "$whole" "$results/plan.csv" "$victim" "$killed" <<'PY' || { show_outputs "$whole"; fail "the merged run of $whole (above)"; }
import csv, json, re, sys
whole, plan_file, victim, killed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
bad = []
merged = f"{whole}/merged"
for k in range(1, 5):
    m = json.load(open(f"{whole}/shard-{k}/manifest.json"))
    if m["settings"].get("shard") != f"{k}/4":
        bad.append(f"shard-{k} (array task {k}) holds shard {m['settings'].get('shard')}, not {k}/4: --shard auto read the wrong index")
    if not m["finished"]:
        bad.append(f"shard-{k} did not finish")
m = json.load(open(f"{whole}/shard-{victim}/manifest.json"))
if len(m.get("resumed_utc", [])) < 1:
    bad.append(f"shard-{victim} was killed but its manifest records no resume: it started over")
before = open(killed).read()
after = open(f"{whole}/shard-{victim}/samples.csv").read()
if not after.startswith(before):
    bad.append(f"shard-{victim}'s rows from before the kill are not its first rows now")
want = open(plan_file).read()
got = open(f"{merged}/plan.csv").read()
if got != want:
    bad.append("merged plan.csv is not the plan `cold run --dry-run` prints for the same options")
plan = [r["plan_index"] for r in csv.DictReader(open(plan_file))]
rows = list(csv.DictReader(open(f"{merged}/samples.csv")))
seen = {}
for r in rows:
    seen[r["plan_index"]] = seen.get(r["plan_index"], 0) + 1
twice = [i for i, n in seen.items() if n > 1]
missing = [i for i in plan if i not in seen]
extra = [i for i in seen if i not in set(plan)]
failed = [r for r in rows if r["status"] != "ok"]
for what, items in (("twice", twice), ("missing", missing), ("not in the plan", extra), ("not ok", failed)):
    if items:
        bad.append(f"{len(items)} plan indices {what}: {items[:5]}")
mm = json.load(open(f"{merged}/manifest.json"))
report = open(f"{merged}/report/report.md").read()
machines = report.split("\n## Machines\n", 1)[1].split("\n## ", 1)[0] if "\n## Machines\n" in report else ""
cpu = mm["machine"].get("cpu_model") or ""
if not machines or (cpu and cpu not in machines):
    bad.append(f"the report does not name the shards' machine ({cpu!r}) in a Machines section")
for k in range(1, 5):
    if not re.search(rf"\b{k}/4\b", machines):
        bad.append(f"the report's Machines section does not list shard {k}/4")
spans = [(s["shard"], x) for s in mm["shards"] for x in s.get("sessions", [])]
if len(spans) < 5:
    bad.append(f"the merged manifest records {len(spans)} sessions, not 4 shards' and a resume")
for i, (a, x) in enumerate(spans):
    for b, y in spans[i + 1:]:
        if a != b and max(x[0], y[0]) < min(x[1], y[1]):
            bad.append(f"shards {a} and {b} overlapped in time although each held the node whole: {x} and {y}")
if "ran at the same time" in report:
    bad.append("the report warns of shards that ran at the same time")
for b in bad:
    print("  " + b)
if bad:
    sys.exit(1)
print(f"  {len(rows)} merged rows = the {len(plan)} rows of the unsharded plan, each once, "
      f"{len(failed)} not ok; shard-K holds K/4 for K = 1..4; shard-{victim} killed after "
      f"{before.count(chr(10)) - 1} rows and resumed; {len(spans)} sessions, none overlapping; "
      f"the report names machine {cpu!r} for shards 1/4..4/4")
PY
say "the exclusive submission checked at $(elapsed)"

# --- 2. the same without the node held whole: two tasks at once on this node, and the warning
shared=$results/shared
array=$(submit "$shared" --oversubscribe)
merge=$(merge_job "$shared")
say "array $array submitted (4 tasks, --oversubscribe), merge job $merge"
wait_done "$merge" "$shared"
warning=$(grep -o "Shards ran at the same time on one machine[^|]*" "$shared/merged/report/report.md" | head -n 1 || true)
[ -n "$warning" ] || { show_outputs "$shared"; fail "shards that shared the node drew no overlap warning in $shared/merged/report/report.md"; }
say "the shared submission's report warns: $warning"
say "every check passed in $(elapsed)"
