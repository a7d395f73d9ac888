//! What a reader must be told before trusting the figures: an unfinished run, failed samples,
//! drift, many outliers, failed verification, duplicated blocks. Thresholds are constants here
//! and the report prints them.

use super::cells::CellSummary;
use crate::inputs::machine::Machines;
use schema::phases::Phase;
use schema::run_folder::{CheckStatus, Manifest};
use schema::Measure;
use std::collections::BTreeMap;

/// Drift is flagged when |ρ| of init_plus_ops against the block index is at least this…
pub(crate) const DRIFT_RHO: f64 = 0.3;
/// …and its p-value is below this.
pub(crate) const DRIFT_P: f64 = 0.01;
/// Outliers (beyond the 1.5·IQR fences) are "many" above this share of a cell's samples.
pub(crate) const OUTLIER_SHARE: f64 = 0.10;
/// At most this many cells are named in one warning.
const LIST: usize = 8;

/// `items` joined for a warning: the first [`LIST`], then how many more.
pub(crate) fn list(items: &[String]) -> String {
    let mut s = items
        .iter()
        .take(LIST)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > LIST {
        s.push_str(&format!("; and {} more", items.len() - LIST));
    }
    s
}

/// The warnings, most serious first.
pub(crate) fn warnings(
    manifest: Option<&Manifest>,
    planned: usize,
    finished_samples: usize,
    writing: Option<&str>,
    cells: &[CellSummary],
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(holder) = writing {
        out.push(format!(
            "A run is writing this folder now (it holds the folder's lock: {}): these are its first {finished_samples} samples; report it again when it has finished, and do not resume it.",
            if holder.is_empty() { "who, it does not say" } else { holder }
        ));
    }
    match manifest {
        None => out.push("No readable manifest.json: the run's conditions are unknown.".into()),
        Some(m) => {
            if m.synthetic {
                out.push(
                    "This run is synthetic (made by `analysis synth`): its numbers are invented to test the analysis. Never publish them."
                        .into(),
                );
            }
            let failed: Vec<String> = m
                .verification
                .iter()
                .filter(|v| v.status == CheckStatus::Fail)
                .map(|v| {
                    let detail = if v.detail.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", v.detail)
                    };
                    format!("{} on {} {}{detail}", v.codec, v.fixture, v.op)
                })
                .collect();
            if !failed.is_empty() {
                out.push(format!(
                    "Failed verification (their output differs from the reference, so their timings are not comparable): {}.",
                    list(&failed)
                ));
            }
            out.extend(overlapping(m));
            if !m.finished && writing.is_none() {
                out.push(format!(
                    "The run did not finish (manifest: finished = false): {finished_samples} of {planned} planned samples are present; `cold resume` completes it."
                ));
            }
        }
    }
    if let Some(m) = manifest.filter(|m| m.samples_planned > 0 && planned == 0) {
        out.push(format!(
            "plan.csv holds no planned sample, but the manifest says {} were planned: the plan was lost or emptied, so nothing checks the samples' order.",
            m.samples_planned
        ));
    }
    if planned > 0 && finished_samples < planned && manifest.is_some_and(|m| m.finished) {
        out.push(format!(
            "The manifest says the run finished, but only {finished_samples} of {planned} planned samples are in samples.csv."
        ));
    }

    out.extend(of_cells(cells));
    out
}

/// For a merged run: the shards of one machine that ran at the same time (their sessions, to
/// the second, share a stretch of time), each measured beside the other's load.
pub(crate) fn overlapping(m: &Manifest) -> Option<String> {
    let machines = Machines::of(m)?;
    let mut pairs = Vec::new();
    for (i, a) in m.shards.iter().enumerate() {
        for b in m.shards[i + 1..].iter().filter(|b| b.machine == a.machine) {
            if let Some((from, to)) = overlap(&a.sessions, &b.sessions) {
                let name = machines
                    .0
                    .iter()
                    .find(|e| e.machine == a.machine)
                    .map_or("?", |e| e.name.as_str());
                pairs.push(format!(
                    "shards {} and {} on {name}, {from} to {to}",
                    a.shard, b.shard
                ));
            }
        }
    }
    (!pairs.is_empty()).then(|| {
        format!(
            "Shards ran at the same time on one machine, so each one's samples were measured beside the other's load: {}. Give each shard its machine whole (Slurm: --exclusive; Kubernetes: one pod per node) and run them again.",
            list(&pairs)
        )
    })
}

/// The first stretch of time two shards' sessions (start, end) share; sessions that only touch
/// (one ends in the second the other starts) share none.
fn overlap(a: &[(String, String)], b: &[(String, String)]) -> Option<(String, String)> {
    a.iter()
        .flat_map(|x| b.iter().map(move |y| (x, y)))
        .find_map(|(x, y)| {
            let from = x.0.as_str().max(y.0.as_str());
            let to = x.1.as_str().min(y.1.as_str());
            (from < to).then(|| (from.to_string(), to.to_string()))
        })
}

/// What a reader must be told of the cells: failed samples, drift, many outliers, and blocks
/// that hold a cell twice.
fn of_cells(cells: &[CellSummary]) -> Vec<String> {
    let mut out = Vec::new();
    let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failed_cells = Vec::new();
    for c in cells.iter().filter(|c| c.failed > 0) {
        for (s, n) in &c.failures {
            *statuses.entry(s).or_default() += n;
        }
        failed_cells.push(format!(
            "{} ({} of {})",
            c.key.label(),
            c.failed,
            c.ok + c.failed
        ));
    }
    if !failed_cells.is_empty() {
        let total: usize = statuses.values().sum();
        let by: Vec<String> = statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        out.push(format!(
            "{total} failed samples ({}) in {} cells: {}.",
            by.join(", "),
            failed_cells.len(),
            list(&failed_cells)
        ));
    }

    let drift: Vec<String> = cells
        .iter()
        .filter_map(|c| {
            let d = c.drift?;
            (d.rho.abs() >= DRIFT_RHO && d.p < DRIFT_P)
                .then(|| format!("{} (ρ = {:+.2}, p = {:.1e})", c.key.label(), d.rho, d.p))
        })
        .collect();
    if !drift.is_empty() {
        out.push(format!(
            "Drift (init_plus_ops trends with the block index, |ρ| ≥ {DRIFT_RHO}, p < {DRIFT_P}) in {} cells: {}. Within-block contrasts cancel drift common to a block; single-cell medians do not.",
            drift.len(),
            list(&drift)
        ));
    }

    let outliers: Vec<String> = cells
        .iter()
        .filter_map(|c| {
            let d = c.init_plus_ops.as_ref()?;
            let share = d.outliers.total() as f64 / d.n as f64;
            (share > OUTLIER_SHARE).then(|| format!("{} ({:.0}%)", c.key.label(), share * 100.0))
        })
        .collect();
    if !outliers.is_empty() {
        out.push(format!(
            "Many outliers (more than {:.0}% of samples beyond Tukey's 1.5·IQR fences) in {} cells: {}. The machine may have been busy.",
            OUTLIER_SHARE * 100.0,
            outliers.len(),
            list(&outliers)
        ));
    }

    let dups: Vec<String> = cells
        .iter()
        .filter(|c| c.duplicate_blocks > 0)
        .map(|c| format!("{} ({})", c.key.label(), c.duplicate_blocks))
        .collect();
    if !dups.is_empty() {
        out.push(format!(
            "Blocks holding more than one sample of a cell (a resumed run that repeated work?); the first is paired, all are summarised: {}.",
            list(&dups)
        ));
    }
    out
}

/// What a reader of a run of `measure` must be told about its cells: for a counted run, the
/// samples that were not counted and the cells whose counts disagree.
pub(crate) fn of_measure(measure: Measure, cells: &[CellSummary]) -> Vec<String> {
    if measure == Measure::Time {
        return Vec::new();
    }
    let mut out = Vec::new();
    let uncounted: Vec<String> = cells
        .iter()
        .filter(|c| c.counted() < c.ok)
        .map(|c| format!("{} ({} of {})", c.key.label(), c.ok - c.counted(), c.ok))
        .collect();
    if !uncounted.is_empty() {
        out.push(format!(
            "Ok samples without instruction counts (the runner could not cut callgrind's output into the protocol's phases; samples.csv's error column says why) in {} cells: {}.",
            uncounted.len(),
            list(&uncounted)
        ));
    }
    let differ: Vec<String> = cells
        .iter()
        .filter(|c| c.counted() > 1 && !c.identical)
        .map(|c| c.key.label())
        .collect();
    if !differ.is_empty() {
        out.push(format!(
            "Samples disagree in the library's phases ({}), which execute the same instructions every time when a library's work depends only on its input, in {} cells: {}. Their medians are shown with the spread; their ratios are not exact.",
            Phase::library_names(", "),
            differ.len(),
            list(&differ)
        ));
    }
    out
}

/// The warnings section when there is none.
pub(crate) fn none_text(measure: Measure) -> String {
    match measure {
        Measure::Time => format!(
            "None: the run finished, no sample failed, no codec failed verification, no cell drifted (|ρ| ≥ {DRIFT_RHO} with p < {DRIFT_P}) or had more than {:.0}% outliers.",
            OUTLIER_SHARE * 100.0
        ),
        Measure::Instructions => "None: the run finished, no sample failed, no codec failed verification, every ok sample was counted and every cell's samples agreed to the instruction.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::{group, summarize, StatOptions};
    use crate::testing::{samples, timed as row};
    use schema::rows::SampleRow;
    use schema::run_folder::CheckEntry;
    use schema::Measure;
    use schema::Op;
    use store::rows::PlanCount;

    fn cells(rows: &[SampleRow]) -> Vec<CellSummary> {
        let store = samples(rows);
        let plan = PlanCount::default();
        summarize(
            &group(Measure::Time, &store, &plan),
            StatOptions {
                resamples: 100,
                level: 0.95,
                seed: 0,
            },
        )
    }

    /// A finished synthetic run's manifest.
    fn manifest() -> Manifest {
        crate::synth::synth(crate::synth::SynthOptions {
            samples: 1,
            ..Default::default()
        })
        .manifest
    }

    #[test]
    fn a_clean_run_has_none() {
        let rows: Vec<_> = (0..30)
            .map(|b| row(b, "a", 1, Some(1000 + u64::from(b % 3))))
            .collect();
        let mut m = manifest();
        m.synthetic = false;
        assert!(warnings(Some(&m), 30, 30, None, &cells(&rows)).is_empty());
    }

    #[test]
    fn shards_of_one_machine_that_ran_at_once_are_named() {
        use schema::run_folder::{Machine, Shard, ShardEntry};
        let at = |s: &str| format!("2026-12-04T10:{s}Z");
        let shard = |k, on: &str, sessions: &[(&str, &str)]| ShardEntry {
            shard: Shard { index: k, count: 6 },
            machine: Machine {
                cpu_model: Some(on.into()),
                ..Machine::default()
            },
            plan_indexes: (0, 0),
            from: format!("shard-{k}"),
            started_utc: at(sessions[0].0),
            sessions: sessions.iter().map(|(a, b)| (at(a), at(b))).collect(),
        };
        let mut m = manifest();
        m.synthetic = false;
        m.shards = vec![
            // 1 and 2 overlap from 00:05 to 00:10
            shard(1, "A", &[("00:00", "00:10")]),
            shard(2, "A", &[("00:05", "00:20")]),
            // 3 ends in the second 4 starts: one after the other
            shard(3, "A", &[("01:00", "01:10")]),
            shard(4, "A", &[("01:10", "01:20")]),
            // 5 was killed and resumed, and ran in the gap around 3 and 4, not beside them
            shard(5, "A", &[("00:50", "01:00"), ("01:20", "01:30")]),
            // 6 ran beside 3, but on another machine
            shard(6, "B", &[("01:00", "01:10")]),
        ];
        let w = overlapping(&m).unwrap();
        assert_eq!(
            w,
            "Shards ran at the same time on one machine, so each one's samples were measured beside the other's load: shards 1/6 and 2/6 on M1, 2026-12-04T10:00:05Z to 2026-12-04T10:00:10Z. Give each shard its machine whole (Slurm: --exclusive; Kubernetes: one pod per node) and run them again."
        );
        assert!(warnings(Some(&m), 1, 1, None, &[]).contains(&w));
        // without 2, no shard ran beside another of its machine
        m.shards.remove(1);
        assert_eq!(overlapping(&m), None);
        // shards that do not say when they ran (an older merge) are not said to overlap
        m.shards.iter_mut().for_each(|s| s.sessions.clear());
        assert_eq!(overlapping(&m), None);
    }

    #[test]
    fn each_problem_is_named() {
        // drift: the figure climbs with the block; one failure; 20% outliers in cell b
        let mut rows: Vec<_> = (0..40)
            .map(|b| row(b, "a", 1, Some(1000 + 10 * u64::from(b))))
            .collect();
        rows.push(row(40, "a", 1, None));
        rows.extend((0..40).map(|b| {
            row(
                b,
                "b",
                1,
                Some(if b % 5 == 0 {
                    9000
                } else {
                    1000 + u64::from(b % 4)
                }),
            )
        }));
        let check = |codec: &str, op, status, detail: &str| CheckEntry {
            variant: None,
            codec: codec.into(),
            fixture: "f".into(),
            op,
            status,
            detail: detail.into(),
        };
        let mut m = manifest();
        m.finished = false;
        m.verification = vec![
            check("x", Op::De, CheckStatus::Fail, "wrong value"),
            check("y", Op::Ser, CheckStatus::Unsupported, ""),
        ];
        let w = warnings(Some(&m), 100, 81, None, &cells(&rows)).join("\n");
        for needle in [
            "synthetic",
            "Failed verification",
            "x on f de: wrong value",
            "did not finish",
            "81 of 100",
            "1 failed samples (timeout: 1)",
            "Drift",
            "Many outliers",
        ] {
            assert!(w.contains(needle), "missing {needle:?} in\n{w}");
        }
        assert!(!w.contains("y on f"), "unsupported is not a warning");
        assert!(warnings(None, 0, 0, None, &[])[0].contains("No readable manifest"));
        // a run writing the folder now: no advice to resume it
        let w = warnings(Some(&m), 100, 81, Some("pid 7: cold run"), &cells(&rows)).join("\n");
        assert!(
            w.contains(
                "A run is writing this folder now (it holds the folder's lock: pid 7: cold run)"
            ) && !w.contains("cold resume")
        );
        // an emptied plan
        let w = warnings(Some(&m), 0, 81, None, &cells(&rows)).join("\n");
        assert!(w.contains("plan.csv holds no planned sample"), "{w}");
    }
}
