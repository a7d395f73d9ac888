//! Cold against warm: the cold penalty (the first operation in a fresh process over the warm
//! time per operation) and the break-even batch size between two codecs.
//!
//! A codec's cumulative cost of n operations in one process, C(n), is a cold median at each
//! measured batch (1, 10, 100 by default), linear between them, and beyond the largest measured
//! batch B it is C(B) + (n − B) · (warm time per operation). The cold median is one of the two
//! headline figures ([`Cost`]): the library's calls (init_plus_ops), or the process over its
//! runtime's floor (wall less the input phase, less the floor's). Two codecs' curves cross where
//! C_a − C_b changes sign; the report gives the first whole n on the other side, or says that
//! none exists in 1..=10⁹.

use super::cells::{CellKey, CellSummary};
use crate::inputs::criterion::WarmEstimate;
use schema::phases::{Phase, Quantity};
use schema::{Op, Variant};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The largest n searched for a crossing.
pub(crate) const HORIZON: f64 = 1e9;

/// Fixture × op × variant: what a cost curve and a break-even are about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub(crate) struct Scenario {
    pub(crate) fixture: String,
    pub(crate) op: Op,
    pub(crate) variant: Variant,
}

impl Scenario {
    pub(crate) fn of(k: &CellKey) -> Self {
        Scenario {
            fixture: k.fixture.clone(),
            op: k.op,
            variant: k.variant,
        }
    }

    /// Whether cell `k` belongs to this scenario.
    pub(crate) fn holds(&self, k: &CellKey) -> bool {
        k.fixture == self.fixture && k.op == self.op && k.variant == self.variant
    }
}

/// The warm estimate for a codec in a scenario: same variant, or a warm bench with no variant.
pub(crate) fn find_warm<'a>(
    warm: &'a [WarmEstimate],
    s: &Scenario,
    codec: &str,
) -> Option<&'a WarmEstimate> {
    let matches = |w: &&WarmEstimate| w.fixture == s.fixture && w.op == s.op && w.codec == codec;
    warm.iter()
        .filter(matches)
        .find(|w| w.variant == Some(s.variant))
        .or_else(|| warm.iter().filter(matches).find(|w| w.variant.is_none()))
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Penalty {
    pub(crate) scenario: Scenario,
    pub(crate) codec: String,
    /// The batch whose first_op median is used (the smallest measured).
    pub(crate) batch: u32,
    pub(crate) first_op_ns: f64,
    pub(crate) warm_ns: f64,
    /// first_op_ns / warm_ns.
    pub(crate) penalty: f64,
}

/// The cells whose figures are times: the warm estimates are nanoseconds, so only a timed run's
/// cells are set beside them (a counted run's are instructions).
fn in_ns(cells: &[CellSummary]) -> impl Iterator<Item = &CellSummary> {
    cells.iter().filter(|c| c.quantity == Quantity::Ns)
}

/// The smallest warm time per operation a cold penalty is given for: 1 ns, the resolution of the
/// cold side's clock (every cold figure is whole nanoseconds). Below it, the ratio would divide a
/// measured time by less than the unit it was measured in (a warm estimate of 0.01 ns made a
/// users-2kb `de` 2,422,950 times dearer cold): no penalty is given, the warm figure is still
/// shown beside the cold ones.
pub(crate) const PENALTY_FLOOR_NS: f64 = 1.0;

/// A first operation of `first_op_ns` over a warm time of `warm_ns` per operation; `None` below
/// [`PENALTY_FLOOR_NS`].
fn penalty(first_op_ns: f64, warm_ns: f64) -> Option<f64> {
    (warm_ns >= PENALTY_FLOOR_NS).then(|| first_op_ns / warm_ns)
}

/// The cold penalty of every codec with a first operation and a warm figure of at least
/// [`PENALTY_FLOOR_NS`].
pub(crate) fn penalties(cells: &[CellSummary], warm: &[WarmEstimate]) -> Vec<Penalty> {
    let mut first: BTreeMap<(Scenario, String), (u32, f64)> = BTreeMap::new();
    for c in in_ns(cells) {
        let Some(fo) = c.phase(Phase::FirstOp) else {
            continue;
        };
        let k = (Scenario::of(&c.key), c.key.codec.clone());
        let e = first.entry(k).or_insert((c.key.batch, fo));
        if c.key.batch < e.0 {
            *e = (c.key.batch, fo);
        }
    }
    first
        .into_iter()
        .filter_map(|((s, codec), (batch, fo))| {
            let w = find_warm(warm, &s, &codec)?;
            penalty(fo, w.median_ns).map(|penalty| Penalty {
                penalty,
                scenario: s,
                codec,
                batch,
                first_op_ns: fo,
                warm_ns: w.median_ns,
            })
        })
        .collect()
}

/// What a cost curve counts at each measured batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Cost {
    /// The library's calls: the median init_plus_ops.
    Library,
    /// The process it costs: the median of wall − fixture less its runtime's floor's.
    Process,
}

/// One codec's cumulative cost in one scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CostCurve {
    pub(crate) cost: Cost,
    pub(crate) scenario: Scenario,
    pub(crate) codec: String,
    /// (batch, median ns), ascending batch.
    pub(crate) points: Vec<(u32, f64)>,
    /// Warm ns per operation, for n beyond the largest batch; `None` without warm data.
    pub(crate) warm_ns: Option<f64>,
    /// For each point, the bootstrap medians of its cell.
    #[serde(skip)]
    pub(crate) boot: Vec<Vec<f64>>,
}

impl CostCurve {
    /// C(n), `None` below the smallest batch or beyond the largest without a warm figure.
    pub(crate) fn cost(&self, n: f64) -> Option<f64> {
        let (&(b0, c0), &(bl, cl)) = (self.points.first()?, self.points.last()?);
        if n < f64::from(b0) {
            return None;
        }
        if n > f64::from(bl) {
            return self.warm_ns.map(|w| cl + (n - f64::from(bl)) * w);
        }
        if n == f64::from(bl) || n == f64::from(b0) {
            return Some(if n == f64::from(bl) { cl } else { c0 });
        }
        for w in self.points.windows(2) {
            let ((x0, y0), (x1, y1)) = ((f64::from(w[0].0), w[0].1), (f64::from(w[1].0), w[1].1));
            if n >= x0 && n <= x1 {
                return Some(y0 + (n - x0) / (x1 - x0) * (y1 - y0));
            }
        }
        None
    }

    /// Where the curve is defined: from the smallest batch to the largest, or to the horizon.
    pub(crate) fn range(&self) -> Option<(f64, f64)> {
        let lo = f64::from(self.points.first()?.0);
        let hi = if self.warm_ns.is_some() {
            HORIZON
        } else {
            f64::from(self.points.last()?.0)
        };
        Some((lo, hi))
    }
}

/// The cost curves of `cost`; `floor_of` gives a codec's runtime's floor (a codec without one,
/// or a floor itself, has no process curve).
pub(crate) fn cost_curves(
    cells: &[CellSummary],
    warm: &[WarmEstimate],
    cost: Cost,
    floor_of: &dyn Fn(&str) -> Option<String>,
) -> Vec<CostCurve> {
    // (scenario, codec) → (batch, median, bootstrap medians) per cell
    type Points = Vec<(u32, f64, Vec<f64>)>;
    let by_key: BTreeMap<&CellKey, &CellSummary> = cells.iter().map(|c| (&c.key, c)).collect();
    let mut by: BTreeMap<(Scenario, String), Points> = BTreeMap::new();
    for c in in_ns(cells) {
        let point = match cost {
            Cost::Library => c
                .init_plus_ops
                .as_ref()
                .map(|d| (d.median, c.boot_medians.clone())),
            Cost::Process => (|| {
                let floor = floor_of(&c.key.codec).filter(|f| *f != c.key.codec)?;
                let f = by_key.get(&c.key.with_codec(&floor))?;
                let (own, base) = (c.process.as_ref()?, f.process.as_ref()?);
                let boot = c
                    .process_boot
                    .iter()
                    .zip(&f.process_boot)
                    .map(|(a, b)| a - b)
                    .collect();
                Some((own.median - base.median, boot))
            })(),
        };
        if let Some((median, boot)) = point {
            by.entry((Scenario::of(&c.key), c.key.codec.clone()))
                .or_default()
                .push((c.key.batch, median, boot));
        }
    }
    by.into_iter()
        .map(|((s, codec), mut points)| {
            points.sort_by_key(|p| p.0);
            let warm_ns = find_warm(warm, &s, &codec).map(|w| w.median_ns);
            CostCurve {
                cost,
                scenario: s,
                codec,
                boot: points.iter().map(|p| p.2.clone()).collect(),
                points: points.iter().map(|p| (p.0, p.1)).collect(),
                warm_ns,
            }
        })
        .collect()
}

/// Where two curves cross.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Crossing {
    /// The first whole number of operations at which the cheaper codec has changed.
    pub(crate) n: u64,
    /// The codec cheaper just before `n`, and the one cheaper from `n` on.
    pub(crate) cheaper_before: String,
    pub(crate) cheaper_after: String,
    /// True when `n` lies beyond the largest measured batch (warm extrapolation).
    pub(crate) extrapolated: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct BreakEven {
    /// The figure whose curves cross.
    pub(crate) cost: Cost,
    pub(crate) scenario: Scenario,
    pub(crate) a: String,
    pub(crate) b: String,
    /// The codec cheaper at the smallest batch (`None`: equal there).
    pub(crate) cheaper_first: Option<String>,
    pub(crate) crossings: Vec<Crossing>,
    /// The largest n the comparison covers (the horizon, or the largest batch without warm data).
    pub(crate) searched_to: f64,
    /// When the curves cross: from which n on the codec cheaper at the far end stays cheaper,
    /// with a bootstrap interval.
    pub(crate) settles: Option<Settles>,
}

/// "From n on, `codec` stays cheaper", with a percentile bootstrap interval: each cell's
/// median redrawn from its bootstrap distribution, the curves rebuilt, the n found
/// again. A bound of `None` means no such n within the search range (the other codec stays
/// cheaper at the far end in that share of resamples).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Settles {
    pub(crate) codec: String,
    pub(crate) n: u64,
    pub(crate) lo: Option<u64>,
    pub(crate) hi: Option<u64>,
    pub(crate) level: f64,
}

/// Break-evens of every pair of codecs (but the `baselines`, the harness floor) in each
/// scenario, with intervals at `level`.
pub(crate) fn break_evens(
    curves: &[CostCurve],
    baselines: &BTreeSet<String>,
    level: f64,
) -> Vec<BreakEven> {
    let mut by: BTreeMap<&Scenario, Vec<&CostCurve>> = BTreeMap::new();
    for c in curves {
        if !baselines.contains(&c.codec) {
            by.entry(&c.scenario).or_default().push(c);
        }
    }
    let pairs: Vec<(&Scenario, &CostCurve, &CostCurve)> = by
        .iter()
        .flat_map(|(&s, cs)| {
            cs.iter()
                .enumerate()
                .flat_map(move |(i, &a)| cs[i + 1..].iter().map(move |&b| (s, a, b)))
        })
        .collect();
    // each pair's bootstrap is its own work: on every core, in the pairs' order
    crate::parallel::par_map(&pairs, |&(s, a, b)| {
        let mut found = Crossings::default();
        found.between(a, b)?;
        let mut be = found.named(s, a, b);
        be.settles = settles(&found, a, b, level);
        Some(be)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Where two curves `a` and `b` cross, each codec named by whether it is `a`: what a
/// [`BreakEven`] says, found in buffers that are reused (the bootstrap finds it again for each
/// of thousands of resamples).
#[derive(Default)]
struct Crossings {
    /// Every measured batch of either curve in the range both cover, and its ends.
    knots: Vec<f64>,
    crossings: Vec<SideCrossing>,
    /// `a` is cheaper at the smallest batch (`None`: equal there).
    a_cheaper_first: Option<bool>,
    searched_to: f64,
}

/// A [`Crossing`] with its codecs named by side.
struct SideCrossing {
    n: u64,
    a_cheaper_before: bool,
    a_cheaper_after: bool,
    extrapolated: bool,
}

impl Crossings {
    /// Finds where `a` and `b` cross; `None` when they share no range or a cost is missing.
    fn between(&mut self, a: &CostCurve, b: &CostCurve) -> Option<()> {
        let (alo, ahi) = a.range()?;
        let (blo, bhi) = b.range()?;
        let (lo, hi) = (alo.max(blo), ahi.min(bhi));
        if lo > hi {
            return None;
        }
        // knots: every measured batch of either curve in range, plus the ends
        self.knots.clear();
        self.knots.extend(
            a.points
                .iter()
                .chain(&b.points)
                .map(|p| f64::from(p.0))
                .filter(|&x| x >= lo && x <= hi)
                .chain([lo, hi]),
        );
        self.knots.sort_by(f64::total_cmp);
        self.knots.dedup();
        self.crossings.clear();
        self.searched_to = hi;
        let last_batch = f64::from(a.points.last()?.0).min(f64::from(b.points.last()?.0));
        let diff = |n: f64| Some(a.cost(n)? - b.cost(n)?);

        let d0 = diff(lo)?;
        // a is the cheaper one where the difference a − b is negative
        self.a_cheaper_first = (d0 != 0.0).then_some(d0 < 0.0);
        let (mut prev_x, mut prev_d) = (lo, d0);
        let mut last_sign = d0.signum() * f64::from(u8::from(d0 != 0.0));
        let mut zero_at: Option<f64> = (d0 == 0.0).then_some(lo);
        for &x in &self.knots[1..] {
            let d = diff(x)?;
            if d == 0.0 {
                zero_at.get_or_insert(x);
            } else {
                let sign = d.signum();
                if last_sign != 0.0 && sign != last_sign {
                    // the root: an exact zero seen since the last sign, or linear interpolation
                    let root =
                        zero_at.unwrap_or_else(|| prev_x + prev_d / (prev_d - d) * (x - prev_x));
                    // the first whole n strictly on the new side (robust to rounding in `root`)
                    let start = (root.floor() - 2.0).max(lo);
                    let n = (0..8)
                        .map(|i| start + f64::from(i))
                        .find(|&k| diff(k).is_some_and(|dk| dk.signum() == sign && dk != 0.0))
                        .unwrap_or(root.ceil()) as u64;
                    self.crossings.push(SideCrossing {
                        n,
                        a_cheaper_before: -d < 0.0,
                        a_cheaper_after: d < 0.0,
                        extrapolated: root > last_batch,
                    });
                }
                last_sign = sign;
                zero_at = None;
            }
            prev_x = x;
            prev_d = d;
        }
        Some(())
    }

    /// Whether `a` is the codec cheaper at the far end, and the n from which it stays so (the
    /// smallest n compared, `lo`, when it is cheaper throughout).
    fn far_end(&self, lo: u64) -> Option<(bool, u64)> {
        match self.crossings.last() {
            Some(c) => Some((c.a_cheaper_after, c.n)),
            None => self.a_cheaper_first.map(|a| (a, lo)),
        }
    }

    /// The break-even these crossings of `a` and `b` make in scenario `s`, the codecs named
    /// (without its settling interval).
    fn named(&self, s: &Scenario, a: &CostCurve, b: &CostCurve) -> BreakEven {
        let name = |a_cheaper: bool| if a_cheaper { &a.codec } else { &b.codec }.clone();
        BreakEven {
            cost: a.cost,
            scenario: s.clone(),
            a: a.codec.clone(),
            b: b.codec.clone(),
            cheaper_first: self.a_cheaper_first.map(name),
            crossings: self
                .crossings
                .iter()
                .map(|c| Crossing {
                    n: c.n,
                    cheaper_before: name(c.a_cheaper_before),
                    cheaper_after: name(c.a_cheaper_after),
                    extrapolated: c.extrapolated,
                })
                .collect(),
            searched_to: self.searched_to,
            settles: None,
        }
    }
}

/// From which n the codec cheaper at the far end of `found` (the crossings of `a` and `b`) stays
/// cheaper, with a bootstrap interval: the crossings found again in every resample of the curves.
fn settles(found: &Crossings, a: &CostCurve, b: &CostCurve, level: f64) -> Option<Settles> {
    let lo_n = a.points.first()?.0.max(b.points.first()?.0) as u64;
    let (a_settles, n) = found.far_end(lo_n)?;
    if found.crossings.is_empty() {
        return None;
    }
    let resamples = a.boot.iter().chain(&b.boot).map(Vec::len).min()?;
    if resamples == 0 {
        return None;
    }
    // each resample's curves: the same curves, their points' costs replaced in place
    let without_boot = |c: &CostCurve| CostCurve {
        cost: c.cost,
        scenario: c.scenario.clone(),
        codec: c.codec.clone(),
        // a point without bootstrap medians has no resampled cost
        points: c.points[..c.points.len().min(c.boot.len())].to_vec(),
        warm_ns: c.warm_ns,
        boot: Vec::new(),
    };
    let (mut ar, mut br) = (without_boot(a), without_boot(b));
    let resampled = |into: &mut CostCurve, from: &CostCurve, r: usize| {
        for (p, bm) in into.points.iter_mut().zip(&from.boot) {
            p.1 = bm[r];
        }
    };
    let mut crossings = Crossings::default();
    let found: Vec<Option<u64>> = (0..resamples)
        .map(|r| {
            resampled(&mut ar, a, r);
            resampled(&mut br, b, r);
            crossings.between(&ar, &br)?;
            match crossings.far_end(lo_n) {
                Some((a_cheaper, n)) if a_cheaper == a_settles => Some(n),
                _ => None,
            }
        })
        .collect();
    let (lo, hi) = stats::bootstrap::crossing_interval(found, level);
    Some(Settles {
        codec: if a_settles { &a.codec } else { &b.codec }.clone(),
        n,
        lo,
        hi,
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(codec: &str, pts: &[(u32, f64)], warm: Option<f64>) -> CostCurve {
        CostCurve {
            cost: Cost::Library,
            scenario: Scenario {
                fixture: "f".into(),
                op: Op::De,
                variant: Variant::PORTABLE,
            },
            codec: codec.into(),
            points: pts.to_vec(),
            warm_ns: warm,
            boot: Vec::new(),
        }
    }

    #[test]
    fn no_penalty_below_the_clocks_resolution() {
        // the case: 24,229.5 ns cold over 0.01 ns warm was 2,422,950×
        assert_eq!(penalty(24_229.5, 0.01), None);
        assert_eq!(penalty(24_229.5, 0.999), None);
        assert_eq!(penalty(24_229.5, 1.0), Some(24_229.5));
        assert_eq!(penalty(24_000.0, 1_000.0), Some(24.0));
    }

    #[test]
    fn cost_interpolates_and_extrapolates() {
        let c = curve("a", &[(1, 10.0), (10, 100.0), (100, 1000.0)], Some(5.0));
        assert_eq!(c.cost(1.0), Some(10.0));
        assert_eq!(c.cost(5.5), Some(55.0));
        assert_eq!(c.cost(100.0), Some(1000.0));
        assert_eq!(c.cost(200.0), Some(1500.0));
        assert_eq!(c.cost(0.5), None);
        let c = curve("a", &[(1, 10.0), (10, 100.0)], None);
        assert_eq!(c.cost(11.0), None);
    }

    #[test]
    fn the_settling_interval_brackets_the_resamples_crossings() {
        // as below: b cheaper from 192. In resample r, b costs 2r more at every batch, so it is
        // cheaper from 192 + r (317 + 3(n − 100) = 499 + 2r + (n − 100)), r = 0..=20.
        let mut a = curve("a", &[(1, 20.0), (10, 47.0), (100, 317.0)], Some(3.0));
        let mut b = curve("b", &[(1, 400.0), (10, 409.0), (100, 499.0)], Some(1.0));
        a.boot = a.points.iter().map(|p| vec![p.1; 21]).collect();
        b.boot = b
            .points
            .iter()
            .map(|p| (0..21).map(|r| p.1 + 2.0 * f64::from(r)).collect())
            .collect();
        let be = &break_evens(&[a, b], &BTreeSet::new(), 0.5)[0];
        let s = be.settles.as_ref().expect("the curves cross");
        assert_eq!((s.codec.as_str(), s.n), ("b", 192));
        // the order statistics ⌊0.25 · 20⌋ = 5 and ⌈0.75 · 20⌉ = 15 of 192..=212
        assert_eq!((s.lo, s.hi), (Some(197), Some(207)));
    }

    #[test]
    fn crossing_in_the_warm_extrapolation() {
        // a: cheap start, dear per op; b: dear start, cheap per op.
        // a(n) = 20 + 3(n − 1) to n = 100 (317), then 3/op; b(n) = 400 + (n − 1) (499), then 1/op.
        let a = curve("a", &[(1, 20.0), (10, 47.0), (100, 317.0)], Some(3.0));
        let b = curve("b", &[(1, 400.0), (10, 409.0), (100, 499.0)], Some(1.0));
        let be = &break_evens(&[a, b], &BTreeSet::new(), 0.95)[0];
        assert_eq!(be.cheaper_first.as_deref(), Some("a"));
        // 317 + 3(n − 100) = 499 + (n − 100) → n − 100 = 91 → n = 191, a tie; b cheaper from 192.
        assert_eq!(be.crossings.len(), 1);
        let c = &be.crossings[0];
        assert_eq!(
            (c.n, c.cheaper_before.as_str(), c.cheaper_after.as_str()),
            (192, "a", "b")
        );
        assert!(c.extrapolated);
    }

    #[test]
    fn crossing_within_measured_batches() {
        // a: 20 + 3(n − 1); b: 37 + 1.5(n − 1), measured at 1, 10, 100: cross at n − 1 = 11.33.
        let a = curve("a", &[(1, 20.0), (10, 47.0), (100, 317.0)], Some(3.0));
        let b = curve("b", &[(1, 37.0), (10, 50.5), (100, 185.5)], Some(1.5));
        let be = &break_evens(&[a, b], &BTreeSet::new(), 0.95)[0];
        assert_eq!(be.crossings.len(), 1);
        let c = &be.crossings[0];
        assert_eq!(c.n, 13);
        assert!(!c.extrapolated);
    }

    #[test]
    fn crossing_interval_from_resamples() {
        // Resampled medians spread ±10% around the points: the n from which b stays cheaper
        // moves around 192 (a tie at 191 in the estimate), and stays finite.
        let mut a = curve("a", &[(1, 20.0), (10, 47.0), (100, 317.0)], Some(3.0));
        let mut b = curve("b", &[(1, 400.0), (10, 409.0), (100, 499.0)], Some(1.0));
        let spread = |y: f64| {
            (0..200)
                .map(|r| y * (0.9 + 0.2 * f64::from(r) / 199.0))
                .collect()
        };
        a.boot = a.points.iter().map(|p| spread(p.1)).collect();
        b.boot = b.points.iter().map(|p| spread(p.1)).collect();
        let be = &break_evens(&[a, b], &BTreeSet::new(), 0.95)[0];
        let s = be.settles.as_ref().unwrap();
        assert_eq!((s.codec.as_str(), s.n), ("b", 192));
        let (lo, hi) = (s.lo.unwrap(), s.hi.unwrap());
        assert!(lo < 192 && hi > 192, "{lo}..{hi}");
    }

    #[test]
    fn no_crossing() {
        let a = curve("a", &[(1, 20.0), (10, 47.0), (100, 317.0)], Some(3.0));
        let b = curve("b", &[(1, 40.0), (10, 94.0), (100, 634.0)], Some(6.0));
        let noop = curve("noop", &[(1, 1.0)], Some(0.1));
        let be = break_evens(&[a, b, noop], &BTreeSet::from(["noop".to_string()]), 0.95);
        assert_eq!(be.len(), 1);
        assert!(be[0].crossings.is_empty());
        assert_eq!(be[0].searched_to, HORIZON);
    }
}
