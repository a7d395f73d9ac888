"""Running a program whose output is not to be trusted (a child, a JVM, a spawner) from the
scripts: one place that starts it and, when it fails, exits naming it with the tail of what it
printed escaped (repr), never as it is, so that nothing a program prints reaches a terminal raw."""
import os
import subprocess
import sys


def checked_run(argv, what=None, env=None, cpus=None, tail=300):
    """The finished run of `argv` (its output as text, undecodable bytes replaced), pinned to the
    CPUs `cpus` when given. When it fails, exits with `what` (by default the command's last
    words), its status and the last `tail` characters of its stderr (its stdout if it wrote no
    stderr), escaped."""
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    p = subprocess.run([str(x) for x in argv], env=env, capture_output=True, text=True,
                       errors="replace", preexec_fn=pin)
    if p.returncode != 0:
        said = (p.stderr or p.stdout).strip()[-tail:]
        name = what or " ".join(str(x) for x in argv[-6:])
        # a path or an argument may hold control characters too: escaped, the rest as it is
        name = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
        sys.exit(f"{name} failed ({p.returncode}): {said!r}")
    return p
