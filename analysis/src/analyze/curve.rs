//! A curve run's figures (`cold run --curve N`, docs/statistics.md "The cost curve"): each
//! process's cumulative cost C(n) at every clock read, and from them, per cell, the median curve
//! with its distribution-free interval, the time per operation by window, each process's class
//! (flat, warmup, slowdown, no steady state) and its in-process steady state, the clock's price;
//! per codec against the reference, paired ratios at the checkpoints, the measured crossing with
//! a bootstrap interval over blocks, and the straight line's crossing beside it. Pure: the
//! processes come from `inputs::curves`.

use super::cells::{cell_seed, CellKey};
use super::coldwarm::{break_evens, find_warm, Cost, CostCurve, Scenario};
use super::contrasts::pair;
use crate::inputs::curves::Process;
pub(crate) use stats::cheapest::{crossing, Cross, Side};
// STAND-IN: becomes `use stats::changepoint;` when the `stats` branch is merged.
use crate::inputs::criterion::WarmEstimate;
use crate::parallel::par_map;
use crate::stats::median_interval::order_statistic_interval;
use crate::stats::paired::{log_ratio_contrast, PairedContrast};
use crate::stats::quantile::{median, sorted};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use stats::changepoint;
use std::collections::{BTreeMap, BTreeSet};

/// The clock's price above which the report warns: 0.1% of C(N).
pub(crate) const CLOCK_SHARE_LIMIT: f64 = 0.001;

/// The operation counts the straight line of `coldwarm` is fed from: its default batches.
pub(crate) const STRAIGHT_LINE_BATCHES: [u64; 3] = [1, 10, 100];

/// The operation counts the report's tables show: 1, 10, 100, … up to the batch, and the batch.
pub(crate) fn shown(batch: u64) -> Vec<u64> {
    let mut v: Vec<u64> = std::iter::successors(Some(1u64), |n| n.checked_mul(10))
        .take_while(|&n| n <= batch)
        .collect();
    if v.last() != Some(&batch) && batch > 0 {
        v.push(batch);
    }
    v
}

/// How many processes of a cell fell in each class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ClassCount {
    pub(crate) class: &'static str,
    pub(crate) processes: usize,
}

/// One codec's paired ratio to the reference at `n` operations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CheckpointRatio {
    pub(crate) n: u64,
    pub(crate) against: String,
    pub(crate) contrast: Option<PairedContrast>,
}

/// One cell of a curve run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CurveCell {
    pub(crate) key: CellKey,
    pub(crate) window: u64,
    /// Processes with a curve (one per block).
    pub(crate) processes: usize,
    /// The reads, and at each the median C(n) across processes and its interval (`None`: too
    /// few processes for one at the level).
    pub(crate) ops: Vec<u64>,
    pub(crate) median_ns: Vec<f64>,
    pub(crate) interval: Vec<Option<(f64, f64)>>,
    /// The median across processes of each window's time per operation.
    pub(crate) window_ns: Vec<f64>,
    /// The processes of each class, in the classes' order.
    pub(crate) classes: Vec<ClassCount>,
    /// The median position of the changepoints, in operations (the window's first operation
    /// less one: "after operation n").
    pub(crate) changepoint_ops: Option<f64>,
    /// The median across processes of each one's steady state per operation.
    pub(crate) steady_ns: Option<f64>,
    /// The processes that found a steady state, and the interval of their median (the
    /// order-statistic interval, or their whole range below 6).
    pub(crate) steady_processes: usize,
    pub(crate) steady_interval: Option<(f64, f64)>,
    /// Whether the steady state stands as the cell's warm figure ([`steady_stands`]).
    pub(crate) steady_stands: bool,
    /// Criterion's or JMH's time per operation, where one exists.
    pub(crate) warm_ns: Option<f64>,
    pub(crate) steady_over_warm: Option<f64>,
    /// The median of each process's [`Process::clock_share`].
    pub(crate) clock_share: Option<f64>,
    /// Paired ratios to the reference at the shown checkpoints (empty for the reference).
    pub(crate) ratios: Vec<CheckpointRatio>,
}

impl CurveCell {
    /// The median C(n), if the clock was read after operation n.
    pub(crate) fn median_at(&self, n: u64) -> Option<(f64, Option<(f64, f64)>)> {
        let i = self.ops.binary_search(&n).ok()?;
        Some((self.median_ns[i], self.interval[i]))
    }
}

/// A warm figure stands when at least this many processes ran the cell's curve…
pub(crate) const WARM_MIN_PROCESSES: usize = 3;

/// …and at least half of them found a steady state: the one rule every warm figure of the
/// answer follows (a figure that fails it is marked, and never enters README.md's table).
pub(crate) fn steady_stands(found: bool, processes: usize, steady: usize) -> bool {
    found && processes >= WARM_MIN_PROCESSES && 2 * steady >= processes
}

/// The measured crossing of a codec with the reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Measured {
    /// `cheaper` stays cheaper from `n` on; the percentile bootstrap interval over blocks
    /// (`None` for a bound: no such n up to the batch in that share of resamples).
    From {
        cheaper: String,
        n: u64,
        lo: Option<u64>,
        hi: Option<u64>,
        level: f64,
    },
    /// No crossing up to the batch: `cheaper` throughout, or `None` when equal at the end.
    None { cheaper: Option<String> },
}

/// Beyond the last read, when the curves do not cross within it: where straight lines from
/// C(N) with each codec's in-process steady state per operation cross.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Beyond {
    /// The codec that becomes the cheaper, and from which n; `None` when the lines never meet.
    pub(crate) cheaper_after: String,
    pub(crate) n: Option<u64>,
}

/// What coldwarm's straight line gives when fed this curve's C(1), C(10), C(100) and the warm
/// time per operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum StraightLine {
    NoWarmFigure,
    /// `cheaper` stays cheaper from `n` (the straight line's last crossing).
    From {
        cheaper: String,
        n: u64,
    },
    /// No crossing within coldwarm's horizon; `cheaper` throughout (`None`: equal).
    None {
        cheaper: Option<String>,
    },
}

/// A codec against the reference over one fixture × op × variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CurveCrossing {
    pub(crate) scenario: Scenario,
    pub(crate) codec: String,
    pub(crate) reference: String,
    /// The last read: the batch of both cells.
    pub(crate) batch: u64,
    pub(crate) measured: Measured,
    /// Only when the measured curves do not cross.
    pub(crate) beyond: Option<Beyond>,
    pub(crate) straight_line: StraightLine,
    /// measured n / the straight line's n, when both name the same codec.
    pub(crate) measured_over_straight: Option<f64>,
}

/// Everything a curve run's report says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CurveReport {
    pub(crate) cells: Vec<CurveCell>,
    pub(crate) crossings: Vec<CurveCrossing>,
}

impl CurveReport {
    pub(crate) fn cell(&self, key: &CellKey) -> Option<&CurveCell> {
        self.cells.iter().find(|c| &c.key == key)
    }

    /// The crossing of `key`'s codec with the reference in its scenario.
    pub(crate) fn crossing_of(&self, key: &CellKey) -> Option<&CurveCrossing> {
        let s = Scenario::of(key);
        self.crossings
            .iter()
            .find(|c| c.scenario == s && c.codec == key.codec)
    }

    /// The scenarios that have curves, in order.
    pub(crate) fn scenarios(&self) -> Vec<Scenario> {
        let s: BTreeSet<Scenario> = self.cells.iter().map(|c| Scenario::of(&c.key)).collect();
        s.into_iter().collect()
    }
}

/// How the curve figures are computed.
#[derive(Debug, Clone)]
pub(crate) struct CurveOptions<'a> {
    pub(crate) reference: Option<&'a str>,
    pub(crate) baselines: &'a BTreeSet<String>,
    pub(crate) warm: &'a [WarmEstimate],
    pub(crate) level: f64,
    pub(crate) resamples: usize,
    pub(crate) seed: u64,
}

/// The median of `values`, and its order-statistic interval at `level`.
fn median_with_interval(values: &[f64], level: f64) -> (f64, Option<(f64, f64)>) {
    let s = sorted(values);
    let m = median(&s).unwrap_or(f64::NAN);
    (m, order_statistic_interval(&s, level).map(|i| (i.lo, i.hi)))
}

/// The processes of each cell: one per block (the first in the order given), ascending block,
/// all of the cell's schedule (the reads of the first).
fn by_cell(processes: &[Process]) -> BTreeMap<CellKey, Vec<&Process>> {
    let mut by: BTreeMap<CellKey, Vec<&Process>> = BTreeMap::new();
    for p in processes {
        by.entry(p.key.clone()).or_default().push(p);
    }
    for ps in by.values_mut() {
        ps.sort_by_key(|p| p.block); // stable: the first of a block stays first
        ps.dedup_by_key(|p| p.block);
        let ops = ps[0].ops.clone();
        ps.retain(|p| p.ops == ops && p.cost_ns.len() == ops.len());
    }
    by
}

/// The median of `v` (reordered in place); NaN when empty. The bootstrap's inner loop: a
/// selection, not a sort, and no allocation.
fn median_in_place(v: &mut [f64]) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let (below, &mut upper, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        upper
    } else {
        let lower = below.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + upper) / 2.0
    }
}

/// The median of each read across `ps`.
fn median_curve(ps: &[&Process]) -> Vec<f64> {
    let reads = ps.first().map_or(0, |p| p.ops.len());
    let mut buf = Vec::with_capacity(ps.len());
    (0..reads)
        .map(|i| {
            buf.clear();
            buf.extend(ps.iter().map(|p| p.cost_ns[i] as f64));
            median_in_place(&mut buf)
        })
        .collect()
}

fn summarize_cell(key: &CellKey, ps: &[&Process], opts: &CurveOptions) -> CurveCell {
    let window = schema::curve::window_for(u64::from(key.batch));
    let ops = ps[0].ops.clone();
    let (median_ns, interval): (Vec<f64>, Vec<Option<(f64, f64)>>) = (0..ops.len())
        .map(|i| {
            let v: Vec<f64> = ps.iter().map(|p| p.cost_ns[i] as f64).collect();
            median_with_interval(&v, opts.level)
        })
        .unzip();
    let series: Vec<Vec<f64>> = ps.iter().map(|p| p.windows(window)).collect();
    let windows = series.iter().map(Vec::len).min().unwrap_or(0);
    let window_ns = (0..windows)
        .map(|k| {
            let v: Vec<f64> = series.iter().map(|s| s[k]).collect();
            median(&sorted(&v)).unwrap_or(f64::NAN)
        })
        .collect();
    let classified: Vec<changepoint::Classified> =
        series.iter().map(|s| changepoint::classify(s)).collect();
    let classes = [
        changepoint::Class::Flat,
        changepoint::Class::Warmup,
        changepoint::Class::Slowdown,
        changepoint::Class::NoSteadyState,
    ]
    .into_iter()
    .map(|k| ClassCount {
        class: k.name(),
        processes: classified.iter().filter(|c| c.class == k).count(),
    })
    .collect();
    let positions: Vec<f64> = classified
        .iter()
        .flat_map(|c| c.changepoints.iter().map(|&k| (k as u64 * window) as f64))
        .collect();
    let steady = sorted(
        &classified
            .iter()
            .filter_map(|c| c.steady_mean)
            .collect::<Vec<_>>(),
    );
    let steady_ns = median(&steady);
    let steady_interval =
        stats::median_interval::interval_or_range(&steady, opts.level).map(|i| (i.lo, i.hi));
    let warm_ns = find_warm(opts.warm, &Scenario::of(key), &key.codec)
        .map(|w| w.median_ns)
        .filter(|w| *w > 0.0);
    let shares: Vec<f64> = ps.iter().filter_map(|p| p.clock_share()).collect();
    CurveCell {
        key: key.clone(),
        window,
        processes: ps.len(),
        ops,
        median_ns,
        interval,
        window_ns,
        classes,
        changepoint_ops: median(&sorted(&positions)),
        steady_ns,
        steady_processes: steady.len(),
        steady_interval,
        steady_stands: steady_stands(steady_ns.is_some(), ps.len(), steady.len()),
        warm_ns,
        steady_over_warm: steady_ns.zip(warm_ns).map(|(s, w)| s / w),
        clock_share: median(&sorted(&shares)),
        ratios: Vec::new(),
    }
}

/// (block, C(n)) of each process that read after `n`.
fn at(ps: &[&Process], n: u64) -> Vec<(u32, f64)> {
    ps.iter()
        .filter_map(|p| Some((p.block, p.cost_at(n)? as f64)))
        .collect()
}

/// The percentile bootstrap interval of the measured crossing: the blocks both codecs ran in
/// resampled with replacement (each block's pair of processes kept together), both median
/// curves recomputed, the crossing found again; a resample where `cheaper` does not stay
/// cheaper counts as beyond every n (a bound of `None`).
fn crossing_interval(
    pairs: &[(&Process, &Process)],
    cheaper: Side,
    resamples: usize,
    level: f64,
    seed: u64,
) -> (Option<u64>, Option<u64>) {
    if pairs.is_empty() || resamples == 0 {
        return (None, None);
    }
    let ops = &pairs[0].0.ops;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let found: Vec<Option<u64>> = (0..resamples)
        .map(|_| {
            let drawn: Vec<usize> = (0..pairs.len())
                .map(|_| rng.random_range(0..pairs.len()))
                .collect();
            let a: Vec<&Process> = drawn.iter().map(|&i| pairs[i].0).collect();
            let b: Vec<&Process> = drawn.iter().map(|&i| pairs[i].1).collect();
            match crossing(ops, &median_curve(&a), &median_curve(&b)) {
                Cross::From { cheaper: c, n } if c == cheaper => Some(n),
                Cross::Throughout { cheaper: c } if c == cheaper => Some(ops[0]),
                _ => None,
            }
        })
        .collect();
    stats::bootstrap::crossing_interval(found, level)
}

/// Straight lines from C(N) with each codec's steady state per operation: from which whole n
/// beyond N the codec dearer at N becomes the cheaper. `None` without both steady states.
fn beyond(a: &CurveCell, b: &CurveCell) -> Option<Beyond> {
    let (ca, cb) = (*a.median_ns.last()?, *b.median_ns.last()?);
    let (sa, sb) = (a.steady_ns?, b.steady_ns?);
    let n_last = *a.ops.last()? as f64;
    // the codec cheaper at N (c) and the other (o)
    let ((cc, sc), (o, co, so)) = if ca <= cb {
        ((ca, sa), (&b.key.codec, cb, sb))
    } else {
        ((cb, sb), (&a.key.codec, ca, sa))
    };
    let n = (sc > so).then(|| {
        let steps = ((co - cc) / (sc - so)).ceil().max(0.0);
        (n_last + steps).min(u64::MAX as f64) as u64
    });
    Some(Beyond {
        cheaper_after: o.clone(),
        n,
    })
}

/// coldwarm's straight line fed with this curve's medians at 1, 10 and 100 and the warm figure.
fn straight_line(a: &CurveCell, b: &CurveCell, level: f64) -> StraightLine {
    let line = |c: &CurveCell| -> Option<CostCurve> {
        let points: Vec<(u32, f64)> = STRAIGHT_LINE_BATCHES
            .iter()
            .filter_map(|&n| Some((u32::try_from(n).ok()?, c.median_at(n)?.0)))
            .collect();
        (!points.is_empty()).then(|| CostCurve {
            cost: Cost::Library,
            scenario: Scenario::of(&c.key),
            codec: c.key.codec.clone(),
            points,
            warm_ns: c.warm_ns,
            boot: Vec::new(),
        })
    };
    if a.warm_ns.is_none() || b.warm_ns.is_none() {
        return StraightLine::NoWarmFigure;
    }
    let (Some(la), Some(lb)) = (line(a), line(b)) else {
        return StraightLine::NoWarmFigure;
    };
    let Some(be) = break_evens(&[la, lb], &BTreeSet::new(), level).pop() else {
        return StraightLine::None { cheaper: None };
    };
    match be.crossings.last() {
        Some(c) => StraightLine::From {
            cheaper: c.cheaper_after.clone(),
            n: c.n,
        },
        None => StraightLine::None {
            cheaper: be.cheaper_first,
        },
    }
}

/// The crossing of `cand` with `reference` (their processes by cell).
fn crossing_with(
    reference: (&CurveCell, &[&Process]),
    cand: (&CurveCell, &[&Process]),
    opts: &CurveOptions,
) -> Option<CurveCrossing> {
    let ((rc, rps), (cc, cps)) = (reference, cand);
    if rc.ops != cc.ops {
        return None;
    }
    let name = |s: Side| match s {
        Side::A => cc.key.codec.clone(),
        Side::B => rc.key.codec.clone(),
    };
    let measured = match crossing(&cc.ops, &cc.median_ns, &rc.median_ns) {
        Cross::From { cheaper, n } => {
            let by_block: BTreeMap<u32, &Process> = rps.iter().map(|p| (p.block, *p)).collect();
            let pairs: Vec<(&Process, &Process)> = cps
                .iter()
                .filter_map(|p| Some((*p, *by_block.get(&p.block)?)))
                .collect();
            let (lo, hi) = crossing_interval(
                &pairs,
                cheaper,
                opts.resamples,
                opts.level,
                cell_seed(&cc.key, opts.seed),
            );
            Measured::From {
                cheaper: name(cheaper),
                n,
                lo,
                hi,
                level: opts.level,
            }
        }
        Cross::Throughout { cheaper } => Measured::None {
            cheaper: Some(name(cheaper)),
        },
        Cross::Tied => Measured::None { cheaper: None },
    };
    let beyond = matches!(measured, Measured::None { .. })
        .then(|| beyond(cc, rc))
        .flatten();
    let straight_line = straight_line(cc, rc, opts.level);
    let measured_over_straight = match (&measured, &straight_line) {
        (Measured::From { cheaper, n, .. }, StraightLine::From { cheaper: s, n: m })
            if cheaper == s && *m > 0 =>
        {
            Some(*n as f64 / *m as f64)
        }
        _ => None,
    };
    Some(CurveCrossing {
        scenario: Scenario::of(&cc.key),
        codec: cc.key.codec.clone(),
        reference: rc.key.codec.clone(),
        batch: *cc.ops.last()?,
        measured,
        beyond,
        straight_line,
        measured_over_straight,
    })
}

/// Every figure of a curve run.
pub(crate) fn analyze(processes: &[Process], opts: &CurveOptions) -> CurveReport {
    let by = by_cell(processes);
    let keys: Vec<&CellKey> = by.keys().collect();
    let mut cells: Vec<CurveCell> = par_map(&keys, |k| summarize_cell(k, &by[*k], opts));
    let mut crossings = Vec::new();
    if let Some(r) = opts.reference {
        let index: BTreeMap<CellKey, usize> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.key.clone(), i))
            .collect();
        let pairs: Vec<(usize, usize)> = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.key.codec != r && !opts.baselines.contains(&c.key.codec))
            .filter_map(|(i, c)| Some((i, *index.get(&c.key.with_codec(r))?)))
            .collect();
        for &(i, j) in &pairs {
            let (cps, rps) = (&by[&cells[i].key], &by[&cells[j].key]);
            let ratios = shown(u64::from(cells[i].key.batch))
                .into_iter()
                .map(|n| CheckpointRatio {
                    n,
                    against: r.to_string(),
                    contrast: log_ratio_contrast(&pair(&at(rps, n), &at(cps, n)), opts.level),
                })
                .collect();
            cells[i].ratios = ratios;
        }
        crossings = par_map(&pairs, |&(i, j)| {
            crossing_with(
                (&cells[j], &by[&cells[j].key]),
                (&cells[i], &by[&cells[i].key]),
                opts,
            )
        })
        .into_iter()
        .flatten()
        .collect();
    }
    CurveReport { cells, crossings }
}

/// The report's warnings about a curve run: a clock whose reads cost more than 0.1% of C(N).
pub(crate) fn warnings(report: &CurveReport) -> Vec<String> {
    report
        .cells
        .iter()
        .filter_map(|c| {
            let share = c.clock_share.filter(|s| *s > CLOCK_SHARE_LIMIT)?;
            Some(format!(
                "{}: the clock's reads cost {:.3}% of the curve's C(N) (median across processes), above the {}% the curve is allowed: its C(n) is inflated by as much.",
                c.key.label(),
                share * 100.0,
                CLOCK_SHARE_LIMIT * 100.0
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_steady_state_stands_from_three_processes_half_of_them_steady() {
        assert!(steady_stands(true, 10, 5));
        assert!(steady_stands(true, 3, 2));
        assert!(!steady_stands(true, 10, 4), "fewer than half steady");
        assert!(!steady_stands(true, 2, 2), "fewer than 3 processes");
        assert!(!steady_stands(false, 10, 10), "no steady state");
    }

    use super::*;

    fn key(codec: &str, batch: u32) -> CellKey {
        CellKey {
            fixture: "f".into(),
            op: schema::Op::De,
            variant: schema::Variant::PORTABLE,
            batch,
            codec: codec.into(),
        }
    }

    /// A process of `codec` in `block` whose C(n) is init + per_op·n.
    fn straight(codec: &str, block: u32, init: u64, per_op: u64) -> Process {
        let ops = schema::curve::schedule(1000, schema::curve::window_for(1000));
        Process {
            key: key(codec, 1000),
            block,
            init_ns: init,
            clock_1000_ns: 1_000,
            cost_ns: ops.iter().map(|n| init + per_op * n).collect(),
            ops,
        }
    }

    fn warm(codec: &str, ns: f64) -> WarmEstimate {
        WarmEstimate {
            fixture: "f".into(),
            op: schema::Op::De,
            codec: codec.into(),
            variant: Some(schema::Variant::PORTABLE),
            median_ns: ns,
            lo_ns: ns,
            hi_ns: ns,
            criterion_samples: None,
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        }
    }

    #[test]
    fn without_a_crossing_the_steady_states_extend_the_curves_and_the_straight_line_is_beside() {
        // a = 5,000·n; d = 3·10^6 + 3,000·n, dearer throughout the 1,000 operations measured;
        // from C(1,000) with the steady states: 5·10^6 + 5,000·m = 6·10^6 + 3,000·m at m = 500
        let processes: Vec<Process> = (0..6)
            .flat_map(|b| {
                [
                    straight("a", b, 0, 5_000),
                    straight("d", b, 3_000_000, 3_000),
                ]
            })
            .collect();
        let warm = [warm("a", 5_000.0), warm("d", 2_000.0)];
        let report = analyze(
            &processes,
            &CurveOptions {
                reference: Some("a"),
                baselines: &BTreeSet::new(),
                warm: &warm,
                level: 0.95,
                resamples: 50,
                seed: 1,
            },
        );
        let d = &report.crossings[0];
        assert_eq!(
            d.measured,
            Measured::None {
                cheaper: Some("a".into())
            }
        );
        assert_eq!(
            d.beyond,
            Some(Beyond {
                cheaper_after: "d".into(),
                n: Some(1_500)
            })
        );
        // coldwarm's line from C(100) = 3.3·10^6 with 2,000 per op against 5·10^5 with 5,000:
        // equal at n = 100 + 2.8·10^6 / 3,000 = 1,033.3, d cheaper from 1,034
        assert_eq!(
            d.straight_line,
            StraightLine::From {
                cheaper: "d".into(),
                n: 1_034
            }
        );
        let cell = |c: &str| report.cell(&key(c, 1000)).unwrap();
        assert_eq!(cell("a").steady_over_warm, Some(1.0));
        assert_eq!(cell("d").steady_over_warm, Some(1.5));
        assert_eq!(cell("d").classes[0].processes, 6, "flat");
        assert!(warnings(&report).is_empty());
    }

    #[test]
    fn a_dear_clock_is_warned_of() {
        let mut p = straight("a", 0, 0, 1);
        p.clock_1000_ns = 10_000_000;
        let report = analyze(
            &[p],
            &CurveOptions {
                reference: None,
                baselines: &BTreeSet::new(),
                warm: &[],
                level: 0.95,
                resamples: 0,
                seed: 0,
            },
        );
        let w = warnings(&report);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("the clock's reads cost"), "{}", w[0]);
    }

    #[test]
    fn the_median_in_place_is_the_median() {
        for v in [vec![3.0, 1.0, 2.0], vec![4.0, 1.0, 3.0, 2.0], vec![7.0]] {
            let want = median(&sorted(&v));
            assert_eq!(Some(median_in_place(&mut v.clone())), want);
        }
        assert!(median_in_place(&mut []).is_nan());
    }

    #[test]
    fn shown_is_the_powers_of_ten_and_the_batch() {
        assert_eq!(shown(100_000), [1, 10, 100, 1000, 10_000, 100_000]);
        assert_eq!(shown(2_500), [1, 10, 100, 1000, 2500]);
    }

    #[test]
    fn windows_start_from_init() {
        let p = Process {
            key: CellKey {
                fixture: "f".into(),
                op: schema::Op::De,
                variant: schema::Variant::PORTABLE,
                batch: 12,
                codec: "a".into(),
            },
            block: 0,
            init_ns: 100,
            clock_1000_ns: 20_000,
            ops: schema::curve::schedule(12, 5),
            cost_ns: vec![110, 120, 130, 150, 170, 200, 240],
        };
        assert_eq!(p.windows(5), [10.0, 10.0]);
        assert_eq!(p.clock_share(), Some(7.0 * 20.0 / 240.0));
    }
}
