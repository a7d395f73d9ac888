//! `cold run` end to end, as a user runs it: a small run writes its folder; bad inputs are
//! clear errors; a runner killed with SIGKILL mid-run loses no finished sample, and `--resume`
//! takes exactly the plan indices that have no row; `--resume` refuses a folder whose child,
//! input, seed or plan changed since the run started, and writes back a missing plan.csv.

use schema::phases::{Figure, Phase, Quantity};
use schema::rows::{PlanRow, SampleRow};
use schema::Status;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{build_beside_runner as build_children, cold};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-cold-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    // the test children run as an unprivileged user (docs/containment.md, "The child") and
    // write their counts, logs and pids here
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
    d
}

fn plan_of(dir: &Path) -> Vec<PlanRow> {
    store::rows::read_plan(&dir.join("plan.csv")).unwrap().0
}

fn samples_of(dir: &Path) -> Vec<SampleRow> {
    store::rows::read_samples(&dir.join("samples.csv"), Some(&plan_of(dir)))
        .unwrap()
        .0
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_small_run_writes_its_folder() {
    let root = tmp("small");
    let dir = root.join("run");
    let out = cold()
        .args([
            "run",
            "--codecs",
            "noop,serde_json,jiter",
            "--batches",
            "1",
            "--samples",
            "2",
        ])
        .args(["--fixture", "small", "--timeout", "20", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("floor") && said.contains("unsupported: jiter ser"),
        "{said}"
    );

    let plan = plan_of(&dir);
    let samples = samples_of(&dir);
    assert_eq!(
        plan.len(),
        2 * 5,
        "noop ×2 ops, serde_json ×2 ops, jiter de; 2 blocks"
    );
    assert_eq!(samples.len(), plan.len());
    assert!(
        samples.iter().all(|s| s.status == Status::Ok),
        "{samples:?}"
    );
    assert!(samples
        .iter()
        .all(|s| s.get(Figure::INIT_PLUS_OPS).is_some() && s.get(Figure::WALL).is_some()));

    let m = manifest(&dir);
    assert_eq!(m["finished"], true);
    assert_eq!(m["settings"]["samples_per_cell"], 2);
    assert_eq!(m["settings"]["variants"][0]["variant"], "portable");
    assert_eq!(m["codecs"].as_array().unwrap().len(), 3);
    // One child per codec × op × fixture: noop de and ser, serde_json de and ser, jiter de.
    let children = m["children"].as_array().unwrap();
    assert_eq!(children.len(), 5);
    assert!(children
        .iter()
        .all(|c| c["sha256"].as_str().unwrap().len() == 64));
    assert!(children
        .iter()
        .any(|c| c["binary"] == "child-serde_json-de-small"));
    assert_eq!(
        m["settings"]["child_env"].as_array().unwrap().len(),
        2,
        "PATH and HOME"
    );
    assert_eq!(m["fixtures"][0]["name"], "small");
    assert_eq!(m["fixtures"][0]["bytes"], 27);
    assert_eq!(m["unsupported"][0]["codec"], "jiter");
    // One preflight child per cell (five cells of batch 1).
    assert_eq!(m["preflight"].as_array().unwrap().len(), 5);
    assert!(m["verification"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["status"] != "fail"));
    assert!(
        !root.join("latest").exists(),
        "latest is only for default runs"
    );
    assert!(dir.join("fixtures/small.json").is_file());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let root = tmp("dry");
    let out = cold()
        .args([
            "run",
            "--dry-run",
            "--codecs",
            "noop",
            "--samples",
            "3",
            "--out",
        ])
        .arg(root.join("run"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("plan_index,block,codec,op,batch,fixture,variant\n"));
    assert_eq!(stdout.lines().count(), 1 + 3 * 6);
    assert!(!root.join("run").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn bad_inputs_are_clear_errors() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--codecs", "yaml"], &["yaml", "serde_json"]),
        (&["--fixture", "huge"], &["huge", "users-2kb"]),
        (&["--ops", "both"], &["both", "ser, de"]),
        (&["--batches", "0"], &["give 1 to 1000000"]),
        (&["--pin", "x"], &["--pin"]),
    ];
    let resume: (&[&str], &[&str]) = (
        &["/nonexistent/run"],
        &["/nonexistent/run", "no run folder"],
    );
    for (args, needles) in cases
        .iter()
        .map(|c| ("run", c))
        .chain([("resume", &resume)])
    {
        let out = cold().arg(args).args(needles.0).output().unwrap();
        let (args, needles) = (needles.0, needles.1);
        let said = text(&out);
        // 2: refused by the command-line parser; 1: by the runner's own checks.
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}: {said}");
        for n in needles {
            assert!(said.contains(n), "{args:?}: {said}");
        }
        assert!(!said.contains("panicked"), "{said}");
    }
}

#[test]
fn list_names_codecs_and_fixtures() {
    let out = cold().arg("list").output().unwrap();
    assert!(out.status.success());
    let said = text(&out);
    assert!(said.contains("sonic-rs-value") && said.contains("users-2kb"));
}

fn line_count(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn sigkill_then_resume_takes_exactly_the_rest() {
    let root = tmp("resume");
    let dir = root.join("run");
    // The test kills the runner with SIGKILL when the 40th stand-in child says it started
    // (counting the preflight's four, one per cell): an event, not a moment, so the kill lands
    // mid-run on any machine.
    let count = format!("THAW_TEST_COUNT={}", root.join("count").display());
    let stand_ins = common::stand_ins(
        &root,
        "steady",
        &[count, "THAW_TEST_KILL_RUNNER_AT=40".to_string()],
    );
    let killed = cold()
        .args([
            "run",
            "--codecs",
            "noop",
            "--batches",
            "1,2",
            "--samples",
            "150",
        ])
        .args(["--fixture", "small", "--out"])
        .arg(&dir)
        .args(&stand_ins)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mark = root.join("count.kill");
    let mut killed = killed;
    // the 40th child waits for this kill; a run that ends first fails below
    loop {
        if mark.exists() {
            killed.kill().unwrap();
            break;
        }
        if killed.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = killed.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(killed.signal(), Some(libc::SIGKILL), "{killed:?}");
    let samples = dir.join("samples.csv");
    let plan = plan_of(&dir);
    assert_eq!(plan.len(), 600);
    // children 5 to 39 finished; the 40th was killed with its runner, before its row
    let before = line_count(&samples) - 1;
    assert_eq!(before, 35);
    assert_eq!(manifest(&dir)["finished"], false);
    // the killed session's last sample, as the resume will find it
    let killed_at = schema::run_folder::utc_text(
        std::fs::metadata(&samples)
            .and_then(|f| f.modified())
            .unwrap(),
    );

    let dry = cold()
        .args(["resume", "--dry-run"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(dry.status.success(), "{}", text(&dry));
    let left_planned = String::from_utf8(dry.stdout).unwrap().lines().count() - 1;

    let out = cold().arg("resume").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));

    let samples = samples_of(&dir);
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    for s in &samples {
        *seen.entry(s.plan_index).or_default() += 1;
    }
    assert_eq!(seen.len(), plan.len(), "every plan index has a row");
    assert!(seen.values().all(|&n| n == 1), "no plan index twice");
    // The killed sample (if any) was never written, so resume took exactly the rest.
    assert_eq!(samples.len() - before, left_planned);
    for s in &samples {
        let p = &plan[s.plan_index as usize];
        assert_eq!(
            (&s.codec, &s.op, s.batch, s.block),
            (&p.codec, &p.op, p.batch, p.block)
        );
    }
    let m = manifest(&dir);
    assert_eq!(m["finished"], true);
    assert_eq!(m["resumed_utc"].as_array().unwrap().len(), 1);
    // the killed session's end: its last sample, between its start and the resume
    assert_eq!(m["stopped_utc"], serde_json::json!([killed_at]));
    let (started, resumed) = (m["started_utc"].as_str(), m["resumed_utc"][0].as_str());
    assert!(started <= Some(&killed_at[..]) && Some(&killed_at[..]) <= resumed);

    // A finished run resumes to nothing.
    let again = cold().arg("resume").arg(&dir).output().unwrap();
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(samples_of(&dir).len(), plan.len());
    std::fs::remove_dir_all(&root).unwrap();
}

/// Copies `from` into `to` (a file).
fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
}

/// The samples run in plan order, and a resume refuses whatever changed since the run started.
#[test]
fn resume_refuses_a_changed_child_input_seed_or_plan() {
    let root = tmp("refuse");
    // The run's own copy of the children, so that changing one changes no other test's.
    let children = root.join("children");
    std::fs::create_dir_all(&children).unwrap();
    let built = PathBuf::from(env!("CARGO_BIN_EXE_cold"))
        .parent()
        .unwrap()
        .to_path_buf();
    build_children();
    for op in ["de", "ser"] {
        let name = format!("child-noop-{op}-any");
        copy(&built.join(&name), &children.join(&name));
    }
    let dir = root.join("run");
    let out = cold()
        .args([
            "run",
            "--codecs",
            "noop",
            "--batches",
            "1,3",
            "--samples",
            "4",
        ])
        .args(["--fixture", "users-1kb", "--children-dir"])
        .arg(&children)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));

    // Samples in plan order: the runner follows the plan's seeded random order, no other.
    let samples = samples_of(&dir);
    let order: Vec<u64> = samples.iter().map(|s| s.plan_index).collect();
    assert_eq!(order, (0..16).collect::<Vec<u64>>());

    let resume = || cold().arg("resume").arg(&dir).output().unwrap();
    let refused = |needle: &str| {
        let out = resume();
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(said.contains(needle), "wanted {needle:?} in: {said}");
        assert!(!said.contains("panicked"), "{said}");
    };
    let samples_before = std::fs::read(dir.join("samples.csv")).unwrap();

    // A changed input file.
    let input = dir.join("fixtures/users-1kb.json");
    let original = std::fs::read(&input).unwrap();
    std::fs::write(&input, b"{\"a\": 2}").unwrap();
    refused("is not the input this run started with");
    std::fs::write(&input, &original).unwrap();

    // A changed child (rebuilt, or another build's).
    let child = children.join("child-noop-de-any");
    let mut bytes = std::fs::read(&child).unwrap();
    bytes.push(0);
    std::fs::write(&child, &bytes).unwrap();
    refused("is not the one this run started with");
    bytes.pop();
    std::fs::write(&child, &bytes).unwrap();

    // An edited manifest: the fixtures' seed, then the plan's.
    let path = dir.join("manifest.json");
    let text_of = std::fs::read_to_string(&path).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&text_of).unwrap();
    m["settings"]["seed"] = serde_json::json!(m["settings"]["seed"].as_u64().unwrap() + 1);
    std::fs::write(&path, serde_json::to_string(&m).unwrap()).unwrap();
    refused("does not generate the fixture users-1kb");
    let mut m: serde_json::Value = serde_json::from_str(&text_of).unwrap();
    m["settings"]["plan_seed"] = serde_json::json!(m["settings"]["seed"].as_u64().unwrap() + 1);
    std::fs::write(&path, serde_json::to_string(&m).unwrap()).unwrap();
    refused("is not the plan manifest.json describes");
    std::fs::write(&path, &text_of).unwrap();

    // Nothing refused wrote a sample.
    assert_eq!(
        std::fs::read(dir.join("samples.csv")).unwrap(),
        samples_before
    );

    // A missing plan.csv (a run stopped between its manifest and its plan) is written back as
    // the manifest describes it, and a finished run has nothing left to take.
    let plan = std::fs::read(dir.join("plan.csv")).unwrap();
    std::fs::remove_file(dir.join("plan.csv")).unwrap();
    let out = resume();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("0 of 16 planned samples left"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read(dir.join("plan.csv")).unwrap(), plan);
    assert_eq!(
        std::fs::read(dir.join("samples.csv")).unwrap(),
        samples_before
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The report, as a user builds it, on a real `cold run` folder (not a synthetic one): every
/// cell of the plan is in it with the samples the run took.
#[test]
fn the_report_reads_a_real_run() {
    let root = tmp("report");
    let dir = root.join("run");
    let out = cold()
        .args(["run", "--codecs", "noop,serde_json", "--batches", "1,10"])
        .args(["--samples", "3", "--fixture", "users-1kb", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    build_children();
    let analysis = PathBuf::from(env!("CARGO_BIN_EXE_cold"))
        .parent()
        .unwrap()
        .join("analysis");
    let report = root.join("report");
    let out = Command::new(&analysis)
        .arg("report")
        .arg(&dir)
        .arg("--warm")
        .arg(root.join("no-warm"))
        .arg("--conformance")
        .arg(root.join("no-conformance.csv"))
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    let cells = json["cells"].as_array().unwrap();
    // noop and serde_json, de and ser, at batches 1 and 10.
    assert_eq!(cells.len(), 8, "{cells:?}");
    for cell in cells {
        assert_eq!(
            (&cell["ok"], &cell["planned"]),
            (&3.into(), &3.into()),
            "{cell}"
        );
        assert!(
            cell["init_plus_ops"]["median"].as_f64().unwrap() > 0.0,
            "{cell}"
        );
        assert!(
            cell["wall"]["median"].as_f64() > cell["init_plus_ops"]["median"].as_f64(),
            "{cell}"
        );
        assert!(cell["hwm_kib"].as_f64().unwrap() > 0.0, "{cell}");
    }
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("serde_json") && md.contains("users-1kb"));
    assert!(!md.contains("missing column"), "{md}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// `--measure instructions`: each sample counted under callgrind (and natively for its
/// allocations), the same on every sample. Skipped, with a message, where Valgrind is absent.
#[test]
fn a_counted_run_gives_the_same_counts_every_sample() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        common::skip("no valgrind on PATH (scripts/install-runtimes.sh installs it)");
        return;
    }
    let root = tmp("counted");
    let dir = root.join("run");
    let out = cold()
        .args([
            "run",
            "--measure",
            "instructions",
            "--codecs",
            "noop,serde_json",
        ])
        .args([
            "--ops",
            "de",
            "--batches",
            "1",
            "--fixture",
            "users-1kb",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("first op") && said.contains("yes ×3"),
        "{said}"
    );

    let samples = samples_of(&dir);
    assert_eq!(samples.len(), 2 * 3, "3 samples by default when counting");
    for codec in ["noop", "serde_json"] {
        let counts: Vec<_> = samples
            .iter()
            .filter(|s| s.codec == codec)
            .map(|s| {
                assert_eq!(s.status, Status::Ok, "{s:?}");
                assert_eq!(
                    s.get(Figure::INIT_PLUS_OPS),
                    None,
                    "no times under Valgrind"
                );
                (
                    s.get(Figure::Of(Quantity::Instructions, Phase::Init)),
                    s.get(Figure::Of(Quantity::Instructions, Phase::FirstOp)),
                    s.get(Figure::Of(Quantity::Instructions, Phase::RemainingOps)),
                    s.get(Figure::Of(Quantity::AllocBlocks, Phase::FirstOp)),
                )
            })
            .collect();
        assert!(counts[0].1.unwrap() > 0, "{counts:?}");
        assert!(
            counts.iter().all(|c| *c == counts[0]),
            "{codec}: {counts:?}"
        );
    }
    let first_op = |codec: &str| {
        samples
            .iter()
            .find(|s| s.codec == codec)
            .unwrap()
            .get(Figure::Of(Quantity::Instructions, Phase::FirstOp))
            .unwrap()
    };
    // A typed decode of 1 KB is thousands of instructions; the floor's is a few dozen.
    assert!(first_op("serde_json") > 100 * first_op("noop"));
    let noop = samples.iter().find(|s| s.codec == "noop").unwrap();
    assert_eq!(
        (
            noop.get(Figure::Of(Quantity::AllocBlocks, Phase::FirstOp)),
            noop.get(Figure::Of(Quantity::AllocBytes, Phase::FirstOp))
        ),
        (Some(1), Some(8)),
        "the floor's de allocates one 8-byte vector"
    );
    let m = manifest(&dir);
    assert_eq!(m["settings"]["measure"], "instructions");
    assert_eq!(m["counting"]["tool"], "callgrind");
    assert!(m["counting"]["valgrind"]
        .as_str()
        .unwrap()
        .starts_with("valgrind"));
    assert!(dir
        .join(m["counting"]["alloc_library"].as_str().unwrap())
        .is_file());
    std::fs::remove_dir_all(&root).unwrap();
}

/// `--precision`: whole blocks are added until every interval is as narrow as asked, or until
/// `--max-samples`; the manifest says why the run stopped, and the plan holds every block taken.
/// The children are stand-ins that print the real children's lines with fixed library stamps
/// (steady: every interval has zero width; alternating: none narrows), so no noise decides it.
#[test]
fn a_precision_run_stops_on_precision_or_on_samples() {
    let root = tmp("precision");
    let run = |name: &str, extra: &[&str]| {
        let dir = root.join(name);
        let stamps = if name == "wide" {
            "steady"
        } else {
            "alternate"
        };
        let count = format!(
            "THAW_TEST_COUNT={}",
            root.join(format!("{name}.count")).display()
        );
        let stand_ins = common::stand_ins(&root, stamps, &[count]);
        let out = cold()
            .args([
                "run",
                "--codecs",
                "noop,serde_json",
                "--ops",
                "de",
                "--batches",
                "1",
            ])
            .args(["--fixture", "small", "--out"])
            .arg(&dir)
            .args(&stand_ins)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        (dir, text(&out))
    };
    // steady figures: ±1% is reached at the first check, after the 10 first blocks.
    let (dir, said) = run("wide", &["--precision", "1%"]);
    assert!(
        said.contains("stopped after 10 samples per cell: every interval"),
        "{said}"
    );
    let m = manifest(&dir);
    assert_eq!(m["settings"]["stopping"]["stopped_on"], "precision");
    assert_eq!(m["settings"]["samples_per_cell"], 10);
    assert_eq!(samples_of(&dir).len(), 20);

    // alternating figures: ±0.01% is never reached: 10 blocks, then 5 at a time up to 22.
    let (dir, said) = run("narrow", &["--precision", "0.01%", "--max-samples", "22"]);
    assert!(
        said.contains("stopped after 22 samples per cell: --max-samples"),
        "{said}"
    );
    let m = manifest(&dir);
    assert_eq!(m["settings"]["stopping"]["stopped_on"], "samples");
    assert_eq!(m["settings"]["samples_per_cell"], 22);
    let plan = plan_of(&dir);
    let samples = samples_of(&dir);
    assert_eq!((plan.len(), samples.len()), (44, 44));
    let blocks: std::collections::BTreeSet<u32> = samples.iter().map(|s| s.block).collect();
    assert_eq!(blocks, (0..22).collect(), "every block whole");
    assert!(m["settings"]["stopping"]["widest"][0].as_str().is_some());
    // A finished precision run resumes to nothing more.
    let again = cold().arg("resume").arg(&dir).output().unwrap();
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(samples_of(&dir).len(), 44);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Counts compared exactly: a child with one extra call in its operation (a test double) shows
/// up in `analysis compare --fail-on-regression`, which exits 1 naming that cell and phase,
/// while the other cell is unchanged. Skipped, with a message, where Valgrind is absent.
#[test]
fn a_counted_change_is_caught_by_compare() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        common::skip("no valgrind on PATH (scripts/install-runtimes.sh installs it)");
        return;
    }
    build_children();
    let built = PathBuf::from(env!("CARGO_BIN_EXE_cold"))
        .parent()
        .unwrap()
        .to_path_buf();
    let root = tmp("counted-change");
    let counted = |name: &str, noop: &str| {
        let children = root.join(format!("{name}-children"));
        std::fs::create_dir_all(&children).unwrap();
        copy(&built.join(noop), &children.join("child-noop-de-any"));
        copy(
            &built.join("child-serde_json-de-users"),
            &children.join("child-serde_json-de-users"),
        );
        let dir = root.join(name);
        let out = cold()
            .args([
                "run",
                "--measure",
                "instructions",
                "--codecs",
                "noop,serde_json",
            ])
            .args(["--ops", "de", "--batches", "2", "--fixture", "users-1kb"])
            .args(["--samples", "2", "--children-dir"])
            .arg(&children)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        dir
    };
    let before = counted("before", "child-noop-de-any");
    let after = counted("after", "double-noop-extra-call");
    let out = Command::new(built.join("analysis"))
        .arg("compare")
        .arg(&before)
        .arg(&after)
        .arg("--fail-on-regression")
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let regressed: Vec<&str> = said.lines().filter(|l| l.contains("regressed")).collect();
    assert!(
        regressed
            .iter()
            .any(|l| l.contains("noop") && l.contains("first_op")),
        "{said}"
    );
    assert!(
        !regressed.iter().any(|l| l.contains("serde_json")),
        "serde_json's counts did not change: {said}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// The children ran in plan.csv's order, cell by cell: each stand-in child appends the arguments
/// it was started with to a log, and after the preflight's children (one per cell) the log is the
/// plan, row by row.
#[test]
fn the_children_run_in_the_order_of_the_plan() {
    let root = tmp("order");
    let dir = root.join("run");
    let log = root.join("children.log");
    let stand_ins = common::stand_ins(
        &root,
        "steady",
        &[format!("THAW_TEST_LOG={}", log.display())],
    );
    let out = cold()
        .args(["run", "--codecs", "noop,serde_json", "--batches", "1,3"])
        .args(["--samples", "4", "--fixture", "small", "--out"])
        .arg(&dir)
        .args(&stand_ins)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    // each record: the program, then its arguments (then the environment, indented)
    let started: Vec<Vec<String>> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("  "))
        .map(|l| l.split(' ').map(String::from).collect())
        .collect();
    let plan = plan_of(&dir);
    let cells: std::collections::BTreeSet<_> =
        plan.iter().map(|p| (&p.codec, p.op, p.batch)).collect();
    assert_eq!(started.len(), cells.len() + plan.len());
    let timed = &started[cells.len()..];
    for (args, row) in timed.iter().zip(&plan) {
        let program = Path::new(&args[0]).file_name().unwrap().to_string_lossy();
        let arg = |flag: &str| {
            let i = args.iter().position(|a| a == flag).unwrap();
            args[i + 1].clone()
        };
        assert!(
            program.starts_with(&format!("child-{}-{}-", row.codec, row.op)),
            "plan index {}: {program} for {} {}",
            row.plan_index,
            row.codec,
            row.op
        );
        assert_eq!(
            arg("--batch"),
            row.batch.to_string(),
            "plan index {}",
            row.plan_index
        );
        assert!(
            arg("--input").contains(&row.fixture),
            "plan index {}",
            row.plan_index
        );
        assert!(
            !args.contains(&"--check-file".to_string()),
            "a timed sample checks no file"
        );
    }
    // and every one of them started with the same environment: PATH, HOME and what --env gave
    let env: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .map(|kv| kv.split('=').next().unwrap().to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        env,
        [
            "HOME",
            "PATH",
            "THAW_TEST_LOG",
            "THAW_TEST_REAL_DIR",
            "THAW_TEST_STAMPS"
        ]
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A folder without its manifest is no run to resume: the error says so, naming the file, and
/// nothing is written.
#[test]
fn a_resume_without_a_manifest_is_refused() {
    let root = tmp("no-manifest");
    let dir = root.join("run");
    let out = cold()
        .args([
            "run",
            "--codecs",
            "noop",
            "--batches",
            "1",
            "--samples",
            "2",
        ])
        .args(["--fixture", "small", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    std::fs::remove_file(dir.join("manifest.json")).unwrap();
    let before = std::fs::read(dir.join("samples.csv")).unwrap();
    let out = cold().arg("resume").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("manifest.json"), "{}", text(&out));
    assert_eq!(std::fs::read(dir.join("samples.csv")).unwrap(), before);
    std::fs::remove_dir_all(&root).unwrap();
}

/// A curve run, end to end: every child runs N operations in one process, each ok sample's
/// curve is a row of curves.csv holding the library's cumulative cost at every read of the
/// schedule, and the report reads the crossing and each process's class from them. The
/// stand-ins plant exact curves: serde_json flat at 5,000 ns per operation, miniserde 10× faster
/// after operation 5,000 (20,000 then 2,000 ns), nanoserde 10× slower after operation 1,000 (2,000
/// then 20,000 ns), so the file must hold exactly them, miniserde must cross serde_json at
/// exactly n = 30,000 and nanoserde at 1,200, with their changepoints after operations 5,000 and
/// 1,000; nothing depends on the machine's speed.
#[test]
fn a_curve_run_gives_the_planted_crossing_and_changepoints() {
    let root = tmp("curve");
    let dir = root.join("run");
    let stand_ins = common::stand_ins(
        &root,
        "steady",
        &["THAW_TEST_CURVE=serde_json:flat,miniserde:drop,nanoserde:slowdown".to_string()],
    );
    let out = cold()
        .args([
            "run",
            "--codecs",
            "serde_json,miniserde,nanoserde",
            "--ops",
            "de",
        ])
        .args([
            "--curve",
            "100000",
            "--samples",
            "6",
            "--fixture",
            "small",
            "--out",
        ])
        .arg(&dir)
        .args(&stand_ins)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let m = manifest(&dir);
    assert_eq!(m["settings"]["curve"]["ops"], 100_000);
    assert_eq!(m["settings"]["curve"]["window"], 50);
    assert_eq!(m["settings"]["batches"], serde_json::json!([100_000]));
    let samples = samples_of(&dir);
    assert_eq!(samples.len(), 18);
    assert!(
        samples.iter().all(|s| s.status == Status::Ok),
        "{samples:?}"
    );
    let (curves, note) = schema::curve::read_curves(&dir.join("curves.csv")).unwrap();
    assert!(note.is_none());
    assert_eq!(curves.len(), 18, "one curve per sample");
    let schedule = schema::curve::schedule(100_000, 50);
    for s in &samples {
        let curve = &curves[&s.plan_index];
        assert_eq!(curve.ops, schedule);
        assert!(curve.clock_1000_ns > 0);
        let planted = |n: u64| match s.codec.as_str() {
            "serde_json" => 5_000 * n,
            "miniserde" if n <= 5_000 => 20_000 * n,
            "miniserde" => 100_000_000 + 2_000 * (n - 5_000),
            _ if n <= 1_000 => 2_000 * n,
            _ => 2_000_000 + 20_000 * (n - 1_000),
        };
        let want: Vec<u64> = schedule.iter().map(|&n| planted(n)).collect();
        assert_eq!(curve.cost_ns, want, "{}", s.codec);
        assert_eq!(s.get(Figure::time(Phase::Init)), Some(0));
    }

    let report = root.join("report");
    let out = Command::new(common::beside_runner("analysis"))
        .arg("report")
        .arg(&dir)
        .args(["--warm", "/nonexistent", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    let curve = &summary["curve"];
    let crossing = |codec: &str| {
        curve["crossings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["codec"] == codec)
            .unwrap_or_else(|| panic!("no crossing of {codec}: {curve}"))["measured"]
            .clone()
    };
    let drop = crossing("miniserde");
    assert_eq!(
        (&drop["cheaper"], &drop["n"]),
        (&"miniserde".into(), &30_000.into())
    );
    let slowdown = crossing("nanoserde");
    assert_eq!(
        (&slowdown["cheaper"], &slowdown["n"]),
        (&"serde_json".into(), &1_200.into())
    );
    let cell = |codec: &str| {
        curve["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"]["codec"] == codec)
            .unwrap()
            .clone()
    };
    for (codec, class, after) in [
        ("serde_json", "flat", None),
        ("miniserde", "warmup", Some(5_000.0)),
        ("nanoserde", "slowdown", Some(1_000.0)),
    ] {
        let c = cell(codec);
        let classes: Vec<(String, u64)> = c["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                (
                    k["class"].as_str().unwrap().to_string(),
                    k["processes"].as_u64().unwrap(),
                )
            })
            .collect();
        assert!(
            classes.contains(&(class.to_string(), 6)),
            "{codec}: {classes:?}"
        );
        assert_eq!(c["changepoint_ops"].as_f64(), after, "{codec}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}
