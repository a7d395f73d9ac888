#!/usr/bin/env python3
"""Start-up time of the interpreters the external children could run with: each command run
--runs times (default 30), the commands alternating round-robin, each run timed with
time.monotonic_ns() around subprocess.run, the environment reduced to PATH and HOME. Prints
each command's median, min and quartiles in ms, and the load average before and after.

    python3 runtimes/python/startup_times.py [--runs 30] [--venv PATH]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--venv", default=os.path.join(ROOT, "target/external/python-venv"))
    a = ap.parse_args()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}
    vpy = os.path.join(a.venv, "bin/python")
    first = shutil.which("python3", path=env["PATH"])
    commands = [
        (f"python3 on PATH ({first}) -c pass", [first, "-c", "pass"]),
        ("/usr/bin/python3 -c pass", ["/usr/bin/python3", "-c", "pass"]),
        ("venv python -c pass", [vpy, "-c", "pass"]),
        ("venv python -S -c pass", [vpy, "-S", "-c", "pass"]),
        ("venv python -I -c pass", [vpy, "-I", "-c", "pass"]),
        ("node -e 0", [shutil.which("node", path=env["PATH"]) or "node", "-e", "0"]),
    ]
    real = subprocess.run([first, "-c", "import sys; print(sys.executable)"], env=env,
                          capture_output=True, text=True).stdout.strip()
    if real and real != first:
        commands.insert(1, (f"its real interpreter ({real}) -c pass", [real, "-c", "pass"]))
    times = {name: [] for name, _ in commands}
    before = loadavg()
    for name, argv in commands:  # one untimed run each: page cache warm for all alike
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(a.runs):
        for name, argv in commands:
            t0 = time.monotonic_ns()
            p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t1 = time.monotonic_ns()
            if p.returncode != 0:
                raise SystemExit(f"{name}: exit {p.returncode}")
            times[name].append((t1 - t0) / 1e6)
    after = loadavg()
    print(f"{a.runs} runs each, alternating; load average before {before}, after {after}")
    print(f"{'command':60} {'median':>8} {'min':>7} {'q1':>7} {'q3':>7}  (ms)")
    for name, _ in commands:
        t = sorted(times[name])
        q = statistics.quantiles(t, n=4)
        print(f"{name:60} {statistics.median(t):8.1f} {t[0]:7.1f} {q[0]:7.1f} {q[2]:7.1f}")


if __name__ == "__main__":
    main()
