#!/bin/sh
# Compiles thaw's Go children (runtimes/go/children/<name>/) into the folder given, each with
# `go build -trimpath` as one binary named after its folder, offline (GOPROXY=off: the modules
# come from the module cache, filled by scripts/install-go-env.sh, at the versions go.sum pins).
# Go's defaults are kept: no -ldflags, no -gcflags, GOAMD64 and GOGC as the toolchain and the
# machine give them. A child whose files need GOEXPERIMENT=jsonv2 (`//go:build
# goexperiment.jsonv2`) is built with it, and each TWINS entry `child:experiment` builds that
# child's source a second time under the experiment, as `<child>-<experiment>`.
# The cold runner runs this when the sources changed (runtime.toml's compile and sources).
set -eu
TWINS="encoding-json:jsonv2"
out=${1:?usage: build.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
GO=$(command -v go || true)
[ -n "$GO" ] || GO=/usr/local/go/bin/go
if [ ! -x "$GO" ]; then
  echo "build.sh: no Go toolchain (go on PATH or /usr/local/go/bin/go): run scripts/install-runtimes.sh" >&2
  exit 1
fi
export GOFLAGS=-mod=readonly GOPROXY=off GOTOOLCHAIN=local
unset GOEXPERIMENT
mkdir -p "$out"
cd "$here"
plain=""
for d in children/*/; do
  name=$(basename "$d")
  if grep -qs '^//go:build goexperiment.jsonv2' "$d"*.go; then
    GOEXPERIMENT=jsonv2 "$GO" build -trimpath -o "$out/$name" "./children/$name"
  else
    plain="$plain ./children/$name"
  fi
done
# shellcheck disable=SC2086 # one word per package
"$GO" build -trimpath -o "$out/" $plain || {
  echo "build.sh: go build failed; if a module is missing, run scripts/install-runtimes.sh (go mod download)" >&2
  exit 1
}
for twin in $TWINS; do
  child=${twin%%:*}
  experiment=${twin#*:}
  GOEXPERIMENT=$experiment "$GO" build -trimpath -o "$out/$child-$experiment" "./children/$child"
done
