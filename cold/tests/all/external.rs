//! Children in other languages (runtimes/): a deliberately wrong child (it changes a value)
//! is refused by its preflight's check by meaning, with the path of the first difference, before
//! anything is timed, on the JVM, in Python and in Node; an honest child runs and every timed
//! sample is checked by content against what its preflight learned, so a child that changes its
//! output after the preflight (the same length, other content) is caught in the samples; a
//! library that is not installed makes its cells unsupported, with how to install it, and the
//! rest of the run goes on. Where a runtime is missing the test says so and is skipped, or fails
//! under CI (THAW_CI=1), which provides every runtime.

use schema::rows::SampleRow;
use schema::Status;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-external-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A description folder under `root` with the repository's `runtime` (its runtime.toml and
/// `repo_files` of its folder) and `own` files written as given; returns the folder to name in
/// THAW_EXTERNAL.
fn descriptions(root: &Path, runtime: &str, repo_files: &[&str], own: &[(&str, &str)]) -> PathBuf {
    let repo = fixtures::catalog::workspace_root()
        .join("runtimes")
        .join(runtime);
    let dir = root.join("descriptions").join(runtime);
    std::fs::create_dir_all(&dir).unwrap();
    for file in repo_files {
        std::fs::copy(repo.join(file), dir.join(file)).unwrap();
    }
    for (file, text) in own {
        std::fs::write(dir.join(file), text).unwrap();
    }
    root.join("descriptions")
}

/// Whether the runtime that `program --version` starts is missing: then the test says so and is
/// skipped, or fails under CI.
fn missing(program: &Path, what: &str) -> bool {
    let there = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !there {
        let why = format!(
            "no {what} at {} (scripts/install-runtimes.sh installs it)",
            program.display()
        );
        assert!(
            std::env::var_os("THAW_CI").is_none(),
            "CI provides it, but: {why}"
        );
        eprintln!("skipped: {why}");
    }
    !there
}

/// The Python the children run.
fn python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/external/python-venv/bin/python")
}

const PYTHON_FILES: [&str; 3] = ["runtime.toml", "harness.py", "describe.py"];

/// A description folder with one more Python codec, `wrong-json`: the standard json module,
/// but its child changes the first `isActive` it meets, after reading (de) and before writing
/// (ser).
fn wrong_python(root: &Path) -> PathBuf {
    descriptions(
        root,
        "python",
        &PYTHON_FILES,
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
def ser(value): return json.dumps(flip(value), separators=(",", ":"), ensure_ascii=False)
def write_back(value): return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
def version(): return "0"

harness.run(MAIN, sys.modules[__name__])
"#,
            ),
        ],
    )
}

/// The same in Node: `wrong-node`.
fn wrong_node(root: &Path) -> PathBuf {
    descriptions(
        root,
        "node",
        &["runtime.toml", "harness.js", "describe.js"],
        &[
            (
                "codec-wrong-node.toml",
                "id = \"wrong-node\"\nlibrary = \"node JSON\"\nstyle = \"dom\"\n\
                 source = \"wrong_child.js\"\noutput = \"new-string\"\n",
            ),
            (
                "wrong_child.js",
                r#"'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');
const flip = (v) => { v.users[0].isActive = !v.users[0].isActive; return v; };
run(main, {
  init() {},
  de: (buffer) => flip(JSON.parse(buffer.toString('utf8'))),
  ser: (value) => JSON.stringify(flip(value)),
  writeBack: (value) => JSON.stringify(value),
  version: () => '0',
});
"#,
            ),
        ],
    )
}

/// A JVM runtime of its own, `jvm-wrong`, on JDK 17 or 25, whose one child is a single Java
/// source file run by the JVM's source launcher: it follows the protocol by hand and writes back
/// the document with its first `"isActive":true` made false (`de` only).
fn wrong_jvm(root: &Path) -> PathBuf {
    descriptions(
        root,
        "jvm-wrong",
        &[],
        &[
            (
                "runtime.toml",
                r#"name = "jvm-wrong"
version = ["-version"]
command = ["{source}"]
install = "scripts/install-runtimes.sh"

[[builds]]
name = "jvm-wrong"
about = "a JDK's source launcher"
program = ["/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "java"]
"#,
            ),
            (
                "codec-wrong-jvm.toml",
                "id = \"wrong-jvm\"\nlibrary = \"by hand\"\nstyle = \"dom\"\n\
                 source = \"WrongChild.java\"\noutput = \"new-string\"\n",
            ),
            (
                "WrongChild.java",
                r#"import java.nio.charset.StandardCharsets;
import java.nio.file.*;

public class WrongChild {
    public static void main(String[] args) throws Exception {
        long main = System.nanoTime();
        if (args.length == 1 && args[0].equals("--version")) { System.out.println("0"); return; }
        String input = null, check = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--input")) input = args[i + 1];
            if (args[i].equals("--check-file")) check = args[i + 1];
        }
        byte[] doc = Files.readAllBytes(Path.of(input));
        long fixture = System.nanoTime();
        String text = new String(doc, StandardCharsets.UTF_8);
        String wrong = text.replaceFirst("\"isActive\":true", "\"isActive\":false");
        long done = System.nanoTime();
        if (check != null) Files.write(Path.of(check), wrong.getBytes(StandardCharsets.UTF_8));
        long checked = System.nanoTime();
        System.out.println("{\"main\":" + main + ",\"model\":" + main + ",\"fixture\":" + fixture + ",\"init\":" + fixture
            + ",\"first\":" + done + ",\"done\":" + done + ",\"checked\":" + checked
            + ",\"checksum\":\"0000000000000001\",\"bytes\":" + doc.length
            + ",\"hwm_kib\":1,\"rss_kib\":1}");
    }
}
"#,
            ),
        ],
    )
}

/// `cold run` with THAW_EXTERNAL set to `descriptions`, as a user starts it.
fn cold(descriptions: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cold"));
    c.env_remove("CARGO").env("THAW_EXTERNAL", descriptions);
    c
}

fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `codecs` on users-1kb (`ops`, batch 1, two samples) into `dir`: the wrong codec must be
/// left out by its preflight naming `users[0].isActive`, the others run.
fn refused(
    descriptions: &Path,
    dir: &Path,
    codecs: &str,
    wrong: &str,
    ops: &str,
) -> Vec<SampleRow> {
    let out = cold(descriptions)
        .args(["run", "--codecs", codecs, "--ops", ops])
        .args([
            "--fixture",
            "users-1kb",
            "--batches",
            "1",
            "--samples",
            "2",
            "--out",
        ])
        .arg(dir)
        .output()
        .unwrap();
    let said = said(&out);
    assert_eq!(out.status.code(), Some(3), "cells were left out: {said}");
    assert!(
        said.contains(&format!("preflight {wrong} de on users-1kb"))
            && said.contains("at users[0].isActive"),
        "{said}"
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let excluded = m["excluded"].as_array().unwrap();
    assert!(!excluded.is_empty());
    assert!(excluded.iter().all(
        |e| e["codec"] == wrong && e["detail"].as_str().unwrap().contains("users[0].isActive")
    ));
    let samples = store::rows::read_samples(&dir.join("samples.csv"), None)
        .unwrap()
        .0;
    assert!(!samples.is_empty());
    assert!(
        samples.iter().all(|s| s.is_ok() && s.codec != wrong),
        "{samples:?}"
    );
    samples
}

#[test]
fn a_wrong_jvm_child_is_refused_with_the_path() {
    let java = Path::new("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    let java = if java.exists() {
        java
    } else {
        Path::new("java")
    };
    if missing(java, "JDK") {
        return;
    }
    let root = tmp("wrong-jvm");
    let d = wrong_jvm(&root);
    // the Rust floor runs beside it
    refused(&d, &root.join("run"), "wrong-jvm,noop", "wrong-jvm", "de");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_wrong_node_child_is_refused_with_the_path() {
    if missing(Path::new("node"), "node") {
        return;
    }
    let root = tmp("wrong-node");
    let d = wrong_node(&root);
    refused(
        &d,
        &root.join("run"),
        "wrong-node,node-floor",
        "wrong-node",
        "de,ser",
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A Python codec, `shifty-json`, honest in its preflight and, in every timed sample, changing
/// one character of a decoded string: the same length, other content.
fn shifty_python(root: &Path) -> PathBuf {
    descriptions(
        root,
        "python",
        &PYTHON_FILES,
        &[
            (
                "codec-shifty-json.toml",
                "id = \"shifty-json\"\nlibrary = \"python json\"\nstyle = \"dom\"\n\
                 source = \"shifty_child.py\"\noutput = \"new-string\"\n",
            ),
            (
                "shifty_child.py",
                r#"import time
MAIN = time.monotonic_ns()
import json, sys
import harness

TIMED = "--check-file" not in sys.argv

def shift(value):
    if TIMED:
        name = value["users"][0]["name"]
        value["users"][0]["name"] = ("x" if name[0] != "x" else "y") + name[1:]
    return value

def init(): pass
def de(data): return shift(json.loads(data))
def ser(value): return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
def write_back(value): return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
def version(): return "0"

harness.run(MAIN, sys.modules[__name__])
"#,
            ),
        ],
    )
}

#[test]
fn a_child_whose_content_changes_after_its_preflight_is_caught_in_every_sample() {
    if missing(&python(), "Python environment") {
        return;
    }
    let root = tmp("shifty");
    let d = shifty_python(&root);
    let dir = root.join("run");
    let out = cold(&d)
        .args(["run", "--codecs", "shifty-json,python-json", "--ops", "de"])
        .args([
            "--fixture",
            "users-1kb",
            "--batches",
            "1",
            "--samples",
            "3",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "failed samples: {}", said(&out));
    let samples = store::rows::read_samples(&dir.join("samples.csv"), None)
        .unwrap()
        .0;
    for s in &samples {
        let want = if s.codec == "shifty-json" {
            Status::WrongChecksum
        } else {
            Status::Ok
        };
        assert_eq!(s.status, want, "{s:?}");
    }
    assert_eq!(samples.len(), 6);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_wrong_python_child_is_refused_and_an_honest_one_runs() {
    if missing(&python(), "Python environment") {
        return;
    }
    let root = tmp("wrong");
    let descriptions = wrong_python(&root);
    let dir = root.join("run");
    let out = cold(&descriptions)
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

    let samples: Vec<SampleRow> = store::rows::read_samples(&dir.join("samples.csv"), None)
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
    descriptions(
        root,
        "python",
        &["runtime.toml", "harness.py", "describe.py", "json_child.py"],
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
    if missing(&python(), "Python environment") {
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
        line.contains("no: ") && line.contains("pip install thaw-no-such-module"),
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
    let samples: Vec<SampleRow> = store::rows::read_samples(&dir.join("samples.csv"), None)
        .unwrap()
        .0;
    // The floor's de and ser, one sample each.
    assert_eq!(samples.len(), 2);
    assert!(samples
        .iter()
        .all(|s| s.is_ok() && s.codec == "python-floor"));
    std::fs::remove_dir_all(&root).unwrap();
}

/// A resume refuses a run whose children of another runtime changed since it started (here, the
/// Python harness they load): their fingerprint covers every file they load.
#[test]
fn a_resume_refuses_a_changed_runtime() {
    if missing(&python(), "Python environment") {
        return;
    }
    let root = tmp("changed-runtime");
    let d = descriptions(
        &root,
        "python",
        &[
            "runtime.toml",
            "harness.py",
            "describe.py",
            "json_child.py",
            "floor_child.py",
        ],
        &[(
            "codec-mine-json.toml",
            "id = \"mine-json\"\nlibrary = \"python json\"\nstyle = \"dom\"\n\
                 source = \"json_child.py\"\noutput = \"new-string\"\n",
        )],
    );
    let dir = root.join("run");
    let out = cold(&d)
        .args([
            "run",
            "--codecs",
            "mine-json",
            "--ops",
            "de",
            "--batches",
            "1",
        ])
        .args(["--samples", "3", "--fixture", "users-1kb", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", said(&out));
    // the last sample lost (as a kill mid-run loses it), and the harness edited since
    let samples = dir.join("samples.csv");
    let text = std::fs::read_to_string(&samples).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&samples, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let harness = d.join("python/harness.py");
    let edited = std::fs::read_to_string(&harness).unwrap() + "\n# edited\n";
    std::fs::write(&harness, edited).unwrap();
    let out = cold(&d).arg("resume").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(
        said(&out).contains("the python children are not the ones this run started with"),
        "{}",
        said(&out)
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The Go toolchain (`go version` runs), or None when it is missing: then the test says so and
/// is skipped, or fails under CI.
fn go() -> Option<&'static str> {
    let found = ["go", "/usr/local/go/bin/go"].into_iter().find(|go| {
        Command::new(go)
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        let why = "no Go toolchain (go on PATH or /usr/local/go/bin/go; scripts/install-runtimes.sh installs it)";
        assert!(
            std::env::var_os("THAW_CI").is_none(),
            "CI provides it, but: {why}"
        );
        eprintln!("skipped: {why}");
    }
    found
}

/// Curve mode (`--window`, schema::curve) in each runtime's harness: a child of each runs 120
/// `de` operations of users-1kb in windows of 7 and prints the curve line, held to the schedule
/// from its `init` stamp, its first and last reads its `first` and `done`, then the protocol
/// line. The JVM's is the floor, compiled here by javac from the harness's sources (a library's
/// child needs the Maven build; the curve's loop is the harness's, the same for every child), and
/// Go's the floor too, built here by `go build`.
#[test]
fn a_curve_child_of_each_runtime_prints_the_schedule_then_its_line() {
    use schema::curve::CurveLine;
    let root = tmp("curve");
    let doc = root.join("users-1kb.json");
    let users = fixtures::catalog::find("users-1kb").unwrap();
    std::fs::write(&doc, users.document(fixtures::DEFAULT_SEED, None).unwrap()).unwrap();
    let external = fixtures::catalog::workspace_root().join("runtimes");
    let mut children: Vec<(&str, Command)> = Vec::new();
    if !missing(&python(), "Python environment") {
        let mut c = Command::new(python());
        c.arg(external.join("python/json_child.py"));
        children.push(("python-json", c));
    }
    if !missing(Path::new("node"), "node") {
        let mut c = Command::new("node");
        c.arg(external.join("node/json_child.js"));
        children.push(("node-json", c));
    }
    let jdk = Path::new("/usr/lib/jvm/temurin-25-jdk-amd64/bin");
    if !missing(&jdk.join("java"), "JDK 25") {
        let classes = root.join("classes");
        let jvm = external.join("jvm/src");
        let sources: Vec<PathBuf> = std::fs::read_dir(jvm.join("harness/java/thaw/jvm"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .chain([jvm.join("jvm-floor/java/thaw/jvm/floor/FloorChild.java")])
            .collect();
        let javac = Command::new(jdk.join("javac"))
            .args(["--release", "17", "-d"])
            .arg(&classes)
            .args(&sources)
            .output()
            .unwrap();
        assert!(javac.status.success(), "javac: {}", said(&javac));
        let mut c = Command::new(jdk.join("java"));
        c.args(["-Xms64m", "-Xmx64m", "-XX:+UseSerialGC", "-cp"])
            .arg(&classes)
            .arg("thaw.jvm.floor.FloorChild");
        children.push(("jvm-floor", c));
    }
    if let Some(go) = go() {
        let floor = root.join("go-floor");
        let build = Command::new(go)
            .current_dir(external.join("go"))
            .env("GOFLAGS", "-mod=readonly")
            .env("GOPROXY", "off")
            .args(["build", "-trimpath", "-o"])
            .arg(&floor)
            .arg("./children/go-floor")
            .output()
            .unwrap();
        assert!(build.status.success(), "go build: {}", said(&build));
        children.push(("go-floor", Command::new(floor)));
    }
    for (name, mut child) in children {
        let out = child
            .args(["--op", "de", "--batch", "120", "--window", "7", "--input"])
            .arg(&doc)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", said(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        let (curve, rest) = text
            .split_once('\n')
            .unwrap_or_else(|| panic!("{name}: {text}"));
        let line = schema::protocol::Line::parse(rest.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: the line after the curve line: {e}"));
        let curve = CurveLine::parse(curve).unwrap_or_else(|e| panic!("{name}: {e}"));
        use schema::phases::Stamp;
        let [init, first, done] = [Stamp::Init, Stamp::First, Stamp::Done].map(|s| line.at(s));
        curve
            .check(120, 7, init)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (curve.ns[0], curve.ns[curve.ns.len() - 1]),
            (first, done),
            "{name}"
        );
        assert_eq!(line.bytes, std::fs::metadata(&doc).unwrap().len(), "{name}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}
