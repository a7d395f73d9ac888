//! A counted run beside a timed one (`analysis report COUNTED_RUN --timed TIMED_RUN`): the
//! instructions of the cells both runs hold next to their timed medians, with a rank
//! correlation between counts and times across the cells.

use super::cells::{CellKey, CellSummary};
use crate::stats::quantile::{median, sorted};
use crate::stats::spearman::{spearman, Spearman};
use schema::phases::{Figure, Phase};
use serde::Serialize;
use std::collections::BTreeSet;
use store::cell::Samples;

/// One cell of a counted run beside the same cell of a timed run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct BesideRow {
    pub(crate) key: CellKey,
    /// Median init + first_op + remaining_ops instructions, and first_op instructions.
    pub(crate) instr_init_plus_ops: Option<f64>,
    pub(crate) instr_first_op: Option<f64>,
    /// The timed run's ok samples in this cell, and their medians (ns).
    pub(crate) n_timed: usize,
    pub(crate) init_plus_ops_ns: Option<f64>,
    pub(crate) first_op_ns: Option<f64>,
}

/// A counted run beside a timed one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Beside {
    /// The timed run's folder.
    pub(crate) timed_dir: String,
    /// The cells both runs hold, in key order.
    pub(crate) rows: Vec<BesideRow>,
    /// Spearman's ρ across those cells between first_op instructions and first_op time, and
    /// between init+ops instructions and init_plus_ops time (`None` with fewer than 4 cells
    /// holding both, or a constant side).
    pub(crate) first_op: Option<Spearman>,
    pub(crate) init_plus_ops: Option<Spearman>,
    /// Cells with both figures, for each correlation (what n a `None` had).
    pub(crate) first_op_cells: usize,
    pub(crate) init_plus_ops_cells: usize,
    /// Cells only in the counted run, only in the timed run.
    pub(crate) only_counted: Vec<CellKey>,
    pub(crate) only_timed: Vec<CellKey>,
}

/// Spearman's ρ over the pairs where both sides are present, and how many there were.
fn rank_agreement(
    pairs: impl Iterator<Item = (Option<f64>, Option<f64>)>,
) -> (Option<Spearman>, usize) {
    let (x, y): (Vec<f64>, Vec<f64>) = pairs.filter_map(|(a, b)| Some((a?, b?))).unzip();
    (spearman(&x, &y), x.len())
}

/// The counted cells beside the timed run's same cells.
pub(crate) fn beside(counted: &[CellSummary], timed: &Samples, timed_dir: &str) -> Beside {
    let rows: Vec<BesideRow> = counted
        .iter()
        .filter_map(|c| {
            let cell = timed.cells.get(&c.key)?;
            let ns = |f: Figure| median(&sorted(&cell.values_by(|i| cell.get(f, i))));
            Some(BesideRow {
                key: c.key.clone(),
                instr_init_plus_ops: c.init_plus_ops.as_ref().map(|d| d.median),
                instr_first_op: c.phase(Phase::FirstOp),
                n_timed: cell.ok_count(),
                init_plus_ops_ns: ns(Figure::INIT_PLUS_OPS),
                first_op_ns: ns(Figure::time(Phase::FirstOp)),
            })
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
mod tests {
    use super::*;
    use crate::analyze::cells::{group, summarize, StatOptions};
    use crate::testing::{counted, samples, timed};
    use schema::rows::SampleRow;
    use schema::Measure;
    use store::rows::PlanCount;

    #[test]
    fn beside_a_timed_run_ranks_the_cells_both_hold() {
        let codecs = ["a", "b", "c", "d", "e"];
        let rows: Vec<SampleRow> = codecs
            .iter()
            .enumerate()
            .map(|(i, c)| counted(c, 1, 10, 1_000 * (i as u64 + 1), 0))
            .collect();
        let store = samples(&rows);
        let plan = PlanCount::default();
        let opts = StatOptions {
            resamples: 10,
            level: 0.95,
            seed: 1,
        };
        let cells = summarize(&group(Measure::Instructions, &store, &plan), opts);
        // times in the same order as the counts but for d and e, swapped; f is timed only
        let times = [
            ("a", 100),
            ("b", 200),
            ("c", 300),
            ("d", 500),
            ("e", 400),
            ("f", 1),
        ];
        let timed_rows: Vec<SampleRow> = times
            .iter()
            .flat_map(|&(c, ns)| [ns, ns + 2, ns + 1].map(|v| timed(0, c, 1, Some(v))))
            .collect();
        let b = beside(&cells, &samples(&timed_rows), "timed");
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
        let b = beside(&cells[..3], &samples(&timed_rows), "timed");
        assert_eq!((b.first_op, b.first_op_cells), (None, 3));
    }
}
