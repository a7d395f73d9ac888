//! The machine as a factor of a merged run (`analysis merge`): which machine each block ran on,
//! and what the machines say apart.
//!
//! A merged manifest lists its shards, each with the machine it ran on; a shard takes whole
//! blocks ([`Shard::blocks`]), so every block, and every within-block pair, lies on one machine.
//! Machines are the same when their descriptions are equal (CPU model and flags, cores, kernel,
//! virtualisation): shards of one machine pool as one. They are named M1, M2, … in the order of
//! their first shard.
//!
//! Across machines, for every contrast against the reference: the ratio on each machine (the
//! within-block log ratios of that machine's blocks: Hodges-Lehmann estimate and interval, as
//! the report's own contrasts), the pooled ratio (the report's contrast: the union of every
//! machine's within-block log ratios, pairs never crossing machines, so the pooling is
//! stratified by machine), and the machines' disagreement: Cochran's Q over the per-machine log
//! ratios, each weighted by the inverse square of the standard error its interval implies
//! (`stats::heterogeneity`), with I². The machines disagree on a comparison when Q's p-value,
//! Holm-adjusted across every comparison of the report (one family of its own), is below α.
//! And per machine the floor's wall and, where the `cpu-features` probe ran, what detecting the
//! CPU's features costs there.

use super::cells::{CellKey, Grouped};
use super::contrasts::{pair, ContrastRow};
use crate::inputs::machine::Machines;
use crate::parallel::par_map;
use crate::span::Span;
use crate::stats::heterogeneity::{cochran_q, log_se, Heterogeneity};
use crate::stats::holm::holm;
use crate::stats::paired::{log_ratio_contrast, PairedContrast};
use crate::stats::quantile::{median, sorted};
use schema::phases::{Figure, Phase};
use serde::Serialize;
use std::collections::BTreeMap;

/// One comparison against the reference, machine by machine and pooled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct AcrossMachines {
    pub(crate) key: CellKey,
    pub(crate) against: CellKey,
    /// The contrast on each machine, in the machines' order (`None`: no pair there).
    pub(crate) machines: Vec<Option<PairedContrast>>,
    /// Every machine's pairs together: the report's contrast.
    pub(crate) pooled: Option<PairedContrast>,
    /// Cochran's Q over the machines whose contrast has an interval; `None` below two.
    pub(crate) heterogeneity: Option<Heterogeneity>,
    /// Q's p-value, Holm-adjusted across the report's comparisons.
    pub(crate) p_holm: Option<f64>,
    /// The adjusted p is below α: the machines disagree on this ratio.
    pub(crate) disagree: bool,
}

/// A figure of one cell on each machine (`None` where it has no sample there).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct PerMachine {
    pub(crate) key: CellKey,
    pub(crate) values: Vec<Option<f64>>,
}

/// What a report says across the machines of a merged run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct AcrossReport {
    pub(crate) machines: Machines,
    /// With several machines: every contrast against the reference, per machine and pooled.
    pub(crate) ratios: Vec<AcrossMachines>,
    /// Each floor's median wall on each machine (the floor cells of the noise table).
    pub(crate) floor_walls: Vec<PerMachine>,
    /// The probe's first operation over its floor's, medians, on each machine: the price of
    /// detecting the CPU's features there.
    pub(crate) detection: Vec<PerMachine>,
}

impl AcrossReport {
    /// The comparisons on which the machines disagree.
    pub(crate) fn disagreeing(&self) -> impl Iterator<Item = &AcrossMachines> {
        self.ratios.iter().filter(|r| r.disagree)
    }
}

/// The median of `span` over `key`'s ok samples on each machine.
fn medians(
    grouped: &Grouped,
    machines: &Machines,
    key: &CellKey,
    value: &dyn Fn(usize) -> Option<u64>,
) -> Vec<Option<f64>> {
    let cell = grouped.cells[key];
    let mut by: Vec<Vec<f64>> = vec![Vec::new(); machines.0.len()];
    for i in cell.ok() {
        if let (Some(m), Some(v)) = (machines.of_block(cell.blocks[i]), value(i)) {
            by[m].push(v as f64);
        }
    }
    by.iter().map(|v| median(&sorted(v))).collect()
}

/// Everything across `machines`: the contrasts against the reference (`contrasts`, the
/// report's, each split by machine), the floors' walls (`floors`: the floor cells), and the
/// price of CPU-feature detection where `probe` ran with its floor `probe_floor`; intervals at
/// `level`, disagreement judged at `alpha`.
pub(crate) fn across(
    grouped: &Grouped,
    machines: Machines,
    contrasts: &[ContrastRow],
    floors: &[CellKey],
    (probe, probe_floor): (&str, Option<&str>),
    level: f64,
    alpha: f64,
) -> AcrossReport {
    let mut ratios = if machines.several() {
        ratios_by_machine(grouped, &machines, contrasts, level)
    } else {
        Vec::new()
    };
    judge_disagreement(&mut ratios, alpha);
    let floor_walls = floor_walls(grouped, &machines, floors);
    let detection = match probe_floor {
        Some(floor) => detection(grouped, &machines, probe, floor),
        None => Vec::new(),
    };
    AcrossReport {
        machines,
        ratios,
        floor_walls,
        detection,
    }
}

/// Each contrast against the reference on each machine alone (paired within its blocks there),
/// beside the pooled one, with the machines' heterogeneity (Cochran's Q).
fn ratios_by_machine(
    grouped: &Grouped,
    machines: &Machines,
    contrasts: &[ContrastRow],
    level: f64,
) -> Vec<AcrossMachines> {
    let span = Span::InitPlusOps;
    let n = machines.0.len();
    let split = |blocks: Vec<(u32, f64)>| {
        let mut by: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
        for (b, v) in blocks {
            if let Some(m) = machines.of_block(b) {
                by[m].push((b, v));
            }
        }
        by
    };
    par_map(contrasts, |row| {
        let (r, c) = (
            split(grouped.by_block(&row.against, span)),
            split(grouped.by_block(&row.key, span)),
        );
        let per: Vec<Option<PairedContrast>> = (0..n)
            .map(|m| log_ratio_contrast(&pair(&r[m], &c[m]), level))
            .collect();
        let estimates: Vec<(f64, f64)> = per
            .iter()
            .flatten()
            .filter_map(|x| Some((x.ratio.ln(), log_se(x.interval?, x.achieved_level)?)))
            .collect();
        AcrossMachines {
            key: row.key.clone(),
            against: row.against.clone(),
            machines: per,
            pooled: row.contrast.clone(),
            heterogeneity: cochran_q(&estimates),
            p_holm: None,
            disagree: false,
        }
    })
}

/// Holm-adjusts the heterogeneity tests' p-values across the comparisons that have one, and
/// marks those below `alpha` as the machines disagreeing.
fn judge_disagreement(ratios: &mut [AcrossMachines], alpha: f64) {
    let tested: Vec<usize> = (0..ratios.len())
        .filter(|&i| ratios[i].heterogeneity.is_some_and(|h| h.p.is_finite()))
        .collect();
    let ps: Vec<f64> = tested
        .iter()
        .map(|&i| ratios[i].heterogeneity.unwrap().p)
        .collect();
    for (&i, p) in tested.iter().zip(holm(&ps)) {
        ratios[i].p_holm = Some(p);
        ratios[i].disagree = p < alpha;
    }
}

/// The median wall time of each floor cell of the run on each machine.
fn floor_walls(grouped: &Grouped, machines: &Machines, floors: &[CellKey]) -> Vec<PerMachine> {
    let wall = |key: &CellKey| {
        let cell = grouped.cells[key];
        medians(grouped, machines, key, &|i| {
            Span::Wall.value(grouped.measure, cell, i)
        })
    };
    floors
        .iter()
        .filter(|k| grouped.cells.contains_key(*k))
        .map(|k| PerMachine {
            key: k.clone(),
            values: wall(k),
        })
        .collect()
}

/// The price of CPU-feature detection on each machine: the probe's first operation over its
/// floor's, at the probe's smallest batch in each fixture × op × variant.
fn detection(grouped: &Grouped, machines: &Machines, probe: &str, floor: &str) -> Vec<PerMachine> {
    let mut smallest: BTreeMap<(&str, schema::Op, schema::Variant), &CellKey> = BTreeMap::new();
    for k in grouped.cells.keys().filter(|k| k.codec == probe) {
        let e = smallest
            .entry((k.fixture.as_str(), k.op, k.variant))
            .or_insert(k);
        if k.batch < e.batch {
            *e = k;
        }
    }
    let first_op = |key: &CellKey| {
        let cell = grouped.cells[key];
        medians(grouped, machines, key, &|i| {
            cell.get(Figure::time(Phase::FirstOp), i)
        })
    };
    smallest
        .into_values()
        .filter_map(|k| {
            let f = k.with_codec(floor);
            grouped.cells.contains_key(&f).then(|| PerMachine {
                key: k.clone(),
                values: first_op(k)
                    .into_iter()
                    .zip(first_op(&f))
                    .map(|(a, b)| Some(a? - b?))
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::cells::group;
    use crate::analyze::contrasts::{adjust, against_reference};
    use crate::testing::{samples, timed};
    use schema::run_folder::{Machine, Manifest, Shard, ShardEntry};
    use schema::Measure;
    use std::collections::BTreeSet;
    use store::rows::PlanCount;

    fn machine(name: &str) -> Machine {
        Machine {
            cpu_model: Some(name.into()),
            ..Machine::default()
        }
    }

    fn shard(k: u32, n: u32, on: &str, first: u64, end: u64) -> ShardEntry {
        ShardEntry {
            shard: Shard { index: k, count: n },
            machine: machine(on),
            plan_indexes: (first, end),
            from: format!("s{k}"),
            started_utc: String::new(),
            sessions: Vec::new(),
        }
    }

    fn manifest(shards: Vec<ShardEntry>, blocks: u32) -> Manifest {
        let mut m = crate::synth::synth(crate::synth::SynthOptions {
            samples: 1,
            ..Default::default()
        })
        .manifest;
        m.settings.samples_per_cell = blocks;
        m.shards = shards;
        m
    }

    #[test]
    fn shards_of_one_machine_pool_and_each_block_has_its_machine() {
        // 9 blocks in 3: 0..3 on A, 3..6 on B, 6..9 on A again
        let m = manifest(
            vec![
                shard(1, 3, "A", 0, 30),
                shard(2, 3, "B", 30, 60),
                shard(3, 3, "A", 60, 90),
            ],
            9,
        );
        let ms = Machines::of(&m).unwrap();
        assert!(ms.several());
        let names: Vec<(&str, Option<&str>, usize, u64)> =
            ms.0.iter()
                .map(|e| {
                    (
                        e.name.as_str(),
                        e.machine.cpu_model.as_deref(),
                        e.shards.len(),
                        e.planned,
                    )
                })
                .collect();
        assert_eq!(names, [("M1", Some("A"), 2, 60), ("M2", Some("B"), 1, 30)]);
        let of: Vec<Option<usize>> = (0..10).map(|b| ms.of_block(b)).collect();
        assert_eq!(
            of,
            [0, 0, 0, 1, 1, 1, 0, 0, 0]
                .map(Some)
                .into_iter()
                .chain([None])
                .collect::<Vec<_>>()
        );
        assert_eq!(Machines::of(&manifest(vec![], 9)), None);
    }

    #[test]
    fn each_machine_has_its_floor_and_its_price_of_detection() {
        // blocks 0..3 on A, 3..6 on B: the floor's first op 1,000 ns on A and 2,000 on B (its
        // wall 0.5 ms longer); the probe's 5,000 on A and 80,000 on B (CPUID trapped), and a
        // probe at batch 10 that is not the smallest
        let mut rows = Vec::new();
        for b in 0..6u32 {
            let on_b = b >= 3;
            rows.push(timed(b, "noop", 1, Some(if on_b { 2_000 } else { 1_000 })));
            rows.push(timed(
                b,
                "cpu-features",
                1,
                Some(if on_b { 80_000 } else { 5_000 }),
            ));
            rows.push(timed(b, "cpu-features", 10, Some(1)));
        }
        let store = samples(&rows);
        let plan = PlanCount::default();
        let g = group(Measure::Time, &store, &plan);
        let m = manifest(vec![shard(1, 2, "A", 0, 9), shard(2, 2, "B", 9, 18)], 6);
        let floor = rows[0].cell();
        let a = across(
            &g,
            Machines::of(&m).unwrap(),
            &[],
            std::slice::from_ref(&floor),
            ("cpu-features", Some("noop")),
            0.95,
            0.05,
        );
        assert_eq!(a.floor_walls.len(), 1);
        assert_eq!(a.floor_walls[0].key, floor);
        assert_eq!(a.floor_walls[0].values, [Some(501_000.0), Some(502_000.0)]);
        assert_eq!(a.detection.len(), 1);
        assert_eq!(a.detection[0].key.batch, 1);
        assert_eq!(a.detection[0].values, [Some(4_000.0), Some(78_000.0)]);
        // no contrast given: nothing compared
        assert!(a.ratios.is_empty());
    }

    #[test]
    fn each_machine_has_its_ratio_and_q_flags_the_one_that_differs() {
        // 40 blocks, 20 per machine. "same" is 0.8 × the reference on both machines; "moved" is
        // 0.8 × on A and 1.2 × on B; each with a small deterministic wobble.
        let wobble = |b: u32| 1.0 + f64::from(b % 5) * 0.002;
        let mut rows = Vec::new();
        for b in 0..40u32 {
            let drift = 1000.0 + f64::from(b) * 50.0;
            let on_b = b >= 20;
            rows.push(timed(b, "serde_json", 1, Some((drift * 10.0) as u64)));
            rows.push(timed(b, "same", 1, Some((drift * 8.0 * wobble(b)) as u64)));
            let moved = if on_b { 12.0 } else { 8.0 };
            rows.push(timed(
                b,
                "moved",
                1,
                Some((drift * moved * wobble(b + 2)) as u64),
            ));
        }
        let store = samples(&rows);
        let plan = PlanCount::default();
        let g = group(Measure::Time, &store, &plan);
        let mut contrasts =
            against_reference(&g, "serde_json", &BTreeSet::new(), Span::InitPlusOps, 0.95);
        adjust([&mut contrasts, &mut []], 0.05);
        let m = manifest(vec![shard(1, 2, "A", 0, 60), shard(2, 2, "B", 60, 120)], 40);
        let a = across(
            &g,
            Machines::of(&m).unwrap(),
            &contrasts,
            &[],
            ("cpu-features", None),
            0.95,
            0.05,
        );
        let of = |codec: &str| a.ratios.iter().find(|r| r.key.codec == codec).unwrap();
        let ratios = |r: &AcrossMachines| -> Vec<f64> {
            r.machines
                .iter()
                .map(|c| c.as_ref().unwrap().ratio)
                .collect()
        };
        let same = of("same");
        let r = ratios(same);
        assert!(
            (r[0] - 0.804).abs() < 0.002 && (r[1] - 0.804).abs() < 0.002,
            "{r:?}"
        );
        assert!(!same.disagree);
        assert!(same.heterogeneity.unwrap().i2 < 0.5);
        let moved = of("moved");
        let r = ratios(moved);
        assert!(
            (r[0] - 0.804).abs() < 0.002 && (r[1] - 1.206).abs() < 0.003,
            "{r:?}"
        );
        let h = moved.heterogeneity.unwrap();
        assert_eq!((h.k, h.df), (2, 1));
        assert!(moved.disagree && h.i2 > 0.99, "{h:?}");
        // each machine's pairs are its own 20 blocks; the pooled ratio is the report's
        assert!(moved
            .machines
            .iter()
            .all(|c| c.as_ref().unwrap().pairs == 20));
        assert_eq!(
            moved.pooled,
            contrasts
                .iter()
                .find(|c| c.key.codec == "moved")
                .unwrap()
                .contrast
        );
        assert_eq!(a.disagreeing().count(), 1);
    }
}
