//! The figures of a report checked against figures worked out independently, and `compare`'s
//! edges.
//!
//! `tests/data/worked-run` is a small cold run written by hand (users-2kb `de` ×1 and ×10; noop,
//! serde_json, simd-json; 8 blocks; one sample timed out), and `expected.json` beside it holds
//! what `make.py` (in the same folder) computes for it from first principles, in exact arithmetic:
//! medians, order-statistic intervals, paired Hodges-Lehmann ratios with their signed-rank
//! intervals and exact p-values, Holm, verdicts, over floor, the break-even. The report must give
//! exactly those (floats to 1e-12 relative) in summary.csv, summary.json and report.md.
//!
//! `compare`: the threshold's edge (an interval whose end is exactly 1 ± threshold is no change),
//! `--threshold`, `--ignore-variant`, and `--fail-on-regression`'s exit status, on runs written by
//! hand or by `analysis synth`; exact outcomes only, never elapsed time.

use crate::common;

use analysis::compare::{classify, Change};
use common::{bin, cells, run, summary_rows, synth, tmp};
use schema::phases::{Figure, Phase};
use schema::rows::{PlanRow, SampleRow};
use schema::{Op, Variant};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

fn worked_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/worked-run")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(worked_dir().join("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The report of the worked run, written once into a temporary folder.
fn report() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = tmp("worked-report");
        let o = run(bin()
            .arg("report")
            .arg(worked_dir())
            .args([
                "--warm",
                "/nonexistent",
                "--conformance",
                "/nonexistent",
                "--out",
            ])
            .arg(&out));
        assert!(o.status.success(), "the report of the worked run");
        out
    })
}

/// `got` equals `want` to 1e-12 relative (exactly when `want` is 0).
#[track_caller]
fn close(what: &str, got: f64, want: f64) {
    let ok = if want == 0.0 {
        got == 0.0
    } else {
        ((got - want) / want).abs() <= 1e-12
    };
    assert!(ok, "{what}: the report says {got}, worked by hand {want}");
}

#[track_caller]
fn exact(what: &str, got: f64, want: f64) {
    assert!(
        got == want,
        "{what}: the report says {got}, worked by hand {want}"
    );
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("{v} is not a string"))
}

fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("{v} is not a whole number"))
}

/// A cell's name in messages: `simd-json ×10`.
fn name(e: &Value) -> String {
    format!("{} ×{}", s(&e["codec"]), u(&e["batch"]))
}

const PHASES: [&str; 8] = [
    "spawn_to_main",
    "model",
    "fixture",
    "init",
    "first_op",
    "remaining_ops",
    "check",
    "exit",
];

/// The worked contrast of a cell, if it is compared (simd-json).
fn contrast_of<'a>(exp: &'a Value, cell: &Value) -> Option<&'a Value> {
    exp["contrasts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["codec"] == cell["codec"] && c["batch"] == cell["batch"])
}

#[test]
fn summary_csv_gives_the_worked_figures() {
    let exp = expected();
    let rows = summary_rows(&report().join("summary.csv"));
    let cells = exp["cells"].as_array().unwrap();
    assert_eq!(rows.len(), cells.len(), "one row per cell");
    for e in cells {
        let n = name(e);
        let row: &HashMap<String, String> = rows
            .iter()
            .find(|r| r["codec"] == s(&e["codec"]) && r["batch"] == u(&e["batch"]).to_string())
            .unwrap_or_else(|| panic!("no row for {n}"));
        let num = |col: &str| -> f64 {
            row[col]
                .parse()
                .unwrap_or_else(|_| panic!("{n} {col}: `{}` is not a number", row[col]))
        };
        for col in ["fixture", "op", "variant"] {
            assert_eq!(row[col], s(&e[col]), "{n} {col}");
        }
        for col in ["planned", "ok", "failed"] {
            assert_eq!(row[col], u(&e[col]).to_string(), "{n} {col}");
        }
        // The medians, their intervals, the range and the MAD of whole numbers are whole or
        // half numbers: exact. p90 interpolates by a tenth: to 1e-12.
        let ipo = &e["init_plus_ops"];
        for (col, key) in [
            ("init_plus_ops_median_ns", "median"),
            ("init_plus_ops_lo_ns", "lo"),
            ("init_plus_ops_hi_ns", "hi"),
            ("init_plus_ops_min_ns", "min"),
            ("init_plus_ops_max_ns", "max"),
            ("init_plus_ops_mad_ns", "mad"),
        ] {
            exact(&format!("{n} {col}"), num(col), f(&ipo[key]));
        }
        close(
            &format!("{n} init_plus_ops_p90_ns"),
            num("init_plus_ops_p90_ns"),
            f(&ipo["p90"]),
        );
        assert_eq!(row["outliers"], u(&ipo["outliers"]).to_string(), "{n}");
        close(
            &format!("{n} init_plus_ops_half_width"),
            num("init_plus_ops_half_width"),
            f(&ipo["half_width"]),
        );
        let wall = &e["wall"];
        for (col, key) in [
            ("wall_median_ns", "median"),
            ("wall_lo_ns", "lo"),
            ("wall_hi_ns", "hi"),
        ] {
            exact(&format!("{n} {col}"), num(col), f(&wall[key]));
        }
        close(
            &format!("{n} wall_p90_ns"),
            num("wall_p90_ns"),
            f(&wall["p90"]),
        );
        for p in PHASES {
            let col = format!("{p}_median_ns");
            exact(&format!("{n} {col}"), num(&col), f(&e["phase_medians"][p]));
        }
        for col in [
            "user_us",
            "sys_us",
            "hwm_kib",
            "maxrss_kib",
            "minflt",
            "majflt",
        ] {
            exact(&format!("{n} {col}"), num(col), f(&e[col]));
        }
        exact(
            &format!("{n} process_median_ns"),
            num("process_median_ns"),
            f(&e["wall_without_input"]),
        );
        match &e["over_floor_ns"] {
            Value::Null => assert_eq!(row["over_floor_ns"], "", "{n}: the floor has no over floor"),
            v => exact(&format!("{n} over_floor_ns"), num("over_floor_ns"), f(v)),
        }
        close(
            &format!("{n} drift_rho"),
            num("drift_rho"),
            f(&e["drift_rho"]),
        );
        match contrast_of(&exp, e) {
            None => {
                for col in ["against", "pairs", "ratio", "p", "p_holm", "verdict"] {
                    assert_eq!(row[col], "", "{n} is not compared: {col}");
                }
            }
            Some(c) => {
                assert_eq!(row["against"], s(&c["against"]), "{n}");
                assert_eq!(row["pairs"], u(&c["pairs"]).to_string(), "{n}");
                for col in ["ratio", "ratio_lo", "ratio_hi"] {
                    close(&format!("{n} {col}"), num(col), f(&c[col]));
                }
                close(
                    &format!("{n} ratio_half_width"),
                    num("ratio_half_width"),
                    f(&c["half_width"]),
                );
                // p-values of the exact signed-rank test are multiples of 2^-n: exact.
                exact(&format!("{n} p"), num("p"), f(&c["p"]));
                exact(&format!("{n} p_holm"), num("p_holm"), f(&c["p_holm"]));
                assert_eq!(row["verdict"], s(&c["verdict"]), "{n}");
            }
        }
    }
}

/// The second headline figure's ratio: each compared cell's over floor (worked by hand) over the
/// reference's same cell's, with an interval that holds it.
#[test]
fn the_process_ratio_is_the_ratio_of_the_worked_over_floors() {
    let exp = expected();
    let rows = summary_rows(&report().join("summary.csv"));
    let over = |codec: &str, batch: u64| -> f64 {
        let e = exp["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| s(&e["codec"]) == codec && u(&e["batch"]) == batch)
            .unwrap();
        f(&e["over_floor_ns"])
    };
    for c in exp["contrasts"].as_array().unwrap() {
        let (codec, batch) = (s(&c["codec"]), u(&c["batch"]));
        let row = rows
            .iter()
            .find(|r| r["codec"] == codec && r["batch"] == batch.to_string())
            .unwrap();
        let want = over(codec, batch) / over(s(&exp["reference"]), batch);
        let got: f64 = row["process_ratio"].parse().unwrap();
        close(&format!("{codec} ×{batch} process_ratio"), got, want);
        let (lo, hi): (f64, f64) = (
            row["process_ratio_lo"].parse().unwrap(),
            row["process_ratio_hi"].parse().unwrap(),
        );
        assert!(lo <= want && want <= hi, "[{lo}, {hi}] holds {want}");
    }
}

#[test]
fn summary_json_gives_the_worked_figures() {
    let exp = expected();
    let text = std::fs::read_to_string(report().join("summary.json")).unwrap();
    let j: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(u(&j["samples"]), u(&exp["samples"]));
    assert_eq!(u(&j["planned"]), u(&exp["planned"]));
    assert_eq!(j["reference"], exp["reference"]);
    exact("level", f(&j["level"]), f(&exp["level"]));
    exact("alpha", f(&j["alpha"]), f(&exp["alpha"]));
    assert!(!j["manifest"].is_null(), "the manifest was read");
    // The data were chosen so that nothing but the one timeout calls for a warning (no drift,
    // no outliers, a finished run).
    assert_eq!(
        j["warnings"],
        serde_json::json!([
            "1 failed samples (timeout: 1) in 1 cells: users-2kb de ×10 simd-json (portable) (1 of 8)."
        ])
    );

    let cells = j["cells"].as_array().unwrap();
    assert_eq!(cells.len(), exp["cells"].as_array().unwrap().len());
    for e in exp["cells"].as_array().unwrap() {
        let n = name(e);
        let c = cells
            .iter()
            .find(|c| c["key"]["codec"] == e["codec"] && c["key"]["batch"] == e["batch"])
            .unwrap_or_else(|| panic!("no cell {n}"));
        for k in ["fixture", "op", "variant"] {
            assert_eq!(c["key"][k], e[k], "{n} {k}");
        }
        for k in ["planned", "ok", "failed"] {
            assert_eq!(u(&c[k]), u(&e[k]), "{n} {k}");
        }
        let failures = if u(&e["failed"]) > 0 {
            serde_json::json!({ "timeout": u(&e["failed"]) })
        } else {
            serde_json::json!({})
        };
        assert_eq!(c["failures"], failures, "{n}");
        for span in ["init_plus_ops", "wall"] {
            let (got, want) = (&c[span], &e[span]);
            let what = |k: &str| format!("{n} {span} {k}");
            assert_eq!(u(&got["n"]), u(&want["n"]), "{}", what("n"));
            for (k, w) in [
                ("median", "median"),
                ("median_lo", "lo"),
                ("median_hi", "hi"),
                ("min", "min"),
                ("max", "max"),
                ("mad", "mad"),
            ] {
                exact(&what(k), f(&got[k]), f(&want[w]));
            }
            close(&what("p90"), f(&got["p90"]), f(&want["p90"]));
            let interval = &got["median_interval"];
            assert_eq!(interval["ranks"], want["ranks"], "{}", what("ranks"));
            exact(&what("interval lo"), f(&interval["lo"]), f(&want["lo"]));
            exact(&what("interval hi"), f(&interval["hi"]), f(&want["hi"]));
            close(
                &what("coverage"),
                f(&interval["coverage"]),
                f(&want["coverage"]),
            );
        }
        let outliers = &c["init_plus_ops"]["outliers"];
        let total: u64 = ["low_severe", "low_mild", "high_mild", "high_severe"]
            .iter()
            .map(|k| u(&outliers[k]))
            .sum();
        assert_eq!(total, u(&e["init_plus_ops"]["outliers"]), "{n} outliers");
        for p in PHASES {
            exact(
                &format!("{n} {p} median"),
                f(&c["phases"][p]["median"]),
                f(&e["phase_medians"][p]),
            );
        }
        exact(
            &format!("{n} wall_without_input"),
            f(&c["process"]["median"]),
            f(&e["wall_without_input"]),
        );
        close(
            &format!("{n} drift rho"),
            f(&c["drift"]["rho"]),
            f(&e["drift_rho"]),
        );
    }

    // Exactly the worked comparisons: simd-json against serde_json at each batch; the floor is
    // never compared; one build, so no comparison between builds.
    let contrasts = j["contrasts"].as_array().unwrap();
    assert_eq!(contrasts.len(), exp["contrasts"].as_array().unwrap().len());
    assert_eq!(j["variant_contrasts"], serde_json::json!([]));
    for e in exp["contrasts"].as_array().unwrap() {
        let n = name(e);
        let c = contrasts
            .iter()
            .find(|c| c["key"]["codec"] == e["codec"] && c["key"]["batch"] == e["batch"])
            .unwrap_or_else(|| panic!("no contrast for {n}"));
        assert_eq!(c["against"]["codec"], e["against"], "{n}");
        assert_eq!(c["against"]["batch"], e["batch"], "{n}");
        assert_eq!(c["figure"], "init_plus_ops", "{n}");
        let x = &c["contrast"];
        assert_eq!(u(&x["pairs"]), u(&e["pairs"]), "{n} pairs");
        close(&format!("{n} ratio"), f(&x["ratio"]), f(&e["ratio"]));
        close(
            &format!("{n} ratio lo"),
            f(&x["interval"][0]),
            f(&e["ratio_lo"]),
        );
        close(
            &format!("{n} ratio hi"),
            f(&x["interval"][1]),
            f(&e["ratio_hi"]),
        );
        exact(
            &format!("{n} achieved level"),
            f(&x["achieved_level"]),
            f(&e["achieved_level"]),
        );
        let t = &x["test"];
        assert_eq!(u(&t["n"]), u(&e["pairs"]), "{n} test n");
        assert_eq!(u(&t["zeros"]), 0, "{n}");
        exact(&format!("{n} T+"), f(&t["w_plus"]), f(&e["t_plus"]));
        exact(&format!("{n} p"), f(&t["p"]), f(&e["p"]));
        assert_eq!(t["method"], "exact", "{n}");
        close(
            &format!("{n} half width"),
            f(&c["half_width"]),
            f(&e["half_width"]),
        );
        exact(&format!("{n} p_holm"), f(&c["p_holm"]), f(&e["p_holm"]));
        assert_eq!(
            s(&c["verdict"]),
            s(&e["verdict"]).replace(' ', "-"),
            "{n} verdict"
        );
    }

    // The break-even of the two libraries' cost curves (no warm data: within the batches).
    let got = j["break_evens"].as_array().unwrap();
    let want = exp["break_evens"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        for k in ["a", "b", "cheaper_first"] {
            assert_eq!(g[k], w[k], "break-even {k}");
        }
        let (gc, wc) = (
            g["crossings"].as_array().unwrap(),
            w["crossings"].as_array().unwrap(),
        );
        assert_eq!(gc.len(), wc.len(), "{gc:?}");
        for (gx, wx) in gc.iter().zip(wc) {
            for (k, v) in wx.as_object().unwrap() {
                assert_eq!(&gx[k], v, "break-even crossing {k}");
            }
        }
        exact("searched_to", f(&g["searched_to"]), f(&w["searched_to"]));
    }
}

#[test]
fn report_md_shows_the_worked_medians_ratios_and_verdicts() {
    let exp = expected();
    let md = std::fs::read_to_string(report().join("report.md"))
        .unwrap()
        .replace("**", ""); // emphasis is presentation; the words are checked
    let section = |title: &str| -> Vec<&str> {
        let start = md
            .find(&format!("\n## {title}"))
            .unwrap_or_else(|| panic!("no section {title}:\n{md}"));
        let rest = &md[start + 1..];
        let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
        rest[..end].lines().collect()
    };
    let headline = section("Headline");
    let against = section("Against the reference (serde_json)");
    for e in exp["cells"].as_array().unwrap() {
        let codec = s(&e["codec"]);
        let contrast = contrast_of(&exp, e);
        let (vs, verdict) = match contrast {
            _ if codec == s(&exp["reference"]) => ("reference".to_string(), String::new()),
            _ if codec == s(&exp["floor"]) => ("harness floor".to_string(), String::new()),
            Some(c) => (
                s(&c["md"]["ratio"]).to_string(),
                s(&c["verdict"]).to_string(),
            ),
            None => panic!("{codec} is neither compared, the reference nor the floor"),
        };
        // the first headline figure and its verdict first, the wall last
        let line = format!(
            "| {} | {codec} | {} | {} | {vs} | {verdict} |",
            u(&e["batch"]),
            s(&e["md"]["n_ok"]),
            s(&e["md"]["init_plus_ops"]),
        );
        let wall = format!("| {} |", s(&e["md"]["wall"]));
        assert!(
            headline
                .iter()
                .any(|l| l.starts_with(&line) && l.ends_with(&wall)),
            "the headline lacks\n{line} … {wall}\n{}",
            headline.join("\n")
        );
        if let Some(c) = contrast {
            let line = format!(
                "| {} | {} | {} | {codec} | {} | {} | {} | {} | {} |",
                s(&e["fixture"]),
                s(&e["op"]),
                u(&e["batch"]),
                u(&c["pairs"]),
                s(&c["md"]["ratio"]),
                s(&c["md"]["p"]),
                s(&c["md"]["p_holm"]),
                s(&c["verdict"]),
            );
            assert!(
                against.contains(&line.as_str()),
                "the comparisons lack\n{line}\n{}",
                against.join("\n")
            );
        }
    }
    // one row per comparison, and Holm over exactly those
    let rows = against
        .iter()
        .filter(|l| l.starts_with("| users-2kb |"))
        .count();
    assert_eq!(rows, exp["contrasts"].as_array().unwrap().len());
    assert!(
        md.contains("Holm-adjusted across all 2 comparisons of this report"),
        "{md}"
    );
    assert!(md.contains(
        "> Warning: 1 failed samples (timeout: 1) in 1 cells: users-2kb de ×10 simd-json (portable) (1 of 8)."
    ));
}

// ---------------------------------------------------------------------------------------------
// compare's edges
// ---------------------------------------------------------------------------------------------

#[test]
fn an_interval_ending_exactly_at_the_threshold_is_no_change() {
    // The rule: regressed when lo > 1 + threshold, improved when hi < 1 − threshold. 1 + 0.02 is
    // the double nearest 1.02, and 1 − 0.02 the one nearest 0.98, so these are the edges.
    assert_eq!(1.0 + 0.02, 1.02);
    assert_eq!(1.0 - 0.02, 0.98);
    assert_eq!(classify(1.02, 1.10, 0.02), Change::Unchanged);
    assert_eq!(classify(1.020_000_1, 1.10, 0.02), Change::Regressed);
    assert_eq!(classify(0.90, 0.98, 0.02), Change::Unchanged);
    assert_eq!(classify(0.90, 0.979_999_9, 0.02), Change::Improved);
    assert_eq!(classify(0.98, 1.02, 0.02), Change::Unchanged);
}

/// A timed run folder written by hand (plan.csv and samples.csv, no manifest): for each
/// `(codec, init_plus_ops of blocks 0, 1, …)`, one `de` ×1 sample per block, every other phase
/// fixed.
fn hand_run(dir: &Path, cells: &[(&str, Vec<u64>)]) {
    std::fs::create_dir_all(dir).unwrap();
    let blocks = cells[0].1.len();
    let (mut plan, mut samples) = (Vec::new(), Vec::new());
    for block in 0..blocks {
        for (codec, ipo) in cells {
            let p = PlanRow {
                plan_index: plan.len() as u64,
                block: block as u32,
                codec: codec.to_string(),
                op: Op::De,
                batch: 1,
                fixture: "users-2kb".into(),
                variant: Variant::PORTABLE,
            };
            let mut r = SampleRow::planned(&p);
            let ns = ipo[block];
            let phases = [500_000, 0, 17_000, 0, ns, 0, 400, 90_000];
            for (phase, v) in Phase::ALL.into_iter().zip(phases) {
                r.set(Figure::time(phase), Some(v));
            }
            r.set(Figure::INIT_PLUS_OPS, Some(ns));
            r.set(Figure::WALL, Some(phases.iter().sum()));
            r.exit_code = Some(0);
            r.checksum = Some("00000000000000ab".into());
            plan.push(p);
            samples.push(r);
        }
    }
    files::csv_rows::write_rows(&dir.join("plan.csv"), &plan).unwrap();
    files::csv_rows::write_rows(&dir.join("samples.csv"), &samples).unwrap();
}

/// compare's CSV (`--out`): one map of column to value per row (one row per cell: its timed run
/// has one figure).
fn compare_csv(path: &Path) -> Vec<HashMap<String, String>> {
    summary_rows(path)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn compare_calls_no_change_at_exactly_the_threshold_and_a_change_just_past_it() {
    // A: every sample 100 µs. B: serde_json 102 µs in four blocks and 110 µs in four, simd-json
    // 90 µs and 98 µs. Every bootstrap median of A is 100 µs and every one of B is one of its
    // two values or their mean, so the ratio's percentile interval is exactly [1.02, 1.10]
    // (102/100 is the double nearest 1.02) and [0.90, 0.98]: each end sits exactly on
    // 1 ± 0.02.
    let d = tmp("worked-edge");
    let flat = vec![100_000; 8];
    let two = |a: u64, b: u64| [vec![a; 4], vec![b; 4]].concat();
    hand_run(
        &d.join("a"),
        &[("serde_json", flat.clone()), ("simd-json", flat)],
    );
    hand_run(
        &d.join("b"),
        &[
            ("serde_json", two(102_000, 110_000)),
            ("simd-json", two(90_000, 98_000)),
        ],
    );
    let compare = |threshold: Option<&str>, csv: &str| -> (Output, Vec<HashMap<String, String>>) {
        let mut cmd = bin();
        cmd.args(["compare", "--fail-on-regression"]);
        if let Some(t) = threshold {
            cmd.args(["--threshold", t]);
        }
        let out = cmd
            .arg(d.join("a"))
            .arg(d.join("b"))
            .arg("--out")
            .arg(d.join(csv))
            .output()
            .unwrap();
        let rows = compare_csv(&d.join(csv));
        (out, rows)
    };
    let by_codec = |rows: &[HashMap<String, String>], codec: &str| -> HashMap<String, String> {
        rows.iter().find(|r| r["codec"] == codec).unwrap().clone()
    };

    // the default threshold, 0.02: both ends exactly on the edge, so no change
    let (out, rows) = compare(None, "default.csv");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("figure init_plus_ops, threshold ±2.0%"),
        "{text}"
    );
    assert!(
        text.contains(
            "2 cells compared: 0 improved, 0 regressed, 2 unchanged; 0 with too few samples"
        ),
        "{text}"
    );
    let serde = by_codec(&rows, "serde_json");
    assert_eq!(
        (serde["lo"].as_str(), serde["hi"].as_str()),
        ("1.02", "1.1"),
        "{serde:?}"
    );
    assert_eq!(serde["ratio"], "1.06");
    assert_eq!(serde["verdict"], "unchanged");
    let simd = by_codec(&rows, "simd-json");
    assert_eq!(
        (simd["lo"].as_str(), simd["hi"].as_str()),
        ("0.9", "0.98"),
        "{simd:?}"
    );
    assert_eq!(simd["verdict"], "unchanged");
    assert!(
        text.lines()
            .any(|l| l.contains(" serde_json ") && l.ends_with("1.060× [1.020, 1.100]  unchanged")),
        "{text}"
    );

    // a threshold just below: the same intervals now lie beyond it
    let (out, rows) = compare(Some("0.019"), "narrow.csv");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("threshold ±1.9%"), "{text}");
    assert!(
        text.contains("2 cells compared: 1 improved, 1 regressed, 0 unchanged;"),
        "{text}"
    );
    assert_eq!(by_codec(&rows, "serde_json")["verdict"], "regressed");
    assert_eq!(by_codec(&rows, "simd-json")["verdict"], "improved");
    assert_eq!(
        stderr(&out),
        "users-2kb de ×1 serde_json (portable): regressed\n1 cell(s) regressed\n"
    );
}

/// Synthetic runs shared by the tests below (seed 5, 1200 samples each, ≈ 22 per cell): A;
/// A with serde_json 25% slower; A with serde_json 20% faster; A built native.
fn synth_runs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tmp("worked-synth");
        synth(&d.join("a"), 1200, 5, &[]);
        synth(&d.join("slower"), 1200, 5, &["--scale", "serde_json=1.25"]);
        synth(&d.join("faster"), 1200, 5, &["--scale", "serde_json=0.8"]);
        synth(&d.join("native"), 1200, 5, &["--variants", "native"]);
        d
    })
}

/// The cells of one synthetic build that serde_json has: 2 ops × 3 batches.
const SERDE_CELLS: usize = 6;

/// `compare` of two synthetic runs with `args`, and its CSV.
fn synth_compare(
    a: &str,
    b: &str,
    args: &[&str],
    csv: &str,
) -> (Output, Vec<HashMap<String, String>>) {
    let d = synth_runs();
    let out_csv = d.join(csv);
    let out = bin()
        .arg("compare")
        .args(args)
        .arg(d.join(a))
        .arg(d.join(b))
        .arg("--out")
        .arg(&out_csv)
        .output()
        .unwrap();
    let rows = if out.status.code() == Some(2) {
        Vec::new()
    } else {
        compare_csv(&out_csv)
    };
    (out, rows)
}

fn tally(improved: usize, regressed: usize, unchanged: usize) -> String {
    format!(
        "{} cells compared: {improved} improved, {regressed} regressed, {unchanged} unchanged; 0 with too few samples",
        improved + regressed + unchanged
    )
}

#[test]
fn a_wider_threshold_turns_a_25_percent_regression_into_no_change() {
    let n = cells();
    let (out, rows) = synth_compare("a", "slower", &["--fail-on-regression"], "slower.csv");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(&tally(0, SERDE_CELLS, n - SERDE_CELLS)),
        "{}",
        stdout(&out)
    );
    let regressed: Vec<&str> = rows
        .iter()
        .filter(|r| r["verdict"] == "regressed")
        .map(|r| r["codec"].as_str())
        .collect();
    assert_eq!(regressed, vec!["serde_json"; SERDE_CELLS]);
    assert!(stderr(&out).ends_with(&format!("{SERDE_CELLS} cell(s) regressed\n")));

    // every interval of B / A lies below 1.5 (it holds 1.25), so at ±50% nothing changed
    let (out, rows) = synth_compare(
        "a",
        "slower",
        &["--fail-on-regression", "--threshold", "0.5"],
        "slower-wide.csv",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("threshold ±50.0%"), "{text}");
    assert!(text.contains(&tally(0, 0, n)), "{text}");
    assert_eq!(rows.len(), n);
    for r in rows.iter().filter(|r| r["codec"] == "serde_json") {
        let (lo, hi): (f64, f64) = (r["lo"].parse().unwrap(), r["hi"].parse().unwrap());
        assert!(lo > 1.02 && hi < 1.5, "{r:?}");
        assert_eq!(r["verdict"], "unchanged", "{r:?}");
    }
    assert_eq!(stderr(&out), "");
}

#[test]
fn fail_on_regression_passes_when_only_improvements_exist() {
    let n = cells();
    let (out, rows) = synth_compare("a", "faster", &["--fail-on-regression"], "faster.csv");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&tally(SERDE_CELLS, 0, n - SERDE_CELLS)),
        "{}",
        stdout(&out)
    );
    let improved: Vec<&str> = rows
        .iter()
        .filter(|r| r["verdict"] == "improved")
        .map(|r| r["codec"].as_str())
        .collect();
    assert_eq!(improved, vec!["serde_json"; SERDE_CELLS]);
    assert_eq!(stderr(&out), "", "nothing regressed, nothing said");
    // the other way round the same cells regressed, and the status says so
    let (out, _) = synth_compare("faster", "a", &["--fail-on-regression"], "faster-back.csv");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).ends_with(&format!("{SERDE_CELLS} cell(s) regressed\n")));
}

#[test]
fn ignore_variant_matches_a_portable_run_with_a_native_one() {
    let n = cells();
    // without the flag the two builds share no cell: an error that names the flag
    let (out, _) = synth_compare(
        "a",
        "native",
        &["--fail-on-regression"],
        "native-strict.csv",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "have no cell in common ({n} cells only in A, {n} only in B; --ignore-variant matches cells of different variants)"
        )),
        "{err}"
    );
    // with it, every cell is matched with its native build; synth plants the SIMD libraries
    // faster there (simd-json 0.48×, simd-json-value 0.44×, sonic-rs 0.69×, sonic-rs-value
    // 0.49×) and the others alike, so exactly their cells improved, and nothing regressed
    let (out, rows) = synth_compare(
        "a",
        "native",
        &["--fail-on-regression", "--ignore-variant"],
        "native.csv",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let planted: HashMap<&str, f64> = [
        ("simd-json", 0.48),
        ("simd-json-value", 0.44),
        ("sonic-rs", 0.69),
        ("sonic-rs-value", 0.49),
    ]
    .into_iter()
    .collect();
    assert_eq!(rows.len(), n);
    let mut improved = 0;
    for r in &rows {
        assert_eq!(r["variant"], "portable→native", "{r:?}");
        match planted.get(r["codec"].as_str()) {
            Some(&factor) => {
                assert_eq!(r["verdict"], "improved", "{r:?}");
                let ratio: f64 = r["ratio"].parse().unwrap();
                assert!((ratio - factor).abs() < 0.01, "{r:?}");
                improved += 1;
            }
            None => assert_eq!(r["verdict"], "unchanged", "{r:?}"),
        }
    }
    // each SIMD codec in both ops and three batches
    assert_eq!(improved, planted.len() * SERDE_CELLS);
    assert!(
        stdout(&out).contains(&tally(improved, 0, n - improved)),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("; 0 cannot compare; 0 only in A, 0 only in B"));
}
