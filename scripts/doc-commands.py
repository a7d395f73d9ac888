#!/usr/bin/env python3
"""Every command the documentation shows, checked: README.md, docs/manual.md and docs/*.md (and
the one-line commands of the recipes in docs/recipes/, which are YAML: checked, never run).

Each ```sh block is read command by command (a line ending in `\\` continues; `#` starts a
comment; `&&` joins two commands). For EVERY command, quick or slow, the program, its subcommand
and each flag must exist: a workspace binary (`cargo run --release -p X -- SUB …`,
`target/release/X SUB …`) by its own `X SUB --help`; cargo itself by `cargo SUB --help`, its
packages and targets by `cargo metadata`; a script under scripts/ by its existence and, where it
has a --help (argparse, or a `--help)` case), by that help, else by the flag's text in its
source. Then the commands RULES calls quick run for real, each block's in order, from a fresh
copy of the checkout's files in a temporary folder (where they write), with the binaries of this
checkout's target/release. The others are listed, each with the reason it is not run.

    scripts/doc-commands.py               check every command, run the quick ones (exit 1 naming
                                          the file, line and command that failed)
    scripts/doc-commands.py --list        the commands not run, with their reasons
    scripts/doc-commands.py --self-test   a planted renamed flag, a missing subcommand and a
                                          missing script must each fail the check

A command a rule does not cover is an error: add it to RULES, quick or with its reason.
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, "target", "release")
QUICK = "quick"

# Placeholders a reader replaces (RUN_DIR, DIR, NAME, [OPTIONS], RUN...): such a command is a
# template, checked but not run.
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.\.\.)?$")

# How each command is treated: the first rule whose pattern matches the command (as written,
# comments removed, continuations joined) decides. QUICK runs it in CI; any other value is the
# reason it is only checked.
COLD = r"(cargo run --release -p cold -- |target/release/cold )"
ANALYSIS = r"(cargo run --release -p analysis -- |target/release/analysis )"
FIXTURES = r"(cargo run --release -p fixtures -- |target/release/fixtures )"
RULES = [
    (COLD + r"list\b", QUICK),
    (COLD + r"run\b.*--dry-run\b", QUICK),
    (FIXTURES + r"(list|generate|verify)\b", QUICK),
    (ANALYSIS + r"(synth|merge)\b", QUICK),
    (ANALYSIS + r"report (synth-run|merged)$", QUICK),
    (ANALYSIS + r"answer\b", QUICK),
    (r"--help$", QUICK),
    (COLD + r"run\b", "a cold run: builds the children it needs and samples for minutes (CI runs small ones)"),
    (COLD + r"(resume|build)\b", "finishes a stopped run, or builds a described copy of the workspace (minutes)"),
    (ANALYSIS + r"report$", "needs a finished run at results/cold/latest (the default cold run)"),
    (ANALYSIS + r"(report|compare) results/", "needs the run folder it names, made by the command before it"),
    (FIXTURES + r"conformance\b", "needs the JSONTestSuite cases (--cases, ../shared/conformance) and starts a child per case"),
    (r"^cargo test\b", "the whole test suite: CI's step `cargo test --workspace` runs it"),
    (r"^(\S+=\S+ )*cargo bench\b", "criterion's benches: minutes (CI runs each once as a test, and two cells forked)"),
    (r"^cargo run --release -p warm --bin alloc\b", "counts the allocations of every Rust cell: minutes"),
    (r"^cargo run --release -p cold --example spawn_ways\b", "times thousands of spawns each way: minutes"),
    (r"^scripts/install-runtimes\.sh\b", "installs the JDKs, Maven, Python, Node, Valgrind and hyperfine, as root (CI's first step)"),
    (r"^scripts/ab-(check|demo)\.sh\b", "builds two copies of the children and counts them under Valgrind (CI runs the planted check)"),
    (r"^(\S+=\S+ )*scripts/warm-(jvm|variant)\.sh\b", "JMH or criterion benches: minutes to an hour"),
    (r"^scripts/warm-seed-table\.py\b", "reads what scripts/warm-jvm.sh --seed wrote"),
    (r"^scripts/run-all\.sh\b", "the whole suite: a cold run, a warm pass, the allocation count and a report"),
    (r"^scripts/(bench-harness\.sh|harness-phases\.py)\b", "times thousands of spawns against hyperfine: minutes"),
    (r"^scripts/peer-json-benchmark\.py\b", "needs a checkout of serde-rs/json-benchmark, and runs both for minutes"),
    (r"^scripts/jvm-seed-conditions\.py\b", "needs a cold run's inputs and the JVM, and runs hundreds of JVMs"),
    (r"^git clone\b", "fetches from the network"),
    (r"^scripts/build-children\.sh\b", "builds every child binary of the Rust codecs (minutes)"),
    (r"^scripts/slurm-local\.sh\b", "installs and starts (or stops) a one-node Slurm as root: CI's Slurm step runs it"),
    (r"^(sbatch|squeue|scancel|scontrol|sinfo)\b", "a Slurm command: needs the daemons scripts/slurm-local.sh starts (CI's Slurm step)"),
    (r"^scripts/(warm-go|install-go-env)\.sh\b", "builds and runs Go's benchmarks or children (minutes)"),
]


def rule_for(command):
    """QUICK, or the reason a command is not run; a template's placeholders are their own reason."""
    held = list(dict.fromkeys(t for t in words(command) if PLACEHOLDER.match(t)))
    if held:
        verb = "stands for a value" if len(held) == 1 else "stand for values"
        return f"a template: {', '.join(held)} {verb} of yours"
    for pattern, kind in RULES:
        if re.search(pattern, command):
            return kind
    return None


def words(command):
    """The command's words, with the brackets of optional parts ([--codecs a,b]) taken off."""
    try:
        tokens = shlex.split(command, comments=True)
    except ValueError as e:
        raise Failure(f"cannot be split into words: {e}")
    return [t.strip("[]") for t in tokens if t.strip("[]")]


class Failure(Exception):
    pass


# --- reading the documents ---------------------------------------------------------------------


def documents():
    names = ["README.md", "docs/manual.md"] + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))
    )
    return list(dict.fromkeys(names))


def blocks(path, text):
    """Each ```sh block as a list of (line number, command as written without its comment)."""
    found, current, pending, start = [], None, "", 0
    for number, line in enumerate(text.split("\n"), 1):
        fence = line.strip()
        if current is None:
            if fence == "```sh":
                current = []
            continue
        if fence.startswith("```"):
            if pending:
                raise Failure(f"{path}:{start}: a continued line ends the block")
            found.append(current)
            current = None
            continue
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical = " ".join((pending + line).split())
        pending = ""
        command = strip_comment(logical)
        if command:
            current.append((start, command))
    if current is not None:
        raise Failure(f"{path}: a ```sh block is not closed")
    return found


def strip_comment(line):
    """The line without its trailing `# …` (a # outside quotes, after a space or at the start)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] == " "):
            return line[:i].rstrip()
    return line.strip()


def split_commands(command):
    """`a && b` is two commands to check."""
    parts, current = [], []
    for token in words(command):
        if token in ("&&", ";", "||", "|"):
            parts.append(current)
            current = []
        else:
            current.append(token)
    parts.append(current)
    return [p for p in parts if p]


# --- checking that a command exists ------------------------------------------------------------

_cache = {}


def run_capture(args, cwd=ROOT, timeout=120):
    key = (tuple(args), cwd)
    if key not in _cache:
        try:
            p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                               stdin=subprocess.DEVNULL)
            _cache[key] = (p.returncode, p.stdout + p.stderr)
        except (OSError, subprocess.TimeoutExpired) as e:
            _cache[key] = (127, str(e))
    return _cache[key]


def metadata():
    if "metadata" not in _cache:
        p = subprocess.run(["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
                           cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise Failure(f"cargo metadata failed: {p.stderr[-500:]}")
        packages = json.loads(p.stdout)["packages"]
        _cache["metadata"] = {
            p["name"]: {(k, t["name"]) for t in p["targets"] for k in t["kind"]} for p in packages
        }
    return _cache["metadata"]


def flags_in(text):
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)", text))


def check_flags(args, known, where):
    for token in args:
        if token == "--":
            break
        if re.fullmatch(r"--?[A-Za-z][A-Za-z0-9-]*(=.*)?", token):
            flag = token.split("=", 1)[0]
            if flag not in known:
                raise Failure(f"{where} has no option {flag}")


def check_binary(binary, args):
    """A workspace binary's subcommand and flags, by its own --help."""
    path = os.path.join(RELEASE, binary)
    if not os.path.isfile(path):
        raise Failure(f"no binary {binary} in target/release (cargo build --release first)")
    code, top = run_capture([path, "--help"])
    if code != 0:
        raise Failure(f"{binary} --help exits {code}")
    where = binary
    if re.search(r"^Commands:", top, re.M):
        sub = next((a for a in args if not a.startswith("-")), None)
        if sub is None:
            return
        code, help_text = run_capture([path, sub, "--help"])
        if code != 0:
            raise Failure(f"`{binary} {sub}` is no subcommand of {binary} ({binary} {sub} --help exits {code})")
        args = args[args.index(sub) + 1:]
        where = f"{binary} {sub}"
    else:
        help_text = top
    check_flags(args, flags_in(help_text) | {"-h", "--help"}, where)
    if where == "cold run":
        check_cold_values(args)


def cold_names():
    """The names `cold run` takes (codecs and groups, builds, fixtures): every word `cold list`
    prints, the builds described in cold/variants/, and the two built-in words it may not print."""
    if "cold names" not in _cache:
        code, text = run_capture([os.path.join(RELEASE, "cold"), "list"])
        if code != 0:
            raise Failure(f"cold list exits {code}")
        names = set(re.findall(r"[A-Za-z0-9_.+-]+", text)) | {"rust", "portable", "native"}
        names |= {os.path.basename(f)[:-5] for f in glob.glob(os.path.join(ROOT, "cold", "variants", "*.toml"))}
        _cache["cold names"] = names
    return _cache["cold names"]


def check_cold_values(args):
    """Each codec, build and fixture a `cold run` names exists."""
    for i, token in enumerate(args[:-1]):
        if token == "--":
            break
        value = args[i + 1]
        if token in ("--codecs", "--variant", "--fixture") and not (PLACEHOLDER.match(value) or "$" in value):
            for value in args[i + 1].split(","):
                if value not in cold_names():
                    raise Failure(f"cold run {token} {value}: `cold list` knows no such name")


def check_cargo(tokens):
    """`cargo SUB …`: cargo's flags, the packages and targets named, and the program's own."""
    if len(tokens) < 2:
        raise Failure("cargo without a subcommand")
    sub = tokens[1]
    own = tokens[2:]
    split = own.index("--") if "--" in own else len(own)
    cargo_args, program_args = own[:split], own[split + 1:]
    code, help_text = run_capture(["cargo", sub, "--help"])
    if code != 0:
        raise Failure(f"`cargo {sub}` is no cargo subcommand")
    check_flags(cargo_args, flags_in(help_text), f"cargo {sub}")
    packages = metadata()
    named = {}
    for flag, kind in (("-p", "package"), ("--bin", "bin"), ("--example", "example"),
                       ("--test", "test"), ("--bench", "bench")):
        for i, t in enumerate(cargo_args[:-1]):
            if t == flag:
                named.setdefault(kind, []).append(cargo_args[i + 1])
    for package in named.get("package", []):
        if package not in packages:
            raise Failure(f"no package {package} in the workspace")
    scope = named.get("package") or list(packages)
    for kind in ("bin", "example", "test", "bench"):
        for target in named.get(kind, []):
            if not any((kind, target) in packages[p] for p in scope):
                raise Failure(f"no {kind} target {target} in {', '.join(scope)}")
    if sub == "run":
        binaries = named.get("bin") or [p for p in named.get("package", []) if ("bin", p) in packages[p]]
        if named.get("example"):
            return
        if len(binaries) != 1:
            raise Failure("cargo run names no one binary (-p PACKAGE, or --bin)")
        if program_args:
            check_binary(binaries[0], program_args)


def check_script(tokens):
    """A script of scripts/: it exists, and knows each flag given before a `--`."""
    if tokens[0] in ("python3", "bash", "sh"):
        tokens = tokens[1:]
    path = os.path.join(ROOT, tokens[0])
    if not os.path.isfile(path):
        raise Failure(f"no script {tokens[0]}")
    source = open(path, encoding="utf-8").read()
    args = tokens[1:]
    if path.endswith(".py") and "argparse" in source:
        code, help_text = run_capture([sys.executable, path, "--help"])
        if code != 0:
            raise Failure(f"{tokens[0]} --help exits {code}")
        known = flags_in(help_text)
    elif re.search(r"(^|[|\s])--help\)", source, re.M):
        code, help_text = run_capture(["bash", path, "--help"])
        if code != 0:
            raise Failure(f"{tokens[0]} --help exits {code}")
        known = flags_in(help_text)
    else:
        known = {f for f in flags_in(source)}
    check_flags(args, known | {"-h", "--help"}, tokens[0])


# Slurm's commands, which the docs show after scripts/slurm-local.sh up.
SLURM = ("sbatch", "squeue", "scancel", "scontrol", "sinfo")


def check(command):
    """Raise Failure when the program, a subcommand or a flag of `command` does not exist."""
    for tokens in split_commands(command):
        while tokens and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", tokens[0]):
            tokens = tokens[1:]
        if not tokens:
            continue
        program = tokens[0]
        if program == "cargo":
            check_cargo(tokens)
        elif program.startswith("target/release/"):
            binary = program[len("target/release/"):]
            if ("bin", binary) not in {t for targets in metadata().values() for t in targets}:
                raise Failure(f"no binary {binary} in the workspace")
            check_binary(binary, tokens[1:])
        elif program.startswith("scripts/") or (program in ("python3", "bash", "sh") and len(tokens) > 1
                                                 and tokens[1].startswith("scripts/")):
            check_script(tokens)
        elif program == "git":
            if shutil.which("git") is None:
                raise Failure("git is not installed")
        elif program in SLURM:
            # Slurm's own commands (scripts/slurm-local.sh installs them): the batch script an
            # sbatch names must be the repository's
            scripts = [t for t in tokens[1:] if not t.startswith("-")][:1]
            if program == "sbatch" and not (scripts and os.path.isfile(os.path.join(ROOT, scripts[0]))):
                raise Failure(f"sbatch names no batch script of the repository: {' '.join(tokens[1:])}")
        else:
            raise Failure(f"unknown program {program} (a workspace binary is run as "
                          "`cargo run --release -p X --` or `target/release/X`)")


# --- running the quick ones --------------------------------------------------------------------


def as_run(command):
    """The command with cargo's build step replaced by this checkout's built binary."""
    command = re.sub(r"cargo run --release -p (\w+) (--bin (\w+) )?-- ",
                     lambda m: shlex.quote(os.path.join(RELEASE, m.group(3) or m.group(1))) + " ",
                     command)
    return re.sub(r"(^|&& |; )target/release/", lambda m: m.group(1) + RELEASE + "/", command)


def fresh_copy():
    folder = tempfile.mkdtemp(prefix="thaw-doc-commands-")
    # the children run as an unprivileged user (docs/containment.md): they must reach the copy
    os.chmod(folder, 0o755)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        source = os.path.join(ROOT, name)
        if name and os.path.isfile(source) and not os.path.islink(source):
            os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
            shutil.copy2(source, os.path.join(folder, name))
    return folder


def run_quick(command, folder):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", as_run(command)], cwd=folder,
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    if p.returncode != 0 and re.search(r"no child-\S+ in ", p.stderr) and "children" not in _cache:
        # A dry run plans with the children already built (CI's cold runs built them before this
        # step); on a checkout that has none yet, build them once, as `cold run` would, and retry.
        _cache["children"] = build(["-p", "spawner", "-p", "children"])
        return run_quick(command, folder)
    if p.returncode != 0:
        raise Failure(f"exits {p.returncode} when run:\n{shown((p.stdout + p.stderr)[-800:])}")


def shown(text):
    """What a command printed, its control characters escaped (a newline and a tab kept)."""
    return "".join(c if c.isprintable() or c in "\n\t" else repr(c)[1:-1] for c in text)


# --- the three modes ---------------------------------------------------------------------------


RECIPE = "a recipe's command: it runs in the CI system the recipe is for (checked here, not run)"
RECIPE_LINE = re.compile(r"^\s*(?:-\s+|run:\s+)?(?:/thaw/)?((?:target/release/\w+|cargo build|scripts/\S+\.(?:sh|py))\b.*)$")


def recipe_commands():
    """The one-line commands of docs/recipes/ (YAML, not shell): each workspace binary, cargo
    build and script a step runs, for the same checks as the documents' commands."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "recipes", "*.y*ml"))):
        name = os.path.relpath(path, ROOT)
        for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            m = RECIPE_LINE.match(line)
            if m and not line.lstrip().startswith("#"):
                found.append((name, number, -1, strip_comment(m.group(1)), RECIPE))
    return found


def collect():
    """Every command of the documents and recipes: (file, line, block index, command, rule)."""
    found = recipe_commands()
    for name in documents():
        text = open(os.path.join(ROOT, name), encoding="utf-8").read()
        for b, block in enumerate(blocks(name, text)):
            for line, command in block:
                try:
                    rule = rule_for(command)
                except Failure as e:
                    rule = f"UNREADABLE: {e}"
                found.append((name, line, b, command, rule))
    return found


def build(packages=("-p", "cold", "-p", "analysis", "-p", "fixtures")):
    """The binaries the checks ask for their --help and the quick commands run."""
    p = subprocess.run(["cargo", "build", "-q", "--release", *packages], cwd=ROOT,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit("doc-commands: cargo build --release failed (above)")
    return True


def main():
    build()
    failures, ran, checked = [], 0, 0
    folders = {}
    for name, line, b, command, rule in collect():
        where = f"{name}:{line}: {command}"
        try:
            if rule is None:
                raise Failure("no rule in scripts/doc-commands.py's RULES says whether it is quick")
            check(command)
            checked += 1
            if rule == QUICK:
                if (name, b) not in folders:
                    folders[(name, b)] = fresh_copy()
                run_quick(command, folders[(name, b)])
                ran += 1
        except Failure as e:
            failures.append(f"{where}\n  {e}")
        except subprocess.TimeoutExpired:
            failures.append(f"{where}\n  ran past 600 s")
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
    for f in failures:
        print(f"doc-commands: FAILED {f}", file=sys.stderr)
    print(f"doc-commands: {checked} commands checked, {ran} run, {len(failures)} failed")
    return 1 if failures else 0


def list_slow():
    for name, line, _, command, rule in collect():
        if rule != QUICK:
            print(f"{name}:{line}: {command}\n    not run: {rule or 'NO RULE (an error)'}")
    return 0


def self_test():
    build()
    planted = [
        ("cargo run --release -p cold -- run --codec serde_json --dry-run", "no option --codec"),
        ("cargo run --release -p cold -- lists", "no subcommand"),
        ("target/release/analysis report synth-run --reference-codec x", "no option --reference-codec"),
        ("scripts/ab-check.sh portable other --codex serde_json", "no option --codex"),
        ("scripts/no-such-script.sh", "no script"),
        ("cargo run --release -p colder -- list", "no package colder"),
        ("cargo test -p cold --test every", "no test target every"),
        ("cargo run --release -p cold -- run --codecs serde-json --dry-run", "no such name"),
        ("target/release/cold run --variant jdk26 --dry-run", "no such name"),
    ]
    wrong = []
    for command, expected in planted:
        try:
            check(command)
            wrong.append(f"passed, but should fail ({expected}): {command}")
        except Failure as e:
            if expected not in str(e):
                wrong.append(f"failed for another reason than {expected!r}: {command}: {e}")
    for command in ("cargo run --release -p cold -- run --codecs serde_json --dry-run",
                    "cargo run --release -p cold -- list", "scripts/ab-check.sh a b --codecs x",
                    "THAW_FORKS=2 cargo bench -p warm -- users-1kb/de"):
        try:
            check(command)
        except Failure as e:
            wrong.append(f"failed, but should pass: {command}: {e}")
    folder = fresh_copy()
    try:
        run_quick("cargo run --release -p cold -- lists", folder)
        wrong.append("a missing subcommand ran without failing")
    except Failure:
        pass
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if rule_for("cargo run --release -p cold -- frobnicate") is not None:
        wrong.append("a command no rule covers was classified")
    for w in wrong:
        print(f"doc-commands: self-test: {w}", file=sys.stderr)
    if wrong:
        return 1
    print(f"doc-commands: self-test passed ({len(planted)} planted mistakes caught, 4 good commands passed)")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--list"]:
        sys.exit(list_slow())
    if args == ["--self-test"]:
        sys.exit(self_test())
    if args:
        sys.exit(__doc__)
    sys.exit(main())
