#!/usr/bin/env python3
"""A public peer reproduced: serde-rs/json-benchmark beside thaw's same warm cells.

Takes a checkout of serde-rs/json-benchmark by path (nothing is fetched at run time but the crates
cargo resolves), copies it to target/peer/json-benchmark, builds it there at the versions of
serde_json and simd-json that thaw's Cargo.lock pins, on the allocator asked (the system's, or
jemalloc as the peer links it and thaw's `jemalloc` build), parse to DOM only (twitter and
citm_catalog; serde_json `Value`, simd-json's `BorrowedValue` or, with `--simd-dom`, thaw's exact
borrowed call or its owned DOM), with a timer of the same interface as the peer's that also reports the median of its trials. Then runs the peer and thaw's forked warm
benches of the same cells (`<corpus>/de/serde_json-value`, and `<corpus>/de/simd-json-borrowed`
or, for the owned DOMs, `<corpus>/de/simd-json-value`) in alternating rounds, and prints, per cell, the peer's fastest trial and its
median beside thaw's figure (the median across processes), with the ratios per round (median
[range]). See docs/peer.md.

    scripts/peer-json-benchmark.py /tmp/json-benchmark
    scripts/peer-json-benchmark.py /tmp/json-benchmark --allocator jemalloc --rounds 4 --forks 5
    scripts/peer-json-benchmark.py /tmp/json-benchmark --simd-dom owned-reused   # thaw's simd-json call
"""

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBS = ["serde_json", "simd-json"]  # the peer's order of libraries
CORPORA = ["citm_catalog", "twitter"]  # the peer's order of files
# What the peer's simd-json parse builds (`--simd-dom`), and thaw's cell beside it: the peer's own
# `to_borrowed_value` (fresh buffers per parse) beside thaw's borrowed DOM (buffers reused), thaw's
# exact borrowed call (buffers reused on both sides), thaw's owned DOM with the peer's fresh buffers,
# or thaw's exact owned call. Each: (the peer's DOM as printed, its Rust type, its call, thaw's codec).
SIMD_DOM = {
    "borrowed": ("BorrowedValue", None, None, "simd-json-borrowed"),
    "borrowed-reused": (
        "BorrowedValue, buffers reused",
        "simd_json::BorrowedValue",
        "thread_local! { static BUFFERS: std::cell::RefCell<simd_json::Buffers> = Default::default(); }\n"
        "    BUFFERS.with(|b| simd_json::borrowed::to_value_with_buffers(bytes, &mut b.borrow_mut()))",
        "simd-json-borrowed",
    ),
    "owned": ("OwnedValue", "simd_json::OwnedValue", "simd_json::to_owned_value(bytes)", "simd-json-value"),
    "owned-reused": (
        "OwnedValue, buffers reused",
        "simd_json::OwnedValue",
        "thread_local! { static BUFFERS: std::cell::RefCell<simd_json::Buffers> = Default::default(); }\n"
        "    BUFFERS.with(|b| simd_json::owned::to_value_with_buffers(bytes, &mut b.borrow_mut()))",
        "simd-json-value",
    ),
}


def thaw_codec(lib, simd_dom):
    """thaw's codec beside the peer's `lib` cell."""
    return "serde_json-value" if lib == "serde_json" else SIMD_DOM[simd_dom][3]


PEER_PARSE = re.compile(
    r"fn simd_json_parse_dom\(bytes: &mut \[u8\]\) -> simd_json::Result<simd_json::BorrowedValue> \{\n"
    r"    simd_json::to_borrowed_value\(bytes\)\n\}"
)
STAT = re.compile(r"^thaw-peer-stat min_ns=(\d+) median_ns=(\d+) trials=(\d+)$")

# The peer's timer, re-implemented with the same interface (bench, bench_with_buf, Benchmark,
# Timer): it keeps every trial and prints the fastest and the median to stderr, one line per
# measurement, in the order the peer measures.
TIMER = """//! thaw's stand-in for the peer's timer: the same interface, every trial kept, and the fastest
//! and the median printed to stderr (scripts/peer-json-benchmark.py reads them).
use std::time::{Duration, Instant};

pub fn bench<T, F: Fn() -> T>(trials: usize, f: F) -> Duration {
    let mut b = Benchmark::new();
    for _ in 0..trials {
        let mut t = b.start();
        let _keep = f();
        t.stop();
    }
    b.min_elapsed()
}

pub fn bench_with_buf<T, F: Fn(&mut Vec<u8>) -> T>(trials: usize, len: usize, f: F) -> Duration {
    let mut b = Benchmark::new();
    for _ in 0..trials {
        let mut buf = Vec::with_capacity(len);
        let mut t = b.start();
        let _keep = f(&mut buf);
        t.stop();
    }
    b.min_elapsed()
}

pub struct Benchmark {
    trials: Vec<Duration>,
}

impl Benchmark {
    pub fn new() -> Self {
        Benchmark { trials: Vec::new() }
    }
    pub fn start(&mut self) -> Timer<'_> {
        Timer { source: self, start: Instant::now() }
    }
    pub fn min_elapsed(mut self) -> Duration {
        self.trials.sort();
        let n = self.trials.len();
        let median = if n % 2 == 1 {
            self.trials[n / 2]
        } else {
            (self.trials[n / 2 - 1] + self.trials[n / 2]) / 2
        };
        eprintln!(
            "thaw-peer-stat min_ns={} median_ns={} trials={}",
            self.trials[0].as_nanos(),
            median.as_nanos(),
            n
        );
        self.trials[0]
    }
}

pub struct Timer<'a> {
    source: &'a mut Benchmark,
    start: Instant,
}

impl Timer<'_> {
    pub fn stop(&mut self) {
        let elapsed = self.start.elapsed();
        self.source.trials.push(elapsed);
    }
}
"""


def fail(message):
    print(f"peer-json-benchmark: {message}", file=sys.stderr)
    sys.exit(1)


def locked_version(name):
    """The version of `name` that thaw's Cargo.lock pins."""
    text = (ROOT / "Cargo.lock").read_text()
    found = re.search(r'\[\[package\]\]\nname = "' + re.escape(name) + r'"\nversion = "([^"]+)"', text)
    if not found:
        fail(f"Cargo.lock pins no {name}")
    return found.group(1)


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_simd_dom(text, main, dom):
    """The peer's simd-json parse to DOM made to build `dom` (a key of SIMD_DOM)."""
    if dom == "borrowed":
        return text
    _, value, call, _ = SIMD_DOM[dom]
    new = f"fn simd_json_parse_dom(bytes: &mut [u8]) -> simd_json::Result<{value}> {{\n    {call}\n}}"
    text, n = PEER_PARSE.subn(lambda _: new, text)
    if n != 1:
        fail(f"{main}: no `simd_json_parse_dom` returning a BorrowedValue to replace")
    return text


def prepare(checkout, work, corpora, allocator, simd_dom):
    """The peer copied into `work`, set to thaw's versions, allocator and documents."""
    if not (checkout / "Cargo.toml").is_file() or not (checkout / "src" / "timer.rs").is_file():
        fail(f"{checkout} is not a checkout of serde-rs/json-benchmark (no Cargo.toml, src/timer.rs)")
    if work.exists():
        shutil.rmtree(work / "src", ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    for item in ["Cargo.toml", "src"]:
        source = checkout / item
        if source.is_dir():
            shutil.copytree(source, work / item, symlinks=True)
        else:
            shutil.copyfile(source, work / item)
    manifest = (work / "Cargo.toml").read_text()
    for name in LIBS:
        version = locked_version(name)
        manifest, n = re.subn(
            r'^' + re.escape(name) + r' = \{ version = "[^"]*"',
            f'{name} = {{ version = "={version}"',
            manifest,
            flags=re.M,
        )
        if n != 1:
            fail(f"{checkout}/Cargo.toml: no `{name} = {{ version = ... }}` line to set to {version}")
    manifest = manifest.replace('members = ["binary"]', "members = []")
    (work / "Cargo.toml").write_text(manifest)
    (work / "src" / "timer.rs").write_text(TIMER)
    main = work / "src" / "main.rs"
    text = main.read_text()
    if allocator == "system":
        text, n = re.subn(r"#\[global_allocator\]\s*\n\s*static [^\n]*\n", "", text)
        if n != 1:
            fail(f"{main}: no global allocator to remove")
    elif "jemallocator::Jemalloc" not in text:
        fail(f"{main}: the peer does not link jemalloc as expected")
    main.write_text(set_simd_dom(text, main, simd_dom))
    data = work / "data"
    data.mkdir(exist_ok=True)
    for corpus in CORPORA:
        source = corpora / f"{corpus}.json"
        if not source.is_file():
            fail(f"no {source}: give --corpora (thaw's classic corpora folder)")
        shutil.copyfile(source, data / f"{corpus}.json")
    return {c: sha256(data / f"{c}.json") for c in CORPORA}


def build_peer(work, lock):
    features = "lib-serde,lib-simd-json,file-twitter,file-citm-catalog,parse-dom"
    command = ["cargo", "build", "--release", "-q", "--no-default-features", "--features", features]
    if lock:
        command = ["flock", "-s", lock] + command
    env = dict(os.environ, CARGO_TARGET_DIR=str(work / "target"))
    env.pop("RUSTFLAGS", None)
    subprocess.run(command, cwd=work, env=env, check=True)
    return work / "target" / "release" / "json-benchmark"


def with_lock(command, lock):
    return (["flock", "-x", lock] if lock else []) + command


def run_peer(binary, work, trials, lock):
    """One peer process: (lib, corpus) -> (fastest ns, median ns)."""
    done = subprocess.run(
        with_lock([str(binary), "-n", str(trials)], lock),
        cwd=work, capture_output=True, text=True, check=True,
    )
    stats = [STAT.match(line) for line in done.stderr.splitlines()]
    stats = [m for m in stats if m]
    cells = [(lib, corpus) for lib in LIBS for corpus in CORPORA]
    if len(stats) != len(cells):
        fail(f"the peer printed {len(stats)} measurements, expected {len(cells)}: {done.stderr[-500:]!r}")
    return {cell: (int(m.group(1)), int(m.group(2))) for cell, m in zip(cells, stats)}


def fastest_sample(estimates):
    """A process's fastest criterion sample, per iteration (its time over its iterations): beside
    the peer's fastest trial, the same statistic (criterion's smallest samples are one or a few
    iterations of a parse this long)."""
    sample = json.loads((estimates.parent / "sample.json").read_text())
    return min(t / n for t, n in zip(sample["times"], sample["iters"]))


def run_thaw(args, variant, lock):
    """One forked warm run of the four cells: (lib, corpus) -> (thaw's figure across processes,
    the fastest sample of any process)."""
    codecs = [thaw_codec(lib, args.simd_dom) for lib in LIBS]
    filt = "^(" + "|".join(CORPORA) + ")/de/(" + "|".join(codecs) + ")$"
    timing = ["--warm-up-time", str(args.warm_up), "--measurement-time", str(args.measurement)]
    env = dict(os.environ, THAW_FORKS=str(args.forks), THAW_CORPORA=str(args.corpora.resolve()))
    if variant == "portable":
        command = ["cargo", "bench", "-q", "-p", "warm", "--bench", "throughput", "--"]
    else:
        command = [str(ROOT / "scripts" / "warm-variant.sh"), variant, "--"]
    subprocess.run(with_lock(command + timing + [filt], lock), cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    forks = ROOT / "results" / "warm" / "forks" / variant
    out = {}
    for lib in LIBS:
        for corpus in CORPORA:
            medians, fastest = [], []
            for fork in sorted(forks.glob("fork-*")):
                est = fork / f"{corpus}_de" / thaw_codec(lib, args.simd_dom) / "new" / "estimates.json"
                if est.is_file():
                    medians.append(json.loads(est.read_text())["median"]["point_estimate"])
                    fastest.append(fastest_sample(est))
            if len(medians) != args.forks:
                fail(f"thaw: {corpus}/de/{thaw_codec(lib, args.simd_dom)} has {len(medians)} forks, expected {args.forks}")
            out[(lib, corpus)] = (statistics.median(medians), min(fastest))
    return out


def peer_dom(lib, simd_dom):
    return "Value" if lib == "serde_json" else SIMD_DOM[simd_dom][0]


def ms(ns):
    return f"{ns / 1e6:.3f}"


def spread(values):
    return f"{statistics.median(values):.2f} [{min(values):.2f}–{max(values):.2f}]"


def table(rounds, simd_dom):
    print("\n| parse to DOM | peer fastest, ms | thaw fastest, ms | thaw fastest / peer fastest "
          "| peer median, ms | thaw, ms | thaw / peer median | thaw / peer fastest |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for corpus in reversed(CORPORA):
        for lib in LIBS:
            cell = (lib, corpus)
            fast = [r["peer"][cell][0] for r in rounds]
            med = [r["peer"][cell][1] for r in rounds]
            thaw = [r["thaw"][cell][0] for r in rounds]
            thaw_fast = [r["thaw"][cell][1] for r in rounds]
            print(
                f"| {corpus}, {lib} (peer {peer_dom(lib, simd_dom)}, thaw {thaw_codec(lib, simd_dom)}) "
                f"| {ms(min(fast))} | {ms(min(thaw_fast))} | {spread([t / f for t, f in zip(thaw_fast, fast)])} "
                f"| {ms(statistics.median(med))} | {ms(statistics.median(thaw))} "
                f"| {spread([t / m for t, m in zip(thaw, med)])} | {spread([t / f for t, f in zip(thaw, fast)])} |"
            )
    print("\nPeer fastest: the fastest of its runs' fastest trials; thaw fastest: the fastest criterion"
          " sample (per iteration) of any of its processes, the fastest over rounds; peer median: the"
          " median over rounds of each run's median trial; thaw: the median over rounds of its figure"
          " across processes. Ratios: per round, thaw over the same round's peer, as median [range]"
          " over rounds.")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkout", type=Path, help="a checkout of serde-rs/json-benchmark")
    p.add_argument("--allocator", choices=["system", "jemalloc"], default="system",
                   help="both sides on this allocator (thaw: the portable or the jemalloc build)")
    p.add_argument("--simd-dom", choices=list(SIMD_DOM), default="borrowed",
                   help="what the peer's simd-json parse builds, and thaw's cell beside it: its own"
                   " BorrowedValue (thaw's simd-json-borrowed), thaw's exact borrowed call (buffers"
                   " reused), thaw's OwnedValue with fresh buffers per parse, or thaw's exact owned"
                   " call (both beside simd-json-value)")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--forks", type=int, default=5, help="thaw's processes per cell and round")
    p.add_argument("--trials", type=int, default=256, help="the peer's trials per measurement")
    p.add_argument("--warm-up", type=float, default=1.0, help="criterion's warm-up per process, s")
    p.add_argument("--measurement", type=float, default=2.0, help="criterion's measurement per process, s")
    p.add_argument("--corpora", type=Path,
                   default=Path(os.environ.get("THAW_CORPORA") or ROOT.parent / "shared" / "corpora"))
    p.add_argument("--lock", help="hold this file's exclusive flock around each timed run (and a"
                   " shared one around the peer's build)")
    p.add_argument("--csv", type=Path, help="also write every round's figures here")
    args = p.parse_args()
    if not 1 <= args.rounds <= 100 or not 1 <= args.forks <= 100:
        fail("--rounds and --forks: 1 to 100")
    work = ROOT / "target" / "peer" / "json-benchmark"
    hashes = prepare(args.checkout.resolve(), work, args.corpora, args.allocator, args.simd_dom)
    print(f"peer: {args.checkout} in {work}, serde_json {locked_version('serde_json')}, simd-json "
          f"{locked_version('simd-json')} ({SIMD_DOM[args.simd_dom][0]}), allocator {args.allocator}; documents " +
          ", ".join(f"{c} {h[:12]}" for c, h in hashes.items()), flush=True)
    binary = build_peer(work, args.lock)
    variant = "portable" if args.allocator == "system" else "jemalloc"
    rounds = []
    for r in range(args.rounds):
        order = ["peer", "thaw"] if r % 2 == 0 else ["thaw", "peer"]
        got = {}
        for side in order:
            got[side] = run_peer(binary, work, args.trials, args.lock) if side == "peer" \
                else run_thaw(args, variant, args.lock)
        rounds.append(got)
        print(f"round {r + 1}/{args.rounds} ({' then '.join(order)}) done", flush=True)
    table(rounds, args.simd_dom)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["round", "lib", "corpus", "allocator", "peer_dom", "peer_fastest_ns", "peer_median_ns",
                        "thaw_ns", "thaw_fastest_ns"])
            for i, r in enumerate(rounds):
                for cell in r["peer"]:
                    w.writerow([i, cell[0], cell[1], args.allocator, peer_dom(cell[0], args.simd_dom),
                                *r["peer"][cell], *r["thaw"][cell]])


if __name__ == "__main__":
    main()
