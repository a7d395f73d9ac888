//! A counted run's cells (`cold run --measure instructions`): per cell, the instructions of each
//! phase and the allocations of the library's phases, whether every sample agreed, and the ratio
//! to the reference codec's same cell; and, beside a timed run, the timed medians of the cells
//! both runs hold with a rank correlation between counts and times.
//!
//! Counts are deterministic: a library's phases (init, first_op, remaining_ops) execute the same
//! instructions in every sample of a cell, so a median needs no interval. When the samples do
//! not agree, that is a finding (the library's work depends on something besides its input) and
//! is said, never smoothed over. `to_main` (the dynamic loader) moves with the command line and
//! the environment, by a few dozen instructions.

use super::cells::CellKey;
use super::warnings::list;
use crate::inputs::samples::{Count, Counts, Num, Samples};
use crate::stats::quantile::{median, sorted};
use crate::stats::spearman::{spearman, Spearman};
use schema::Status;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The median and range of one count over a cell's samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Samples that hold the count.
    pub n: usize,
    pub median: f64,
    pub min: u64,
    pub max: u64,
}

impl Spread {
    /// The spread of `values`; `None` when empty.
    pub fn of(values: &[u64]) -> Option<Spread> {
        let min = *values.iter().min()?;
        let max = *values.iter().max()?;
        let v: Vec<f64> = values.iter().map(|&x| x as f64).collect();
        Some(Spread {
            n: values.len(),
            median: median(&sorted(&v))?,
            min,
            max,
        })
    }

    /// Every sample gave the same count.
    pub fn identical(&self) -> bool {
        self.min == self.max
    }
}

/// A cell's counts against the reference codec's same cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountRatio {
    pub reference: String,
    /// Median init + first_op + remaining_ops instructions over the reference's.
    pub init_plus_ops: Option<f64>,
    /// Median first_op instructions over the reference's.
    pub first_op: Option<f64>,
    /// Both cells' samples agreed exactly in every library phase: the ratios are exact, not
    /// estimates.
    pub exact: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountSummary {
    pub key: CellKey,
    /// Samples with status ok, and the others.
    pub ok: usize,
    pub failed: usize,
    /// Ok samples with init, first_op and remaining_ops counted (the runner leaves a count it
    /// cannot cut into phases empty).
    pub counted: usize,
    /// Instructions of each phase (`to_main`, `fixture`, `init`, `first_op`, `remaining_ops`,
    /// `check`, `exit`), over the samples that hold it.
    pub instructions: BTreeMap<&'static str, Spread>,
    /// init + first_op + remaining_ops of each counted sample.
    pub init_plus_ops: Option<Spread>,
    /// Heap blocks and bytes of init, first_op and remaining_ops (`init_blocks`, `init_bytes`,
    /// …).
    pub allocations: BTreeMap<&'static str, Spread>,
    /// Some sample was counted, and every counted sample agreed exactly in init, first_op and
    /// remaining_ops.
    pub identical: bool,
    /// Against the reference's same cell; `None` for the reference itself, the harness floor,
    /// or without the reference's cell.
    pub vs_reference: Option<CountRatio>,
}

impl CountSummary {
    /// The spread of count `c` (an instruction or an allocation count).
    pub fn spread(&self, c: Count) -> Option<&Spread> {
        if Count::INSTRUCTIONS.contains(&c) {
            self.instructions.get(c.name())
        } else {
            self.allocations.get(c.name())
        }
    }

    /// The median of count `c`.
    pub fn median(&self, c: Count) -> Option<f64> {
        self.spread(c).map(|s| s.median)
    }

    /// Whether the samples agreed, in words: "identical ×3", "one sample", "not counted", or
    /// the range of each library phase that differed ("first_op 47,196–47,449").
    pub fn agreement(&self, count: impl Fn(f64) -> String) -> String {
        if self.counted == 0 {
            return "not counted".into();
        }
        if self.identical {
            return if self.counted == 1 {
                "one sample".into()
            } else {
                format!("identical ×{}", self.counted)
            };
        }
        Count::LIBRARY
            .iter()
            .filter_map(|&c| {
                let s = self.spread(c)?;
                (!s.identical()).then(|| {
                    format!(
                        "{} {}–{}",
                        c.name(),
                        count(s.min as f64),
                        count(s.max as f64)
                    )
                })
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The summary of one cell's samples: `statuses` of every sample, `counts` of its ok samples
/// that hold any.
fn summarize_cell(key: &CellKey, statuses: &[Status], counts: &[Counts]) -> CountSummary {
    let ok = statuses.iter().filter(|s| s.is_ok()).count();
    let spread = |c: Count| {
        let v: Vec<u64> = counts.iter().filter_map(|x| x.get(c)).collect();
        Spread::of(&v)
    };
    let instructions: BTreeMap<&'static str, Spread> = Count::INSTRUCTIONS
        .iter()
        .filter_map(|&c| Some((c.name(), spread(c)?)))
        .collect();
    let allocations = Count::ALLOCATIONS
        .iter()
        .filter_map(|&c| Some((c.name(), spread(c)?)))
        .collect();
    let sums: Vec<u64> = counts.iter().filter_map(Counts::init_plus_ops).collect();
    let identical = !sums.is_empty()
        && Count::LIBRARY.iter().all(|c| {
            instructions
                .get(c.name())
                .is_some_and(|s: &Spread| s.identical())
        });
    CountSummary {
        key: key.clone(),
        ok,
        failed: statuses.len() - ok,
        counted: sums.len(),
        instructions,
        init_plus_ops: Spread::of(&sums),
        allocations,
        identical,
        vs_reference: None,
    }
}

/// Every cell's counts, in key order (a planned cell without a sample is left out: it has
/// nothing to count), each with its ratio to `reference`'s same cell; codecs in `baselines` (the
/// harness floor) get no ratio.
pub fn count_summaries(
    samples: &Samples,
    reference: Option<&str>,
    baselines: &BTreeSet<String>,
) -> Vec<CountSummary> {
    let mut out: Vec<CountSummary> = samples
        .cells
        .iter()
        .map(|(key, rows)| {
            let statuses: Vec<Status> = rows.iter().map(|r| r.status).collect();
            summarize_cell(key, &statuses, samples.counts_of(key))
        })
        .collect();
    let Some(reference) = reference else {
        return out;
    };
    let by_key: BTreeMap<CellKey, (Option<f64>, Option<f64>, bool)> = out
        .iter()
        .map(|c| {
            (
                c.key.clone(),
                (
                    c.init_plus_ops.map(|s| s.median),
                    c.median(Count::InstrFirstOp),
                    c.identical,
                ),
            )
        })
        .collect();
    for c in &mut out {
        if c.key.codec == reference || baselines.contains(&c.key.codec) {
            continue;
        }
        let Some(&(ref_ipo, ref_first, ref_identical)) = by_key.get(&c.key.with_codec(reference))
        else {
            continue;
        };
        let ratio = |own: Option<f64>, of: Option<f64>| {
            let (own, of) = (own?, of?);
            (of > 0.0).then(|| own / of)
        };
        c.vs_reference = Some(CountRatio {
            reference: reference.to_string(),
            init_plus_ops: ratio(c.init_plus_ops.map(|s| s.median), ref_ipo),
            first_op: ratio(c.median(Count::InstrFirstOp), ref_first),
            exact: c.identical && ref_identical,
        });
    }
    out
}

/// What a reader of a counted run must be told: ok samples without counts, and cells whose
/// samples disagree in the library's phases.
pub fn count_warnings(cells: &[CountSummary]) -> Vec<String> {
    let mut out = Vec::new();
    let uncounted: Vec<String> = cells
        .iter()
        .filter(|c| c.counted < c.ok)
        .map(|c| format!("{} ({} of {})", c.key.label(), c.ok - c.counted, c.ok))
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
        .filter(|c| c.counted > 1 && !c.identical)
        .map(|c| c.key.label())
        .collect();
    if !differ.is_empty() {
        out.push(format!(
            "Samples disagree in the library's phases (init, first_op, remaining_ops), which execute the same instructions every time when a library's work depends only on its input, in {} cells: {}. Their medians are shown with the spread; their ratios are not exact.",
            differ.len(),
            list(&differ)
        ));
    }
    out
}

/// One cell of a counted run beside the same cell of a timed run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BesideRow {
    pub key: CellKey,
    /// Median init + first_op + remaining_ops instructions, and first_op instructions.
    pub instr_init_plus_ops: Option<f64>,
    pub instr_first_op: Option<f64>,
    /// The timed run's ok samples in this cell, and their medians (ns).
    pub n_timed: usize,
    pub init_plus_ops_ns: Option<f64>,
    pub first_op_ns: Option<f64>,
}

/// A counted run beside a timed one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Beside {
    /// The timed run's folder.
    pub timed_dir: String,
    /// The cells both runs hold, in key order.
    pub rows: Vec<BesideRow>,
    /// Spearman's ρ across those cells between first_op instructions and first_op time, and
    /// between init+ops instructions and init_plus_ops time (`None` with fewer than 4 cells
    /// holding both, or a constant side).
    pub first_op: Option<Spearman>,
    pub init_plus_ops: Option<Spearman>,
    /// Cells with both figures, for each correlation (what n a `None` had).
    pub first_op_cells: usize,
    pub init_plus_ops_cells: usize,
    /// Cells only in the counted run, only in the timed run.
    pub only_counted: Vec<CellKey>,
    pub only_timed: Vec<CellKey>,
}

/// The median of figure `n` over `timed`'s ok samples of `key`, and how many ok samples it has.
fn timed_median(timed: &Samples, key: &CellKey, n: Num) -> (usize, Option<f64>) {
    let rows = timed.cells.get(key).map_or(&[][..], Vec::as_slice);
    let ok = rows.iter().filter(|r| r.is_ok()).count();
    let v: Vec<f64> = rows
        .iter()
        .filter(|r| r.is_ok())
        .filter_map(|r| r.get(n))
        .map(|x| x as f64)
        .collect();
    (ok, median(&sorted(&v)))
}

/// Spearman's ρ over the pairs where both sides are present, and how many there were.
fn rank_agreement(
    pairs: impl Iterator<Item = (Option<f64>, Option<f64>)>,
) -> (Option<Spearman>, usize) {
    let (x, y): (Vec<f64>, Vec<f64>) = pairs.filter_map(|(a, b)| Some((a?, b?))).unzip();
    (spearman(&x, &y), x.len())
}

/// The counted cells beside the timed run's same cells.
pub fn beside(counted: &[CountSummary], timed: &Samples, timed_dir: &str) -> Beside {
    let rows: Vec<BesideRow> = counted
        .iter()
        .filter(|c| timed.cells.contains_key(&c.key))
        .map(|c| {
            let (n_timed, ipo) = timed_median(timed, &c.key, Num::InitPlusOps);
            let (_, first) = timed_median(timed, &c.key, Num::FirstOp);
            BesideRow {
                key: c.key.clone(),
                instr_init_plus_ops: c.init_plus_ops.map(|s| s.median),
                instr_first_op: c.median(Count::InstrFirstOp),
                n_timed,
                init_plus_ops_ns: ipo,
                first_op_ns: first,
            }
        })
        .collect();
    let (first_op, first_op_cells) =
        rank_agreement(rows.iter().map(|r| (r.instr_first_op, r.first_op_ns)));
    let (init_plus_ops, init_plus_ops_cells) = rank_agreement(
        rows.iter()
            .map(|r| (r.instr_init_plus_ops, r.init_plus_ops_ns)),
    );
    let counted_keys: BTreeSet<&CellKey> = counted.iter().map(|c| &c.key).collect();
    Beside {
        timed_dir: timed_dir.to_string(),
        only_counted: counted
            .iter()
            .filter(|c| !timed.cells.contains_key(&c.key))
            .map(|c| c.key.clone())
            .collect(),
        only_timed: timed
            .cells
            .keys()
            .filter(|k| !counted_keys.contains(k))
            .cloned()
            .collect(),
        rows,
        first_op,
        init_plus_ops,
        first_op_cells,
        init_plus_ops_cells,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use schema::run_folder::SampleRow;
    use schema::{Op, Variant};

    /// An ok counted row of `codec` at batch `batch` with the library phases given.
    pub fn counted_row(codec: &str, batch: u32, init: u64, first: u64, rem: u64) -> SampleRow {
        SampleRow {
            codec: codec.into(),
            batch,
            fixture: "users-2kb".into(),
            op: Op::De,
            variant: Variant::Portable,
            instr_to_main: Some(267_000),
            instr_fixture: Some(7_000),
            instr_init: Some(init),
            instr_first_op: Some(first),
            instr_remaining_ops: Some(rem),
            instr_check: Some(8_704),
            instr_exit: Some(26_000),
            alloc_init_blocks: Some(0),
            alloc_init_bytes: Some(0),
            alloc_first_op_blocks: Some(86),
            alloc_first_op_bytes: Some(6_537),
            alloc_remaining_ops_blocks: Some(0),
            alloc_remaining_ops_bytes: Some(0),
            ..Default::default()
        }
    }

    fn summaries(rows: &[SampleRow], reference: Option<&str>) -> Vec<CountSummary> {
        let baselines = BTreeSet::from(["noop".to_string()]);
        count_summaries(&Samples::from_rows(rows), reference, &baselines)
    }

    #[test]
    fn spreads_and_agreement() {
        let s = Spread::of(&[5, 1, 3, 2]).unwrap();
        assert_eq!((s.n, s.median, s.min, s.max), (4, 2.5, 1, 5));
        assert!(!s.identical());
        assert!(Spread::of(&[7, 7]).unwrap().identical());
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn identical_cells_give_exact_ratios_to_the_reference() {
        let mut rows = Vec::new();
        for _ in 0..3 {
            rows.push(counted_row("serde_json", 1, 18, 64_908, 23));
            rows.push(counted_row("simd-json", 1, 671, 47_449, 23));
            rows.push(counted_row("noop", 1, 18, 89, 19));
        }
        let s = summaries(&rows, Some("serde_json"));
        let simd = s.iter().find(|c| c.key.codec == "simd-json").unwrap();
        assert_eq!((simd.ok, simd.failed, simd.counted), (3, 0, 3));
        assert!(simd.identical);
        assert_eq!(simd.init_plus_ops.unwrap().median, 48_143.0);
        assert_eq!(simd.median(Count::InstrFirstOp), Some(47_449.0));
        assert_eq!(simd.median(Count::AllocFirstOpBytes), Some(6_537.0));
        assert_eq!(simd.median(Count::InstrToMain), Some(267_000.0));
        let r = simd.vs_reference.as_ref().unwrap();
        assert!(r.exact);
        assert_eq!(r.init_plus_ops, Some(48_143.0 / 64_949.0));
        assert_eq!(r.first_op, Some(47_449.0 / 64_908.0));
        assert_eq!(simd.agreement(|x| x.to_string()), "identical ×3");
        // neither the reference nor the floor is compared
        for codec in ["serde_json", "noop"] {
            let c = s.iter().find(|c| c.key.codec == codec).unwrap();
            assert_eq!(c.vs_reference, None, "{codec}");
        }
        assert!(count_warnings(&s).is_empty());
        // without a reference, no ratio at all
        assert!(summaries(&rows, None)
            .iter()
            .all(|c| c.vs_reference.is_none()));
    }

    #[test]
    fn disagreeing_and_uncounted_samples_are_said() {
        let mut rows = vec![
            counted_row("serde_json", 1, 18, 64_908, 23),
            counted_row("serde_json", 1, 18, 64_908, 23),
            counted_row("simd-json", 1, 671, 47_449, 23),
            counted_row("simd-json", 1, 671, 47_196, 23),
            counted_row("simd-json", 1, 671, 47_300, 23),
        ];
        // an ok sample the runner could not cut into phases, and a failed one
        let mut uncut = counted_row("serde_json", 1, 0, 0, 0);
        (
            uncut.instr_init,
            uncut.instr_first_op,
            uncut.instr_remaining_ops,
        ) = (None, None, None);
        rows.push(uncut);
        rows.push(SampleRow {
            status: Status::Crash,
            ..counted_row("serde_json", 1, 1, 1, 1)
        });
        let s = summaries(&rows, Some("serde_json"));
        let simd = s.iter().find(|c| c.key.codec == "simd-json").unwrap();
        assert!(!simd.identical);
        assert_eq!(simd.median(Count::InstrFirstOp), Some(47_300.0));
        assert_eq!(simd.agreement(|x| x.to_string()), "first_op 47196–47449");
        assert!(!simd.vs_reference.as_ref().unwrap().exact);
        let serde = s.iter().find(|c| c.key.codec == "serde_json").unwrap();
        assert_eq!((serde.ok, serde.failed, serde.counted), (3, 1, 2));
        // the uncut sample still gave its other counts
        assert_eq!(serde.spread(Count::InstrToMain).unwrap().n, 3);
        let w = count_warnings(&s).join("\n");
        assert!(
            w.contains("without instruction counts")
                && w.contains("serde_json (portable) (1 of 3)"),
            "{w}"
        );
        assert!(
            w.contains("Samples disagree") && w.contains("users-2kb de ×1 simd-json (portable)"),
            "{w}"
        );
        let none = summarize_cell(&rows[0].cell(), &[Status::Ok], &[]);
        assert_eq!(none.agreement(|x| x.to_string()), "not counted");
        assert!(!none.identical);
    }

    #[test]
    fn beside_a_timed_run_ranks_the_cells_both_hold() {
        let codecs = ["a", "b", "c", "d", "e"];
        let counted: Vec<SampleRow> = codecs
            .iter()
            .enumerate()
            .map(|(i, c)| counted_row(c, 1, 10, 1_000 * (i as u64 + 1), 0))
            .collect();
        let cells = summaries(&counted, None);
        // times in the same order as the counts but for d and e, swapped; f is timed only
        let times = [
            ("a", 100),
            ("b", 200),
            ("c", 300),
            ("d", 500),
            ("e", 400),
            ("f", 1),
        ];
        let timed: Vec<SampleRow> = times
            .iter()
            .flat_map(|&(c, ns)| {
                [ns, ns + 2, ns + 1].map(|v| crate::analyze::cells::tests::row(0, c, 1, Some(v)))
            })
            .collect();
        let b = beside(&cells, &Samples::from_rows(&timed), "timed");
        assert_eq!(b.rows.len(), 5);
        let d = b.rows.iter().find(|r| r.key.codec == "d").unwrap();
        assert_eq!(
            (d.n_timed, d.first_op_ns, d.instr_first_op),
            (3, Some(501.0), Some(4_000.0))
        );
        assert_eq!(d.instr_init_plus_ops, Some(4_010.0));
        // ranks 1 2 3 4 5 against 1 2 3 5 4: ρ = 1 − 6·2 / (5·24) = 0.9
        let rho = b.first_op.unwrap();
        assert_eq!(rho.n, 5);
        assert!((rho.rho - 0.9).abs() < 1e-12, "{}", rho.rho);
        assert_eq!(b.first_op_cells, 5);
        assert_eq!(b.only_timed.len(), 1);
        assert!(b.only_counted.is_empty());
        // three cells are too few for a rank correlation
        let b = beside(&cells[..3], &Samples::from_rows(&timed), "timed");
        assert_eq!((b.first_op, b.first_op_cells), (None, 3));
    }
}
