//! A curve run's report on planted curves, whose answers are known: N = 100,000 operations in
//! windows of W = 50, 6 blocks, init 0;
//! - `a` flat at 5,000 ns per operation: C(n) = 5,000·n;
//! - `b` at 20,000 ns to operation 5,000, then 2,000: C(n) = 10^8 + 2,000·(n − 5,000) beyond;
//!   it equals a's at n = 30,000 and is cheaper from there: warmup, changepoint after 5,000;
//! - `c` at 2,000 ns to operation 1,000, then 20,000: slowdown, changepoint after 1,000; a is
//!   the cheaper from n = 1,200 (2·10^6 + 20,000·200 = 5,000·1,200).
//!
//! The run folder is written here (plan.csv, samples.csv, curves.csv; no clock is read).

use crate::common;

use crate::common::{bin, run, summary_rows, tmp};
use schema::curve::{schedule, window_for, CurveRow, CURVES};
use schema::phases::{Figure, Phase};
use schema::rows::{PlanRow, SampleRow};
use schema::{Op, Variant};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const N: u64 = 100_000;
const BLOCKS: u32 = 6;

fn cost(codec: &str, n: u64) -> u64 {
    match codec {
        "a" => 5_000 * n,
        "b" if n <= 5_000 => 20_000 * n,
        "b" => 100_000_000 + 2_000 * (n - 5_000),
        "c" if n <= 1_000 => 2_000 * n,
        _ => 2_000_000 + 20_000 * (n - 1_000),
    }
}

/// Writes plan.csv, samples.csv and curves.csv of the planted codecs into `dir`.
fn write_curve_run(dir: &Path) {
    let (mut plan, mut samples, mut curves) = (Vec::new(), Vec::new(), Vec::new());
    let ops = schedule(N, window_for(N));
    for block in 0..BLOCKS {
        for codec in ["a", "b", "c"] {
            let p = PlanRow {
                plan_index: plan.len() as u64,
                block,
                codec: codec.into(),
                op: Op::De,
                batch: N as u32,
                fixture: "users-2kb".into(),
                variant: Variant::PORTABLE,
            };
            let mut s = SampleRow::planned(&p);
            let (first, total) = (cost(codec, 1), cost(codec, N));
            for (phase, v) in Phase::LIBRARY.into_iter().zip([0, first, total - first]) {
                s.set(Figure::time(phase), Some(v));
            }
            s.set(Figure::INIT_PLUS_OPS, Some(total));
            s.set(Figure::WALL, Some(total + 1_000_000));
            curves.push(CurveRow {
                plan_index: p.plan_index,
                clock_1000_ns: 20_000,
                ops: ops.clone(),
                cost_ns: ops.iter().map(|&n| cost(codec, n)).collect(),
            });
            plan.push(p);
            samples.push(s);
        }
    }
    files::csv_rows::write_rows(&dir.join("plan.csv"), &plan).unwrap();
    files::csv_rows::write_rows(&dir.join("samples.csv"), &samples).unwrap();
    files::csv_rows::write_rows(&dir.join(CURVES), &curves).unwrap();
}

/// The report of the planted run, written once.
fn report() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = tmp("curve");
        let folder = root.join("run");
        std::fs::create_dir_all(&folder).unwrap();
        write_curve_run(&folder);
        let out = root.join("report");
        let o = run(bin()
            .arg("report")
            .arg(&folder)
            .args(["--reference", "a", "--seed", "7", "--resamples", "200"])
            .args(["--warm", "/nonexistent", "--conformance", "/nonexistent"])
            .arg("--out")
            .arg(&out));
        assert!(o.status.success(), "the report of the planted curve run");
        out
    })
}

fn summary() -> Value {
    let text = std::fs::read_to_string(report().join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn curve_cell<'a>(json: &'a Value, codec: &str) -> &'a Value {
    json["curve"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"]["codec"] == codec)
        .unwrap()
}

fn crossing<'a>(json: &'a Value, codec: &str) -> &'a Value {
    json["curve"]["crossings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["codec"] == codec)
        .unwrap()
}

#[test]
fn the_crossing_is_measured_exactly_with_its_interval() {
    let json = summary();
    let b = &crossing(&json, "b")["measured"];
    assert_eq!(b["kind"], "from");
    assert_eq!(b["cheaper"], "b");
    assert_eq!(
        (b["n"].as_u64(), b["lo"].as_u64(), b["hi"].as_u64()),
        (Some(30_000), Some(30_000), Some(30_000))
    );
    let c = &crossing(&json, "c")["measured"];
    assert_eq!(
        (c["cheaper"].as_str(), c["n"].as_u64()),
        (Some("a"), Some(1_200))
    );
    // no warm figure: the straight line is not drawn
    assert_eq!(
        crossing(&json, "b")["straight_line"]["kind"],
        "no_warm_figure"
    );
}

#[test]
fn each_process_is_classified_with_its_changepoint() {
    let json = summary();
    let classes = |codec: &str| -> Vec<(String, u64)> {
        curve_cell(&json, codec)["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                (
                    k["class"].as_str().unwrap().to_string(),
                    k["processes"].as_u64().unwrap(),
                )
            })
            .filter(|k| k.1 > 0)
            .collect()
    };
    assert_eq!(classes("a"), [("flat".to_string(), 6)]);
    assert_eq!(classes("b"), [("warmup".to_string(), 6)]);
    assert_eq!(classes("c"), [("slowdown".to_string(), 6)]);
    assert_eq!(
        curve_cell(&json, "b")["changepoint_ops"].as_f64(),
        Some(5_000.0)
    );
    assert_eq!(
        curve_cell(&json, "c")["changepoint_ops"].as_f64(),
        Some(1_000.0)
    );
    assert_eq!(curve_cell(&json, "a")["changepoint_ops"], Value::Null);
    assert_eq!(curve_cell(&json, "b")["steady_ns"].as_f64(), Some(2_000.0));
    assert_eq!(curve_cell(&json, "a")["steady_ns"].as_f64(), Some(5_000.0));
    // the paired ratio at n = 10: b costs 4× a, exactly, in every block
    let ratio = curve_cell(&json, "b")["ratios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["n"] == 10)
        .unwrap()["contrast"]["ratio"]
        .as_f64()
        .unwrap();
    assert!((ratio - 4.0).abs() < 1e-12, "{ratio}");
}

#[test]
fn the_report_and_summary_csv_say_it() {
    let md = std::fs::read_to_string(report().join("report.md")).unwrap();
    assert!(md.contains("## The cost curve"), "{md}");
    assert!(
        md.contains("b cheaper from n = 30,000 [30,000, 30,000]"),
        "{md}"
    );
    assert!(md.contains("a cheaper from n = 1,200"), "{md}");
    assert!(md.contains("includes that copy and the drops"), "{md}");
    assert!(md.contains("charts/curve-cost-0.svg") && md.contains("charts/curve-windows-0.svg"));
    let html = std::fs::read_to_string(report().join("report.html")).unwrap();
    assert!(html.contains("The cost curve") && html.contains("<polygon"));
    let rows = summary_rows(&report().join("summary.csv"));
    let b = rows.iter().find(|r| r["codec"] == "b").unwrap();
    assert_eq!(b["curve_crossing_n"], "30000");
    assert_eq!(b["curve_crossing_cheaper"], "b");
    assert_eq!(b["curve_crossing_lo"], "30000");
    assert_eq!(b["curve_class"], "warmup 6");
    let a = rows.iter().find(|r| r["codec"] == "a").unwrap();
    assert_eq!(a["curve_crossing_n"], "");
}

#[test]
fn a_cheap_clock_is_no_warning() {
    // 20 µs per 1,000 reads: ~2,000 reads cost 40 µs, far below 0.1% of these curves
    let md = std::fs::read_to_string(report().join("report.md")).unwrap();
    assert!(!md.contains("the clock's reads cost"), "{md}");
}

#[test]
fn curves_without_an_ok_sample_or_off_their_schedule_are_left_out_with_a_note() {
    let root = tmp("curve-odd");
    let folder = root.join("run");
    std::fs::create_dir_all(&folder).unwrap();
    write_curve_run(&folder);
    let (curves, _) = schema::curve::read_curves(&folder.join(CURVES)).unwrap();
    let mut rows: Vec<CurveRow> = curves.into_values().collect();
    rows[0].ops.pop();
    rows[0].cost_ns.pop();
    let mut stray = rows[1].clone();
    stray.plan_index = 999;
    rows.push(stray);
    files::csv_rows::write_rows(&folder.join(CURVES), &rows).unwrap();
    let out = root.join("report");
    let o = run(bin()
        .arg("report")
        .arg(&folder)
        .args(["--reference", "a", "--resamples", "100"])
        .args(["--warm", "/nonexistent", "--conformance", "/nonexistent"])
        .arg("--out")
        .arg(&out));
    assert!(o.status.success());
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("1 curve(s) whose reads are not their batch's schedule"),
        "{said}"
    );
    assert!(
        said.contains("1 curve(s) of samples that are not ok samples"),
        "{said}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(curve_cell(&json, "a")["processes"], 5);
}

#[test]
fn a_run_without_curves_has_no_curve_section_nor_columns() {
    let root = tmp("curve-none");
    common::synth(&root.join("run"), 12, 3, &[]);
    let out = root.join("report");
    let o = run(bin()
        .arg("report")
        .arg(root.join("run"))
        .args(["--resamples", "100", "--warm", "/nonexistent"])
        .args(["--conformance", "/nonexistent", "--out"])
        .arg(&out));
    assert!(o.status.success());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("The cost curve"));
    let json = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(!json.contains("\"curve\""));
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(!csv.lines().next().unwrap().contains("curve_"));
}
