//! Trained builds of the JVM children (cold/variants/jdk25-aot.toml and the like): a run trains
//! each child's archive on another document, proves it mapped, records it in the manifest and
//! times every sample with it; an archive the JVM cannot use (truncated, or made by another
//! JDK) is refused by the proof with the JVM's reason, and one the JVM silently falls back from
//! leaves its cell out with the reason, never timed as if it were cached. Without JDK 25 (and
//! 17) the tests say so and are skipped, or fail under CI (THAW_CI=1).

use crate::common;
use cold::run::train::{self, Training};
use schema::{GateCell, Op, Variant};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

const JDK25: &str = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";
const JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java";

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-trained-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Whether a JDK the tests need is missing (then skipped, or a failure under CI).
fn missing(java: &str) -> bool {
    let there = Path::new(java).is_file();
    if !there {
        common::skip(&format!(
            "no {java} (scripts/install-runtimes.sh installs it)"
        ));
    }
    !there
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_cached_run_records_its_archive_and_times_every_sample_with_it() {
    if missing(JDK25) {
        return;
    }
    let dir = tmp("run").join("run");
    let out = common::cold()
        .args([
            "run",
            "--codecs",
            "jvm-floor",
            "--ops",
            "de",
            "--batches",
            "1",
        ])
        .args(["--samples", "2", "--variant", "jdk25,jdk25-aot", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
    assert!(out.status.success(), "{said}");
    let m = manifest(&dir);
    let child = m["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["variant"] == "jdk25-aot")
        .expect("the cached child");
    let a = &child["archive"];
    let file = dir.join(a["file"].as_str().unwrap());
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(a["bytes"], bytes.len() as u64);
    assert_eq!(a["sha256"], fixtures::sha256_hex(&bytes));
    assert_eq!(a["trained_on"], "users-1kb", "trained on another document");
    let command = a["command"].as_array().unwrap();
    assert!(command
        .iter()
        .any(|c| c.as_str().unwrap().starts_with("-XX:AOTCacheOutput=")));
    assert!(a["verified"].as_str().unwrap().contains("FloorChild"));
    // every timed sample of the cached build ran with the cache and with -XX:AOTMode=on
    let samples = std::fs::read_to_string(dir.join("samples.csv")).unwrap();
    assert_eq!(
        samples
            .lines()
            .filter(|l| l.contains(",jdk25-aot,"))
            .count(),
        2
    );
    assert!(
        file.starts_with(&dir),
        "the archive lives in the run folder"
    );
    // a trained run resumes: the child it recorded is the packed one its archive belongs to
    let resumed = common::cold()
        .args(["resume", "--dry-run"])
        .arg(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{said}");
    assert!(said.contains("0 of 4 planned samples left"), "{said}");
}

#[test]
fn an_archive_the_jvm_cannot_use_is_refused_with_its_reason() {
    if missing(JDK25) || missing(JDK17) {
        return;
    }
    let dir = tmp("unusable");
    let env: Vec<(OsString, OsString)> = ["PATH", "HOME"]
        .iter()
        .filter_map(|k| std::env::var_os(k).map(|v| (OsString::from(k), v)))
        .collect();
    let run = Training {
        dir: &dir,
        seed: 20261130,
        corpora: None,
        env: &env,
    };
    let floor = cold::runtimes::find("jvm-floor").unwrap();
    let cell = GateCell {
        codec: "jvm-floor".into(),
        fixture: "users-2kb".into(),
        op: Op::De,
    };
    let fixture = fixtures::catalog::find("users-2kb").unwrap();
    let document = fixture.document(20261130, None).unwrap();
    let input = dir.join("users-2kb.json");
    std::fs::write(&input, &document).unwrap();
    let aot = Variant::parse("jdk25-aot").unwrap();
    let made = train::train(&run, floor, aot, &cell, &input)
        .unwrap()
        .unwrap();
    let on = fixtures::catalog::find(&made.archive.trained_on).unwrap();
    let archive = dir.join(&made.archive.file);
    assert!(train::prove(&run, floor, aot, &cell, on, &input)
        .unwrap()
        .is_ok());

    // cut to half its length
    let whole = std::fs::read(&archive).unwrap();
    std::fs::write(&archive, &whole[..whole.len() / 2]).unwrap();
    let why = train::prove(&run, floor, aot, &cell, on, &input)
        .unwrap()
        .unwrap_err();
    assert!(
        why.contains("not usable") && why.contains("truncated"),
        "{why}"
    );

    // an archive made by JDK 17, in the AOT cache's place
    let appcds = Variant::parse("jdk17-appcds").unwrap();
    let old = train::train(&run, floor, appcds, &cell, &input)
        .unwrap()
        .unwrap();
    std::fs::copy(dir.join(&old.archive.file), &archive).unwrap();
    let why = train::prove(&run, floor, aot, &cell, on, &input)
        .unwrap()
        .unwrap_err();
    assert!(
        why.contains("not usable") && why.contains("AOT cache"),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build whose archive the JVM falls back from without an error (a dynamic AppCDS archive
/// given as an AOT cache, without -XX:AOTMode=on): the run leaves its cell out, with the reason.
const SILENT: &str = r#"
about = "a JDK 25 whose archive is not an AOT cache, and no -XX:AOTMode=on"
runtime = "jvm"
base = "jdk25"
pack = ["{bin}/jar", "--create", "--file", "{jar}", "-C", "{classes}", "."]
flags = ["-XX:AOTCache={archive}"]
archive = "jsa"
[train]
flags = ["-XX:ArchiveClassesAtExit={archive}"]
fixtures = ["users-1kb"]
batch = 1
[verify]
flags = ["-Xlog:class+load=info:file={log}"]
expect = "{class} source: shared objects file"
count = "source: shared objects file"
"#;

#[test]
fn a_silent_fall_back_leaves_the_cell_out_with_the_reason() {
    if missing(JDK25) {
        return;
    }
    let root = tmp("silent");
    let variants = root.join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(variants.join("jdk25-silent.toml"), SILENT).unwrap();
    let dir = root.join("run");
    let out = common::cold()
        .env("THAW_VARIANTS", &variants)
        .args([
            "run",
            "--codecs",
            "jvm-floor",
            "--ops",
            "de",
            "--batches",
            "1",
        ])
        .args(["--samples", "2", "--variant", "jdk25,jdk25-silent", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
    assert_eq!(out.status.code(), Some(3), "a cell was left out: {said}");
    assert!(said.contains("the archive was not used"), "{said}");
    let m = manifest(&dir);
    let left = m["excluded"].as_array().unwrap();
    assert!(
        left.iter().any(|e| e["variant"] == "jdk25-silent"
            && e["detail"].as_str().unwrap().contains("not used")),
        "{left:?}"
    );
    let samples = std::fs::read_to_string(dir.join("samples.csv")).unwrap();
    assert!(
        !samples.contains("jdk25-silent"),
        "never timed as if cached"
    );
    assert_eq!(samples.lines().filter(|l| l.contains(",jdk25,")).count(), 2);
    let _ = std::fs::remove_dir_all(&root);
}
