#!/usr/bin/env bash
# The warm benches built for this machine's CPU (-C target-cpu=native), in their own target
# folder (so the portable build is not thrown away), filed as variant `native` under
# results/warm/criterion/native/. sonic-rs picks its SIMD paths at compile time, simd-json at
# run time, so the two variants can differ. Arguments go to criterion, as with cargo bench:
#   scripts/warm-native.sh                      every cell, criterion's full statistics
#   THAW_WARM=quick scripts/warm-native.sh      every cell, briefly
#   scripts/warm-native.sh -- users-1000kb/de   a filter
# Set THAW_CORPORA (e.g. ../shared/corpora) to add the classic corpora.
set -euo pipefail
cd "$(dirname "$0")/.."

# `cargo bench -p warm -- FILTER` and `scripts/warm-native.sh FILTER` both work.
if [ "${1:-}" = "--" ]; then
  shift
fi

export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C target-cpu=native"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR_NATIVE:-target/native}"
export THAW_VARIANT=native
exec cargo bench -p warm --bench throughput -- "$@"
