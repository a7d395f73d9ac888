//! `compare RUN_A RUN_B` on two counted runs: instruction counts are deterministic, so each cell
//! is compared exactly, phase by phase, without an interval. A phase whose count moved by more
//! than the threshold (0.5% by default) is regressed or improved; where a run's samples disagree,
//! only a move of the whole range beyond the other's counts; the cell's verdict names those
//! phases. `to_main` (the dynamic loader, which moves with the command line and the
//! environment) is listed but decides nothing. Pure: the caller reads the runs.

use super::{by_match_key, only_in, variants, Change};
use crate::analyze::cells::CellKey;
use crate::inputs::samples::{Count, Counts, Samples};
use crate::stats::quantile::{median, sorted};
use serde::Serialize;

/// The default threshold for counted runs: a count is deterministic, so a change of a few
/// instructions in a thousand is already real.
pub const COUNT_THRESHOLD: f64 = 0.005;

/// A phase compared: an instruction count, or init + first_op + remaining_ops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    ToMain,
    Init,
    FirstOp,
    RemainingOps,
    InitPlusOps,
    Check,
    Exit,
}

impl Phase {
    /// The phases a verdict rests on, in the order tables list them.
    pub const VERDICT: [Phase; 6] = [
        Phase::Init,
        Phase::FirstOp,
        Phase::RemainingOps,
        Phase::InitPlusOps,
        Phase::Check,
        Phase::Exit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::ToMain => "to_main",
            Phase::Init => "init",
            Phase::FirstOp => "first_op",
            Phase::RemainingOps => "remaining_ops",
            Phase::InitPlusOps => "init+ops",
            Phase::Check => "check",
            Phase::Exit => "exit",
        }
    }

    fn of(self, c: &Counts) -> Option<u64> {
        match self {
            Phase::ToMain => c.get(Count::InstrToMain),
            Phase::Init => c.get(Count::InstrInit),
            Phase::FirstOp => c.get(Count::InstrFirstOp),
            Phase::RemainingOps => c.get(Count::InstrRemainingOps),
            Phase::InitPlusOps => c.init_plus_ops(),
            Phase::Check => c.get(Count::InstrCheck),
            Phase::Exit => c.get(Count::InstrExit),
        }
    }
}

/// One phase of one cell in A and in B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseChange {
    pub phase: Phase,
    /// Median instructions over the samples that hold the count.
    pub a: f64,
    pub b: f64,
    /// (b − a) / a; infinite when a is 0 and b is not, 0 when both are.
    pub relative: f64,
    /// Every sample of A agreed, and every sample of B.
    pub identical: bool,
    pub change: Change,
}

/// One cell both runs hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountChange {
    /// The cell (with run A's variant).
    pub key: CellKey,
    pub variants: String,
    /// Counted samples (init, first_op and remaining_ops all counted) in A and in B.
    pub n_a: usize,
    pub n_b: usize,
    /// The verdict phases that both runs counted.
    pub phases: Vec<PhaseChange>,
    /// to_main, for the record: never part of the verdict.
    pub to_main: Option<PhaseChange>,
    /// Regressed when any phase regressed, improved when any improved and none regressed,
    /// unchanged otherwise; cannot compare when either run counted no sample of the cell.
    pub change: Change,
}

impl CountChange {
    /// The phases that changed in direction `change`.
    pub fn phases_that(&self, change: Change) -> impl Iterator<Item = &PhaseChange> {
        self.phases.iter().filter(move |p| p.change == change)
    }

    /// Every sample of each run counted the library's phases (init, first_op, remaining_ops)
    /// alike. The exit phase moves by a few hundred instructions from sample to sample (it
    /// prints the stamps, whose digits differ, and reads /proc), so it is not asked.
    pub fn identical(&self) -> bool {
        self.phases
            .iter()
            .filter(|p| matches!(p.phase, Phase::Init | Phase::FirstOp | Phase::RemainingOps))
            .all(|p| p.identical)
    }
}

/// A relative change as the table shows it: `=` for none, `+1.000%`, `-0.420%`, or `0→23` from
/// nothing.
pub fn change_text(p: &PhaseChange) -> String {
    if p.a == p.b {
        "=".into()
    } else if p.relative.is_infinite() {
        format!("0→{}", p.b)
    } else {
        format!("{:+.3}%", p.relative * 100.0)
    }
}

/// The cell's verdict in words, naming the phases that moved: `regressed: first_op +1.000%,
/// init+ops +0.985%`, `unchanged`, `cannot compare: no counted sample in B`; `(samples
/// differ)` when a run's samples disagreed in a verdict phase.
pub fn verdict_text(c: &CountChange) -> String {
    let named = |change: Change| {
        let v: Vec<String> = c
            .phases_that(change)
            .map(|p| format!("{} {}", p.phase.name(), change_text(p)))
            .collect();
        (!v.is_empty()).then(|| format!("{}: {}", change.label(), v.join(", ")))
    };
    let mut text = match c.change {
        Change::CannotCompare => format!(
            "cannot compare: no counted sample in {}",
            match (c.n_a, c.n_b) {
                (0, 0) => "either run",
                (0, _) => "A",
                _ => "B",
            }
        ),
        Change::Unchanged | Change::TooFewSamples => c.change.label().to_string(),
        Change::Regressed | Change::Improved => [named(Change::Regressed), named(Change::Improved)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; "),
    };
    if c.change != Change::CannotCompare && !c.identical() {
        text.push_str(" (samples differ)");
    }
    text
}

/// The verdict on one phase: a relative change beyond `threshold` either way is a change.
pub fn classify_relative(relative: f64, threshold: f64) -> Change {
    if relative > threshold {
        Change::Regressed
    } else if relative < -threshold {
        Change::Improved
    } else {
        Change::Unchanged
    }
}

/// (b − a) / a, with a of 0 handled: no change when b is 0 too, an infinite rise otherwise.
pub fn relative_change(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        if b == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        (b - a) / a
    }
}

/// The counts of phase `p` over `counts`: their median, and whether they all agree.
/// A phase's counts over a cell's samples: their median, least and greatest.
fn phase_counts(counts: &[Counts], p: Phase) -> Option<(f64, f64, f64)> {
    let v: Vec<u64> = counts.iter().filter_map(|c| p.of(c)).collect();
    let (&lo, &hi) = (v.iter().min()?, v.iter().max()?);
    let f: Vec<f64> = v.iter().map(|&x| x as f64).collect();
    Some((median(&sorted(&f))?, lo as f64, hi as f64))
}

/// The phase `p` in A and B. Where every sample of each run agrees, the verdict is on the
/// change of the count. Where samples disagree (a library that seeds a hash per process), the
/// counts are a range, and a change is called only when B's range lies beyond A's by more than
/// the threshold: two runs of the same build never differ by more than their own spread.
fn phase_change(a: &[Counts], b: &[Counts], p: Phase, threshold: f64) -> Option<PhaseChange> {
    let ((ma, lo_a, hi_a), (mb, lo_b, hi_b)) = (phase_counts(a, p)?, phase_counts(b, p)?);
    let identical = lo_a == hi_a && lo_b == hi_b;
    let relative = relative_change(ma, mb);
    let change = if identical {
        classify_relative(relative, threshold)
    } else if relative_change(hi_a, lo_b) > threshold {
        Change::Regressed
    } else if relative_change(lo_a, hi_b) < -threshold {
        Change::Improved
    } else {
        Change::Unchanged
    };
    Some(PhaseChange {
        phase: p,
        a: ma,
        b: mb,
        relative,
        identical,
        change,
    })
}

/// The counted samples of a cell: those with every library phase counted.
fn counted(counts: &[Counts]) -> Vec<Counts> {
    counts
        .iter()
        .filter(|c| c.init_plus_ops().is_some())
        .copied()
        .collect()
}

/// Every cell both runs hold, compared phase by phase at `threshold`; the cells only in A, only
/// in B.
pub fn compare_counts(
    a: &Samples,
    b: &Samples,
    threshold: f64,
    ignore_variant: bool,
) -> (Vec<CountChange>, Vec<CellKey>, Vec<CellKey>) {
    let counts = |s: &Samples| {
        by_match_key(s, ignore_variant, |cell, v: &mut Vec<Counts>| {
            v.extend(counted(s.counts_of(cell)));
        })
    };
    let (ca, cb) = (counts(a), counts(b));
    let out = ca
        .iter()
        .filter_map(|(k, (cell_a, xa))| {
            let (cell_b, xb) = cb.get(k)?;
            let phases: Vec<PhaseChange> = Phase::VERDICT
                .iter()
                .filter_map(|&p| phase_change(xa, xb, p, threshold))
                .collect();
            let change = if xa.is_empty() || xb.is_empty() {
                Change::CannotCompare
            } else if phases.iter().any(|p| p.change == Change::Regressed) {
                Change::Regressed
            } else if phases.iter().any(|p| p.change == Change::Improved) {
                Change::Improved
            } else {
                Change::Unchanged
            };
            Some(CountChange {
                key: cell_a.clone(),
                variants: variants(cell_a, cell_b),
                n_a: xa.len(),
                n_b: xb.len(),
                phases,
                to_main: phase_change(xa, xb, Phase::ToMain, threshold),
                change,
            })
        })
        .collect();
    (out, only_in(&ca, &cb), only_in(&cb, &ca))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::counts::tests::counted_row;
    use schema::run_folder::SampleRow;

    fn run(first_op_simd: u64, to_main: u64) -> Vec<SampleRow> {
        let mut rows = Vec::new();
        for _ in 0..3 {
            rows.push(counted_row("serde_json", 1, 18, 64_908, 23));
            let mut r = counted_row("simd-json", 1, 671, first_op_simd, 23);
            r.instr_to_main = Some(to_main);
            rows.push(r);
        }
        rows
    }

    fn compare(a: &[SampleRow], b: &[SampleRow], threshold: f64) -> Vec<CountChange> {
        let (c, only_a, only_b) = compare_counts(
            &Samples::from_rows(a),
            &Samples::from_rows(b),
            threshold,
            false,
        );
        assert!(only_a.is_empty() && only_b.is_empty());
        c
    }

    #[test]
    fn the_rule_on_relative_changes() {
        assert_eq!(relative_change(200.0, 201.0), 0.005);
        assert_eq!(relative_change(0.0, 0.0), 0.0);
        assert_eq!(relative_change(0.0, 3.0), f64::INFINITY);
        assert_eq!(classify_relative(0.005, 0.005), Change::Unchanged);
        assert_eq!(classify_relative(0.0051, 0.005), Change::Regressed);
        assert_eq!(classify_relative(-0.0051, 0.005), Change::Improved);
        assert_eq!(classify_relative(f64::INFINITY, 0.005), Change::Regressed);
    }

    #[test]
    fn a_first_op_one_percent_higher_is_a_regression_of_that_phase() {
        // 47,449 → 47,923 (+0.999%): first_op regressed; init+ops (48,143 → 48,617, +0.985%)
        // too; the other phases and the other cell unchanged; to_main moved by 40 instructions
        // and decides nothing.
        let c = compare(&run(47_449, 265_390), &run(47_923, 265_430), 0.005);
        assert_eq!(c.len(), 2);
        assert_eq!(verdict_text(&c[0]), "unchanged");
        assert_eq!(
            verdict_text(&c[1]),
            "regressed: first_op +0.999%, init+ops +0.985%"
        );
        let serde = c.iter().find(|x| x.key.codec == "serde_json").unwrap();
        assert_eq!(serde.change, Change::Unchanged);
        assert!(serde.identical());
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        assert_eq!(simd.change, Change::Regressed);
        let regressed: Vec<&str> = simd
            .phases_that(Change::Regressed)
            .map(|p| p.phase.name())
            .collect();
        assert_eq!(regressed, ["first_op", "init+ops"]);
        let first = &simd.phases[1];
        assert_eq!((first.a, first.b), (47_449.0, 47_923.0));
        assert!((first.relative - 474.0 / 47_449.0).abs() < 1e-15);
        assert_eq!((simd.n_a, simd.n_b), (3, 3));
        let to_main = simd.to_main.as_ref().unwrap();
        assert_eq!((to_main.a, to_main.b), (265_390.0, 265_430.0));
        // at a 2% threshold, the same 1% is no change
        let c = compare(&run(47_449, 265_390), &run(47_923, 265_390), 0.02);
        assert!(c.iter().all(|x| x.change == Change::Unchanged));
        // and the other way round, an improvement
        let c = compare(&run(47_923, 265_390), &run(47_449, 265_390), 0.005);
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        assert_eq!(simd.change, Change::Improved);
        assert_eq!(
            verdict_text(simd),
            "improved: first_op -0.989%, init+ops -0.975%"
        );
        let to_main = simd.to_main.as_ref().unwrap();
        assert_eq!(change_text(to_main), "=");
        let from_zero = PhaseChange {
            phase: Phase::Init,
            a: 0.0,
            b: 23.0,
            relative: f64::INFINITY,
            identical: true,
            change: Change::Regressed,
        };
        assert_eq!(change_text(&from_zero), "0→23");
    }

    #[test]
    fn identical_runs_are_unchanged_and_only_to_main_moving_changes_nothing() {
        let c = compare(&run(47_449, 265_390), &run(47_449, 265_390), 0.005);
        assert!(c.iter().all(|x| x.change == Change::Unchanged));
        assert!(c
            .iter()
            .all(|x| x.phases.len() == 6 && x.phases.iter().all(|p| p.relative == 0.0)));
        let c = compare(&run(47_449, 265_390), &run(47_449, 300_000), 0.005);
        assert!(c.iter().all(|x| x.change == Change::Unchanged));
    }

    #[test]
    fn cells_in_one_run_only_and_uncounted_cells_are_listed() {
        let a = run(47_449, 265_390);
        let mut b: Vec<SampleRow> = a
            .iter()
            .filter(|r| r.codec == "simd-json")
            .cloned()
            .collect();
        b.push(counted_row("sonic-rs", 1, 40, 60_000, 23));
        // serde_json in B with samples but none counted: in both runs, but cannot compare
        let mut uncounted = counted_row("serde_json", 1, 18, 64_908, 23);
        uncounted.instr_first_op = None;
        b.push(uncounted);
        let (c, only_a, only_b) = compare_counts(
            &Samples::from_rows(&a),
            &Samples::from_rows(&b),
            0.005,
            false,
        );
        assert_eq!(c.len(), 2);
        let serde = c.iter().find(|x| x.key.codec == "serde_json").unwrap();
        assert_eq!(
            (serde.change, serde.n_a, serde.n_b),
            (Change::CannotCompare, 3, 0)
        );
        assert_eq!(
            verdict_text(serde),
            "cannot compare: no counted sample in B"
        );
        assert!(only_a.is_empty());
        assert_eq!(only_b.len(), 1);
        assert_eq!(only_b[0].codec, "sonic-rs");
    }

    #[test]
    fn samples_that_disagree_are_compared_by_their_medians_and_said() {
        let a = run(47_449, 265_390);
        let mut b = a.clone();
        b[1].instr_first_op = Some(47_000);
        let c = compare(&a, &b, 0.005);
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        // median of 47,000, 47,449, 47,449 is 47,449: unchanged, but not identical
        assert_eq!(simd.change, Change::Unchanged);
        assert!(!simd.identical());
        assert_eq!(verdict_text(simd), "unchanged (samples differ)");
    }

    #[test]
    fn samples_that_disagree_change_only_when_their_ranges_part() {
        // sonic-rs-value's `ser` seeds a hash per process: first_op 36,686..37,387 in one run.
        let spread = |first: [u64; 3]| {
            let mut rows = run(47_449, 265_390);
            for (r, f) in rows
                .iter_mut()
                .filter(|r| r.codec == "simd-json")
                .zip(first)
            {
                r.instr_first_op = Some(f);
            }
            rows
        };
        let a = spread([36_686, 37_000, 37_387]);
        // medians 37,000 against 37,387 (+1.05%, a regression by medians), but the ranges
        // overlap: unchanged
        let c = compare(&a, &spread([37_300, 37_387, 37_400]), 0.005);
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        assert_eq!(simd.change, Change::Unchanged, "{}", verdict_text(simd));
        assert_eq!(verdict_text(simd), "unchanged (samples differ)");
        // B's least count 1% above A's greatest: regressed
        let c = compare(&a, &spread([37_761, 37_800, 37_900]), 0.005);
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        assert_eq!(simd.change, Change::Regressed);
        // and B's greatest 1% below A's least: improved
        let c = compare(&a, &spread([36_000, 36_100, 36_319]), 0.005);
        let simd = c.iter().find(|x| x.key.codec == "simd-json").unwrap();
        assert_eq!(simd.change, Change::Improved);
    }
}
