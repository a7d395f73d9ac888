//! Cells (codec × op × batch × fixture × variant): grouping samples and summarising each cell in
//! the run's measure (nanoseconds, or instructions for a counted run): its headline span with
//! the median's interval, each phase's median and range, whether its samples agreed, and the
//! whole-process figures a timed run records.

use crate::parallel::par_map;
use crate::span::Span;
use crate::stats::describe::{describe, describe_keeping_resamples, Describe};
use crate::stats::precision::relative_half_width;
use crate::stats::quantile::median_unsorted;
use crate::stats::spearman::{spearman, Spearman};
use schema::phases::{Figure, Phase, Quantity, Whole};
use schema::Measure;
use serde::Serialize;
use std::collections::BTreeMap;
use store::cell::{CellSamples, Samples};
use store::rows::PlanCount;

pub use schema::CellKey;

/// A seed for a cell's statistics: FNV-1a of its label, continued from the report's seed, so a
/// cell's interval does not depend on which other cells are in the run.
pub(crate) fn cell_seed(key: &CellKey, base: u64) -> u64 {
    schema::protocol::fnv1a_from(schema::protocol::FNV_OFFSET ^ base, key.label().as_bytes())
}

/// A cell with no finished sample yet.
static EMPTY: CellSamples = CellSamples::EMPTY;

/// The samples of every cell, in file order within the cell, the sample counts the plan
/// promised per cell (empty without a plan), and the measure they are read in.
pub struct Grouped<'a> {
    pub(crate) measure: Measure,
    pub(crate) cells: BTreeMap<CellKey, &'a CellSamples>,
    pub(crate) planned: &'a BTreeMap<CellKey, usize>,
}

impl Grouped<'_> {
    /// (block, `span`) of a cell's ok samples in ascending block order, one per block: the first
    /// ok sample of a block (in file order) wins.
    pub(crate) fn by_block(&self, key: &CellKey, span: Span) -> Vec<(u32, f64)> {
        let cell = self.cells[key];
        let mut v: Vec<(u32, f64)> = cell
            .ok()
            .filter_map(|i| Some((cell.blocks[i], span.value(self.measure, cell, i)? as f64)))
            .collect();
        v.sort_by_key(|&(b, _)| b); // stable: file order within a block
        v.dedup_by_key(|&mut (b, _)| b); // keeps the first of each block
        v
    }
}

pub fn group<'a>(measure: Measure, samples: &'a Samples, plan: &'a PlanCount) -> Grouped<'a> {
    let mut cells: BTreeMap<CellKey, &CellSamples> =
        samples.cells.iter().map(|(k, v)| (k.clone(), v)).collect();
    // a planned cell with no finished sample yet still gets a row
    for k in plan.cells.keys() {
        cells.entry(k.clone()).or_insert(&EMPTY);
    }
    Grouped {
        measure,
        cells,
        planned: &plan.cells,
    }
}

/// The median and range of one figure over a cell's ok samples that hold it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Spread {
    pub(crate) n: usize,
    pub(crate) median: f64,
    pub(crate) min: u64,
    pub(crate) max: u64,
}

impl Spread {
    /// The spread of `values`; `None` when empty.
    pub(crate) fn of(values: &[u64]) -> Option<Spread> {
        let min = *values.iter().min()?;
        let max = *values.iter().max()?;
        let v: Vec<f64> = values.iter().map(|&x| x as f64).collect();
        Some(Spread {
            n: values.len(),
            median: median_unsorted(v)?,
            min,
            max,
        })
    }

    /// Every sample gave the same value.
    pub(crate) fn identical(&self) -> bool {
        self.min == self.max
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CellSummary {
    pub(crate) key: CellKey,
    /// The quantity its spans and phases are in: `ns`, or `instr` in a counted run.
    pub(crate) quantity: Quantity,
    /// Samples the plan called for (`None` without a plan).
    pub(crate) planned: Option<usize>,
    pub(crate) ok: usize,
    pub(crate) failed: usize,
    /// Failure statuses and their counts.
    pub(crate) failures: BTreeMap<String, usize>,
    /// init + first_op + remaining_ops (the headline) over the ok samples that hold it.
    pub(crate) init_plus_ops: Option<Describe>,
    /// The precision the median of init_plus_ops reached: its interval's relative half-width
    /// on the wider side, as `cold run --precision` asks it (`stats::precision`); `None`
    /// without an interval.
    pub(crate) init_plus_ops_half_width: Option<f64>,
    /// The process but its input phase (wall − fixture): the second headline figure, whose
    /// median over its runtime's floor's is the cell's over floor.
    pub(crate) process: Option<Describe>,
    /// The whole process, spawn to reaped.
    pub(crate) wall: Option<Describe>,
    /// Each phase's median and range (medians of each phase separately: they need not add up to
    /// the median of the total).
    pub(crate) phases: BTreeMap<Phase, Spread>,
    /// Heap blocks and bytes of the library's phases (a counted run's), by column.
    pub(crate) allocations: BTreeMap<&'static str, Spread>,
    /// Some sample holds the headline, and every such sample agreed exactly in the library's
    /// phases (a counted run's cell of a library whose work depends only on its input).
    pub(crate) identical: bool,
    pub(crate) user_us: Option<f64>,
    pub(crate) sys_us: Option<f64>,
    /// The child's own peak resident size (VmHWM), KiB: the memory figure.
    pub(crate) hwm_kib: Option<f64>,
    /// The kernel's max RSS from wait4 (starts from the spawner's high-water mark).
    pub(crate) maxrss_kib: Option<f64>,
    /// With `--cold-cache`: samples whose child and input were fully evicted, of those that
    /// say.
    pub(crate) evicted: Option<(usize, usize)>,
    pub(crate) minflt: Option<f64>,
    pub(crate) majflt: Option<f64>,
    /// Page faults of the library's three phases together.
    pub(crate) library_minflt: Option<f64>,
    pub(crate) library_majflt: Option<f64>,
    /// The median minor and major page faults of each phase the child reads them around
    /// (outside the library's: spawn_to_main, fixture, check, exit) and of the library's three
    /// together (`library`), in the order of the process's life.
    pub(crate) faults: Vec<PhaseFaults>,
    /// Drift: Spearman's ρ of init_plus_ops against the block index.
    pub(crate) drift: Option<Spearman>,
    /// Blocks holding more than one ok sample of this cell (should be 0).
    pub(crate) duplicate_blocks: usize,
    /// Bootstrap medians of init_plus_ops and of the process, drawn exactly in O(1) each (for
    /// the break-evens' and the process ratio's intervals; the median's own interval is by
    /// order statistics and needs none).
    #[serde(skip)]
    pub(crate) boot_medians: Vec<f64>,
    #[serde(skip)]
    pub(crate) process_boot: Vec<f64>,
}

impl CellSummary {
    /// Ok samples that hold the headline (in a counted run: whose library's phases were counted).
    pub(crate) fn counted(&self) -> usize {
        self.init_plus_ops.as_ref().map_or(0, |d| d.n)
    }

    /// The median of `phase`.
    pub(crate) fn phase(&self, phase: Phase) -> Option<f64> {
        Some(self.phases.get(&phase)?.median)
    }

    /// Whether the samples agreed, in words: "identical ×3", "one sample", "not counted", or
    /// the range of each library phase that differed ("first_op 47,196–47,449").
    pub(crate) fn agreement(&self, amount: impl Fn(f64) -> String) -> String {
        match self.counted() {
            0 => "not counted".into(),
            1 if self.identical => "one sample".into(),
            n if self.identical => format!("identical ×{n}"),
            _ => Phase::LIBRARY
                .iter()
                .filter_map(|p| {
                    let s = self.phases.get(p)?;
                    (!s.identical())
                        .then(|| format!("{p} {}–{}", amount(s.min as f64), amount(s.max as f64)))
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// The allocation figures a counted run records, in the order tables list them (each library
/// phase's blocks, then its bytes), each with its label (`first_op blocks`).
pub(crate) fn allocation_figures() -> impl Iterator<Item = (Figure, String)> {
    Phase::LIBRARY.into_iter().flat_map(|p| {
        [Quantity::AllocBlocks, Quantity::AllocBytes].map(move |q| {
            let what = q.name().trim_start_matches("alloc_");
            (Figure::Of(q, p), format!("{p} {what}"))
        })
    })
}

/// The page faults of one phase (or of the library's three together), medians.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct PhaseFaults {
    pub(crate) phase: &'static str,
    pub(crate) minor: Option<f64>,
    pub(crate) major: Option<f64>,
}

/// Options that shape the statistics (never the data).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StatOptions {
    pub(crate) resamples: usize,
    pub(crate) level: f64,
    pub(crate) seed: u64,
}

/// Whole numbers as f64 (figures are below 10^15, so exactly).
fn as_f64(values: Vec<u64>) -> Vec<f64> {
    values.into_iter().map(|v| v as f64).collect()
}

/// The page faults of each phase of `cell`, medians, where the child read them.
fn fault_medians(cell: &CellSamples) -> Vec<PhaseFaults> {
    let m = |f: Figure| median_unsorted(as_f64(cell.values(f)));
    let mut out = Vec::new();
    for p in Phase::ALL {
        let (minor, major) = if p == Phase::Init {
            (
                m(Figure::Whole(Whole::LibraryMinflt)),
                m(Figure::Whole(Whole::LibraryMajflt)),
            )
        } else if p.is_library() {
            continue;
        } else {
            (
                m(Figure::Of(Quantity::MinorFaults, p)),
                m(Figure::Of(Quantity::MajorFaults, p)),
            )
        };
        if minor.is_some() || major.is_some() {
            let phase = if p == Phase::Init {
                "library"
            } else {
                p.name()
            };
            out.push(PhaseFaults {
                phase,
                minor,
                major,
            });
        }
    }
    out
}

/// Summaries of every cell, in key order (computed in parallel).
pub(crate) fn summarize(grouped: &Grouped, opts: StatOptions) -> Vec<CellSummary> {
    let cells: Vec<(&CellKey, &&CellSamples)> = grouped.cells.iter().collect();
    par_map(&cells, |(key, cell)| {
        let planned = grouped.planned.get(*key).copied();
        summarize_cell(grouped.measure, key, cell, planned, opts)
    })
}

fn summarize_cell(
    measure: Measure,
    key: &CellKey,
    cell: &CellSamples,
    planned: Option<usize>,
    opts: StatOptions,
) -> CellSummary {
    let ok = cell.ok_count();
    let seed = cell_seed(key, opts.seed);
    let headline = Span::InitPlusOps.values(measure, cell);
    let keeping = |values: &[f64], stream: u64| match describe_keeping_resamples(
        values,
        opts.resamples,
        opts.level,
        seed ^ stream,
    ) {
        Some((d, boot)) => (Some(d), boot),
        None => (None, Vec::new()),
    };
    let (init_plus_ops, boot_medians) = keeping(&headline, 1);
    let (process, process_boot) = keeping(&Span::Process.values(measure, cell), 2);
    let q = measure.quantity();
    let spread = |f: Figure| Spread::of(&cell.values(f));
    let phases: BTreeMap<Phase, Spread> = Phase::ALL
        .iter()
        .filter_map(|&p| Some((p, spread(Figure::Of(q, p))?)))
        .collect();
    let allocations = allocation_figures()
        .filter_map(|(f, _)| Some((f.column(), spread(f)?)))
        .collect();
    let identical = init_plus_ops.is_some()
        && Phase::LIBRARY
            .iter()
            .all(|p| phases.get(p).is_some_and(Spread::identical));
    let init_plus_ops_half_width = init_plus_ops
        .as_ref()
        .and_then(|d| relative_half_width(d.median, d.interval()?));
    let whole = |w: Whole| median_unsorted(as_f64(cell.values(Figure::Whole(w))));
    CellSummary {
        key: key.clone(),
        quantity: q,
        planned,
        ok,
        failed: cell.len() - ok,
        failures: failures_of(cell),
        init_plus_ops,
        init_plus_ops_half_width,
        process,
        wall: describe(&Span::Wall.values(measure, cell), opts.level),
        phases,
        allocations,
        identical,
        user_us: whole(Whole::UserUs),
        sys_us: whole(Whole::SysUs),
        hwm_kib: whole(Whole::HwmKib),
        maxrss_kib: whole(Whole::MaxrssKib),
        evicted: evicted_of(cell),
        minflt: whole(Whole::Minflt),
        majflt: whole(Whole::Majflt),
        library_minflt: whole(Whole::LibraryMinflt),
        library_majflt: whole(Whole::LibraryMajflt),
        faults: fault_medians(cell),
        drift: drift_of(measure, cell),
        duplicate_blocks: duplicate_blocks(cell),
        boot_medians,
        process_boot,
    }
}

/// The cell's failed samples counted by status.
fn failures_of(cell: &CellSamples) -> BTreeMap<String, usize> {
    let mut failures = BTreeMap::new();
    for s in cell.statuses.iter().filter(|s| !s.is_ok()) {
        *failures.entry(s.name().to_string()).or_insert(0) += 1;
    }
    failures
}

/// With `--cold-cache`: how many ok samples were fully evicted, of those that say.
fn evicted_of(cell: &CellSamples) -> Option<(usize, usize)> {
    let told: Vec<bool> = cell.ok().filter_map(|i| cell.evicted[i]).collect();
    (!told.is_empty()).then(|| (told.iter().filter(|&&e| e).count(), told.len()))
}

/// Drift: Spearman's ρ of the ok samples' init_plus_ops against their block.
fn drift_of(measure: Measure, cell: &CellSamples) -> Option<Spearman> {
    let (blocks, values): (Vec<f64>, Vec<f64>) = cell
        .ok()
        .filter_map(|i| {
            let v = Span::InitPlusOps.value(measure, cell, i)?;
            Some((f64::from(cell.blocks[i]), v as f64))
        })
        .unzip();
    spearman(&blocks, &values)
}

/// How many ok samples are in a block that already holds one of this cell's.
fn duplicate_blocks(cell: &CellSamples) -> usize {
    let mut seen = std::collections::HashSet::new();
    cell.ok().filter(|&i| !seen.insert(cell.blocks[i])).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{counted, planned, samples, timed};
    use schema::Status;

    fn opts() -> StatOptions {
        StatOptions {
            resamples: 200,
            level: 0.95,
            seed: 1,
        }
    }

    #[test]
    fn cell_seeds_are_the_fnv1a_of_the_label_from_the_base() {
        // The seed the reports have always used: FNV-1a over the label, its basis xored with the
        // report's seed (so a report's intervals stay what they were).
        let key = timed(0, "serde_json", 10, Some(1)).cell();
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
        let mut rows: Vec<_> = (0..20)
            .map(|b| timed(b, "a", 1, Some(1000 + u64::from(b))))
            .collect();
        rows.push(timed(20, "a", 1, None));
        let mut plan_rows = rows.clone();
        plan_rows.push(timed(21, "a", 1, None));
        let (samples, plan) = (samples(&rows), planned(&plan_rows));
        let s = summarize(&group(Measure::Time, &samples, &plan), opts());
        assert_eq!(s.len(), 1);
        let c = &s[0];
        assert_eq!((c.ok, c.failed, c.planned), (20, 1, Some(22)));
        assert_eq!(c.failures.get("timeout"), Some(&1));
        assert_eq!(c.init_plus_ops.as_ref().unwrap().median, 1009.5);
        assert_eq!(c.wall.as_ref().unwrap().median, 501_009.5);
        assert_eq!(c.phase(Phase::FirstOp), Some(1009.5));
        assert_eq!(c.drift.unwrap().rho, 1.0);
        assert_eq!(c.duplicate_blocks, 0);
        assert!(!c.identical);
        // 1000..=1019: median 1009.5, interval [x(6), x(15)] = [1005, 1014] at 95%, 4.5 on
        // either side: ±4.5 / 1009.5, as the stopping rule computes it
        let hw = c.init_plus_ops_half_width.unwrap();
        assert!((hw - 4.5 / 1009.5).abs() < 1e-15, "{hw}");
        let values: Vec<f64> = (0..20).map(|b| 1000.0 + f64::from(b)).collect();
        assert_eq!(
            Some(hw),
            crate::stats::precision::median_half_width(&values, 0.95)
        );
        // a planned cell without a sample yet still has its row
        let mut other = plan_rows.clone();
        other.push(timed(22, "b", 1, None));
        let plan = planned(&other);
        let s = summarize(&group(Measure::Time, &samples, &plan), opts());
        assert_eq!(
            (s[1].key.codec.as_str(), s[1].ok, s[1].planned),
            ("b", 0, Some(1))
        );
    }

    #[test]
    fn spreads_and_agreement() {
        let s = Spread::of(&[5, 1, 3, 2]).unwrap();
        assert_eq!((s.n, s.median, s.min, s.max), (4, 2.5, 1, 5));
        assert!(!s.identical());
        assert!(Spread::of(&[7, 7]).unwrap().identical());
        assert_eq!(Spread::of(&[]), None);
    }

    fn counted_cells(rows: &[schema::rows::SampleRow]) -> Vec<CellSummary> {
        let plan = PlanCount::default();
        summarize(&group(Measure::Instructions, &samples(rows), &plan), opts())
    }

    #[test]
    fn a_counted_cell_is_read_in_instructions() {
        let rows = [
            counted("simd-json", 1, 671, 47_449, 23),
            counted("simd-json", 1, 671, 47_449, 23),
            counted("simd-json", 1, 671, 47_449, 23),
        ];
        let c = &counted_cells(&rows)[0];
        assert_eq!(c.quantity, Quantity::Instructions);
        assert_eq!((c.ok, c.failed, c.counted()), (3, 0, 3));
        assert!(c.identical);
        assert_eq!(c.init_plus_ops.as_ref().unwrap().median, 48_143.0);
        assert_eq!(c.phase(Phase::FirstOp), Some(47_449.0));
        assert_eq!(c.phase(Phase::SpawnToMain), Some(267_000.0));
        assert_eq!(c.allocations["alloc_first_op_bytes"].median, 6_537.0);
        // the whole process in instructions: every phase summed
        assert_eq!(
            c.wall.as_ref().unwrap().median,
            48_143.0 + 267_000.0 + 7_000.0 + 8_704.0 + 26_000.0
        );
        assert_eq!(c.agreement(|x| x.to_string()), "identical ×3");
        assert_eq!(c.user_us, None);
        // the process in instructions: every phase but the input's
        assert_eq!(
            c.process.as_ref().unwrap().median,
            48_143.0 + 267_000.0 + 8_704.0 + 26_000.0
        );
    }

    #[test]
    fn disagreeing_and_uncounted_samples_are_said() {
        let mut rows = vec![
            counted("serde_json", 1, 18, 64_908, 23),
            counted("serde_json", 1, 18, 64_908, 23),
            counted("simd-json", 1, 671, 47_449, 23),
            counted("simd-json", 1, 671, 47_196, 23),
            counted("simd-json", 1, 671, 47_300, 23),
        ];
        // an ok sample the runner could not cut into phases, and a failed one
        let mut uncut = counted("serde_json", 1, 0, 0, 0);
        uncut.set(Figure::Of(Quantity::Instructions, Phase::FirstOp), None);
        rows.push(uncut);
        let mut crashed = counted("serde_json", 1, 1, 1, 1);
        crashed.status = Status::Crash;
        rows.push(crashed);
        let s = counted_cells(&rows);
        let simd = s.iter().find(|c| c.key.codec == "simd-json").unwrap();
        assert!(!simd.identical);
        assert_eq!(simd.phase(Phase::FirstOp), Some(47_300.0));
        assert_eq!(simd.agreement(|x| x.to_string()), "first_op 47196–47449");
        let serde = s.iter().find(|c| c.key.codec == "serde_json").unwrap();
        assert_eq!((serde.ok, serde.failed, serde.counted()), (3, 1, 2));
        // the uncut sample still gave its other counts
        assert_eq!(serde.phases[&Phase::SpawnToMain].n, 3);
        let w = crate::analyze::warnings::of_measure(Measure::Instructions, &s).join("\n");
        assert!(
            w.contains("without instruction counts")
                && w.contains("serde_json (portable) (1 of 3)"),
            "{w}"
        );
        assert!(
            w.contains("Samples disagree") && w.contains("users-2kb de ×1 simd-json (portable)"),
            "{w}"
        );
        assert!(crate::analyze::warnings::of_measure(Measure::Time, &s).is_empty());
        let mut failed = counted("x", 1, 1, 1, 1);
        failed.status = Status::Crash;
        let none = &counted_cells(&[failed])[0];
        assert_eq!(none.agreement(|x| x.to_string()), "not counted");
        assert!(!none.identical);
    }
}
