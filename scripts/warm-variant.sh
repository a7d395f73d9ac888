#!/usr/bin/env bash
# The warm benches built as a described build (cold/variants/NAME.toml, or $THAW_VARIANTS/NAME.toml)
# that only swaps the allocator or adds flags, filed as variant NAME under results/warm/forks/NAME/:
# the same description the cold track builds its children from (`cold run --variant NAME`), in the
# same target folder (target/variants/NAME/target), so the two tracks share one build.
#   scripts/warm-variant.sh jemalloc                        every cell, forked, full statistics
#   THAW_WARM=quick scripts/warm-variant.sh mimalloc -- users-2kb/de
# A description that changes a library's version or source (update, patch) is refused here: the
# cold track builds those in a copy of the workspace (`cold build NAME`).
set -euo pipefail
cd "$(dirname "$0")/.."

name="${1:?usage: scripts/warm-variant.sh NAME [-- CRITERION-ARGS]}"
shift
if [ "${1:-}" = "--" ]; then
  shift
fi
case "$name" in
  *[!a-z0-9._-]*|"") echo "warm-variant: \`$name\` is not a build name" >&2; exit 1 ;;
esac
desc=""
for dir in cold/variants ${THAW_VARIANTS:+"$THAW_VARIANTS"}; do
  if [ -f "$dir/$name.toml" ]; then
    desc="$dir/$name.toml"
    break
  fi
done
[ -n "$desc" ] || { echo "warm-variant: no description $name.toml in cold/variants/ or \$THAW_VARIANTS" >&2; exit 1; }
if grep -Eq '^[[:space:]]*(update|patch)[[:space:]]*=' "$desc"; then
  echo "warm-variant: $desc changes a library (update or patch): build it with \`cold build $name\`; this script builds only allocator and flag changes" >&2
  exit 1
fi
# `key = "value"` lines of the description (the only form these two keys take)
value() { sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"([^\"]*)\".*/\\1/p" "$desc" | head -1; }
allocator="$(value allocator)"
flags="$(value rustflags)"
features=()
case "${allocator:-system}" in
  system) ;;
  # without the alloc binary, whose counting allocator would be a second global allocator
  jemalloc|mimalloc) features=(--no-default-features --features "allocator/$allocator") ;;
  *) echo "warm-variant: $desc: allocator \`$allocator\` is not system, jemalloc or mimalloc" >&2; exit 1 ;;
esac
if [ -n "$flags" ]; then
  export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }$flags"
fi
export CARGO_TARGET_DIR="target/variants/$name/target"
export THAW_VARIANT="$name"
exec cargo bench -p warm --bench throughput "${features[@]}" -- "$@"
