//! Cells (codec × op × batch × fixture × variant): grouping samples and summarising each cell.

use crate::inputs::samples::{Num, Plan, Sample, Samples};
use crate::parallel::par_map;
use crate::stats::describe::{describe, describe_keeping_resamples, Describe};
use crate::stats::precision::relative_half_width;
use crate::stats::quantile::{median, sorted};
use crate::stats::spearman::{spearman, Spearman};
use serde::Serialize;
use std::collections::BTreeMap;

pub use schema::CellKey;

/// A seed for a cell's statistics: FNV-1a of its label, continued from the report's seed, so a
/// cell's interval does not depend on which other cells are in the run.
pub fn cell_seed(key: &CellKey, base: u64) -> u64 {
    schema::figures::fnv1a_from(schema::figures::FNV_OFFSET ^ base, key.label().as_bytes())
}

/// Which figure of a sample a statistic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// init + first_op + remaining_ops: the library's whole cost in the process.
    InitPlusOps,
    /// spawn → reaped: the process as `time` sees it.
    Wall,
}

impl Figure {
    pub fn of(self, r: &Sample) -> Option<u64> {
        r.get(self.num())
    }

    /// Its column.
    pub fn num(self) -> Num {
        match self {
            Figure::InitPlusOps => Num::InitPlusOps,
            Figure::Wall => Num::Wall,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Figure::InitPlusOps => "init_plus_ops",
            Figure::Wall => "wall",
        }
    }
}

/// The phases of a process's life, in order, with the column of each.
pub const PHASES: [(&str, Num); 7] = [
    ("spawn_to_main", Num::SpawnToMain),
    ("fixture", Num::Fixture),
    ("init", Num::Init),
    ("first_op", Num::FirstOp),
    ("remaining_ops", Num::RemainingOps),
    ("check", Num::Check),
    ("exit", Num::Exit),
];

/// The samples of every cell, in file order within the cell, and the sample counts the plan
/// promised per cell (empty without a plan).
pub struct Grouped<'a> {
    pub cells: BTreeMap<CellKey, &'a [Sample]>,
    pub planned: &'a BTreeMap<CellKey, usize>,
}

pub fn group<'a>(samples: &'a Samples, plan: &'a Plan) -> Grouped<'a> {
    let mut cells: BTreeMap<CellKey, &[Sample]> = samples
        .cells
        .iter()
        .map(|(k, v)| (k.clone(), v.as_slice()))
        .collect();
    // a planned cell with no finished sample yet still gets a row
    for k in plan.cells.keys() {
        cells.entry(k.clone()).or_default();
    }
    Grouped {
        cells,
        planned: &plan.cells,
    }
}

/// Median of each phase, ns (medians of each phase separately: they need not add up to the
/// median of the total).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseMedians(pub BTreeMap<String, f64>);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellSummary {
    pub key: CellKey,
    /// Samples the plan called for (`None` without a plan).
    pub planned: Option<usize>,
    pub ok: usize,
    pub failed: usize,
    /// Failure statuses and their counts.
    pub failures: BTreeMap<String, usize>,
    pub init_plus_ops: Option<Describe>,
    /// The precision the median of init_plus_ops reached: its interval's relative half-width
    /// on the wider side, as `cold run --precision` asks it (`stats::precision`); `None`
    /// without an interval.
    pub init_plus_ops_half_width: Option<f64>,
    pub wall: Option<Describe>,
    pub phases: PhaseMedians,
    pub user_us: Option<f64>,
    pub sys_us: Option<f64>,
    /// The child's own peak resident size (VmHWM), KiB: the memory figure.
    pub hwm_kib: Option<f64>,
    /// The kernel's max RSS from wait4 (starts from the spawner's high-water mark).
    pub maxrss_kib: Option<f64>,
    /// Median of wall − fixture: the whole process but its input building.
    pub wall_without_input: Option<f64>,
    /// With `--cold-cache`: samples whose child and input were fully evicted, of those that
    /// say.
    pub evicted: Option<(usize, usize)>,
    pub minflt: Option<f64>,
    pub majflt: Option<f64>,
    /// Drift: Spearman's ρ of init_plus_ops against the block index.
    pub drift: Option<Spearman>,
    /// Blocks holding more than one ok sample of this cell (should be 0).
    pub duplicate_blocks: usize,
    /// Bootstrap medians of init_plus_ops, drawn exactly in O(1) each (for the break-even's
    /// interval; the median's own interval is by order statistics and needs none).
    #[serde(skip)]
    pub boot_medians: Vec<f64>,
}

/// Options that shape the statistics (never the data).
#[derive(Debug, Clone, Copy)]
pub struct StatOptions {
    pub resamples: usize,
    pub level: f64,
    pub seed: u64,
}

fn median_of(rows: &[&Sample], f: impl Fn(&Sample) -> Option<u64>) -> Option<f64> {
    let v: Vec<f64> = rows.iter().filter_map(|r| f(r)).map(|x| x as f64).collect();
    median(&sorted(&v))
}

/// Summaries of every cell, in key order (computed in parallel).
pub fn summarize(grouped: &Grouped, opts: StatOptions) -> Vec<CellSummary> {
    let cells: Vec<(&CellKey, &&[Sample])> = grouped.cells.iter().collect();
    par_map(&cells, |(key, rows)| {
        let planned = grouped.planned.get(*key).copied();
        summarize_cell(key, rows, planned, opts)
    })
}

fn summarize_cell(
    key: &CellKey,
    rows: &[Sample],
    planned: Option<usize>,
    opts: StatOptions,
) -> CellSummary {
    let ok: Vec<&Sample> = rows.iter().filter(|r| r.is_ok()).collect();
    let mut failures = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.is_ok()) {
        *failures.entry(r.status.name()).or_insert(0) += 1;
    }
    let seed = cell_seed(key, opts.seed);
    let values_of = |f: Figure| -> Vec<f64> {
        ok.iter()
            .filter_map(|r| f.of(r))
            .map(|x| x as f64)
            .collect()
    };
    let (init_plus_ops, boot_medians) = match describe_keeping_resamples(
        &values_of(Figure::InitPlusOps),
        opts.resamples,
        opts.level,
        seed ^ 1,
    ) {
        Some((d, boot)) => (Some(d), boot),
        None => (None, Vec::new()),
    };
    let wall = describe(&values_of(Figure::Wall), opts.level);
    let mut phases = BTreeMap::new();
    for (name, num) in PHASES {
        if let Some(m) = median_of(&ok, |r| r.get(num)) {
            phases.insert(name.to_string(), m);
        }
    }
    let (blocks, values): (Vec<f64>, Vec<f64>) = ok
        .iter()
        .filter_map(|r| {
            r.get(Num::InitPlusOps)
                .map(|v| (f64::from(r.block), v as f64))
        })
        .unzip();
    let mut seen = std::collections::HashSet::new();
    let duplicate_blocks = ok.iter().filter(|r| !seen.insert(r.block)).count();
    let init_plus_ops_half_width = init_plus_ops
        .as_ref()
        .and_then(|d| relative_half_width(d.median, d.interval()?));
    CellSummary {
        key: key.clone(),
        planned,
        ok: ok.len(),
        failed: rows.len() - ok.len(),
        failures,
        init_plus_ops,
        init_plus_ops_half_width,
        wall,
        phases: PhaseMedians(phases),
        user_us: median_of(&ok, |r| r.get(Num::UserUs)),
        sys_us: median_of(&ok, |r| r.get(Num::SysUs)),
        hwm_kib: median_of(&ok, |r| r.get(Num::HwmKib)),
        maxrss_kib: median_of(&ok, |r| r.get(Num::MaxrssKib)),
        wall_without_input: median_of(&ok, |r| {
            Some(r.get(Num::Wall)?.saturating_sub(r.get(Num::Fixture)?))
        }),
        evicted: {
            let told: Vec<bool> = ok.iter().filter_map(|r| r.evicted).collect();
            (!told.is_empty()).then(|| (told.iter().filter(|&&e| e).count(), told.len()))
        },
        minflt: median_of(&ok, |r| r.get(Num::Minflt)),
        majflt: median_of(&ok, |r| r.get(Num::Majflt)),
        drift: spearman(&blocks, &values),
        duplicate_blocks,
        boot_medians,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use schema::run_folder::{PlanRow, SampleRow};

    pub fn row(block: u32, codec: &str, batch: u32, ns: Option<u64>) -> SampleRow {
        SampleRow {
            plan_index: u64::from(block),
            block,
            codec: codec.into(),
            op: schema::Op::De,
            batch,
            fixture: "users-2kb".into(),
            variant: schema::Variant::Portable,
            status: if ns.is_some() {
                schema::Status::Ok
            } else {
                schema::Status::Timeout
            },
            init_ns: ns.map(|_| 0),
            first_op_ns: ns,
            remaining_ops_ns: ns.map(|_| 0),
            init_plus_ops_ns: ns,
            wall_ns: ns.map(|v| v + 500_000),
            ..Default::default()
        }
    }

    #[test]
    fn cell_seeds_are_the_fnv1a_of_the_label_from_the_base() {
        // The seed the reports have always used: FNV-1a over the label, its basis xored with the
        // report's seed (so a report's intervals stay what they were).
        let key = row(0, "serde_json", 10, Some(1)).cell();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ 7;
        for b in "users-2kb de ×10 serde_json (portable)".bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(cell_seed(&key, 7), h);
        assert_ne!(cell_seed(&key, 7), cell_seed(&key, 8));
    }

    #[test]
    fn groups_and_summarises() {
        let mut rows: Vec<SampleRow> = (0..20)
            .map(|b| row(b, "a", 1, Some(1000 + u64::from(b))))
            .collect();
        rows.push(row(20, "a", 1, None));
        let plan: Vec<PlanRow> = (0..22)
            .map(|b| PlanRow {
                plan_index: b,
                block: b as u32,
                codec: "a".into(),
                op: schema::Op::De,
                batch: 1,
                fixture: "users-2kb".into(),
                variant: schema::Variant::Portable,
            })
            .collect();
        let (samples, plan) = (Samples::from_rows(&rows), Plan::from_rows(&plan));
        let g = group(&samples, &plan);
        let s = summarize(
            &g,
            StatOptions {
                resamples: 200,
                level: 0.95,
                seed: 1,
            },
        );
        assert_eq!(s.len(), 1);
        let c = &s[0];
        assert_eq!((c.ok, c.failed, c.planned), (20, 1, Some(22)));
        assert_eq!(c.failures.get("timeout"), Some(&1));
        assert_eq!(c.init_plus_ops.as_ref().unwrap().median, 1009.5);
        assert_eq!(c.wall.as_ref().unwrap().median, 501_009.5);
        assert_eq!(c.phases.0["first_op"], 1009.5);
        assert_eq!(c.drift.unwrap().rho, 1.0);
        assert_eq!(c.duplicate_blocks, 0);
        // 1000..=1019: median 1009.5, interval [x(6), x(15)] = [1005, 1014] at 95%, 4.5 on
        // either side: ±4.5 / 1009.5, as the stopping rule computes it
        let hw = c.init_plus_ops_half_width.unwrap();
        assert!((hw - 4.5 / 1009.5).abs() < 1e-15, "{hw}");
        let values: Vec<f64> = (0..20).map(|b| 1000.0 + f64::from(b)).collect();
        assert_eq!(
            Some(hw),
            crate::stats::precision::median_half_width(&values, 0.95)
        );
    }
}
