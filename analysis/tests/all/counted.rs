//! End-to-end checks of counted runs (`cold run --measure instructions`): the report and
//! compare on synthetic counted runs with a planted truth, a counted run beside a timed one, and
//! the real counted folder in tests/data (noop, serde_json and simd-json; de and ser; batches 1
//! and 10; 3 samples per cell, counted under valgrind-3.19.0).

use crate::common;

use analysis::synth::planted;
use common::{bin, cells, run, summary_rows, synth, tmp};
use files::csv_rows::write_rows;
use schema::phases::{Figure, Phase, Quantity};
use schema::rows::SampleRow;
use schema::Op;
use std::path::{Path, PathBuf};

const NO_WARM: [&str; 4] = [
    "--warm",
    "/nonexistent",
    "--conformance",
    "/nonexistent.csv",
];

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/counted-run-example")
}

#[test]
fn a_counted_synthetic_report_shows_the_planted_counts_and_ratios() {
    let d = tmp("counted-report");
    let dir = d.join("run");
    synth(
        &dir,
        cells() * 3,
        4,
        &["--measure", "instructions", "--fail-rate", "0"],
    );
    let out = run(bin().arg("report").arg(&dir).args(NO_WARM));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("users-2kb · de · portable (instructions)"),
        "{stdout}"
    );

    let rows = summary_rows(&dir.join("report/summary.csv"));
    assert_eq!(rows.len(), cells());
    let instr = |p| Figure::Of(Quantity::Instructions, p);
    for r in &rows {
        let op = Op::parse(&r["op"]).unwrap();
        let batch: u32 = r["batch"].parse().unwrap();
        let want = planted(&r["codec"], op, batch, 1.0).unwrap();
        for p in Phase::ALL {
            let median: f64 = r[&format!("{p}_median_instr")].parse().unwrap();
            assert_eq!(median, want.get(instr(p)).unwrap() as f64, "{p} {r:?}");
        }
        for (q, p) in [
            (Quantity::AllocBlocks, Phase::Init),
            (Quantity::AllocBytes, Phase::FirstOp),
            (Quantity::AllocBytes, Phase::RemainingOps),
        ] {
            let f = Figure::Of(q, p);
            let median: f64 = r[&format!("{}_median", f.column())].parse().unwrap();
            assert_eq!(median, want.get(f).unwrap() as f64, "{} {r:?}", f.column());
        }
        let library = |f: &schema::rows::Figures| -> f64 {
            Phase::LIBRARY
                .iter()
                .map(|&p| f.get(instr(p)).unwrap() as f64)
                .sum()
        };
        assert_eq!(
            r["init_plus_ops_median_instr"].parse::<f64>().unwrap(),
            library(&want)
        );
        assert_eq!(r["measure"], "instructions");
        assert_eq!((r["ok"].as_str(), r["identical"].as_str()), ("3", "true"));
        // no time is made up for a counted run: its figures are named in instructions
        assert!(!r.contains_key("init_plus_ops_median_ns"));
        assert_eq!(r["user_us"], "");
    }

    // simd-json de ×1, worked by hand: 4 instructions per ns of 2,000 ns init and 44,000 ns
    // first call: 184,000 instructions; serde_json's 30 + 26,000 ns: 104,120; 1.767×
    let md = std::fs::read_to_string(dir.join("report/report.md")).unwrap();
    let line = md
        .lines()
        .find(|l| {
            l.starts_with("| 1 | simd-json | 3 | identical ×3 |") && l.contains("| 184,000 |")
        })
        .unwrap_or_else(|| panic!("no simd-json de ×1 row in\n{md}"));
    assert!(line.contains("| 176,000 |"), "{line}");
    // the ratios to serde_json's same cell are the planted ones, exactly: 184,000 / 104,120
    // and 176,000 / 104,000
    assert!(line.contains("1.767×") && line.contains("1.692×"), "{line}");
    for said in [
        "## Instruction counts",
        "### What instructions do not show",
        "the kernel's share of exec and of page faults",
        "Cache and TLB misses",
        "Branch mispredictions",
        "Memory bandwidth",
        "Frequency and SMT effects",
        "Time waiting on I/O",
        "no AVX-512",
        "This run recorded no times",
    ] {
        assert!(md.contains(said), "missing {said:?}");
    }
    // the timing sections are left out, not printed empty
    for absent in [
        "## Against the reference",
        "Cold penalty",
        "## Per cell",
        "[—]",
        "## Charts",
    ] {
        assert!(!md.contains(absent), "{absent:?} in a counted report");
    }
    let html = std::fs::read_to_string(dir.join("report/report.html")).unwrap();
    assert!(html.contains("Instruction counts") && html.contains("identical ×3"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/summary.json")).unwrap())
            .unwrap();
    assert_eq!(json["measure"], "instructions");
    assert_eq!(json["cells"].as_array().unwrap().len(), cells());
    assert_eq!(json["cells"][0]["quantity"], "instr");
}

/// Two counted synthetic runs of `seed`, B's `codec` de ×`batch` first_op raised by 1%.
fn counted_pair(d: &Path, codec: &str, batch: u32) -> (PathBuf, PathBuf) {
    let (a, b) = (d.join("a"), d.join("b"));
    synth(&a, cells() * 3, 9, &["--measure", "instructions"]);
    synth(&b, cells() * 3, 9, &["--measure", "instructions"]);
    let path = b.join("samples.csv");
    let (rows, _) = store::rows::read_samples(&path, None).unwrap();
    let first = Figure::Of(Quantity::Instructions, Phase::FirstOp);
    let rows: Vec<SampleRow> = rows
        .into_iter()
        .map(|mut r| {
            if r.codec == codec && r.batch == batch && r.op == Op::De {
                r.set(first, r.get(first).map(|v| v + v / 100));
            }
            r
        })
        .collect();
    write_rows(&path, &rows).unwrap();
    (a, b)
}

#[test]
fn counted_compare_names_the_cell_and_phase_that_regressed() {
    let d = tmp("counted-compare");
    let (a, b) = counted_pair(&d, "simd-json", 10);
    let out = bin()
        .args(["compare", "--fail-on-regression"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    // simd-json de: 176,000 first_op instructions, 1% more is 177,760; init+ops 8,000 +
    // 176,000 + 9 × 10,000 = 274,000 → 275,760 (+0.642%)
    assert!(
        stderr.contains(
            "users-2kb de ×10 simd-json (portable): regressed: init+ops +0.642%, first_op +1.000%"
        ),
        "{stderr}"
    );
    assert!(
        stdout.contains("a phase beyond ±0.5% is a change"),
        "{stdout}"
    );
    let cells: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("users-2kb"))
        .collect();
    assert_eq!(cells.len(), common::cells());
    let regressed: Vec<&&str> = cells.iter().filter(|l| l.contains("regressed")).collect();
    assert_eq!(regressed.len(), 1, "{stdout}");
    assert!(regressed[0].contains(" simd-json "), "{}", regressed[0]);
    assert!(
        cells
            .iter()
            .filter(|l| !l.contains("regressed"))
            .all(|l| l.ends_with("unchanged")),
        "{stdout}"
    );
    let n = common::cells();
    assert!(
        stdout.contains(&format!(
            "{n} cells compared: 0 improved, 1 regressed, {} unchanged;",
            n - 1
        )),
        "{stdout}"
    );

    // at a 2% threshold the same change is unchanged
    let out = run(bin()
        .args(["compare", "--fail-on-regression", "--threshold", "0.02"])
        .arg(&a)
        .arg(&b));
    assert!(out.status.success());

    // a run against itself: unchanged everywhere, exit 0
    let out = run(bin()
        .args(["compare", "--fail-on-regression"])
        .arg(&a)
        .arg(&a));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "{n} cells compared: 0 improved, 0 regressed, {n} unchanged"
        )),
        "{stdout}"
    );

    // --out: one row per cell and figure (init+ops, the library's three phases, check, exit,
    // spawn_to_main)
    let csv = d.join("changes.csv");
    let out = bin()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows = summary_rows(&csv);
    assert_eq!(rows.len(), n * 7);
    let first = rows
        .iter()
        .find(|r| {
            r["codec"] == "simd-json"
                && r["batch"] == "10"
                && r["op"] == "de"
                && r["figure"] == "first_op"
        })
        .unwrap();
    assert_eq!(
        (first["median_a"].as_str(), first["median_b"].as_str()),
        ("176000", "177760")
    );
    assert_eq!(first["figure_verdict"], "regressed");
    assert_eq!(first["verdict"], "regressed");
}

#[test]
fn counted_against_timed_is_an_error_saying_why() {
    let d = tmp("counted-timed");
    synth(
        &d.join("counted"),
        cells(),
        1,
        &["--measure", "instructions"],
    );
    synth(&d.join("timed"), cells(), 1, &[]);
    for (a, b) in [("counted", "timed"), ("timed", "counted")] {
        let out = bin()
            .arg("compare")
            .arg(d.join(a))
            .arg(d.join(b))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is a counted run (--measure instructions)")
                && err.contains("is a timed run")
                && err.contains("different measures"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    // nor can a counted run be exported as times
    let out = bin()
        .args(["export", "--format", "hyperfine"])
        .arg(d.join("counted"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_report_with_timed_sets_the_times_beside_the_counts() {
    let d = tmp("counted-beside");
    let (counted, timed) = (d.join("counted"), d.join("timed"));
    synth(
        &counted,
        cells() * 3,
        5,
        &["--measure", "instructions", "--fail-rate", "0"],
    );
    synth(&timed, cells() * 10, 5, &["--fail-rate", "0"]);
    // a torn last row in the timed run: left out, and said in the notes
    let samples = timed.join("samples.csv");
    let text = std::fs::read_to_string(&samples).unwrap()
        + &format!("{},10,noop,de,1,users", cells() * 10);
    std::fs::write(&samples, text).unwrap();
    let out = run(bin()
        .arg("report")
        .arg(&counted)
        .arg("--timed")
        .arg(&timed)
        .args(NO_WARM));
    assert!(out.status.success());
    let md = std::fs::read_to_string(counted.join("report/report.md")).unwrap();
    assert!(md.contains("### Instructions beside times"), "{md}");
    assert!(md.contains("- The timed run: "), "{md}");
    // the counts come from the timing truth, so the ranks agree closely
    let at = md
        .find("first_op instructions and the timed median first_op: ρ = +")
        .unwrap();
    let rho: f64 = md[at..].split("ρ = +").nth(1).unwrap()[..4]
        .parse()
        .unwrap();
    assert!(rho > 0.9, "{rho}");
    assert!(
        md[at..].contains(&format!("(n = {} cells, p &lt; 0.0001)", cells())),
        "{}",
        &md[at..at + 300]
    );
    let rows = summary_rows(&counted.join("report/summary.csv"));
    assert!(rows
        .iter()
        .all(|r| !r["timed_first_op_median_ns"].is_empty()
            && !r["timed_init_plus_ops_median_ns"].is_empty()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("beside "), "{stdout}");

    // --timed needs a counted run and a timed one
    for (run_dir, with) in [(&timed, &timed), (&counted, &counted)] {
        let out = bin()
            .arg("report")
            .arg(run_dir)
            .arg("--timed")
            .arg(with)
            .args(NO_WARM)
            .arg("--out")
            .arg(d.join("x"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: --timed "));
    }
}

#[test]
fn the_real_counted_folder_loads_reports_and_compares() {
    let d = tmp("counted-real");
    let out = run(bin()
        .arg("report")
        .arg(example())
        .args(NO_WARM)
        .arg("--out")
        .arg(d.join("report")));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    // simd-json de ×1: 671 + 47,449 + 23 = 48,143 instructions against serde_json's
    // 18 + 64,908 + 23 = 64,949: 0.741×; first_op 47,449 / 64,908 = 0.731×
    let simd = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("1  simd-json") && l.contains("47,449"))
        .unwrap_or_else(|| panic!("{stdout}"));
    for said in ["identical ×3", "671", "48,143", "0.741×", "0.731×"] {
        assert!(simd.contains(said), "{said:?} not in {simd}");
    }
    let rows = summary_rows(&d.join("report/summary.csv"));
    assert_eq!(rows.len(), 12);
    let serde_ser_10 = rows
        .iter()
        .find(|r| r["codec"] == "serde_json" && r["op"] == "ser" && r["batch"] == "10")
        .unwrap();
    assert_eq!(serde_ser_10["remaining_ops_median_instr"], "226814");
    assert_eq!(serde_ser_10["alloc_first_op_bytes_median"], "8184");
    let md = std::fs::read_to_string(d.join("report/report.md")).unwrap();
    assert!(md.contains("valgrind-3.19.0 (callgrind"), "{md}");

    let out = run(bin()
        .args(["compare", "--fail-on-regression"])
        .arg(example())
        .arg(example()));
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("12 cells compared: 0 improved, 0 regressed, 12 unchanged"));
}
