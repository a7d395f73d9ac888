//! What stopping on the data does to the intervals: `analysis synth --precision` samples as
//! `cold run --precision` does (10 blocks, then 5 at a time until every interval is within
//! ±3%), with a planted truth, and the report's own paired ratios are checked against it over
//! 100 seeds, beside the fixed 30-sample run. Also a precision run's and its report's shape.

use crate::common;

use analysis::analyze::cells::{group, CellKey};
use analysis::analyze::contrasts::{adjust, against_reference};
use analysis::parallel::par_map;
use analysis::span::Span;
use analysis::synth::{synth, truth, SynthOptions, FIXTURE, REFERENCE};
use common::{bin, run, tmp};
use schema::Measure;
use schema::{Op, StopReason, Variant};
use std::collections::BTreeSet;
use store::cell::Samples;
use store::rows::PlanCount;

/// The ratio the headline of a run is about: simd-json's one `de` against serde_json's.
fn headline_key() -> CellKey {
    CellKey {
        fixture: FIXTURE.into(),
        op: Op::De,
        variant: Variant::PORTABLE,
        batch: 1,
        codec: "simd-json".into(),
    }
}

/// One seed's run: whether the report's 95% interval of the headline ratio covers the planted
/// one, how many of all its paired ratios' intervals cover theirs (and of how many), and the
/// blocks it took.
struct Trial {
    headline: bool,

    covered: usize,
    ratios: usize,
    blocks: usize,
    /// Why it stopped, and whether the widest interval at the last check, which decided the
    /// stop, was a ratio's (not a cell median's); `None` for a fixed run.
    stop: Option<(StopReason, bool)>,
}

fn trial(seed: u64, precision: Option<f64>) -> Trial {
    let s = synth(SynthOptions {
        samples: common::cells() * 30,
        seed,
        precision,
        ..SynthOptions::default()
    });
    let (samples, plan) = (Samples::from_rows(&s.samples), PlanCount::of(&s.plan));
    let grouped = group(Measure::Time, &samples, &plan);
    let floors = BTreeSet::from(["noop".to_string()]);
    let mut rows = against_reference(&grouped, REFERENCE, &floors, Span::InitPlusOps, 0.95);
    adjust([&mut rows, &mut []], 0.05);
    let planted = |k: &CellKey| {
        truth(&k.codec, k.op, k.batch, k.variant, 1.0).unwrap()
            / truth(REFERENCE, k.op, k.batch, k.variant, 1.0).unwrap()
    };
    let covers = |k: &CellKey| {
        let row = rows.iter().find(|r| &r.key == k).unwrap();
        let (lo, hi) = row.contrast.as_ref().unwrap().interval.unwrap();
        (lo..=hi).contains(&planted(k))
    };
    Trial {
        headline: covers(&headline_key()),
        covered: rows.iter().filter(|r| covers(&r.key)).count(),
        ratios: rows.len(),
        blocks: s.manifest.settings.samples_per_cell as usize,
        stop: s.manifest.settings.stopping.as_ref().map(|r| {
            let by_ratio = r
                .widest
                .as_ref()
                .is_some_and(|(label, _)| label.ends_with(&format!(" / {REFERENCE}")));
            (r.stopped_on.unwrap(), by_ratio)
        }),
    }
}

/// Over 100 seeds, at a nominal 95%: how often the stopped run's interval of the headline
/// ratio covers the planted ratio. The bar is 93 of 100; the fixed 30-sample run is beside it.
/// About a minute in a debug build on two cores (the stopping rule computes some 3,500 intervals
/// per run), so it is left out of the default suite: `cargo test -p analysis --test all
/// precision:: -- --ignored --nocapture` prints the figures docs/findings.md quotes.
#[test]
#[ignore = "about four minutes here: run with --ignored (CI does); its figures are in docs/findings.md"]
fn stopping_at_three_percent_keeps_the_ratio_intervals_covering() {
    let seeds: Vec<u64> = (1..=100).collect();
    let report = |precision: Option<f64>| {
        let trials = par_map(&seeds, |&seed| trial(seed, precision));
        let headline = trials.iter().filter(|t| t.headline).count();
        let covered: usize = trials.iter().map(|t| t.covered).sum();
        let ratios: usize = trials.iter().map(|t| t.ratios).sum();
        let mut blocks: Vec<usize> = trials.iter().map(|t| t.blocks).collect();
        blocks.sort_unstable();
        // why each run stopped, and whether a ratio's width (not a median's) decided it
        let stops: Vec<(StopReason, bool)> = trials.iter().filter_map(|t| t.stop).collect();
        let how = if stops.is_empty() {
            String::new()
        } else {
            format!(
                "; stopped on precision {}, on samples {}; decided by a ratio's width {}",
                stops
                    .iter()
                    .filter(|s| s.0 == StopReason::Precision)
                    .count(),
                stops.iter().filter(|s| s.0 == StopReason::Samples).count(),
                stops.iter().filter(|s| s.1).count()
            )
        };
        println!(
            "{}: headline ratio covered in {headline} of 100 runs; all ratios {covered} of {ratios} ({:.1}%); blocks {}..{} (median {}){how}",
            precision.map_or("fixed 30 samples".to_string(), |p| format!("--precision {}%", p * 100.0)),
            100.0 * covered as f64 / ratios as f64,
            blocks[0],
            blocks[blocks.len() - 1],
            blocks[blocks.len() / 2]
        );
        (headline, covered, ratios)
    };
    let (stopped, stopped_all, n_all) = report(Some(0.03));
    let (fixed, fixed_all, _) = report(None);
    assert!(stopped >= 93, "the stopped runs covered {stopped} of 100");
    assert!(
        stopped_all as f64 >= 0.93 * n_all as f64,
        "{stopped_all} of {n_all}"
    );
    assert!(fixed >= 90, "the fixed runs covered {fixed} of 100");
    assert!(
        fixed_all as f64 >= 0.93 * n_all as f64,
        "{fixed_all} of {n_all}"
    );
}

/// A precision run looks like a real one: whole blocks, 10 then 5 at a time, its manifest's
/// rule and standing true of its rows (met at the last check, not at the one before), and
/// `--max-samples` ends it on samples.
#[test]
fn a_synthetic_precision_run_is_sampled_by_the_rule() {
    let s = synth(SynthOptions {
        seed: 3,
        precision: Some(0.06),
        ..SynthOptions::default()
    });
    let rule = s.manifest.settings.stopping.clone().unwrap();
    assert_eq!(rule.stopped_on, Some(StopReason::Precision));
    assert_eq!(
        (rule.min_blocks, rule.check_every, rule.max_blocks),
        (10, 5, 300)
    );
    let blocks = s.manifest.settings.samples_per_cell;
    assert!(blocks >= 10 && (blocks - 10).is_multiple_of(5), "{blocks}");
    assert_eq!(s.plan.len(), common::cells() * blocks as usize);
    assert_eq!(s.samples.len(), s.plan.len());
    assert_eq!(s.plan.last().unwrap().block, blocks - 1);
    assert!(rule.sampling_secs > 0.0);
    let at = |b: u32| {
        let rows: Vec<_> = s.samples.iter().filter(|r| r.block < b).cloned().collect();
        analysis::stats::precision::standing(
            &store::stopping::reaches(&Samples::from_rows(&rows), Some(REFERENCE), &["noop"]),
            0.06,
        )
    };
    let last = at(blocks);
    assert!(last.met);
    let (label, hw) = rule.widest.clone().unwrap();
    let widest = last.widest.unwrap();
    assert_eq!((label, hw), (widest.label, widest.half_width));
    assert!(hw.unwrap() <= 0.06);
    if blocks > 10 {
        assert!(!at(blocks - 5).met, "it went on only while the rule asked");
    }

    let capped = synth(SynthOptions {
        seed: 3,
        precision: Some(0.005),
        max_blocks: Some(12),
        ..SynthOptions::default()
    });
    let rule = capped.manifest.settings.stopping.unwrap();
    assert_eq!(rule.stopped_on, Some(StopReason::Samples));
    assert_eq!(capped.manifest.settings.samples_per_cell, 12);
    assert!(rule.widest.unwrap().1.unwrap() > 0.005);
}

/// The report of a precision run says how it was sampled and how precise each figure is, in
/// the report, summary.csv and summary.json.
#[test]
fn a_precision_report_gives_the_rule_and_each_cells_precision() {
    let d = tmp("precision-report");
    let dir = d.join("run");
    let out =
        run(bin()
            .args(["synth", "--out"])
            .arg(&dir)
            .args(["--precision", "6%", "--seed", "3"]));
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("sampled to ±6%: "), "{said}");
    let out = run(bin().arg("report").arg(&dir).args([
        "--warm",
        "/nonexistent",
        "--conformance",
        "/nonexistent.csv",
    ]));
    assert!(out.status.success());
    let md = std::fs::read_to_string(dir.join("report/report.md")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report/summary.json")).unwrap())
            .unwrap();
    let blocks = json["precision_run"]["samples_per_cell"].as_u64().unwrap();
    for needle in [
        "## Precision".to_string(),
        "This run was sampled to a precision (`cold run --precision 6%`)".into(),
        format!("It took {blocks} samples per cell in "),
        "It stopped on precision: every interval had reached ±6%; the widest at the last check was ±".into(),
        // the report's intervals are the rule's: every one of them within the target
        "By this report's own intervals, 96 of the rule's 96 intervals are within ±6%.".into(),
        "| users-2kb | de | 1 | noop (floor) |".into(),
        // the machine's noise, from the floor
        "## Noise".into(),
        "A floor runs no library, so its spread is the machine's and the harness's noise: the widest spread of a floor's wall was ".into(),
        "| users-2kb de ×1 noop (portable) | rust |".into(),
    ] {
        assert!(md.contains(&needle), "missing {needle:?}");
    }
    assert_eq!(json["precision_run"]["rule"]["stopped_on"], "precision");
    let csv = std::fs::read_to_string(dir.join("report/summary.csv")).unwrap();
    let mut lines = csv.lines().map(|l| l.split(',').collect::<Vec<_>>());
    let header = lines.next().unwrap();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (codec, median, ratio) = (
        col("codec"),
        col("init_plus_ops_half_width"),
        col("ratio_half_width"),
    );
    for row in lines {
        let hw: f64 = row[median].parse().unwrap();
        assert!(hw > 0.0 && (row[codec] == "noop" || hw <= 0.06), "{row:?}");
        let has_ratio = !["noop", REFERENCE].contains(&row[codec]);
        assert_eq!(!row[ratio].is_empty(), has_ratio, "{row:?}");
    }
}
