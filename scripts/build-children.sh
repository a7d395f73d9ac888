#!/usr/bin/env bash
# Builds the cold runner, its spawner and every child binary (the children package) for one
# build variant.
#
#   scripts/build-children.sh            portable: the default target, into target/release
#                                        (what `cargo run --release -p cold -- run` builds anyway)
#   scripts/build-children.sh native     -C target-cpu=native, into target/native/release
#
# Then `cargo run --release -p cold -- run --variant native` times the native children (the
# runner finds them in target/native/release, beside target/release). The native build shares
# its target folder with scripts/warm-native.sh; set CARGO_TARGET_DIR_NATIVE to move both, and
# give the runner `--children-dir DIR/release` to match.
set -euo pipefail
cd "$(dirname "$0")/.."

variant="${1:-portable}"
case "$variant" in
  portable)
    cargo build --release -p cold -p children --bins
    echo "portable children in target/release"
    ;;
  native)
    export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C target-cpu=native"
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR_NATIVE:-target/native}"
    cargo build --release -p cold -p children --bins
    echo "native children in $CARGO_TARGET_DIR/release;" \
      "run them with: cargo run --release -p cold -- run --variant native"
    ;;
  *)
    echo "usage: $0 [portable|native]  (unknown variant \`$variant\`)" >&2
    exit 2
    ;;
esac
