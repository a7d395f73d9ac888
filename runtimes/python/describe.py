"""Prints one line of JSON describing the Python interpreter that runs it, for a run's manifest:
the runner starts it the way it starts a child (same program, same arguments before the script,
same environment), so what it reports is what the children's start-up paid for."""
import sys

# First, before this script imports anything: what the interpreter imported while starting
# (`sys` is built in and always there, so importing it adds nothing).
STARTUP_MODULES = sorted(sys.modules)

import os  # noqa: E402
import sysconfig  # noqa: E402

# sys.flags as `python3` with no option and no PYTHON* variable sets them.
FLAG_DEFAULTS = {
    "debug": 0,
    "inspect": 0,
    "interactive": 0,
    "optimize": 0,
    "dont_write_bytecode": 0,
    "no_user_site": 0,
    "no_site": 0,
    "ignore_environment": 0,
    "verbose": 0,
    "bytes_warning": 0,
    "quiet": 0,
    "hash_randomization": 1,
    "isolated": 0,
    "dev_mode": False,
    "utf8_mode": 0,
    "warn_default_encoding": 0,
    "safe_path": False,
    "int_max_str_digits": -1,
}


def flags_set():
    out = {}
    for name in dir(sys.flags):
        if name.startswith("_") or name in ("count", "index", "n_fields", "n_sequence_fields",
                                            "n_unnamed_fields"):
            continue
        value = getattr(sys.flags, name)
        if name not in FLAG_DEFAULTS or value != FLAG_DEFAULTS[name]:
            out[name] = value
    return out


def site_dirs():
    """The site-packages folders this interpreter reads (what `site` adds, also under -S, when
    it is not run), each with its `.pth` files: each one is read, and its `import` lines run,
    at every start."""
    import site  # under -S this does not run site.main(): it changes nothing

    dirs = list(site.getsitepackages())
    user = site.getusersitepackages()
    if site.ENABLE_USER_SITE is not False and not sys.flags.no_user_site:
        dirs.append(user)
    out = []
    for d in dirs:
        try:
            pth = sorted(n for n in os.listdir(d) if n.endswith(".pth"))
            exists = True
        except OSError:
            pth, exists = [], False
        out.append({"path": d, "exists": exists, "in_sys_path": d in sys.path, "pth": pth})
    return out


def main():
    import json

    info = {
        "executable": sys.executable,
        "realpath": os.path.realpath(sys.executable),
        "argv0": sys.orig_argv[0] if hasattr(sys, "orig_argv") else None,
        "orig_argv": getattr(sys, "orig_argv", None),
        "version": sys.version.split()[0],
        "version_full": sys.version,
        "implementation": sys.implementation.name,
        "cache_tag": sys.implementation.cache_tag,
        "config_args": sysconfig.get_config_var("CONFIG_ARGS"),
        "flags_set": flags_set(),
        "prefix": sys.prefix,
        "base_prefix": sys.base_prefix,
        "venv": sys.prefix != sys.base_prefix,
        "site_packages": site_dirs(),
        "sys_path": sys.path,
        "python_env": {k: v for k, v in os.environ.items() if k.startswith("PYTHON")},
        "startup_module_count": len(STARTUP_MODULES),
        "startup_modules": STARTUP_MODULES,
    }
    sys.stdout.write(json.dumps(info, separators=(",", ":"), sort_keys=False) + "\n")


main()
