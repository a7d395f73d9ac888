//! End-to-end checks of the `analysis` binary on synthetic runs: report, compare, export, bad
//! input, and how the report's time grows with the samples.

use crate::common;

use common::{bin, cells, run, summary_rows, synth, tmp};

#[test]
fn report_end_to_end() {
    let d = tmp("report");
    let (runs, warm, conf) = (d.join("cold"), d.join("warm"), d.join("conformance.csv"));
    let run_dir = runs.join("2026-01-01T00-00-00Z");
    synth(
        &run_dir,
        600,
        3,
        &[
            "--warm",
            warm.to_str().unwrap(),
            "--conformance",
            conf.to_str().unwrap(),
        ],
    );
    // `latest` as a file naming the folder, as the cold runner may write it
    std::fs::write(runs.join("latest"), "2026-01-01T00-00-00Z\n").unwrap();
    let out = run(bin()
        .arg("report")
        .arg(runs.join("latest"))
        .arg("--warm")
        .arg(&warm)
        .arg("--conformance")
        .arg(&conf));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("users-2kb · de · portable"), "{stdout}");
    assert!(stdout.contains("vs serde_json"));
    let report = run_dir.join("report");
    for f in [
        "report.md",
        "report.html",
        "summary.csv",
        "summary.json",
        "charts/cost-0.svg",
    ] {
        assert!(report.join(f).is_file(), "missing {f}");
    }
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(
        !html.contains("<script") && !html.contains("src=\"http") && !html.contains("href=\"http")
    );
    assert!(html.matches("<svg").count() >= 8, "charts inline");
    for section in [
        "Cold penalty",
        "Break-even",
        "Allocations (warm)",
        "Conformance",
        "Run conditions",
        "with that library&#39;s parser",
    ] {
        let s = section.replace("&#39;", "'");
        assert!(html.contains(&s), "missing {s}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(json["cells"].as_array().unwrap().len(), cells());
    assert!(!json["break_evens"].as_array().unwrap().is_empty());
    let csv = std::fs::read_to_string(report.join("summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), cells() + 1);

    // without warm data or conformance table: the sections say so, nothing fails
    let out = run(bin()
        .arg("report")
        .arg(&run_dir)
        .args([
            "--warm",
            "/nonexistent",
            "--conformance",
            "/nonexistent.csv",
            "--out",
        ])
        .arg(d.join("bare")));
    assert!(out.status.success());
    let md = std::fs::read_to_string(d.join("bare/report.md")).unwrap();
    assert!(md.contains("No warm results"));
    assert!(md.contains("Absent: no allocation table"));
    assert!(md.contains("Absent: no conformance table"));
}

/// Every `<unit> [` in `text` opens an interval of figures or the "no interval" mark.
fn intervals_in(text: &str) -> Vec<&str> {
    ["ns [", "µs [", "ms [", " s ["]
        .iter()
        .flat_map(|u| text.match_indices(u).map(|(i, m)| &text[i + m.len()..]))
        .map(|rest| rest.split(']').next().unwrap_or(""))
        .collect()
}

#[test]
fn a_median_interval_that_does_not_exist_is_not_printed() {
    // One sample per cell (one block): no cell has a 95% median interval (n ≤ 5), so none
    // may print one; the CSV bounds are empty and the JSON ones null. Six samples per cell have
    // one.
    let d = tmp("no-interval");
    for (blocks, has) in [(1usize, false), (6, true)] {
        let run_dir = d.join(format!("run{blocks}"));
        synth(&run_dir, cells() * blocks, 2, &["--fail-rate", "0"]);
        let out = run(bin().arg("report").arg(&run_dir).args([
            "--warm",
            "/nonexistent",
            "--conformance",
            "/nonexistent.csv",
        ]));
        assert!(out.status.success());
        let report = run_dir.join("report");
        let md = std::fs::read_to_string(report.join("report.md")).unwrap();
        let html = std::fs::read_to_string(report.join("report.html")).unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        for text in [&md, &html, &stdout] {
            let found = intervals_in(text);
            assert!(!found.is_empty());
            assert!(
                found.iter().all(|i| (*i == "—") != has),
                "{blocks} block(s): {found:?}"
            );
        }
        let csv = std::fs::read_to_string(report.join("summary.csv")).unwrap();
        let mut lines = csv.lines().map(|l| l.split(',').collect::<Vec<_>>());
        let header = lines.next().unwrap();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let bounds = [
            "init_plus_ops_lo_ns",
            "init_plus_ops_hi_ns",
            "wall_lo_ns",
            "wall_hi_ns",
        ]
        .map(col);
        for row in lines {
            for &c in &bounds {
                assert_eq!(!row[c].is_empty(), has, "{blocks} block(s): {row:?}");
            }
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
                .unwrap();
        for cell in json["cells"].as_array().unwrap() {
            for figure in ["init_plus_ops", "wall"] {
                for bound in ["median_lo", "median_hi"] {
                    assert_eq!(!cell[figure][bound].is_null(), has, "{cell}");
                }
            }
        }
    }
}

#[test]
fn compare_flags_a_known_regression() {
    let d = tmp("compare");
    synth(&d.join("a"), 1200, 5, &[]);
    synth(&d.join("b"), 1200, 5, &["--scale", "serde_json=1.25"]);
    let out = run(bin()
        .args(["compare", "--fail-on-regression"])
        .arg(d.join("a"))
        .arg(d.join("a")));
    assert!(
        out.status.success(),
        "a run against itself: nothing regressed"
    );
    let out = bin()
        .args(["compare", "--fail-on-regression"])
        .arg(d.join("a"))
        .arg(d.join("b"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let regressed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.ends_with("regressed"))
        .collect();
    // every serde_json cell (2 ops × 3 batches) regressed, nothing else did
    assert_eq!(regressed.len(), 6, "{stdout}");
    assert!(regressed.iter().all(|l| l.contains("serde_json ")));
}

#[test]
fn compare_at_one_sample_per_cell_calls_nothing() {
    // Two runs with the same settings, one sample per cell: a bootstrap interval of one value
    // has zero width, so no cell may be called improved or regressed.
    let d = tmp("compare-small");
    synth(&d.join("a"), cells(), 1, &["--fail-rate", "0"]);
    synth(&d.join("b"), cells(), 2, &["--fail-rate", "0"]);
    let out = run(bin()
        .args(["compare", "--fail-on-regression"])
        .arg(d.join("a"))
        .arg(d.join("b")));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let too_few = stdout
        .lines()
        .filter(|l| l.ends_with("too few samples"))
        .count();
    let n = cells();
    assert_eq!(too_few, n, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{n} cells compared: 0 improved, 0 regressed, 0 unchanged; {n} with too few samples"
        )),
        "{stdout}"
    );
}

#[test]
fn compare_without_a_cell_in_common_fails() {
    let d = tmp("compare-disjoint");
    synth(&d.join("a"), cells(), 1, &[]);
    synth(&d.join("b"), cells(), 1, &[]);
    for file in ["samples.csv", "plan.csv"] {
        let path = d.join("b").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("users-2kb", "users-1kb")).unwrap();
    }
    let out = bin()
        .args(["compare", "--fail-on-regression"])
        .arg(d.join("a"))
        .arg(d.join("b"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "have no cell in common ({n} cells only in A, {n} only in B",
            n = cells()
        )),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("cells compared"));
}

#[test]
fn compare_lists_cells_in_one_run_only_and_cells_it_cannot_compare() {
    // B renames serde_json's de ×1 cell (so A has it only, and B its rename only) and zeroes
    // A's simd-json de ×1 (a median of 0: no ratio). Each is named; none is dropped.
    let d = tmp("compare-lists");
    synth(&d.join("a"), cells() * 8, 3, &["--fail-rate", "0"]);
    synth(&d.join("b"), cells() * 8, 3, &["--fail-rate", "0"]);
    // each sample edited, and its plan with it
    let edit = |dir: &std::path::Path, f: &dyn Fn(&mut schema::rows::SampleRow)| {
        let (mut rows, _) = store::rows::read_samples(&dir.join("samples.csv"), None).unwrap();
        rows.iter_mut().for_each(f);
        files::csv_rows::write_rows(&dir.join("samples.csv"), &rows).unwrap();
        let (mut plan, _) = store::rows::read_plan(&dir.join("plan.csv")).unwrap();
        for (p, r) in plan.iter_mut().zip(&rows) {
            p.codec = r.codec.clone();
        }
        files::csv_rows::write_rows(&dir.join("plan.csv"), &plan).unwrap();
    };
    edit(&d.join("b"), &|r| {
        if r.codec == "serde_json" && r.batch == 1 && r.op == schema::Op::De {
            r.codec = "serde_json-renamed".into();
        }
    });
    edit(&d.join("a"), &|r| {
        if r.codec == "simd-json" && r.batch == 1 && r.op == schema::Op::De {
            for p in schema::phases::Phase::LIBRARY {
                r.set(schema::phases::Figure::time(p), Some(0));
            }
            r.set(schema::phases::Figure::INIT_PLUS_OPS, Some(0));
        }
    });
    let out = run(bin().arg("compare").arg(d.join("a")).arg(d.join("b")));
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let n = cells();
    assert!(
        stdout.contains(&format!(
            "{} cells compared: 0 improved, 0 regressed, {} unchanged; 0 with too few samples",
            n - 1,
            n - 2
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("; 1 cannot compare; 1 only in A, 1 only in B"),
        "{stdout}"
    );
    let simd = stdout
        .lines()
        .find(|l| l.contains(" simd-json ") && l.contains("  de  ") && l.contains("     1  "))
        .unwrap();
    assert!(
        simd.ends_with("cannot compare: the median of A is 0: no ratio"),
        "{simd}"
    );
    assert!(
        stdout.contains("only in A (1):\n  users-2kb de ×1 serde_json (portable)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("only in B (1):\n  users-2kb de ×1 serde_json-renamed (portable)\n"),
        "{stdout}"
    );
}

#[test]
fn export_hyperfine() {
    let d = tmp("export");
    synth(&d.join("run"), 200, 1, &["--fail-rate", "0"]);
    let out = run(bin()
        .args(["export", "--format", "hyperfine"])
        .arg(d.join("run")));
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), cells());
    let r = &results[0];
    assert!(
        r["mean"].as_f64().unwrap() > 1e-4 && r["mean"].as_f64().unwrap() < 1e-2,
        "seconds"
    );
    assert_eq!(r["times"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let out = bin()
        .args(["export", "--format", "csv", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("possible values: hyperfine"), "{err}");

    let out = bin().args(["report", "/nonexistent/run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: no run folder at /nonexistent/run"),
        "{err}"
    );

    let d = tmp("bad");
    for (args, said) in [
        (
            &["--precision", "3%", "--measure", "instructions"][..],
            "error: --precision with --measure instructions",
        ),
        (
            &["--variants", "native,native"],
            "error: --variants: native is given twice",
        ),
        (
            &["--variants", "Fast/build"],
            "unknown variant `Fast/build`",
        ),
        (&["--max-samples", "50"], "--precision <PERCENT>"),
    ] {
        let out = bin()
            .args(["synth", "--out"])
            .arg(d.join("refused"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!d.join("refused").exists(), "{args:?}: nothing written");
    }
    synth(&d.join("run"), 60, 1, &[]);
    let out = bin()
        .arg("report")
        .arg(d.join("run"))
        .args(["--reference", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("valid values:") && err.contains("serde_json"),
        "{err}"
    );

    let samples = d.join("run/samples.csv");
    let text = std::fs::read_to_string(&samples)
        .unwrap()
        .replacen(",ok,", ",ok,notanumber,", 1);
    std::fs::write(&samples, text).unwrap();
    let out = bin().arg("report").arg(d.join("run")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("samples.csv: line 2"), "{err}");
    assert!(!err.contains("panicked"));
}

/// A run of two builds: each cell's native build over its portable one, paired within blocks,
/// finds the planted ratios (the SIMD libraries faster, the others not), in the report, on
/// every native row of summary.csv and in summary.json.
#[test]
fn a_run_of_two_builds_gives_native_over_portable_per_cell() {
    let d = tmp("variants");
    let dir = d.join("run");
    synth(
        &dir,
        2 * cells() * 30,
        4,
        &["--variants", "portable,native", "--fail-rate", "0"],
    );
    let out = run(bin().arg("report").arg(&dir).args([
        "--warm",
        "/nonexistent",
        "--conformance",
        "/nonexistent.csv",
    ]));
    assert!(out.status.success());
    let md = std::fs::read_to_string(dir.join("report/report.md")).unwrap();
    assert!(md.contains("## Build variants (native / portable)"), "{md}");
    assert!(md.contains("| fixture | op | batch | codec | pairs | native / portable [95% CI] |"));
    // each build's child size, from the manifest's children
    assert!(md.contains(
        "| simd-json | simd-json | 0.0.0-synthetic | typed | portable 900 KiB, native 908 KiB |"
    ));
    // the reference table tells the builds apart
    assert!(md.contains("| fixture | op | variant | batch | codec | pairs | ratio [95% CI] |"));
    let rows = summary_rows(&dir.join("report/summary.csv"));
    assert_eq!(rows.len(), 2 * cells());
    let (mut covered, mut native) = (0, 0);
    for row in &rows {
        if row["variant"] == "portable" {
            assert!(row["variant_ratio"].is_empty(), "{row:?}");
            continue;
        }
        native += 1;
        let planted = analysis::synth::models()
            .iter()
            .find(|m| m.id == row["codec"])
            .unwrap()
            .native;
        let ratio: f64 = row["variant_ratio"].parse().unwrap();
        let (lo, hi): (f64, f64) = (
            row["variant_ratio_lo"].parse().unwrap(),
            row["variant_ratio_hi"].parse().unwrap(),
        );
        assert_eq!(row["variant_against"], "portable");
        assert_eq!(row["variant_pairs"], "30");
        assert!((ratio / planted - 1.0).abs() < 0.1, "{row:?}");
        covered += usize::from(lo <= planted && planted <= hi);
        let verdict = if planted < 1.0 {
            "faster"
        } else {
            "no difference"
        };
        assert_eq!(row["variant_verdict"], verdict, "{row:?}");
    }
    // 95% intervals: at least 90% of them cover the planted ratio
    assert_eq!(native, cells());
    assert!(
        covered * 10 >= native * 9,
        "{covered} of {native} native intervals cover the planted ratio"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/summary.json")).unwrap())
            .unwrap();
    assert_eq!(
        json["variant_order"],
        serde_json::json!(["portable", "native"])
    );
    assert_eq!(json["variant_contrasts"].as_array().unwrap().len(), cells());
}
