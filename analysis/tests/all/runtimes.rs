//! A run with children in other languages (tests/data/external-run-example: Python's json and
//! orjson, Node's JSON, Jackson and Gson on the JVM, each runtime's floor, and serde_json;
//! users-2kb, de and ser, batches 1 and 10, 3 samples per cell; no Rust floor): codecs grouped
//! by runtime, each measured from its own runtime's floor, the child sizes from the manifest's
//! children, and Rust and the other languages in one cost chart.

use crate::common;

use common::{bin, run, summary_rows, tmp};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/external-run-example")
}

fn report(name: &str) -> PathBuf {
    let out = tmp(name);
    let done = run(bin()
        .arg("report")
        .arg(example())
        .args([
            "--warm",
            "/nonexistent",
            "--conformance",
            "/nonexistent.csv",
            "--out",
        ])
        .arg(&out));
    assert!(done.status.success());
    out
}

#[test]
fn each_codec_is_measured_from_its_own_runtimes_floor() {
    let out = report("runtimes-floor");
    let rows = summary_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 36);
    let cell = |codec: &str, op: &str, batch: &str| -> &HashMap<String, String> {
        rows.iter()
            .find(|r| r["codec"] == codec && r["op"] == op && r["batch"] == batch)
            .unwrap()
    };
    let num = |r: &HashMap<String, String>, col: &str| -> f64 { r[col].parse().unwrap() };
    for (codec, runtime, floor) in [
        ("orjson", "python", "python-floor"),
        ("python-json", "python", "python-floor"),
        ("node-json", "node", "node-floor"),
        ("jackson", "jvm", "jvm-floor"),
        ("gson", "jvm", "jvm-floor"),
    ] {
        for (op, batch) in [("de", "1"), ("ser", "10")] {
            let r = cell(codec, op, batch);
            assert_eq!(
                (r["runtime"].as_str(), r["floor"].as_str()),
                (runtime, floor)
            );
            let want =
                num(r, "process_median_ns") - num(cell(floor, op, batch), "process_median_ns");
            assert_eq!(num(r, "over_floor_ns"), want, "{codec} {op} ×{batch}");
            assert!(
                !r["child_bytes"].is_empty(),
                "{codec}: the size of its child, from the manifest's children"
            );
        }
    }
    // Rust has no floor in this run: serde_json has no over floor, rather than another
    // runtime's; a floor has none either
    let serde = cell("serde_json", "de", "1");
    assert_eq!(
        (serde["runtime"].as_str(), serde["floor"].as_str()),
        ("rust", "")
    );
    assert_eq!(serde["over_floor_ns"], "");
    assert_eq!(cell("jvm-floor", "de", "1")["over_floor_ns"], "");
    // the reference's ratios are still taken across runtimes
    assert!(!cell("jackson", "de", "1")["ratio"].is_empty());

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let names: Vec<&str> = json["runtimes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    // Rust first, then the order of the manifest's codecs (python, node, jvm)
    assert_eq!(names, ["rust", "python", "node", "jvm"]);
}

#[test]
fn the_report_groups_codecs_by_runtime_and_shows_each_floor() {
    let out = report("runtimes-report");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for needle in [
        "## Runtimes",
        "A runtime's floor is its start plus the harness with no library",
        "| python | Python 3.11.7 | python-floor | orjson, python-json |",
        "| jvm | openjdk version \"17.0.15\" 2025-04-15 | jvm-floor | gson, jackson |",
        "| rust | rustc 1.95.0 (59807616e 2026-04-14) | **none** | serde_json |",
        "The floors: python-floor (python), node-floor (node), jvm-floor (jvm).",
        // the Codecs table: sizes from the manifest's children, grouped by runtime
        "| orjson | orjson | 3.8.3 | dom | python | 630 B |",
        "| serde_json | serde_json | 1.0.154 | typed | rust | de 35.7 MiB, ser 34.8 MiB |",
    ] {
        assert!(md.contains(needle), "missing {needle:?}");
    }
    // the headline lists Rust first, then python, node and jvm, each group by cost
    let headline: Vec<&str> = md
        .split("### users-2kb · de · portable")
        .nth(1)
        .unwrap()
        .split("\n###")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("| 1 |"))
        .map(|l| l.split('|').nth(2).unwrap().trim())
        .collect();
    assert_eq!(
        headline,
        [
            "serde_json (rust)",
            "python-floor (python)",
            "python-json (python)",
            "orjson (python)",
            "node-floor (node)",
            "node-json (node)",
            "jvm-floor (jvm)",
            "gson (jvm)",
            "jackson (jvm)",
        ]
    );
}

/// The cost chart draws Rust's and the other languages' libraries on one log scale: serde_json
/// at about 100 µs and Jackson at about 400 ms, every measured point inside the plot.
#[test]
fn one_cost_chart_holds_microseconds_and_hundreds_of_milliseconds() {
    let out = report("runtimes-chart");
    let svg = std::fs::read_to_string(out.join("charts/cost-0.svg")).unwrap();
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1)?.split('<').next())
        .collect();
    for label in [
        "serde_json",
        "jackson",
        "gson",
        "orjson",
        "node-json",
        "100 µs",
        "100 ms",
        "1 s",
    ] {
        assert!(texts.contains(&label), "{label} not in {texts:?}");
    }
    for floor in ["jvm-floor", "python-floor", "node-floor"] {
        assert!(!texts.contains(&floor), "a floor is not a library's curve");
    }
    // the measured points (filled, r = 3.2; rings mark crossings) inside the plot area: top
    // 24, bottom 460 − 48
    let ys: Vec<f64> = svg
        .split("<circle")
        .skip(1)
        .filter(|c| c.contains(r#"r="3.2""#))
        .filter_map(|c| c.split("cy=\"").nth(1)?.split('"').next()?.parse().ok())
        .collect();
    assert_eq!(ys.len(), 6 * 2, "six libraries at two batches");
    assert!(ys.iter().all(|y| (24.0..=412.0).contains(y)), "{ys:?}");
}
