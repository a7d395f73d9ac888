#!/usr/bin/env bash
# thaw on Slurm (docs/machines.md): a job array of 4 tasks, each one shard of one cold plan
# (`cold run --shard auto` reads SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT), each writing its own folder; and a merge job that waits for every
# task (afterok) and runs `analysis merge` and `analysis report`. The first task to start submits
# the merge job, once, so one command submits the whole:
#
#   scripts/build-children.sh && cargo build --release -p analysis   # once, in the checkout
#   sbatch docs/recipes/slurm-array.sh [cold run options]            # from the checkout
#
# Out: results/slurm/<array job id>/shard-K (K the array index: shard K of 4), merged/ and
# merged/report/, and each job's output beside them (merge.out; slurm-thaw-*.out where sbatch
# ran). THAW_DIR is the checkout whose target/release runs (default: where sbatch was run) and
# THAW_RESULTS the results folder (default THAW_DIR/results/slurm/<array job id>): on a cluster
# both must be on a file system every node sees. THAW_MERGE=0: no merge job (submit your own:
# `sbatch --dependency=afterok:<array>_1:…:<array>_4 --wrap "docs/recipes/slurm-array.sh merge
# RESULTS"`).
#
# Each task holds its node whole (--exclusive): two shards on one node would each be measured
# under the other's load (the merged report warns when shards of one machine overlapped in
# time). A task that Slurm requeues (--requeue: on a node's failure or a preemption) runs again
# with the same index and resumes its folder (`cold resume`): no row lost, none taken twice. The
# array is a range (`--array=1-8` for 8 shards, or `0-14:2`; the shard count is the array's).
#
#SBATCH --job-name=thaw-shards
#SBATCH --array=1-4
#SBATCH --exclusive
#SBATCH --requeue
#SBATCH --output=slurm-thaw-%A_%a.out
set -euo pipefail

thaw=${THAW_DIR:-${SLURM_SUBMIT_DIR:-$PWD}}
cold=$thaw/target/release/cold
analysis=$thaw/target/release/analysis
for exe in "$cold" "$analysis"; do
  [ -x "$exe" ] || { echo "slurm-array: no $exe; build it in $thaw first" >&2; exit 2; }
done

# The merge job: every shard's folder into RESULTS/merged, and its report.
if [ "${1:-}" = merge ]; then
  results=${2:?usage: slurm-array.sh merge RESULTS}
  rm -rf "$results/merged"   # a merge that is run again starts afresh
  "$analysis" merge --out "$results/merged" "$results"/shard-*
  exec "$analysis" report "$results/merged" --warm /nonexistent --conformance /nonexistent.csv
fi

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "slurm-array: submit me with sbatch (each task of the array is one shard)" >&2
  exit 2
fi
results=${THAW_RESULTS:-$thaw/results/slurm/$SLURM_ARRAY_JOB_ID}
out=$results/shard-$SLURM_ARRAY_TASK_ID
mkdir -p "$results"
cd "$thaw"

# The merge job, submitted once, by whichever task starts first (mkdir is atomic); it waits for
# each task by name, so that a task requeued by hand after a failure can be waited for again.
if [ "${THAW_MERGE:-1}" = 1 ] && mkdir "$results/.merge" 2>/dev/null; then
  deps=afterok
  for ((i = ${SLURM_ARRAY_TASK_MIN:?}; i <= ${SLURM_ARRAY_TASK_MAX:?}; i += ${SLURM_ARRAY_TASK_STEP:-1})); do
    deps+=":${SLURM_ARRAY_JOB_ID}_$i"
  done
  sbatch --parsable --job-name=thaw-merge --dependency="$deps" --output="$results/merge.out" \
    --chdir="$thaw" --wrap="$(printf '%q ' "$thaw/docs/recipes/slurm-array.sh" merge "$results")" \
    >"$results/.merge/job" || { rm -rf "$results/.merge"; echo "slurm-array: cannot submit the merge job" >&2; exit 1; }
  echo "slurm-array: merge job $(cat "$results/.merge/job") waits for $deps"
fi

echo "slurm-array: task $SLURM_ARRAY_TASK_ID of array $SLURM_ARRAY_JOB_ID on $(hostname)," \
  "restart ${SLURM_RESTART_COUNT:-0}, into $out"
if [ -e "$out/manifest.json" ]; then
  exec "$cold" resume "$out"
fi
exec "$cold" run --shard auto --out "$out" "$@"
