//! Three measures of one warm cost beside each other (criterion's figure, the fastest sample, a
//! curve's steady state), each with its interval across processes, and where they disagree.

use super::common::*;
use crate::analyze::warm_measures::Measure;

fn cell(m: Option<Measure>) -> Cell {
    match m {
        Some(m) => Cell::new(format!(
            "{} ×{}",
            format::ns_ci(m.ns, Some((m.lo, m.hi))),
            m.processes
        )),
        None => Cell::new("—"),
    }
}

pub(super) fn warm_measures(r: &Report) -> Vec<Block> {
    // only cells with two measures or more are a comparison
    let rows: Vec<_> = r
        .warm_measures
        .iter()
        .filter(|m| [m.criterion, m.fastest, m.steady].iter().flatten().count() >= 2)
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(&[
        "fixture",
        "op",
        "codec",
        ">criterion's figure",
        ">fastest sample",
        ">curve's steady state",
        "disagree",
    ]);
    for m in &rows {
        let disagree = if m.disagree.is_empty() {
            Cell::new("no")
        } else {
            Cell::toned(m.disagree.join(", "), Tone::Bad)
        };
        t.row(vec![
            Cell::new(&m.fixture),
            Cell::new(m.op.to_string()),
            Cell::new(&m.codec),
            cell(m.criterion),
            cell(m.fastest),
            cell(m.steady),
            disagree,
        ]);
    }
    let parted = rows.iter().filter(|m| !m.disagree.is_empty()).count();
    vec![
        h(2, "Three measures of the warm cost"),
        p(format!(
            "Per operation, with each interval across processes (×n: how many): criterion's figure (the median of the processes' estimates), the fastest sample (the median of each process's fastest) and, in a curve run, the in-process steady state (the median of each process's last steady segment; processes with no steady state left out). \"disagree\" names the pairs whose intervals do not overlap: {parted} of {} cells here.",
            rows.len()
        )),
        Block::Table(t),
    ]
}
