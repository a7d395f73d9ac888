#!/usr/bin/env bash
# Makes the Go children buildable offline, idempotently: fetches the modules runtimes/go/go.mod
# names (the libraries at the versions go.sum pins, and the easyjson generator go.mod pins as a
# tool) through the module proxy into Go's module cache, then builds every child once into a
# scratch folder with the module proxy turned off (runtimes/go/build.sh, as a run compiles them),
# which proves the cache holds everything and fills Go's build cache. What is there already is
# left alone: a build that works offline fetches nothing.
#
#   scripts/install-go-env.sh
#
# Needs Go 1.26 (go on PATH, or /usr/local/go/bin/go): Debian's golang packages are older, so
# like JDK 25 it is not installed here: https://go.dev/dl/ (CI carries it). Exits 1, saying what
# is missing, when the children cannot be built.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module="$root/runtimes/go"
say() { echo "install-go-env: $*" >&2; }

go="$(command -v go || true)"
[ -n "$go" ] || go=/usr/local/go/bin/go
if [ ! -x "$go" ]; then
  say "no Go toolchain (go on PATH or /usr/local/go/bin/go): install Go 1.26 from https://go.dev/dl/"
  exit 1
fi
version="$("$go" env GOVERSION)"
case "$version" in
go1.2[6-9]* | go1.[3-9][0-9]*) ;;
*)
  say "$go is $version; the Go children need Go 1.26 or later (https://go.dev/dl/)"
  exit 1
  ;;
esac

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if ! "$module/build.sh" "$scratch" >/dev/null 2>&1; then
  say "fetching the Go children's modules through the module proxy ($("$go" env GOPROXY))"
  (cd "$module" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local "$go" mod download >&2)
  (cd "$module" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local "$go" mod verify >&2)
  rm -rf "$scratch" && scratch="$(mktemp -d)"
  "$module/build.sh" "$scratch" >&2
fi
# The easyjson generator (go.mod's tool), which regenerates easymodel/users_easyjson.go.
(cd "$module" && GOFLAGS=-mod=readonly GOPROXY=off GOTOOLCHAIN=local "$go" build -o "$scratch/easyjson-generator" github.com/mailru/easyjson/easyjson)
say "ready: $version, $(ls "$scratch" | grep -vc easyjson-generator) children built offline, easyjson generator $(cd "$module" && "$go" list -m -f '{{.Version}}' github.com/mailru/easyjson)"
