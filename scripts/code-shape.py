#!/usr/bin/env python3
"""The shape figures of issue 32, counted the same way before and after a change.

Prints, for the workspace at ROOT (default: the repository this script is in):
  - lines that begin with `pub ` (not `pub(crate)` and the like) in cold/src and analysis/src,
    outside `#[cfg(test)]` items: the crates' public surface, struct fields included;
  - functions longer than 80 lines (from the `fn` line to its closing brace) in every crate's
    src/, outside `#[cfg(test)]` items, longest first;
  - integration-test binaries per crate (each `tests/*.rs` and `tests/*/main.rs`).

    scripts/code-shape.py [ROOT]
"""
import os
import re
import sys

from rust_source import blank_tests

SURFACE = ["cold/src", "analysis/src"]
LONG = 80


def long_functions(lines, path):
    """(length, path, name) of each function over LONG lines."""
    found, i = [], 0
    head = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")
    while i < len(lines):
        m = head.match(lines[i])
        if not m:
            i += 1
            continue
        indent, j = m.group(1), i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and lines[k].rstrip() != indent + "}":
            k += 1
        if k - i + 1 > LONG:
            found.append((k - i + 1, path, m.group(7)))
        i = k + 1
    return found


def rust_files(root, sub):
    for dp, _, files in os.walk(os.path.join(root, sub)):
        for f in sorted(files):
            if f.endswith(".rs"):
                yield os.path.join(dp, f)


def crates(root):
    """Every package folder of the workspace (one holding a Cargo.toml with [package])."""
    out = []
    for dp, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ("target", "results", ".git", "node_modules")]
        if "Cargo.toml" in files and "[package]" in open(os.path.join(dp, "Cargo.toml")).read():
            out.append(os.path.relpath(dp, root))
    return sorted(out)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    surface = 0
    for sub in SURFACE:
        for path in rust_files(root, sub):
            lines = blank_tests(open(path, encoding="utf-8").read().split("\n"))
            surface += sum(1 for l in lines if re.match(r"\s*pub\s", l))
    longest = []
    tests = {}
    for crate in crates(root):
        for path in rust_files(root, os.path.join(crate, "src")):
            lines = blank_tests(open(path, encoding="utf-8").read().split("\n"))
            longest += long_functions(lines, os.path.relpath(path, root))
        tdir = os.path.join(root, crate, "tests")
        if os.path.isdir(tdir):
            n = sum(1 for e in os.listdir(tdir)
                    if (e.endswith(".rs") and os.path.isfile(os.path.join(tdir, e)))
                    or os.path.isfile(os.path.join(tdir, e, "main.rs")))
            if n:
                tests[crate] = n
    print(f"lines beginning with `pub ` in {' and '.join(SURFACE)} outside tests: {surface}")
    print(f"functions over {LONG} lines outside tests: {len(longest)}")
    for n, path, name in sorted(longest, reverse=True):
        print(f"  {n:4}  {path}::{name}")
    print(f"integration-test binaries: {sum(tests.values())} in {len(tests)} crates "
          f"({', '.join(f'{c} {n}' for c, n in tests.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
