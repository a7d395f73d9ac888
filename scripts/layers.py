#!/usr/bin/env python3
"""Imports only run down: every crate, and every module of the crates that have floors, imports
only from its own floor or the floors below, by the order docs/design.md declares.

The order is the block between `<!-- layers:` and `<!-- layers: end -->` in docs/design.md, one
line per house: `crates:` for the workspace's crates (by their [dependencies] and
[build-dependencies]: a test may reach up, through [dev-dependencies]), and `DIR/src:` for the
top-level modules of one crate (by their imports outside tests, read as
scripts/module-cycles.py reads them; a `tests` module in a file of its own is a test too). Floors go up from left to right, separated by `<`; a
floor's rooms are separated by spaces; `*` stands for every room the line does not name. A
crate's root (lib.rs) is its door, neither above nor below: its re-exports may be named from
any floor, and `main.rs` is the top floor of its crate.

    scripts/layers.py                (exit 0: nothing runs up; 1: an upward import, named)
    scripts/layers.py --self-test    (a planted upward import found, a downward one allowed)
"""
import importlib.util
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESIGN = os.path.join(ROOT, "docs", "design.md")

_spec = importlib.util.spec_from_file_location(
    "module_cycles", os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-cycles.py"))
module_cycles = importlib.util.module_from_spec(_spec)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_spec.loader.exec_module(module_cycles)


def declared(text):
    """{house: [set of rooms per floor, lowest first]} from the layers block of `text`."""
    m = re.search(r"<!-- layers:.*?-->(.*?)<!-- layers: end -->", text, re.S)
    if not m:
        raise SystemExit(f"{DESIGN}: no block between `<!-- layers:` and `<!-- layers: end -->`")
    houses = {}
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line or line.startswith("```") or ":" not in line:
            continue
        house, floors = line.split(":", 1)
        houses[house.strip()] = [set(f.split()) for f in floors.split("<")]
    return houses


def floor_of(floors, room):
    for i, rooms in enumerate(floors):
        if room in rooms:
            return i
    for i, rooms in enumerate(floors):
        if "*" in rooms:
            return i
    return None


def crate_edges(root):
    """{crate: set of workspace crates it depends on} (normal and build dependencies)."""
    workspace = tomllib.load(open(os.path.join(root, "Cargo.toml"), "rb"))
    members = workspace["workspace"]["members"]
    names = {}
    manifests = {}
    for member in members:
        manifest = tomllib.load(open(os.path.join(root, member, "Cargo.toml"), "rb"))
        names[manifest["package"]["name"]] = member
        manifests[manifest["package"]["name"]] = manifest
    edges = {}
    for name, manifest in manifests.items():
        deps = set()
        for table in ("dependencies", "build-dependencies"):
            deps |= {d for d in manifest.get(table, {}) if d in names}
        edges[name] = deps
    return edges


def module_edges(src):
    """{top-level module: set of top-level modules it imports}; `main` for src/main.rs, the root
    (lib.rs) left out."""
    edges = {}
    for sub, targets in module_cycles.graph(src).items():
        if sub.split("::")[-1] == "tests":
            continue  # a module of tests (`mod tests;` in its own file) may reach anywhere
        a = sub.split("::")[0]
        for t in targets:
            b = t.split("::")[0]
            if a and b and a != b:
                edges.setdefault(a, set()).add(b)
        if a:
            edges.setdefault(a, set())
    main = os.path.join(src, "main.rs")
    if os.path.exists(main):
        text = module_cycles.without_tests(open(main, encoding="utf-8").read())
        mods = module_cycles.module_files(src)
        crate = os.path.basename(os.path.dirname(os.path.normpath(src)))
        for p in module_cycles.paths(text):
            parts = p.split("::")
            # the binary names its own library by the crate's name (`fixtures::catalog`)
            if parts[0] in (crate, crate.replace("-", "_")) and len(parts) > 1 and parts[1] in mods:
                edges.setdefault("main", set()).add(parts[1])
        edges.setdefault("main", set())
    return edges


def upward(houses, edges_of):
    """Every import that runs up (or names a room no floor holds), as lines of text."""
    found = []
    for house, floors in houses.items():
        edges = edges_of(house)
        for a in sorted(edges):
            fa = len(floors) if a == "main" else floor_of(floors, a)
            if fa is None:
                found.append(f"{house}: {a} is on no floor of docs/design.md's layers")
                continue
            for b in sorted(edges[a]):
                fb = floor_of(floors, b)
                if fb is None:
                    found.append(f"{house}: {b} (imported by {a}) is on no floor")
                elif fb > fa:
                    found.append(f"{house}: {a} (floor {fa + 1}) imports {b} (floor {fb + 1}), "
                                 f"a floor above it")
    return found


def edges_in(root):
    def of(house):
        if house == "crates":
            return crate_edges(root)
        return module_edges(os.path.join(root, house))
    return of


def self_test():
    """Known answers: a module that imports one above it is named, one below is not; a crate that
    depends on one above it is named; a room on no floor is named."""
    import tempfile
    root = tempfile.mkdtemp(prefix="layers-")

    def write(path, text):
        path = os.path.join(root, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    write("Cargo.toml", '[workspace]\nmembers = ["low", "high", "app"]\n')
    write("low/Cargo.toml", '[package]\nname = "low"\n[dependencies]\nhigh = { path = "../high" }\n')
    write("high/Cargo.toml", '[package]\nname = "high"\n[dev-dependencies]\napp = { path = "../app" }\n')
    write("app/Cargo.toml", '[package]\nname = "app"\n[dependencies]\nlow = { path = "../low" }\n')
    write("app/src/lib.rs", "pub mod base;\npub mod top;\npub mod odd;\n")
    write("app/src/base.rs", "use crate::top::Up;\npub struct Down;\n")
    write("app/src/top.rs", "use crate::base::Down;\npub struct Up;\n#[cfg(test)]\nmod tests { use crate::top::Up; }\n")
    write("app/src/odd.rs", "pub struct Odd;\n")
    write("app/src/main.rs", "use app::top::Up;\nfn main() {}\n")
    houses = declared("<!-- layers: -->\n```\ncrates: low < high < app\n"
                      "app/src: base < top\n```\n<!-- layers: end -->\n")
    found = upward(houses, edges_in(root))
    want = [
        "crates: low (floor 1) imports high (floor 2), a floor above it",
        "app/src: base (floor 1) imports top (floor 2), a floor above it",
        "app/src: odd is on no floor of docs/design.md's layers",
    ]
    assert sorted(found) == sorted(want), found
    # the same house with every import downward, and `*` holding the rest: nothing found
    write("low/Cargo.toml", '[package]\nname = "low"\n')
    write("app/src/base.rs", "pub struct Down;\n")
    houses["app/src"] = [{"base"}, {"top", "*"}]
    assert upward(houses, edges_in(root)) == [], upward(houses, edges_in(root))
    print("layers: self-test passed (3 upward or unplaced rooms found where planted, none where not)")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if sys.argv[1:]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    houses = declared(open(DESIGN, encoding="utf-8").read())
    found = upward(houses, edges_in(ROOT))
    for line in found:
        print(line)
    print(f"layers: {len(houses)} houses checked against docs/design.md, "
          f"{len(found)} upward imports", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
