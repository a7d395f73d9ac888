#!/usr/bin/env python3
"""Circles of imports between the modules of a crate: which module names which.

A module is a file (`a/b.rs` or `a/b/mod.rs` is `a::b`). Module A imports B when A's code
outside its tests names an item through `crate::…`, `super::…`, `self::…` or a child's name that
lives in B (the longest path prefix that is a module), a glob `use B::*` included. A declaring
`mod b;` is not an import, nor is naming an exported macro (`crate::m!`, which lives at the root
wherever it is written). The script prints each
strongly connected set of more than one module, with one circle through it, and exits 1 if it
found any.

    scripts/module-cycles.py cold/src analysis/src …     (exit 0: no circle)
    scripts/module-cycles.py --self-test                 (the rules above on known answers)
"""
import os
import re
import sys

from rust_source import blank_tests


def module_files(src):
    mods = {}
    for dp, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dp, f), src)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            if rel in (["lib"], ["main"]):
                rel = []
            if rel and rel[0] == "bin":
                continue
            mods["::".join(rel)] = os.path.join(dp, f)
    return mods


def without_tests(text):
    """The file without `#[cfg(test)]` items (a module or a function, to its closing brace) and
    without comments."""
    return "\n".join(re.sub(r"//.*", "", line) for line in blank_tests(text.split("\n")))


def paths(text):
    """Every path of two segments or more (`crate::a::b`, `super::a`, `self::a`, `child::x`),
    with `use` groups expanded one level."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    found = []
    for m in re.finditer(r"\b([a-z_]\w*(?:::\w+)*)::\{([^{}]*)\}", text):
        for part in m.group(2).split(","):
            name = part.strip().split(" ")[0].split("::")[0]
            found.append(m.group(1) if name in ("self", "") else m.group(1) + "::" + name)
    for m in re.finditer(r"(?<![\w:])([a-z_]\w*(?:::\w+)+)(?!\w|::|\s*!)", text):
        found.append(m.group(1))  # not `crate::m!`: an exported macro lives at the root wherever it is written
    for m in re.finditer(r"(?<![\w:])([a-z_]\w*(?:::\w+)*)::\*", text):
        found.append(m.group(1))  # a glob import names the module itself
    return found


def resolve(path, here, mods):
    """The module a path names an item of, or None for another crate's (std, serde, …)."""
    parts = path.split("::")
    base = here.split("::") if here else []
    if parts[0] == "crate":
        base, parts = [], parts[1:]
    elif parts[0] == "self":
        parts = parts[1:]
    elif parts[0] == "super":
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
    elif "::".join(base + parts[:1]) not in mods:
        return None  # not a child of this module: another crate's path
    full = base + parts
    for n in range(len(full), -1, -1):
        name = "::".join(full[:n])
        if name in mods:
            return name
    return None


def graph(src):
    mods = module_files(src)
    edges = {m: set() for m in mods}
    for m, f in mods.items():
        for p in paths(without_tests(open(f, encoding="utf-8").read())):
            t = resolve(p, m, mods)
            if t is not None and t != m:
                edges[m].add(t)
    return edges


def circles(edges):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def one_circle(comp, edges):
    """A shortest circle through the first module of `comp`, by breadth-first search."""
    start, inside = comp[0], set(comp)
    prev, queue = {start: None}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v] & inside):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def self_test():
    """Known answers: a parent and child that import each other (through `super::*`), a circle
    of three through `crate::` and a `use` group, and what is not an import (a test module, a
    comment, a string, an exported macro, another crate's path)."""
    import tempfile

    def crate(files):
        root = tempfile.mkdtemp(prefix="module-cycles-")
        for name, text in files.items():
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    found = circles(graph(crate({
        "lib.rs": "mod a;\nmod b;\nmod c;\nmod p;\n",
        "a.rs": "use crate::b::{X, Y};\n",
        "b.rs": "pub fn f() { crate::c::g() }\n",
        "c.rs": "use crate::a::Z;\n",
        "p/mod.rs": "mod q;\npub use q::Q;\npub struct P;\n",
        "p/q.rs": "use super::*;\npub struct Q;\n",
    })))
    assert found == [["a", "b", "c"], ["p", "p::q"]], found
    none = circles(graph(crate({
        "lib.rs": "pub mod a;\npub mod b;\npub use b::X;\n#[macro_export]\nmacro_rules! m { () => {} }\n",
        "a.rs": "use crate::b::X;\nuse std::fmt;\nuse serde::Serialize;\n",
        "b.rs": "pub struct X;\n// crate::a::Y\nconst S: &str = \"crate::a::Y\";\n"
                "fn f() { crate::m!() }\n#[cfg(test)]\nmod tests {\n    use crate::a::*;\n}\n",
    })))
    assert none == [], none
    print("module-cycles: self-test passed (2 circles found where planted, none where not)")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = 0
    for src in sys.argv[1:]:
        edges = graph(src)
        for comp in circles(edges):
            found += 1
            names = lambda ms: " -> ".join(m or "(root)" for m in ms)
            print(f"{src}: {len(comp)} modules in a circle: {', '.join(m or '(root)' for m in comp)}")
            print(f"  for example: {names(one_circle(comp, edges))}")
        print(f"{src}: {len(edges)} modules, {sum(map(len, edges.values()))} imports", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
