#!/usr/bin/env bash
# A first full picture in one command: the cold run, a quick warm pass, the allocation count,
# and the report that puts them side by side.
#
#   scripts/run-all.sh [COLD RUN OPTIONS...]
#
# Arguments go to `cold run` (e.g. `--samples 30`). Set THAW_WARM=full for criterion's full
# timing instead of the quick pass. The report lands in results/cold/latest/report/.
set -euo pipefail

cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*" >&2; }

step "cold run: a fresh process per sample"
cargo run --release -p cold -- run "$@"

step "warm run (THAW_WARM=${THAW_WARM:-quick}): criterion, steady throughput"
THAW_WARM="${THAW_WARM:-quick}" cargo bench -p warm

step "allocations per operation"
cargo run --release -p warm --bin alloc

step "report"
cargo run --release -p analysis -- report
