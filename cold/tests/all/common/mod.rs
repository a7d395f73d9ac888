//! What the runner's tests share: the binaries a run needs, built beside the runner once per
//! test process (`cargo test -p cold` builds only this package's binaries; the spawner, the
//! children and the report are other packages'), and the runner started as a user starts it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the spawner, the children, the analysis binary, the test doubles and the allocation
/// counter beside the runner, once per test process.
pub fn build_beside_runner() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let mut build = Command::new(env!("CARGO"));
        build
            .args([
                "build", "-p", "spawner", "-p", "children", "-p", "analysis", "-p", "doubles",
                "--bins",
            ])
            .args(["-p", "alloc-phases", "--lib"])
            .arg("--manifest-path")
            .arg(manifest);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(
            status.success(),
            "cannot build the binaries beside the runner"
        );
    });
}

/// A binary beside the runner (built first).
pub fn beside_runner(name: &str) -> PathBuf {
    build_beside_runner();
    PathBuf::from(env!("CARGO_BIN_EXE_cold"))
        .parent()
        .expect("the runner has a folder")
        .join(name)
}

/// The test child (runtimes/rust/doubles) beside the runner.
pub fn test_child() -> PathBuf {
    beside_runner("test-child")
}

/// The spawner beside the runner.
pub fn spawner() -> PathBuf {
    beside_runner("cold-spawner")
}

/// The runner as a user starts it directly (not through `cargo run`, which would make it `cargo
/// build` its children while `cargo test` runs).
pub fn cold() -> Command {
    build_beside_runner();
    let mut command = Command::new(env!("CARGO_BIN_EXE_cold"));
    command
        .env_remove("CARGO")
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO_PKG_NAME");
    command
}

/// A children folder in `dir` of stand-ins: a link named after each real child (beside the
/// runner) to the test child, and the `--children-dir` and `--env` arguments that make a run
/// use them with `stamps` (`steady` or `alternate`: see the test child) and, with `extra`,
/// further variables (`THAW_TEST_LOG=…`).
pub fn stand_ins(dir: &Path, stamps: &str, extra: &[String]) -> Vec<String> {
    let real = beside_runner("");
    let folder = dir.join("stand-ins");
    std::fs::create_dir_all(&folder).unwrap();
    let test_child = test_child();
    for entry in std::fs::read_dir(&real).unwrap() {
        let name = entry.unwrap().file_name();
        if name.to_string_lossy().starts_with("child-") {
            let link = folder.join(&name);
            if !link.exists() {
                std::os::unix::fs::symlink(&test_child, link).unwrap();
            }
        }
    }
    let mut args = vec![
        "--children-dir".to_string(),
        folder.display().to_string(),
        "--env".to_string(),
        format!("THAW_TEST_REAL_DIR={}", real.display()),
        "--env".to_string(),
        format!("THAW_TEST_STAMPS={stamps}"),
    ];
    for e in extra {
        args.extend(["--env".to_string(), e.clone()]);
    }
    args
}

/// A test that cannot run here says why and is skipped, or fails under CI (`THAW_CI=1`), which
/// provides every runtime and tool.
pub fn skip(why: &str) {
    assert!(
        std::env::var_os("THAW_CI").is_none(),
        "CI provides it, but: {why}"
    );
    eprintln!("skipped: {why}");
}

/// Runs the test `name` (its path in this binary, `module::test`) in a process of its own: this
/// test binary again, filtered to that test alone. For a test that starts a spawner in the test
/// process: a runner is the subreaper of what its spawner leaves, and when a spawner dies it
/// kills and reaps every child of its process but its spawners (`Spawner::kill_adopted`), which
/// in a test process shared by other tests would be their children too. Returns `true` in the
/// test process, where the test is then done; `false` in the process of its own, which runs it.
pub fn in_own_process(name: &str) -> bool {
    const ALONE: &str = "THAW_TEST_ALONE";
    if std::env::var(ALONE).as_deref() == Ok(name) {
        return false;
    }
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([name, "--exact", "--test-threads", "1"])
        .env(ALONE, name)
        .output()
        .expect("the test binary runs again");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{name}, in a process of its own:\n{said}"
    );
    assert!(said.contains("1 passed"), "{name} did not run:\n{said}");
    true
}
