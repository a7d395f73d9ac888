#!/usr/bin/env python3
"""Where a cold JVM child's time goes between its `checked` stamp and its exit (FORY-NOTES.md).

Runs variants of JVM children in rounds, each round every variant once, in an order that turns
from round to round (so that a drift of the machine's load falls on all of them alike), and
prints per variant the medians of the protocol's phases and of what the runner would see:

  spawn_to_main  spawn -> main       init_first  fixture -> first (init + the first op)
  ops            main -> checked     exit        checked -> reaped      wall  spawn -> reaped
  cpu            the child's user + system time (wait4)

The spawn and reaped stamps are time.monotonic_ns() (CLOCK_MONOTONIC, System.nanoTime's clock)
just before Popen and just after wait4, so the runner's Rust spawner would see a few hundred
microseconds less.

  fory-exit.py --build DIR --inputs DIR --runs 11 [--op de] [--fixture users-1kb] VARIANT...

A VARIANT is LABEL=JDK:CHILD[:JVM flag,JVM flag...], e.g.
  own25=25:fory  sync25=25:fory:-Dthaw.fory.async=false  c1=25:fory:-XX:TieredStopAtLevel=1
with CHILD a codec-*.toml id (its class and class path file), the runtime's flags first.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
JDKS = {"25": "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
        "17": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"}
LINE = re.compile(r'\{"main":(\d+),"fixture":(\d+),"init":(\d+),"first":(\d+),"done":(\d+),'
                  r'"checked":(\d+),"checksum":"([0-9a-f]{16})","bytes":(\d+),"hwm_kib":(\d+),"rss_kib":(\d+)\}\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--inputs", default="/tmp/thaw-inputs/fixtures")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--op", default="de")
    ap.add_argument("--fixture", default="users-1kb")
    ap.add_argument("--batch", default="1")
    ap.add_argument("--drops", default="end")
    ap.add_argument("--env", action="append", default=[],
                    help="KEY=VALUE for every child; FORY_LOG_LEVEL=INFO makes Fory log each Janino compile on stdout (after the line), counted as compiles/compile_ms")
    ap.add_argument("variants", nargs="+")
    a = ap.parse_args()

    runtime = tomllib.load(open(os.path.join(HERE, "runtime.toml"), "rb"))
    flags = runtime["command"][:runtime["command"].index("-cp")]
    codecs = {}
    for name in os.listdir(HERE):
        if name.startswith("codec-") and name.endswith(".toml"):
            c = tomllib.load(open(os.path.join(HERE, name), "rb"))
            codecs[c["id"]] = c
    inp = os.path.join(a.inputs, a.fixture + (".json" if a.op == "de" else ".tree.txt"))

    variants = []
    for v in a.variants:
        label, spec = v.split("=", 1)
        parts = spec.split(":", 2)
        jdk, child = parts[0], codecs[parts[1]]
        extra = parts[2].split(",") if len(parts) > 2 and parts[2] else []
        cp = open(os.path.join(a.build, "classpath", child["classpath"] + ".txt")).read().strip()
        cmd = [JDKS[jdk]] + flags + extra + ["-cp", cp, child["class"],
                                            "--op", a.op, "--batch", a.batch, "--drops", a.drops, "--input", inp]
        variants.append((label, cmd))

    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "")}
    env.update(kv.split("=", 1) for kv in a.env)
    samples = {label: [] for label, _ in variants}
    print(f"load average before: {open('/proc/loadavg').read().strip()}", flush=True)
    for r in range(a.runs):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for label, cmd in order:
            t0 = time.monotonic_ns()
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            out = p.stdout.read()
            _, status, ru = os.wait4(p.pid, 0)
            t1 = time.monotonic_ns()
            p.returncode = 0
            text = out.decode()
            first_line, _, rest = text.partition("\n")
            m = LINE.fullmatch(first_line + "\n")
            compiles = re.findall(r"Compile \[[^\]]*\] take (\d+) ms", rest)
            if status != 0 or not m:
                print(f"{label}: status {status}, {out[:200]!r}", file=sys.stderr)
                continue
            main_, fixture, init, first, done, checked = (int(x) for x in m.groups()[:6])
            samples[label].append({
                "spawn_to_main": main_ - t0,
                "init_first": first - fixture,
                "ops": checked - main_,
                "exit": t1 - checked,
                "wall": t1 - t0,
                "cpu": (ru.ru_utime + ru.ru_stime) * 1e9,
                "compiles": len(compiles) * 1e6,
                "compile_ms": sum(int(x) for x in compiles) * 1e6,
            })
    print(f"load average after: {open('/proc/loadavg').read().strip()}")
    keys = ["spawn_to_main", "init_first", "ops", "exit", "wall", "cpu"]
    if any(k.startswith("FORY_LOG_LEVEL=") for k in a.env):
        keys += ["compiles", "compile_ms"]
    print(f"\n{a.op} {a.fixture} --batch {a.batch} --drops {a.drops}, medians of {a.runs} runs (ms)")
    print(f"{'variant':<14}" + "".join(f"{k:>14}" for k in keys) + "   n")
    for label, _ in variants:
        s = samples[label]
        if not s:
            print(f"{label:<14} no sample")
            continue
        row = "".join(f"{statistics.median(x[k] for x in s) / 1e6:>14.2f}" for k in keys)
        print(f"{label:<14}{row}   {len(s)}")


if __name__ == "__main__":
    main()
