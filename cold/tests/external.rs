//! Children in other languages (cold/external/): an honest Python child runs and its samples are
//! checked against what its preflight learned; a deliberately wrong one (it changes a value) is
//! refused by its preflight's check by meaning, with the path of the first difference, before
//! anything is timed; a library that is not installed makes its cells unsupported, with how to
//! install it, and the rest of the run goes on. Skipped, with a message, where python3 is absent.

use schema::rows::SampleRow;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-external-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A description folder under `root` with the repository's Python runtime and `repo_files` of
/// its folder, and `own` files written as given; returns the folder to name in THAW_EXTERNAL.
fn python_descriptions(root: &Path, repo_files: &[&str], own: &[(&str, &str)]) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("external/python");
    let dir = root.join("descriptions/python");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["runtime.toml", "harness.py"].iter().chain(repo_files) {
        std::fs::copy(repo.join(file), dir.join(file)).unwrap();
    }
    for (file, text) in own {
        std::fs::write(dir.join(file), text).unwrap();
    }
    root.join("descriptions")
}

/// Whether python3 is missing (then the test says so and is skipped).
fn no_python() -> bool {
    let missing = Command::new("python3").arg("--version").output().is_err();
    if missing {
        eprintln!("skipped: no python3 on PATH (scripts/install-runtimes.sh installs it)");
    }
    missing
}

/// A description folder with one more Python codec, `wrong-json`: the standard json module,
/// but its child changes the first `isActive` it meets, after reading (de) and before writing
/// (ser).
fn wrong_child(root: &Path) -> PathBuf {
    python_descriptions(
        root,
        &[],
        &[
            (
                "codec-wrong-json.toml",
                "id = \"wrong-json\"\nlibrary = \"python json\"\nstyle = \"dom\"\n\
                 source = \"wrong_child.py\"\noutput = \"new-string\"\n",
            ),
            (
                "wrong_child.py",
                r#"import time
MAIN = time.monotonic_ns()
import json, sys
import harness

def flip(value):
    value["users"][0]["isActive"] = not value["users"][0]["isActive"]
    return value

def init(): pass
def de(data): return flip(json.loads(data))
def ser(value): return json.dumps(flip(value))
def write_back(value): return json.dumps(value)
def version(): return "0"

harness.run(MAIN, sys.modules[__name__])
"#,
            ),
        ],
    )
}

#[test]
fn a_wrong_external_child_is_refused_and_an_honest_one_runs() {
    if no_python() {
        return;
    }
    let root = tmp("wrong");
    let descriptions = wrong_child(&root);
    let dir = root.join("run");
    let out = Command::new(env!("CARGO_BIN_EXE_cold"))
        .env_remove("CARGO")
        .env("THAW_EXTERNAL", &descriptions)
        .args(["run", "--codecs", "wrong-json,python-json,python-floor"])
        .args([
            "--fixture",
            "users-1kb",
            "--batches",
            "1,3",
            "--samples",
            "2",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(3), "cells were left out: {said}");
    assert!(
        said.contains("preflight wrong-json de on users-1kb")
            && said.contains("at users[0].isActive"),
        "{said}"
    );

    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let excluded = m["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 2, "de and ser of wrong-json: {excluded:?}");
    assert!(excluded.iter().all(|e| e["codec"] == "wrong-json"
        && e["detail"].as_str().unwrap().contains("users[0].isActive")));
    let runtime = m["codecs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "python-json")
        .unwrap()["runtime"]
        .clone();
    assert_eq!(runtime, "python");

    let samples: Vec<SampleRow> = schema::rows::read_samples(&dir.join("samples.csv"), None)
        .unwrap()
        .0;
    // python-json and the floor, de and ser, batches 1 and 3, 2 samples: every one ok.
    assert_eq!(samples.len(), 2 * 2 * 2 * 2);
    assert!(
        samples.iter().all(|s| s.is_ok() && s.codec != "wrong-json"),
        "{samples:?}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A description folder with one more Python codec, `absent-json`, whose library is a module that
/// no machine has.
fn absent_library(root: &Path) -> PathBuf {
    python_descriptions(
        root,
        &["json_child.py"],
        &[(
            "codec-absent-json.toml",
            "id = \"absent-json\"\nlibrary = \"absent json\"\nstyle = \"dom\"\n\
                 source = \"json_child.py\"\noutput = \"new-string\"\n\
                 requires = [\"-c\", \"import thaw_no_such_module\"]\n\
                 install = \"pip install thaw-no-such-module\"\n",
        )],
    )
}

#[test]
fn a_library_that_is_not_installed_is_unsupported_not_a_failure() {
    if no_python() {
        return;
    }
    let root = tmp("absent");
    let descriptions = absent_library(&root);
    let cold = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cold"));
        c.env_remove("CARGO").env("THAW_EXTERNAL", &descriptions);
        c
    };

    let listed = cold().arg("list").output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    let line = listed
        .lines()
        .find(|l| l.starts_with("absent-json"))
        .unwrap_or_else(|| panic!("absent-json not listed:\n{listed}"));
    assert!(
        line.contains("unavailable") && line.contains("pip install thaw-no-such-module"),
        "{line}"
    );

    let dir = root.join("run");
    let out = cold()
        .args(["run", "--codecs", "absent-json,python-floor"])
        .args(["--fixture", "users-1kb", "--batches", "1", "--samples", "1"])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("unsupported: absent-json de on users-1kb: absent json not found"),
        "{said}"
    );

    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let unsupported = m["unsupported"].as_array().unwrap();
    assert_eq!(
        unsupported.len(),
        2,
        "de and ser of absent-json: {unsupported:?}"
    );
    assert!(unsupported.iter().all(|u| u["codec"] == "absent-json"
        && u["reason"]
            .as_str()
            .unwrap()
            .contains("No module named 'thaw_no_such_module'")));
    let samples: Vec<SampleRow> = schema::rows::read_samples(&dir.join("samples.csv"), None)
        .unwrap()
        .0;
    // The floor's de and ser, one sample each.
    assert_eq!(samples.len(), 2);
    assert!(samples
        .iter()
        .all(|s| s.is_ok() && s.codec == "python-floor"));
    std::fs::remove_dir_all(&root).unwrap();
}
