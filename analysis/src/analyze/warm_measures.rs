//! Three measures of one warm cost, beside each other: criterion's figure (the median of its
//! processes' estimates), the fastest sample (the median of each process's fastest), and, in a
//! curve run, the in-process steady state (the median of each process's last steady segment).
//! Each comes with its interval across processes; where two intervals do not overlap, the
//! measures disagree by more than their uncertainty, and the row names the pair, so that no one
//! of them is quoted as "the" warm cost without the others.

use super::curve::CurveCell;
use crate::inputs::criterion::WarmEstimate;
use schema::{Op, Variant};
use serde::Serialize;

/// One measure: its figure and interval (ns per operation) and how many processes it is of.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Measure {
    pub(crate) ns: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) processes: usize,
}

/// A cell's three measures and which of them disagree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct WarmMeasures {
    pub(crate) fixture: String,
    pub(crate) op: Op,
    pub(crate) variant: Option<Variant>,
    pub(crate) codec: String,
    pub(crate) criterion: Option<Measure>,
    pub(crate) fastest: Option<Measure>,
    pub(crate) steady: Option<Measure>,
    /// The pairs whose intervals do not overlap: `criterion/fastest`, `criterion/steady`,
    /// `fastest/steady`.
    pub(crate) disagree: Vec<&'static str>,
}

fn overlap(a: &Measure, b: &Measure) -> bool {
    a.lo <= b.hi && b.lo <= a.hi
}

/// The disagreeing pairs of one cell's measures.
fn disagreements(m: &WarmMeasures) -> Vec<&'static str> {
    let pairs = [
        ("criterion/fastest", m.criterion, m.fastest),
        ("criterion/steady", m.criterion, m.steady),
        ("fastest/steady", m.fastest, m.steady),
    ];
    pairs
        .into_iter()
        .filter_map(|(name, a, b)| Some((name, a?, b?)))
        .filter(|(_, a, b)| !overlap(a, b))
        .map(|(name, _, _)| name)
        .collect()
}

/// Every cell with a warm figure or a curve's steady state (baselines left out), in the warm
/// figures' order, then the curve cells without one.
pub(crate) fn warm_measures(
    warm: &[WarmEstimate],
    curve: &[CurveCell],
    is_baseline: impl Fn(&str) -> bool,
) -> Vec<WarmMeasures> {
    let mut out: Vec<WarmMeasures> = warm
        .iter()
        .filter(|w| !is_baseline(&w.codec))
        .map(|w| {
            let processes = w.forks.as_ref().map_or(1, |f| f.processes);
            WarmMeasures {
                fixture: w.fixture.clone(),
                op: w.op,
                variant: w.variant,
                codec: w.codec.clone(),
                criterion: Some(Measure {
                    ns: w.median_ns,
                    lo: w.lo_ns,
                    hi: w.hi_ns,
                    processes,
                }),
                fastest: w.fastest.map(|f| Measure {
                    ns: f.ns,
                    lo: f.lo_ns,
                    hi: f.hi_ns,
                    processes,
                }),
                steady: None,
                disagree: Vec::new(),
            }
        })
        .collect();
    for c in curve.iter().filter(|c| !is_baseline(&c.key.codec)) {
        let (Some(ns), Some((lo, hi))) = (c.steady_ns, c.steady_interval) else {
            continue;
        };
        let steady = Measure {
            ns,
            lo,
            hi,
            processes: c.steady_processes,
        };
        let k = &c.key;
        let same = |m: &WarmMeasures| {
            m.fixture == k.fixture
                && m.op == k.op
                && m.codec == k.codec
                && m.variant.is_none_or(|v| v == k.variant)
        };
        match out.iter_mut().find(|m| same(m)) {
            Some(m) => m.steady = Some(steady),
            None => out.push(WarmMeasures {
                fixture: k.fixture.clone(),
                op: k.op,
                variant: Some(k.variant),
                codec: k.codec.clone(),
                criterion: None,
                fastest: None,
                steady: Some(steady),
                disagree: Vec::new(),
            }),
        }
    }
    for m in &mut out {
        m.disagree = disagreements(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(ns: f64, lo: f64, hi: f64) -> Option<Measure> {
        Some(Measure {
            ns,
            lo,
            hi,
            processes: 5,
        })
    }

    fn row(
        criterion: Option<Measure>,
        fastest: Option<Measure>,
        steady: Option<Measure>,
    ) -> WarmMeasures {
        WarmMeasures {
            fixture: "users-2kb".into(),
            op: Op::De,
            variant: None,
            codec: "serde_json".into(),
            criterion,
            fastest,
            steady,
            disagree: Vec::new(),
        }
    }

    #[test]
    fn measures_whose_intervals_part_are_named_and_touching_ones_are_not() {
        // criterion's 7.5 µs [7.4, 7.6] against the fastest 5.55 [5.53, 5.57]: the old batching
        let r = row(
            m(7500.0, 7400.0, 7600.0),
            m(5550.0, 5530.0, 5570.0),
            m(5600.0, 5500.0, 5700.0),
        );
        assert_eq!(disagreements(&r), ["criterion/fastest", "criterion/steady"]);
        // the new: all three within each other's reach
        let r = row(
            m(5340.0, 5130.0, 5600.0),
            m(5200.0, 5100.0, 5340.0),
            m(5400.0, 5200.0, 5500.0),
        );
        assert!(disagreements(&r).is_empty());
        // a measure that is missing compares with nothing
        assert!(disagreements(&row(m(1.0, 1.0, 1.0), None, None)).is_empty());
    }
}
