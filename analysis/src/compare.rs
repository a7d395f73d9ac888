//! `compare RUN_A RUN_B`: every cell present in both runs, figure by figure, and a verdict that
//! calls a change only when the figure has moved beyond the threshold by more than the runs'
//! own spread, and never from too few samples. The run's measure chooses the figures and the
//! rule: a timed run's one span by the ratio of medians with a seeded
//! bootstrap interval ([`interval_rule`]); a counted run's phases exactly, by their counts or
//! their ranges ([`exact_rule`]). Pure: the caller reads the runs.

use crate::analyze::cells::{cell_seed, CellKey};
use crate::report::doc::{Cell, Table, Tone};
use crate::report::format;
use crate::span::Span;
use crate::stats::bootstrap::median_ratio_interval;
use crate::stats::median_interval::smallest_n;
use crate::stats::quantile::{median, sorted};
use schema::phases::{Figure, Phase, Quantity};
use schema::{Measure, Op, Variant};
use serde::Serialize;
use std::collections::BTreeMap;
use store::cell::{CellSamples, Samples};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Improved,
    Regressed,
    Unchanged,
    /// Too few samples in either run for the interval to mean anything (fewer than
    /// [`min_samples`]), or an interval of zero width (too few distinct values for the
    /// bootstrap): neither improved nor regressed, whatever the medians say.
    #[serde(rename = "too-few-samples")]
    TooFewSamples,
    /// A cell both runs hold whose change has no meaning: no ok sample with the figure in one
    /// run, a median of A that is not above zero (no ratio), or no bootstrap interval (a
    /// resampled median of A is zero). Counted and listed, never dropped.
    #[serde(rename = "cannot-compare")]
    CannotCompare,
}

impl Change {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Change::Improved => "improved",
            Change::Regressed => "regressed",
            Change::Unchanged => "unchanged",
            Change::TooFewSamples => "too few samples",
            Change::CannotCompare => "cannot compare",
        }
    }

    fn tone(self) -> Tone {
        match self {
            Change::Improved => Tone::Good,
            Change::Regressed => Tone::Bad,
            _ => Tone::Muted,
        }
    }
}

/// The fewest samples per run a cell needs for a verdict at `level`: the fewest with which a
/// median has a distribution-free interval at that level at all (6 at 95%: with 5 even the
/// whole range covers the median only 93.75% of the time). The bootstrap of a median draws
/// only order statistics of the sample, so below that it cannot honestly claim the level
/// either; at one sample it has zero width.
pub(crate) fn min_samples(level: f64) -> usize {
    smallest_n(level).unwrap_or(usize::MAX)
}

/// One figure of one cell in A and in B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct FigureChange {
    /// The figure: `init_plus_ops`, `wall`, or a phase (`first_op`).
    pub(crate) figure: &'static str,
    /// Its medians over the samples that hold it; `None` when a run has none.
    pub(crate) a: Option<f64>,
    pub(crate) b: Option<f64>,
    /// b / a; `None` when either is missing or a is not above zero.
    pub(crate) ratio: Option<f64>,
    /// The bootstrap interval of the ratio (the interval rule); `None` under the exact rule, or
    /// with too few samples.
    pub(crate) interval: Option<(f64, f64)>,
    /// Every sample of A agreed, and every sample of B.
    pub(crate) identical: bool,
    /// Whether it decides the cell's verdict (`to_main` of a counted run does not: the loader
    /// moves with the command line and the environment).
    pub(crate) judged: bool,
    pub(crate) change: Change,
}

impl FigureChange {
    /// (b − a) / a: 0 when both are 0, infinite from 0 to more.
    pub(crate) fn relative(&self) -> Option<f64> {
        Some(relative_change(self.a?, self.b?))
    }

    /// A relative change as a table shows it: `=` for none, `+1.000%`, `-0.420%`, or `0→23`
    /// from nothing.
    pub(crate) fn change_text(&self) -> String {
        match (self.a, self.b, self.relative()) {
            (Some(a), Some(b), _) if a == b => "=".into(),
            (_, Some(b), Some(r)) if r.is_infinite() => format!("0→{b}"),
            (_, _, Some(r)) => format!("{:+.3}%", r * 100.0),
            _ => "—".into(),
        }
    }
}

/// One cell both runs hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CellChange {
    /// The cell (with run A's variant).
    pub(crate) key: CellKey,
    /// The variant compared: `portable`, or `portable→native` when variants were ignored.
    pub(crate) variants: String,
    /// The samples each run has of the cell's first figure.
    pub(crate) n_a: usize,
    pub(crate) n_b: usize,
    /// The figures compared, in the order the measure lists them.
    pub(crate) figures: Vec<FigureChange>,
    pub(crate) change: Change,
    /// Why a cell cannot be compared.
    pub(crate) why: Option<String>,
}

impl CellChange {
    /// The figures that changed in direction `change`.
    pub(crate) fn figures_that(&self, change: Change) -> impl Iterator<Item = &FigureChange> {
        self.figures
            .iter()
            .filter(move |f| f.judged && f.change == change)
    }

    /// The cell's verdict in words: the label, why it cannot be compared, and under the exact
    /// rule the figures that moved (`regressed: first_op +1.000%, init+ops +0.985%`) and
    /// whether a run's samples disagreed in a judged figure (`(samples differ)`).
    pub(crate) fn verdict_text(&self, exact: bool) -> String {
        let mut text = match (&self.why, self.change) {
            (Some(why), c) => format!("{}: {why}", c.label()),
            (None, Change::Regressed | Change::Improved) if exact => {
                [Change::Regressed, Change::Improved]
                    .into_iter()
                    .filter_map(|change| {
                        let v: Vec<String> = self
                            .figures_that(change)
                            .map(|f| format!("{} {}", f.figure, f.change_text()))
                            .collect();
                        (!v.is_empty()).then(|| format!("{}: {}", change.label(), v.join(", ")))
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            }
            (None, c) => c.label().to_string(),
        };
        if exact
            && self.change != Change::CannotCompare
            && self.figures.iter().any(|f| f.judged && !f.identical)
        {
            text.push_str(" (samples differ)");
        }
        text
    }
}

/// What a compare is asked: the figure (a timed run's span), the threshold, and the interval's
/// settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompareOptions {
    pub(crate) span: crate::span::Span,
    pub(crate) threshold: f64,
    pub(crate) resamples: usize,
    pub(crate) level: f64,
    pub(crate) seed: u64,
    /// Match cells whatever their variant (to compare a portable run with a native one).
    pub(crate) ignore_variant: bool,
    /// Only this phase decides a cell's verdict (the others are shown).
    pub(crate) phase: Option<Phase>,
}

/// The interval rule's verdict: regressed when the interval's lower end exceeds 1 + threshold,
/// improved when its upper end is below 1 − threshold, unchanged otherwise.
pub fn classify(lo: f64, hi: f64, threshold: f64) -> Change {
    if lo > 1.0 + threshold {
        Change::Regressed
    } else if hi < 1.0 - threshold {
        Change::Improved
    } else {
        Change::Unchanged
    }
}

/// The exact rule's verdict on one change: a relative change beyond `threshold` either way.
pub(crate) fn classify_relative(relative: f64, threshold: f64) -> Change {
    if relative > threshold {
        Change::Regressed
    } else if relative < -threshold {
        Change::Improved
    } else {
        Change::Unchanged
    }
}

/// (b − a) / a, with a of 0 handled: no change when b is 0 too, an infinite rise otherwise.
pub(crate) fn relative_change(a: f64, b: f64) -> f64 {
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

/// How cells of two runs are matched: fixture, op, variant (none when variants are ignored),
/// batch, codec, in the order tables list them.
type MatchKey = (String, Op, Option<Variant>, u32, String);

/// Every cell of a run under its match key, with the cell it came from and, per figure of
/// `judged`, the values of the samples that hold all of them (cells that differ only by variant,
/// when variants are ignored, pooled under the cell met first in the file).
fn by_match_key(
    samples: &Samples,
    ignore_variant: bool,
    judged: &[Judged],
) -> BTreeMap<MatchKey, (CellKey, Vec<Vec<u64>>)> {
    let mut m: BTreeMap<MatchKey, (CellKey, Vec<Vec<u64>>)> = BTreeMap::new();
    // in file order, so that the cell a match key keeps is the one met first
    for key in &samples.first_seen {
        let variant = (!ignore_variant).then_some(key.variant);
        let e = m
            .entry((
                key.fixture.clone(),
                key.op,
                variant,
                key.batch,
                key.codec.clone(),
            ))
            .or_insert_with(|| (key.clone(), vec![Vec::new(); judged.len()]));
        let cell = &samples.cells[key];
        for i in cell.ok() {
            // a sample counts where it holds the first figure (the one the verdict rests on)
            if (judged[0].value)(cell, i).is_none() {
                continue;
            }
            for (values, j) in e.1.iter_mut().zip(judged) {
                values.extend((j.value)(cell, i));
            }
        }
    }
    m
}

/// `variants` of a compared cell: `portable`, or `portable→native` when they differ.
fn variants(a: &CellKey, b: &CellKey) -> String {
    if a.variant == b.variant {
        a.variant.to_string()
    } else {
        format!("{}→{}", a.variant, b.variant)
    }
}

/// Every compared cell's change, the cells only in A, the cells only in B.
pub(crate) type Compared = (Vec<CellChange>, Vec<CellKey>, Vec<CellKey>);

/// Changes of every cell both runs have (those that cannot be compared among them, as such),
/// plus the cells only one has (A-only, B-only), by the rule of `measure`.
pub(crate) fn compare(
    measure: Measure,
    a: &Samples,
    b: &Samples,
    opts: &CompareOptions,
) -> Compared {
    let judged = judged(measure, opts.span, opts.phase);
    let (va, vb) = (
        by_match_key(a, opts.ignore_variant, &judged),
        by_match_key(b, opts.ignore_variant, &judged),
    );
    let changes = va
        .iter()
        .filter_map(|(k, (cell_a, xa))| {
            let (cell_b, xb) = vb.get(k)?;
            let mut c = CellChange {
                key: cell_a.clone(),
                variants: variants(cell_a, cell_b),
                n_a: xa[0].len(),
                n_b: xb[0].len(),
                figures: Vec::new(),
                change: Change::CannotCompare,
                why: None,
            };
            judge(measure, &judged, xa, xb, opts, &mut c);
            Some(c)
        })
        .collect();
    let only = |x: &BTreeMap<MatchKey, (CellKey, Vec<Vec<u64>>)>, y: &BTreeMap<_, _>| {
        x.iter()
            .filter(|(k, _)| !y.contains_key(*k))
            .map(|(_, (cell, _))| cell.clone())
            .collect()
    };
    (changes, only(&va, &vb), only(&vb, &va))
}

/// The medians of `a` and `b`, and whether every value of each agrees.
fn medians(a: &[u64], b: &[u64]) -> (Option<f64>, Option<f64>, bool) {
    let m = |v: &[u64]| median(&sorted(&v.iter().map(|&x| x as f64).collect::<Vec<_>>()));
    let alike = |v: &[u64]| v.windows(2).all(|w| w[0] == w[1]);
    (m(a), m(b), alike(a) && alike(b))
}

/// How a figure of sample `i` of a cell is read.
pub(crate) type SampleValue = Box<dyn Fn(&CellSamples, usize) -> Option<u64> + Sync>;

/// A figure `compare` reads of each sample: its name, how its value is read, and whether it
/// decides the cell's verdict.
pub(crate) struct Judged {
    pub(crate) name: &'static str,
    pub(crate) value: SampleValue,
    pub(crate) judged: bool,
}

/// The figures `compare` reads of each sample, the first deciding which samples count; with
/// `only`, only that phase decides the verdict (timed: its time is the figure compared).
pub(crate) fn judged(measure: Measure, span: Span, only: Option<Phase>) -> Vec<Judged> {
    match (measure, only) {
        (Measure::Time, None) => vec![Judged {
            name: span.name(),
            value: Box::new(move |cell, i| span.value(measure, cell, i)),
            judged: true,
        }],
        (Measure::Time, Some(p)) => vec![Judged {
            name: p.name(),
            value: Box::new(move |cell, i| cell.get(Figure::time(p), i)),
            judged: true,
        }],
        (Measure::Instructions, _) => {
            // with `only`, that phase alone decides; the others are shown
            let decides = |p: Phase, judged: bool| only.map_or(judged, |o| o == p);
            let phase = |p: Phase, judged: bool| Judged {
                name: p.name(),
                value: Box::new(move |cell: &CellSamples, i| {
                    cell.get(Figure::Of(Quantity::Instructions, p), i)
                }),
                judged: decides(p, judged),
            };
            // init+ops first: a sample counts when its library's phases were all counted;
            // the input's phase is not the library's, and the loader's decides nothing
            let mut v = vec![Judged {
                name: "init+ops",
                value: Box::new(move |cell, i| Span::InitPlusOps.value(measure, cell, i)),
                judged: only.is_none(),
            }];
            v.extend(Phase::LIBRARY.iter().map(|&p| phase(p, true)));
            v.extend([Phase::Check, Phase::Exit].map(|p| phase(p, true)));
            v.push(phase(Phase::SpawnToMain, false));
            v
        }
    }
}

/// `compare`'s verdict on one cell from the figures' values in A and B: by the interval for
/// times, exactly for counts.
pub(crate) fn judge(
    measure: Measure,
    judged: &[Judged],
    xa: &[Vec<u64>],
    xb: &[Vec<u64>],
    opts: &CompareOptions,
    c: &mut CellChange,
) {
    match measure {
        Measure::Time => interval_rule(&judged[0], &xa[0], &xb[0], opts, c),
        Measure::Instructions => exact_rule(judged, xa, xb, opts.threshold, c),
    }
}

/// The terminal columns of one compared figure.
pub(crate) fn change_columns(measure: Measure, f: &FigureChange) -> Vec<String> {
    match measure {
        Measure::Time => vec![
            ">median A".into(),
            ">median B".into(),
            ">B / A [95% CI]".into(),
        ],
        Measure::Instructions if f.judged => vec![format!(">{}", f.figure)],
        Measure::Instructions => vec![format!(">{} (not judged)", f.figure)],
    }
}

/// The terminal cells of one compared figure.
pub(crate) fn change_cells(measure: Measure, f: &FigureChange) -> Vec<String> {
    match measure {
        Measure::Time => vec![
            median_text(measure, f.a),
            median_text(measure, f.b),
            ratio_text(f),
        ],
        Measure::Instructions => vec![f.change_text()],
    }
}

/// What `compare` prints above its table.
pub(crate) fn compare_heading(measure: Measure, opts: &CompareOptions) -> String {
    match measure {
        Measure::Time => format!(
            "figure {}, threshold ±{:.1}%",
            opts.phase.map_or(opts.span.name(), Phase::name),
            opts.threshold * 100.0
        ),
        Measure::Instructions => match opts.phase {
            None => format!(
                "counted runs: instructions compared exactly, phase by phase (B − A over A); a phase beyond ±{}% is a change; spawn_to_main (the dynamic loader, which moves with the environment) is listed and not judged",
                opts.threshold * 100.0
            ),
            Some(p) => format!(
                "counted runs: instructions compared exactly, phase by phase (B − A over A); only {} is judged, a change beyond ±{}%; the other phases are listed",
                p.name(),
                opts.threshold * 100.0
            ),
        },
    }
}

/// The interval rule (times): the one judged figure's ratio of medians B / A with a seeded
/// bootstrap interval; a change only when the whole interval lies beyond 1 ± threshold, never
/// from fewer than [`min_samples`] in a run, and a zero-width interval is too few samples.
pub(crate) fn interval_rule(
    j: &Judged,
    xa: &[u64],
    xb: &[u64],
    opts: &CompareOptions,
    c: &mut CellChange,
) {
    let (ma, mb, identical) = medians(xa, xb);
    let mut f = FigureChange {
        figure: j.name,
        a: ma,
        b: mb,
        ratio: None,
        interval: None,
        identical,
        judged: true,
        change: Change::CannotCompare,
    };
    c.why = match (ma, mb) {
        (None, _) => Some(format!("no ok sample with {} in A", j.name)),
        (_, None) => Some(format!("no ok sample with {} in B", j.name)),
        (Some(ma), _) if ma <= 0.0 => Some(format!("the median of A is {ma}: no ratio")),
        (Some(ma), Some(mb)) => {
            f.ratio = Some(mb / ma);
            let (sa, sb) = (
                sorted(&xa.iter().map(|&x| x as f64).collect::<Vec<_>>()),
                sorted(&xb.iter().map(|&x| x as f64).collect::<Vec<_>>()),
            );
            if sa.len().min(sb.len()) < min_samples(opts.level) {
                f.change = Change::TooFewSamples;
                None
            } else {
                let seed = cell_seed(&c.key, opts.seed);
                match median_ratio_interval(&sa, &sb, opts.resamples, opts.level, seed) {
                    None => Some("a resampled median of A is 0: no interval of the ratio".into()),
                    Some((lo, hi)) => {
                        f.interval = Some((lo, hi));
                        f.change = if lo < hi {
                            classify(lo, hi, opts.threshold)
                        } else {
                            Change::TooFewSamples
                        };
                        None
                    }
                }
            }
        }
    };
    c.change = f.change;
    c.figures.push(f);
}

/// The exact rule (counts), figure by figure. Where every sample of each run agrees, a change
/// of the count beyond the threshold is a change. Where samples disagree (a library that seeds
/// a hash per process), the counts are a range, and a change is called only when B's range
/// lies beyond A's by more than the threshold: two runs of the same build never differ by more
/// than their own spread. The cell regressed when a judged figure regressed, improved when one
/// improved and none regressed; it cannot be compared when a run counted none of its samples.
pub(crate) fn exact_rule(
    judged: &[Judged],
    xa: &[Vec<u64>],
    xb: &[Vec<u64>],
    threshold: f64,
    c: &mut CellChange,
) {
    for ((j, a), b) in judged.iter().zip(xa).zip(xb) {
        let (ma, mb, identical) = medians(a, b);
        let (Some(ma), Some(mb)) = (ma, mb) else {
            continue;
        };
        let range = |v: &[u64]| {
            (
                *v.iter().min().expect("a median") as f64,
                *v.iter().max().expect("a median") as f64,
            )
        };
        let ((lo_a, hi_a), (lo_b, hi_b)) = (range(a), range(b));
        let change = if identical {
            classify_relative(relative_change(ma, mb), threshold)
        } else if relative_change(hi_a, lo_b) > threshold {
            Change::Regressed
        } else if relative_change(lo_a, hi_b) < -threshold {
            Change::Improved
        } else {
            Change::Unchanged
        };
        c.figures.push(FigureChange {
            figure: j.name,
            a: Some(ma),
            b: Some(mb),
            ratio: (ma > 0.0).then(|| mb / ma),
            interval: None,
            identical,
            judged: j.judged,
            change,
        });
    }
    c.change = if xa[0].is_empty() || xb[0].is_empty() {
        c.why = Some(format!(
            "no counted sample in {}",
            match (xa[0].len(), xb[0].len()) {
                (0, 0) => "either run",
                (0, _) => "A",
                _ => "B",
            }
        ));
        Change::CannotCompare
    } else if c.figures_that(Change::Regressed).next().is_some() {
        Change::Regressed
    } else if c.figures_that(Change::Improved).next().is_some() {
        Change::Improved
    } else {
        Change::Unchanged
    };
}

/// The changes as the terminal shows them: one row per cell, the measure's columns for each
/// figure, the verdict.
pub(crate) fn table(measure: Measure, changes: &[CellChange]) -> Table {
    let mut header: Vec<String> = [
        "fixture", "op", "variant", ">batch", "codec", ">n A", ">n B",
    ]
    .map(String::from)
    .to_vec();
    let columns = changes.first().map_or_else(Vec::new, |c| {
        c.figures
            .iter()
            .flat_map(|f| change_columns(measure, f))
            .collect()
    });
    header.extend(columns);
    header.push("verdict".into());
    let mut t = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for c in changes {
        let mut row: Vec<Cell> = vec![
            c.key.fixture.clone().into(),
            c.key.op.into(),
            c.variants.clone().into(),
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            c.n_a.to_string().into(),
            c.n_b.to_string().into(),
        ];
        for f in &c.figures {
            row.extend(change_cells(measure, f).into_iter().map(Cell::from));
        }
        // a cell that cannot be compared may lack figures the others have
        let width = header.len() - 1;
        row.resize(width, Cell::toned("—", Tone::Muted));
        row.push(Cell::toned(
            c.verdict_text(measure.exact()),
            c.change.tone(),
        ));
        t.row(row);
    }
    t
}

/// The counts of each verdict, and the cells only in one run, as a closing line.
pub(crate) fn tally(changes: &[CellChange], only_a: usize, only_b: usize, level: f64) -> String {
    let count = |ch: Change| changes.iter().filter(|c| c.change == ch).count();
    format!(
        "{} cells compared: {} improved, {} regressed, {} unchanged; {} with too few samples for a verdict (fewer than {} in a run, or an interval of zero width); {} cannot compare; {only_a} only in A, {only_b} only in B",
        changes.len(),
        count(Change::Improved),
        count(Change::Regressed),
        count(Change::Unchanged),
        count(Change::TooFewSamples),
        min_samples(level),
        count(Change::CannotCompare),
    )
}

/// compare's CSV: one row per cell and figure, written as an output that never lands on an
/// input (see [`store::outputs::write_output`]; `force` is `--force`).
pub(crate) fn write_csv(
    path: &std::path::Path,
    changes: &[CellChange],
    force: bool,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "fixture",
        "op",
        "variant",
        "batch",
        "codec",
        "n_a",
        "n_b",
        "figure",
        "median_a",
        "median_b",
        "ratio",
        "lo",
        "hi",
        "identical",
        "figure_verdict",
        "verdict",
    ])?;
    let num = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for c in changes {
        for f in &c.figures {
            let record = [
                c.key.fixture.clone(),
                c.key.op.to_string(),
                c.variants.clone(),
                c.key.batch.to_string(),
                c.key.codec.clone(),
                c.n_a.to_string(),
                c.n_b.to_string(),
                f.figure.to_string(),
                num(f.a),
                num(f.b),
                num(f.ratio),
                num(f.interval.map(|i| i.0)),
                num(f.interval.map(|i| i.1)),
                f.identical.to_string(),
                if f.judged {
                    f.change.label()
                } else {
                    "not judged"
                }
                .to_string(),
                c.change.label().to_string(),
            ];
            // a cell a spreadsheet would run as a formula is made text
            w.write_record(record.iter().map(|c| text::for_spreadsheet(c)))?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{}", e.error()))
        .with_context(|| format!("cannot write {}", path.display()))?;
    store::outputs::write_output(path, "--out", force, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A median as a table shows it, in the measure's unit.
pub(crate) fn median_text(measure: Measure, v: Option<f64>) -> String {
    v.map_or("—".to_string(), |v| format::of_measure(measure, v))
}

/// A ratio with its interval, or `—`.
pub(crate) fn ratio_text(f: &FigureChange) -> String {
    f.ratio
        .map_or("—".to_string(), |r| format::ratio_ci(r, f.interval))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;
    use crate::testing::{counted, samples, timed};
    use schema::phases::{Figure, Phase, Quantity};
    use schema::rows::SampleRow;

    fn opts(threshold: f64) -> CompareOptions {
        CompareOptions {
            span: Span::InitPlusOps,
            threshold,
            resamples: 500,
            level: 0.95,
            seed: 1,
            ignore_variant: false,
            phase: None,
        }
    }

    fn timed_compare(a: &[SampleRow], b: &[SampleRow]) -> Compared {
        compare(Measure::Time, &samples(a), &samples(b), &opts(0.02))
    }

    #[test]
    fn the_rules_on_intervals_and_relative_changes() {
        assert_eq!(classify(1.03, 1.10, 0.02), Change::Regressed);
        assert_eq!(classify(1.01, 1.10, 0.02), Change::Unchanged);
        assert_eq!(classify(0.90, 0.97, 0.02), Change::Improved);
        assert_eq!(classify(0.90, 0.99, 0.02), Change::Unchanged);
        assert_eq!(relative_change(200.0, 201.0), 0.005);
        assert_eq!(relative_change(0.0, 0.0), 0.0);
        assert_eq!(relative_change(0.0, 3.0), f64::INFINITY);
        assert_eq!(classify_relative(0.005, 0.005), Change::Unchanged);
        assert_eq!(classify_relative(0.0051, 0.005), Change::Regressed);
        assert_eq!(classify_relative(-0.0051, 0.005), Change::Improved);
        assert_eq!(classify_relative(f64::INFINITY, 0.005), Change::Regressed);
    }

    /// A cell of `n` samples of "x" around `base`, spread over 7 distinct values.
    fn cell(n: u32, base: u64) -> Vec<SampleRow> {
        (0..n)
            .map(|b| timed(b, "x", 1, Some(base + u64::from(b % 7) * 10)))
            .collect()
    }

    #[test]
    fn detects_a_regression() {
        let a = cell(40, 10_000);
        let mut b = cell(40, 11_000);
        b.push(timed(0, "y", 1, Some(5)));
        let (c, only_a, only_b) = timed_compare(&a, &b);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].change, Change::Regressed);
        assert!((c[0].figures[0].ratio.unwrap() - 1.1).abs() < 0.01);
        assert!(only_a.is_empty());
        assert_eq!(only_b.len(), 1);
        let (c, _, _) = timed_compare(&a, &a);
        assert_eq!(c[0].change, Change::Unchanged);
    }

    #[test]
    fn too_few_samples_is_a_verdict_of_its_own() {
        assert_eq!(min_samples(0.95), 6);
        // B 10% slower: five samples in either run is too few for any verdict, six are enough.
        for (na, nb, expected) in [
            (5, 40, Change::TooFewSamples),
            (40, 5, Change::TooFewSamples),
            (1, 1, Change::TooFewSamples),
            (6, 6, Change::Regressed),
        ] {
            let (c, _, _) = timed_compare(&cell(na, 10_000), &cell(nb, 11_000));
            assert_eq!(c[0].change, expected, "{na} and {nb} samples");
            let f = &c[0].figures[0];
            assert_eq!(f.interval.is_some(), na.min(nb) >= 6);
            assert!((f.ratio.unwrap() - 1.1).abs() < 0.01);
        }
        // Enough samples, but every one the same in each run: the interval has zero width, so
        // the bootstrap saw nothing of the spread.
        let flat = |ns: u64| {
            (0..40)
                .map(|b| timed(b, "x", 1, Some(ns)))
                .collect::<Vec<_>>()
        };
        let (c, _, _) = timed_compare(&flat(10_000), &flat(11_000));
        assert_eq!(c[0].figures[0].interval, Some((1.1, 1.1)));
        assert_eq!(c[0].change, Change::TooFewSamples);
    }

    #[test]
    fn a_common_cell_that_cannot_be_compared_is_kept_and_says_why() {
        // A's median is 0 (no ratio); A's resampled medians include 0 (no interval: 20 zeros
        // among 40); A's samples all failed. Each is in both runs, so each is listed.
        let zero = |mut r: SampleRow| {
            crate::testing::set_times(&mut r, 0, 0, 0);
            r
        };
        let zeros: Vec<SampleRow> = cell(40, 0).into_iter().map(zero).collect();
        let half: Vec<SampleRow> = cell(40, 10_000)
            .into_iter()
            .enumerate()
            .map(|(i, r)| if i % 2 == 0 { zero(r) } else { r })
            .collect();
        let failed: Vec<SampleRow> = (0..40).map(|b| timed(b, "x", 1, None)).collect();
        for (a, why) in [
            (zeros, "cannot compare: the median of A is 0: no ratio"),
            (
                half,
                "cannot compare: a resampled median of A is 0: no interval of the ratio",
            ),
            (
                failed,
                "cannot compare: no ok sample with init_plus_ops in A",
            ),
        ] {
            let (c, only_a, only_b) = timed_compare(&a, &cell(40, 11_000));
            assert_eq!(c.len(), 1, "{why}");
            assert_eq!(c[0].change, Change::CannotCompare, "{why}");
            assert_eq!(c[0].verdict_text(false), why);
            assert_eq!(c[0].figures[0].interval, None);
            assert!(only_a.is_empty() && only_b.is_empty());
        }
        let failed: Vec<SampleRow> = (0..40).map(|b| timed(b, "x", 1, None)).collect();
        let (c, _, _) = timed_compare(&cell(40, 11_000), &failed);
        assert_eq!(
            c[0].why.as_deref(),
            Some("no ok sample with init_plus_ops in B")
        );
    }

    fn run(first_op_simd: u64, to_main: u64) -> Vec<SampleRow> {
        let mut rows = Vec::new();
        for _ in 0..3 {
            rows.push(counted("serde_json", 1, 18, 64_908, 23));
            let mut r = counted("simd-json", 1, 671, first_op_simd, 23);
            r.set(instr(Phase::SpawnToMain), Some(to_main));
            rows.push(r);
        }
        rows
    }

    fn instr(p: Phase) -> Figure {
        Figure::Of(Quantity::Instructions, p)
    }

    fn counted_compare(a: &[SampleRow], b: &[SampleRow], threshold: f64) -> Vec<CellChange> {
        let (c, only_a, only_b) = compare(
            Measure::Instructions,
            &samples(a),
            &samples(b),
            &opts(threshold),
        );
        assert!(only_a.is_empty() && only_b.is_empty());
        c
    }

    fn simd(c: &[CellChange]) -> &CellChange {
        c.iter().find(|x| x.key.codec == "simd-json").unwrap()
    }

    #[test]
    fn a_first_op_one_percent_higher_is_a_regression_of_that_phase() {
        // 47,449 → 47,923 (+0.999%): first_op regressed; init+ops (48,143 → 48,617, +0.985%)
        // too; the other phases and the other cell unchanged; spawn_to_main moved by 40
        // instructions and decides nothing.
        let c = counted_compare(&run(47_449, 265_390), &run(47_923, 265_430), 0.005);
        assert_eq!(c.len(), 2);
        let serde = c.iter().find(|x| x.key.codec == "serde_json").unwrap();
        assert_eq!(serde.verdict_text(true), "unchanged");
        let s = simd(&c);
        assert_eq!(
            s.verdict_text(true),
            "regressed: init+ops +0.985%, first_op +0.999%"
        );
        let first = s.figures.iter().find(|f| f.figure == "first_op").unwrap();
        assert_eq!((first.a, first.b), (Some(47_449.0), Some(47_923.0)));
        assert!((first.relative().unwrap() - 474.0 / 47_449.0).abs() < 1e-15);
        assert_eq!((s.n_a, s.n_b), (3, 3));
        let to_main = s.figures.last().unwrap();
        assert_eq!(
            (to_main.figure, to_main.judged, to_main.change),
            ("spawn_to_main", false, Change::Unchanged)
        );
        assert_eq!((to_main.a, to_main.b), (Some(265_390.0), Some(265_430.0)));
        // at a 2% threshold, the same 1% is no change
        let c = counted_compare(&run(47_449, 265_390), &run(47_923, 265_390), 0.02);
        assert!(c.iter().all(|x| x.change == Change::Unchanged));
        // and the other way round, an improvement
        let c = counted_compare(&run(47_923, 265_390), &run(47_449, 265_390), 0.005);
        assert_eq!(simd(&c).change, Change::Improved);
        assert_eq!(
            simd(&c).verdict_text(true),
            "improved: init+ops -0.975%, first_op -0.989%"
        );
        assert_eq!(simd(&c).figures.last().unwrap().change_text(), "=");
        let from_zero = FigureChange {
            figure: "init",
            a: Some(0.0),
            b: Some(23.0),
            ratio: None,
            interval: None,
            identical: true,
            judged: true,
            change: Change::Regressed,
        };
        assert_eq!(from_zero.change_text(), "0→23");
    }

    #[test]
    fn only_the_loader_moving_changes_nothing_and_uncounted_cells_cannot_compare() {
        let c = counted_compare(&run(47_449, 265_390), &run(47_449, 300_000), 0.005);
        assert!(c.iter().all(|x| x.change == Change::Unchanged));
        assert!(c.iter().all(|x| x.figures.len() == 7));
        let a = run(47_449, 265_390);
        let mut b: Vec<SampleRow> = a
            .iter()
            .filter(|r| r.codec == "simd-json")
            .cloned()
            .collect();
        b.push(counted("sonic-rs", 1, 40, 60_000, 23));
        // serde_json in B with samples but none counted: in both runs, but cannot compare
        let mut uncounted = counted("serde_json", 1, 18, 64_908, 23);
        uncounted.set(instr(Phase::FirstOp), None);
        b.push(uncounted);
        let (c, only_a, only_b) = compare(
            Measure::Instructions,
            &samples(&a),
            &samples(&b),
            &opts(0.005),
        );
        let serde = c.iter().find(|x| x.key.codec == "serde_json").unwrap();
        assert_eq!(
            (serde.change, serde.n_a, serde.n_b),
            (Change::CannotCompare, 3, 0)
        );
        assert_eq!(
            serde.verdict_text(true),
            "cannot compare: no counted sample in B"
        );
        assert!(only_a.is_empty());
        assert_eq!(only_b[0].codec, "sonic-rs");
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
                r.set(instr(Phase::FirstOp), Some(f));
            }
            rows
        };
        let a = spread([36_686, 37_000, 37_387]);
        // medians 37,000 against 37,387 (+1.05%, a regression by medians), but the ranges
        // overlap: unchanged
        let c = counted_compare(&a, &spread([37_300, 37_387, 37_400]), 0.005);
        assert_eq!(simd(&c).verdict_text(true), "unchanged (samples differ)");
        // B's least count 1% above A's greatest: regressed
        let c = counted_compare(&a, &spread([37_761, 37_800, 37_900]), 0.005);
        assert_eq!(simd(&c).change, Change::Regressed);
        // and B's greatest 1% below A's least: improved
        let c = counted_compare(&a, &spread([36_000, 36_100, 36_319]), 0.005);
        assert_eq!(simd(&c).change, Change::Improved);
    }
}
