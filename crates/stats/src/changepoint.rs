//! A process's curve, segmented and classified: changepoints by PELT (Killick, Fearnhead &
//! Eckley, "Optimal detection of changepoints with a linear computational cost", JASA 2012) for
//! a change in mean and variance of a normal series, and each process classed as flat, warmup,
//! slowdown or no steady state as in Barrett, Bolz-Tereick, Killick, Mount & Tratt, "Virtual
//! Machine Warmup Blows Hot and Cold" (OOPSLA 2017).
//!
//! The input is a curve run's time per operation in its fixed windows (up to 2,000), in window
//! order. The functions are pure: no clock, no I/O.
//!
//! **Why PELT is written here.** crates.io had no crate that does exactly this: `pelt` (cemsbv)
//! has only L1 and L2 costs (a change in mean) and pulls in ndarray and rayon; `u-analytics` has
//! a normal mean-and-variance cost but is a large process-control library (capability, Weibull,
//! Gage R&R) with no control of the variance of a constant segment; `changepoint` is Bayesian
//! online detection, not PELT. The algorithm is ~80 lines, and writing it lets the cost put a
//! floor under the variance (below) and lets the tests hold it to a brute-force optimum.
//!
//! **The cost.** A segment x₍ₐ₎..x₍ᵦ₋₁₎ of m windows costs twice its normal negative
//! log-likelihood at the fitted mean and variance, m·ln(2πσ̂²) + SSE/σ̂², where σ̂² =
//! max(SSE/m, floor): R's `changepoint::cpt.meanvar` cost (the scale Barrett's penalty is on),
//! except for the floor. The floor is (10⁻³ × the series' mean |x|)², i.e. no segment is taken to
//! be quieter than 0.1% of the series' typical value. Without it an exactly constant segment has
//! σ̂² = 0 and a cost of −∞ (R floors it at an absolute 10⁻¹¹/m, meaningless at thaw's scale of
//! nanoseconds). With it, σ̂² is the variance's maximum likelihood constrained to ≥ floor, so the
//! cost is still a minimised likelihood, splitting a segment never raises it, and PELT's pruning
//! (constant K = 0) stays exact; an exactly piecewise-constant series gives exactly its true
//! changepoints and a constant one none. A segment quieter than the floor is judged as if its
//! σ were the floor's: less sensitive, never more. When the windows lie on a coarse grid (see
//! [`grid`]: windows of one operation timed in whole nanoseconds), the floor is at least the
//! grid's rounding variance q²/12, else a run of equal windows (41, 41, 41, … among 42s) would
//! look like a quiet regime. The series is taken to be in nanoseconds per operation: a series
//! in seconds with few decimals would be taken for a coarse grid.
//!
//! **The search.** Optimal partitioning minimises Σ cost + β × (number of changepoints) over all
//! segmentations with segments of at least `min_segment` windows; PELT drops a candidate last
//! changepoint s at time t when F(s) + C(s, t) > F(t), which no later t can undo (Killick et al.'s
//! pruning condition, with K = 0 for a likelihood cost). With a minimum segment length the drop takes effect only from t + min_segment,
//! the first end at which (t, end] is itself a valid segment, so the result equals the
//! unpruned optimum (tested against it). Cost: O(n) expected when changepoints keep coming as
//! the series grows (Killick et al.'s condition), O(n²) at worst: a long stretch with no change
//! prunes nothing, because splitting a segment always lowers its cost. A curve's steady state is
//! such a stretch, so expect the worst case: measured (release build, 2,000 windows, 5% noise)
//! 50–70 ms for a flat process or one with a single change near the start, ~6 ms when the level
//! changes every 100 windows; finding the outliers (below) takes 0.3 ms. Memory O(n).
//!
//! **The classification** follows Barrett et al. and their `warmup_stats`
//! (`bin/mark_changepoints_in_json`, `warmup/outliers.py`):
//! - *outliers* first: a window beyond median ± 3 × (p90 − p10) of the run of n/10 windows
//!   centred on it (their 200 of 2,000) is left out of PELT and of the segments' means, so a
//!   collection pause of a few windows is neither a regime nor a "no steady state", and does
//!   not pull the steady mean. The first n/20 windows are never outliers, nor is a step between
//!   regimes (see [`outliers`]). The flip side, also Barrett's: a real change in the last
//!   ~n/20 windows is taken for outliers;
//! - PELT with penalty 15·ln(n), their choice, and segments of at least 2 windows
//!   (`cpt.meanvar`'s default);
//! - the last segment is the candidate steady state. Walking back from it, segments
//!   *equivalent* to it are skipped, and so are *interruptions*: a segment slower than it, not
//!   equivalent, with a segment at its level (means within 2%) somewhere before it (the process
//!   came back to its level: another tenant's work on a shared machine, which only adds time and
//!   lasts longer than the outliers' few windows). The steady run starts at the earliest
//!   equivalent segment so reached. If it starts in the last quarter of the series (Barrett: the last 500 of 2,000
//!   iterations), i.e. the steady run is shorter than ⌊n/4⌋ windows, the process has **no
//!   steady state**. Otherwise, if any non-equivalent segment before the run is faster than the
//!   last, it is a **slowdown** (the steady state is not the best the process did); else if
//!   any is slower, **warmup**; else (no changepoint, or only equivalent segments and
//!   interruptions) **flat**. The steady state is the last segment's mean, as Barrett's;
//! - *equivalent*: means within max(2% of the larger mean, 3 standard errors of their
//!   difference, 3·√(s₁²/m₁ + s₂²/m₂), s the windows' standard deviation in each segment).
//!   Barrett count two segments equivalent when mean ± max(variance, 0.001 s) of the last
//!   overlaps mean ± variance of the other. Their absolute 1 ms has no meaning for nanoseconds
//!   per operation, and a variance is in squared units, so as a width it depends on the unit
//!   (tiny in seconds, huge in nanoseconds). The relative 2% plays the part of their 1 ms: it
//!   is the machine's, measured (see [`EQUIVALENT_FRACTION`]); the standard error makes a
//!   short, noisy segment (such as the window or two straddling a change) count as the same as
//!   its neighbour rather than as a regime.
//!
//! Where thaw differs from Barrett, besides the equivalence above: interruptions; the steady run is "at least the last
//! quarter" for any n rather than 500 iterations; the outliers' run is n/10 windows
//! rather than 200, and on a coarse grid their band is at least 3 steps; a changepoint is
//! reported as the first kept window of its segment (outliers just before it stay with the
//! segment before); and the variance floor of the cost.

use super::quantile::{median, quantile};
use serde::Serialize;

/// Barrett et al.'s penalty per changepoint is 15·ln(n).
pub const PENALTY_PER_LN_N: f64 = 15.0;
/// The shortest segment `classify` allows (R's `cpt.meanvar` default).
pub const MIN_SEGMENT: usize = 2;
/// The variance floor's standard deviation, as a fraction of the series' mean |x|.
pub const VARIANCE_FLOOR_FRACTION: f64 = 1e-3;
/// Segments whose means differ by less than this fraction of the larger are equivalent: the
/// machine's own margin. A Rust process's cost per operation does not change once its first
/// calls are past (no JIT), yet its plateau sits at levels that move: in the Rust curve run of
/// 2026-12-04 20:33 UTC (10 processes of 100,000 `de` of users-2kb per codec, 11 codecs), two
/// quiet segments of one process (at least n/40 windows, past n/20, windows' coefficient of
/// variation under 2%: 570 pairs in 41 processes) differ by 0.47% in the median pair, 1.3% at
/// p90, 1.6% at p95 and 2.0% at p99. With 1%, 33 of those 110 processes had no steady state.
pub const EQUIVALENT_FRACTION: f64 = 0.02;
/// ... or by less than this many standard errors of the difference of their means.
pub const EQUIVALENT_STANDARD_ERRORS: f64 = 3.0;
/// A steady state must span at least the last 1/4 of the series (Barrett: 500 of 2,000).
pub const STEADY_TAIL_DIVISOR: usize = 4;
/// The run of windows around each that judges it an outlier is 1/10 of the series (Barrett:
/// 200 of 2,000).
pub const OUTLIER_WINDOW_DIVISOR: usize = 10;
/// No outliers are sought with a shorter run than this.
pub const OUTLIER_MIN_WINDOW: usize = 20;
/// The finest grid [`grid`] looks for is 1/64.
pub const GRID_MAX_DIVISOR: usize = 64;

/// The grid the data lie on, if coarse: the largest step 1/k (k = 1, …, [`GRID_MAX_DIVISOR`])
/// of which every value is a whole multiple. A window of one operation timed in whole
/// nanoseconds is on the grid 1, one of k operations on 1/k; a mean of many operations is on
/// none worth knowing (`None`).
pub fn grid(series: &[f64]) -> Option<f64> {
    if series.is_empty() {
        return None;
    }
    (1..=GRID_MAX_DIVISOR).map(|k| k as f64).find_map(|k| {
        series
            .iter()
            .all(|&x| {
                let y = x * k;
                (y - y.round()).abs() <= 1e-9 * y.abs().max(1.0)
            })
            .then_some(1.0 / k)
    })
}

/// Prefix sums of the centred series and of its squares, for O(1) segment costs.
struct Sums {
    s1: Vec<f64>,
    s2: Vec<f64>,
    floor: f64,
}

impl Sums {
    fn new(series: &[f64]) -> Sums {
        let n = series.len();
        let centre = if n == 0 {
            0.0
        } else {
            series.iter().sum::<f64>() / n as f64
        };
        let scale = if n == 0 {
            0.0
        } else {
            series.iter().map(|x| x.abs()).sum::<f64>() / n as f64
        };
        let sd_floor = VARIANCE_FLOOR_FRACTION * scale;
        // Whole nanoseconds (or halves, …) vary by at least their rounding's variance, q²/12.
        let rounding = grid(series).map_or(0.0, |q| q * q / 12.0);
        // An all-zero series has no scale: any positive floor leaves it one segment.
        let floor = if sd_floor > 0.0 {
            (sd_floor * sd_floor).max(rounding)
        } else {
            1.0
        };
        let (mut s1, mut s2) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
        let (mut a, mut b) = (0.0, 0.0);
        s1.push(0.0);
        s2.push(0.0);
        for &x in series {
            let c = x - centre;
            a += c;
            b += c * c;
            s1.push(a);
            s2.push(b);
        }
        Sums { s1, s2, floor }
    }

    /// The mean (of the centred data) and the sum of squared deviations of series[a..b].
    fn moments(&self, a: usize, b: usize) -> (f64, f64) {
        let m = (b - a) as f64;
        let sum = self.s1[b] - self.s1[a];
        let sse = (self.s2[b] - self.s2[a] - sum * sum / m).max(0.0);
        (sum / m, sse)
    }

    /// Twice the normal negative log-likelihood of series[a..b] at its fitted mean and its
    /// variance floored: m·ln(2πσ̂²) + SSE/σ̂².
    fn cost(&self, a: usize, b: usize) -> f64 {
        let m = (b - a) as f64;
        let (_, sse) = self.moments(a, b);
        let var = (sse / m).max(self.floor);
        m * (std::f64::consts::TAU * var).ln() + sse / var
    }
}

/// The changepoints of `series` (the index at which each new segment starts: ascending, never 0)
/// minimising Σ segment cost + `penalty` × (number of changepoints), every segment at least
/// `min_segment` long (taken as 1 if 0), by PELT. The cost is the normal one for a change in
/// mean and variance, with the variance floored (see the module's comment). Empty when the
/// series is shorter than 2 × `min_segment`, or has a value that is not finite.
pub fn pelt(series: &[f64], penalty: f64, min_segment: usize) -> Vec<usize> {
    pelt_counted(series, penalty, min_segment).0
}

/// [`pelt`], and the number of segment costs it evaluated (the tests hold the pruning to it).
fn pelt_counted(series: &[f64], penalty: f64, min_segment: usize) -> (Vec<usize>, usize) {
    let n = series.len();
    let ms = min_segment.max(1);
    if n < 2 * ms || series.iter().any(|x| !x.is_finite()) {
        return (Vec::new(), 0);
    }
    let sums = Sums::new(series);
    let mut evaluated = 0;
    // f[t]: the optimum for series[..t], plus the penalty once per segment, less one penalty.
    let mut f = vec![f64::INFINITY; n + 1];
    let mut last = vec![0usize; n + 1];
    // The end from which a pruned candidate is no longer considered.
    let mut dropped_from = vec![usize::MAX; n + 1];
    let mut values: Vec<f64> = Vec::new();
    f[0] = -penalty;
    let mut candidates: Vec<usize> = vec![0];
    for t in ms..=n {
        candidates.retain(|&s| dropped_from[s] > t);
        values.clear();
        let (mut best, mut arg) = (f64::INFINITY, 0);
        for &s in &candidates {
            let v = if t - s >= ms {
                evaluated += 1;
                f[s] + sums.cost(s, t)
            } else {
                f64::INFINITY
            };
            values.push(v);
            if v + penalty < best {
                best = v + penalty;
                arg = s;
            }
        }
        f[t] = best;
        last[t] = arg;
        for (&s, &v) in candidates.iter().zip(&values) {
            if v.is_finite() && v > best && dropped_from[s] == usize::MAX {
                dropped_from[s] = t + ms;
            }
        }
        candidates.push(t);
    }
    let mut cps = Vec::new();
    let mut t = n;
    while last[t] > 0 {
        t = last[t];
        cps.push(t);
    }
    cps.reverse();
    (cps, evaluated)
}

/// Barrett et al.'s four classes of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// No changepoint, or every segment equivalent to the last.
    Flat,
    /// Earlier segments slower than the steady state, none faster.
    Warmup,
    /// An earlier segment faster than the steady state.
    Slowdown,
    /// The steady run (the last segment, with those equivalent to it and the interruptions
    /// between them) is shorter than the last quarter.
    NoSteadyState,
}

impl Class {
    /// All four, in the order a report lists them.
    pub const ALL: [Class; 4] = [
        Class::Flat,
        Class::Warmup,
        Class::Slowdown,
        Class::NoSteadyState,
    ];

    /// The class as Barrett et al. name it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Flat => "flat",
            Class::Warmup => "warmup",
            Class::Slowdown => "slowdown",
            Class::NoSteadyState => "no steady state",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One segment between changepoints: windows `start..end` (end exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Segment {
    pub start: usize,
    pub end: usize,
    /// The mean of its windows.
    pub mean: f64,
    /// The standard deviation of its windows (divisor m, the maximum likelihood one; not
    /// floored).
    pub sd: f64,
    /// How many of its windows were outliers, left out of `mean` and `sd` (see [`outliers`]).
    pub outliers: usize,
}

impl Segment {
    /// The number of windows.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// The number of windows its `mean` and `sd` are of: those not outliers.
    pub fn kept(&self) -> usize {
        self.len() - self.outliers
    }

    /// True for a segment of no windows (never produced by [`classify`]).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A process's changepoints, segments and class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classified {
    pub class: Class,
    /// As [`pelt`] returns them: where each new segment starts.
    pub changepoints: Vec<usize>,
    /// The segments they delimit, in order, covering the whole series.
    pub segments: Vec<Segment>,
    /// The last segment's mean, the steady state's time per operation; `None` for
    /// [`Class::NoSteadyState`].
    pub steady_mean: Option<f64>,
    /// The windows left out as outliers before PELT (see [`outliers`]), ascending.
    pub outliers: Vec<usize>,
}

/// The segments of `series` cut at `changepoints` (ascending, each in 1..len), no window left
/// out.
pub fn segments(series: &[f64], changepoints: &[usize]) -> Vec<Segment> {
    cut(series, &vec![false; series.len()], changepoints)
}

/// The segments of `series` cut at `changepoints`, their means and spreads over the windows not
/// `excluded`.
fn cut(series: &[f64], excluded: &[bool], changepoints: &[usize]) -> Vec<Segment> {
    let mut bounds = Vec::with_capacity(changepoints.len() + 2);
    bounds.push(0);
    bounds.extend_from_slice(changepoints);
    bounds.push(series.len());
    bounds
        .windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| {
            let xs: Vec<f64> = (w[0]..w[1])
                .filter(|&i| !excluded[i])
                .map(|i| series[i])
                .collect();
            let m = xs.len() as f64;
            let (mean, sd) = if xs.is_empty() {
                (f64::NAN, f64::NAN)
            } else {
                let mean = xs.iter().sum::<f64>() / m;
                let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / m;
                (mean, var.sqrt())
            };
            Segment {
                start: w[0],
                end: w[1],
                mean,
                sd,
                outliers: (w[1] - w[0]) - xs.len(),
            }
        })
        .collect()
}

/// Barrett et al.'s outliers: the windows beyond median ± 3 × (p90 − p10) of the windows
/// around them, a centred run of w = n/10 windows (Barrett: 200 of 2,000 iterations) clamped
/// at the series' ends. As theirs, the first w/2 windows are never outliers (their run would
/// be cut short at the start, and that is where a warmup is), and a step between regimes is
/// none either, since a run straddling it spreads p10 to p90 over both. None in a series of
/// fewer than 200 windows (w < 20: too few for a p10 and a p90). Quantiles are type 7, as
/// Barrett's, except that on a coarse [`grid`] the band is at least 3 steps wide (windows of one
/// operation often have p90 = p10, which would make every other window an outlier). Cost
/// O(n·w): the run is kept sorted as it slides.
pub fn outliers(series: &[f64]) -> Vec<usize> {
    let n = series.len();
    let w = n / OUTLIER_WINDOW_DIVISOR;
    if w < OUTLIER_MIN_WINDOW {
        return Vec::new();
    }
    let half = w / 2;
    // On a coarse grid p90 and p10 can be equal: the band is at least one step wide.
    let step = grid(series).unwrap_or(0.0);
    // The run [lo, hi) only moves right, so it is kept sorted by one insertion and one removal
    // per step (O(w) each) rather than sorted afresh.
    let mut run: Vec<f64> = Vec::with_capacity(w + 1);
    let (mut lo, mut hi) = (0, 0);
    let mut out = Vec::new();
    for (i, &x) in series.iter().enumerate() {
        let (l, h) = (i.saturating_sub(half), (i + half).min(n));
        while hi < h {
            let v = series[hi];
            let at = run.partition_point(|&y| y.total_cmp(&v).is_lt());
            run.insert(at, v);
            hi += 1;
        }
        while lo < l {
            let v = series[lo];
            let at = run.partition_point(|&y| y.total_cmp(&v).is_lt());
            run.remove(at);
            lo += 1;
        }
        if l == 0 && h < w {
            continue;
        }
        let (Some(med), Some(p10), Some(p90)) =
            (median(&run), quantile(&run, 0.1), quantile(&run, 0.9))
        else {
            continue;
        };
        let band = 3.0 * (p90 - p10).max(step);
        if x > med + band || x < med - band {
            out.push(i);
        }
    }
    out
}

/// Whether two segments' means are the same for classification: within
/// max(1% of the larger |mean|, 3·√(sd₁²/m₁ + sd₂²/m₂)).
pub fn equivalent(a: &Segment, b: &Segment) -> bool {
    let diff = (a.mean - b.mean).abs();
    let relative = EQUIVALENT_FRACTION * a.mean.abs().max(b.mean.abs());
    let se = (a.sd * a.sd / a.kept() as f64 + b.sd * b.sd / b.kept() as f64).sqrt();
    diff <= relative.max(EQUIVALENT_STANDARD_ERRORS * se)
}

/// Classifies a process from its time per operation by window, by Barrett et al.'s rules (see
/// the module's comment): outliers left out, PELT with penalty 15·ln(n) (n the windows kept)
/// and segments of at least 2 windows, then flat, warmup, slowdown or no steady state, past
/// interruptions. The
/// changepoints and segments are in the series' own indices. An empty series, or one with a value that is not
/// finite, is [`Class::NoSteadyState`] with no segments (nothing steady was seen).
pub fn classify(series: &[f64]) -> Classified {
    let n = series.len();
    if n == 0 || series.iter().any(|x| !x.is_finite()) {
        return Classified {
            class: Class::NoSteadyState,
            changepoints: Vec::new(),
            segments: Vec::new(),
            steady_mean: None,
            outliers: Vec::new(),
        };
    }
    // PELT runs on the windows that are not outliers; its changepoints are mapped back to the
    // series' own indices (the first kept window of each new segment).
    let out = outliers(series);
    let mut excluded = vec![false; n];
    for &i in &out {
        excluded[i] = true;
    }
    let kept_at: Vec<usize> = (0..n).filter(|&i| !excluded[i]).collect();
    let kept: Vec<f64> = kept_at.iter().map(|&i| series[i]).collect();
    let penalty = PENALTY_PER_LN_N * (kept.len() as f64).ln();
    let changepoints: Vec<usize> = pelt(&kept, penalty, MIN_SEGMENT)
        .into_iter()
        .map(|k| kept_at[k])
        .collect();
    let segs = cut(series, &excluded, &changepoints);
    let (class, steady_mean) = class_of(&segs, n);
    Classified {
        class,
        changepoints,
        segments: segs,
        steady_mean,
        outliers: out,
    }
}

/// The class of a process cut into `segs` (n windows in all), and its steady state's time per
/// operation (the last segment's mean): walking back from the last segment, past segments
/// equivalent to it and past interruptions (a segment slower than it, not equivalent, with a
/// segment at its level, within [`EQUIVALENT_FRACTION`], somewhere before: the process came back
/// to its level), to the first segment of the steady run. The steady run must span the last
/// quarter; the class is then read on the segments before it (interruptions inside it count for
/// nothing).
fn class_of(segs: &[Segment], n: usize) -> (Class, Option<f64>) {
    let Some((&steady, earlier)) = segs.split_last() else {
        return (Class::NoSteadyState, None);
    };
    // `first`: the steady run's first segment. A slower segment is passed over: it is an
    // interruption if a segment at the steady level comes before it (then `first` moves before
    // it), else it stays before `first`, where it makes a warmup. Beyond a slower stretch, a
    // segment equivalent only by its standard errors (a short, wild one) is no return to the
    // level.
    let mut first = earlier.len();
    let mut passed_slower = false;
    for (i, seg) in earlier.iter().enumerate().rev() {
        if equivalent(seg, &steady) {
            if !passed_slower || same_level(seg, &steady) {
                first = i;
                passed_slower = false;
            }
        } else if seg.mean > steady.mean {
            passed_slower = true;
        } else {
            break;
        }
    }
    let start = segs[first].start;
    if start > n - n / STEADY_TAIL_DIVISOR {
        return (Class::NoSteadyState, None);
    }
    let before = segs[..first].iter().filter(|s| !equivalent(s, &steady));
    let class = before.fold(Class::Flat, |class, seg| match class {
        Class::Slowdown => Class::Slowdown,
        _ if seg.mean < steady.mean => Class::Slowdown,
        _ => Class::Warmup,
    });
    (class, Some(steady.mean))
}

/// Whether two segments' means are within [`EQUIVALENT_FRACTION`] of the larger: the same level,
/// whatever their spread.
fn same_level(a: &Segment, b: &Segment) -> bool {
    (a.mean - b.mean).abs() <= EQUIVALENT_FRACTION * a.mean.abs().max(b.mean.abs())
}

/// How many of `classes` fall in each class, in [`Class::ALL`]'s order.
pub fn shares(classes: &[Class]) -> [(Class, usize); 4] {
    Class::ALL.map(|c| (c, classes.iter().filter(|&&k| k == c).count()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::normal;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn planted(parts: &[(usize, f64)]) -> Vec<f64> {
        parts
            .iter()
            .flat_map(|&(len, v)| std::iter::repeat_n(v, len))
            .collect()
    }

    /// `parts` with normal noise of sd `cv` × each part's level.
    fn noisy(seed: u64, parts: &[(usize, f64)], cv: f64) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        parts
            .iter()
            .flat_map(|&(len, v)| {
                (0..len)
                    .map(|_| v * (1.0 + cv * normal(&mut rng)))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Optimal partitioning by dynamic programming over every last changepoint, no pruning:
    /// O(n²) costs, the truth PELT must reproduce.
    fn brute_force(series: &[f64], penalty: f64, ms: usize) -> Vec<usize> {
        let n = series.len();
        if n < 2 * ms {
            return Vec::new();
        }
        let sums = Sums::new(series);
        let mut f = vec![f64::INFINITY; n + 1];
        let mut last = vec![0usize; n + 1];
        f[0] = -penalty;
        for t in ms..=n {
            for s in (0..=t - ms).filter(|&s| s == 0 || s >= ms) {
                let v = f[s] + sums.cost(s, t) + penalty;
                if v < f[t] {
                    f[t] = v;
                    last[t] = s;
                }
            }
        }
        let mut cps = Vec::new();
        let mut t = n;
        while last[t] > 0 {
            t = last[t];
            cps.push(t);
        }
        cps.reverse();
        cps
    }

    #[test]
    fn constant_is_flat_without_changepoints() {
        let c = classify(&planted(&[(2000, 5000.0)]));
        assert_eq!(c.class, Class::Flat);
        assert!(c.changepoints.is_empty());
        assert_eq!(c.segments.len(), 1);
        assert_eq!(c.steady_mean, Some(5000.0));
        // An all-zero series too (no scale for the floor).
        assert_eq!(classify(&[0.0; 50]).class, Class::Flat);
    }

    #[test]
    fn planted_tenfold_drop_is_warmup_at_exactly_100() {
        let c = classify(&planted(&[(100, 20_000.0), (1900, 2_000.0)]));
        assert_eq!(c.changepoints, vec![100]);
        assert_eq!(c.class, Class::Warmup);
        assert_eq!(c.steady_mean, Some(2_000.0));
        assert_eq!(
            c.segments,
            vec![
                Segment {
                    start: 0,
                    end: 100,
                    mean: 20_000.0,
                    sd: 0.0,
                    outliers: 0,
                },
                Segment {
                    start: 100,
                    end: 2000,
                    mean: 2_000.0,
                    sd: 0.0,
                    outliers: 0,
                },
            ]
        );
    }

    #[test]
    fn planted_tenfold_rise_is_slowdown_at_exactly_20() {
        let c = classify(&planted(&[(20, 2_000.0), (1980, 20_000.0)]));
        assert_eq!(c.changepoints, vec![20]);
        assert_eq!(c.class, Class::Slowdown);
        assert_eq!(c.steady_mean, Some(20_000.0));
    }

    #[test]
    fn the_shortest_first_segment_is_seen() {
        // A slowdown after the first two windows (e.g. after operation 1,000 of windows of 500).
        let c = classify(&planted(&[(2, 2_000.0), (1998, 20_000.0)]));
        assert_eq!(
            (c.changepoints.clone(), c.class),
            (vec![2], Class::Slowdown)
        );
        let c = classify(&planted(&[(10, 20_000.0), (1990, 2_000.0)]));
        assert_eq!((c.changepoints.clone(), c.class), (vec![10], Class::Warmup));
    }

    #[test]
    fn a_change_inside_a_window_leaves_a_two_window_transition() {
        // The drop falls mid-window 9, which averages the two regimes. No segment may be one
        // window long, so PELT cuts a two-window transition holding window 9: [8, 10) or
        // [9, 11), which cost exactly the same on exact data. The transition is slower than the
        // steady state, so the process is a warmup, with the right steady mean.
        let c = classify(&planted(&[(9, 20_000.0), (1, 11_000.0), (1990, 2_000.0)]));
        assert!(
            c.changepoints == [8, 10] || c.changepoints == [9, 11],
            "{:?}",
            c.changepoints
        );
        assert_eq!(c.class, Class::Warmup);
        assert_eq!(c.steady_mean, Some(2_000.0));
    }

    #[test]
    fn a_change_in_the_last_quarter_is_no_steady_state() {
        for parts in [
            [(1800, 5_000.0), (200, 10_000.0)],
            [(1800, 20_000.0), (200, 2_000.0)],
        ] {
            let c = classify(&planted(&parts));
            assert_eq!(c.changepoints, vec![1800]);
            assert_eq!(c.class, Class::NoSteadyState);
            assert_eq!(c.steady_mean, None);
        }
        // The boundary: a steady run of exactly n/4 windows is steady, one shorter is not.
        let at = classify(&planted(&[(1500, 20_000.0), (500, 2_000.0)]));
        assert_eq!(
            (at.changepoints.clone(), at.class),
            (vec![1500], Class::Warmup)
        );
        let after = classify(&planted(&[(1501, 20_000.0), (499, 2_000.0)]));
        assert_eq!(after.class, Class::NoSteadyState);
    }

    #[test]
    fn an_equivalent_change_neither_warms_nor_ends_the_steady_state() {
        // 0.2% apart: PELT sees it (exact data), the classification does not (within 1%),
        // even in the last quarter.
        let c = classify(&planted(&[(1900, 5_000.0), (100, 5_010.0)]));
        assert_eq!(c.changepoints, vec![1900]);
        assert_eq!(c.class, Class::Flat);
        assert_eq!(c.steady_mean, Some(5_010.0));
    }

    #[test]
    fn levels_within_the_machines_margin_are_one_steady_state() {
        // A plateau that moves by 1.5% and back, as a shared machine's does (users-2kb `de`:
        // two quiet levels of one process differ by up to 1.6% in 95% of pairs): flat.
        let c = classify(&planted(&[(1000, 5_000.0), (700, 5_075.0), (300, 5_000.0)]));
        assert_eq!(c.changepoints, vec![1000, 1700]);
        assert_eq!(c.class, Class::Flat);
        assert_eq!(c.steady_mean, Some(5_000.0));
        // 2.5% apart is another level: a change in the last quarter is no steady state.
        let c = classify(&planted(&[(1800, 5_000.0), (200, 5_125.0)]));
        assert_eq!(c.class, Class::NoSteadyState);
    }

    #[test]
    fn an_interruption_neither_ends_the_steady_state_nor_warms() {
        // Another tenant's work slows the process for 100 windows in its last quarter, and
        // again for 50 near its end; it comes back to its level each time: flat.
        let c = classify(&planted(&[
            (1600, 5_000.0),
            (100, 6_000.0),
            (200, 5_000.0),
            (50, 9_000.0),
            (50, 5_000.0),
        ]));
        assert_eq!(c.changepoints, vec![1600, 1700, 1900, 1950]);
        assert_eq!(c.class, Class::Flat);
        assert_eq!(c.steady_mean, Some(5_000.0));
        // With a real warmup before it: warmup, not slowdown.
        let c = classify(&planted(&[
            (200, 20_000.0),
            (1400, 5_000.0),
            (100, 6_000.0),
            (300, 5_000.0),
        ]));
        assert_eq!(c.class, Class::Warmup);
        assert_eq!(c.steady_mean, Some(5_000.0));
    }

    #[test]
    fn a_wild_first_segment_is_no_return_to_the_level() {
        // A JVM's first windows: wild (interpretation, compilation), so equivalent to anything
        // by their standard errors; then a long slower tier, then the compiled steady state.
        // The slower tier is a warmup, not an interruption the process came back from.
        let mut s = planted(&[(4, 0.0), (1476, 6_000.0), (520, 1_400.0)]);
        s[..4].copy_from_slice(&[300_000.0, 5_000.0, 100_000.0, 6_000.0]);
        let c = classify(&s);
        assert_eq!(c.class, Class::Warmup, "{:?}", c.segments);
        assert_eq!(c.steady_mean, Some(1_400.0));
    }

    #[test]
    fn a_faster_stretch_or_a_slower_one_never_left_is_not_an_interruption() {
        // The machine only adds time: a faster stretch in the last quarter is the process's
        // own, so the steady run is too short.
        let c = classify(&planted(&[(1600, 5_000.0), (100, 4_000.0), (300, 5_000.0)]));
        assert_eq!(c.class, Class::NoSteadyState);
        // A slower stretch with no earlier segment at the last one's level is a warmup when
        // it ends before the last quarter, and no steady state when it ends in it.
        let c = classify(&planted(&[(300, 6_000.0), (1700, 5_000.0)]));
        assert_eq!((c.class, c.steady_mean), (Class::Warmup, Some(5_000.0)));
        let c = classify(&planted(&[(1700, 6_000.0), (300, 5_000.0)]));
        assert_eq!((c.class, c.steady_mean), (Class::NoSteadyState, None));
    }

    #[test]
    fn any_faster_earlier_segment_makes_a_slowdown() {
        // Fast, then slow, then in between: the nearest earlier segment is slower, but the
        // process was once faster than its steady state (Barrett's rule: slowdown).
        let c = classify(&planted(&[(300, 1_000.0), (300, 5_000.0), (1400, 2_000.0)]));
        assert_eq!(c.changepoints, vec![300, 600]);
        assert_eq!(c.class, Class::Slowdown);
        // Slow, slower, fast: warmup through two tiers.
        let c = classify(&planted(&[(300, 9_000.0), (300, 4_000.0), (1400, 2_000.0)]));
        assert_eq!(c.changepoints, vec![300, 600]);
        assert_eq!(c.class, Class::Warmup);
    }

    #[test]
    fn pelt_equals_the_unpruned_optimum() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
            let n = 40 + (seed as usize * 7) % 120;
            let k = 1 + seed as usize % 4;
            // k shifts at seeded places, level and noise varying per segment.
            let mut parts = Vec::new();
            let mut left = n;
            for i in 0..=k {
                let len = if i == k {
                    left
                } else {
                    (left / (k + 1 - i)).max(3)
                };
                let level = 100.0 * (1.0 + 4.0 * (normal(&mut rng).abs()));
                parts.push((len, level));
                left -= len;
            }
            let series = noisy(seed, &parts, 0.02 + 0.05 * (seed % 3) as f64);
            for (penalty, ms) in [
                (15.0 * (n as f64).ln(), 2),
                (2.0 * (n as f64).ln(), 2),
                (3.0, 1),
                (5.0, 4),
            ] {
                let want = brute_force(&series, penalty, ms);
                assert_eq!(
                    pelt(&series, penalty, ms),
                    want,
                    "seed {seed} penalty {penalty} ms {ms}"
                );
                checked += !want.is_empty() as usize;
            }
        }
        assert!(checked > 80, "too few cases had changepoints: {checked}");
    }

    #[test]
    fn pruning_keeps_the_cost_linear_when_changes_keep_coming() {
        // 2,000 windows, the level alternating every 100: the candidates alive at any time are
        // about one segment's worth, so PELT evaluates ~100 costs a window (205,883 in all), not
        // the n²/2 ≈ 2,000,000 of the unpruned search.
        let parts: Vec<(usize, f64)> = (0..20)
            .map(|i| (100, if i % 2 == 0 { 5_000.0 } else { 6_000.0 }))
            .collect();
        let series = noisy(7, &parts, 0.05);
        let (cps, evaluated) = pelt_counted(&series, 15.0 * 2000f64.ln(), 2);
        assert_eq!(cps.len(), 19, "{cps:?}");
        assert!(evaluated < 400_000, "{evaluated} costs evaluated");
        // With no change at all nothing is pruned: the worst case, about n²/2.
        let flat = noisy(8, &[(2000, 5_000.0)], 0.05);
        let (cps, evaluated) = pelt_counted(&flat, 15.0 * 2000f64.ln(), 2);
        assert!(cps.is_empty());
        assert!(evaluated > 1_900_000, "{evaluated} costs evaluated");
    }

    #[test]
    fn noisy_tenfold_drop_is_warmup_near_the_truth_and_noisy_flat_is_flat() {
        for seed in 0..6 {
            let c = classify(&noisy(seed, &[(100, 20_000.0), (1900, 2_000.0)], 0.05));
            assert_eq!(c.class, Class::Warmup, "seed {seed}: {:?}", c.changepoints);
            assert!(
                c.changepoints.iter().any(|&p| p.abs_diff(100) <= 1),
                "seed {seed}: {:?}",
                c.changepoints
            );
            let steady = c.steady_mean.unwrap();
            assert!(
                (steady / 2_000.0 - 1.0).abs() < 0.01,
                "seed {seed}: {steady}"
            );

            let f = classify(&noisy(100 + seed, &[(2000, 5_000.0)], 0.05));
            assert_eq!(f.class, Class::Flat, "seed {seed}: {:?}", f.changepoints);

            let late = classify(&noisy(
                200 + seed,
                &[(1800, 5_000.0), (200, 10_000.0)],
                0.05,
            ));
            assert_eq!(
                late.class,
                Class::NoSteadyState,
                "seed {seed}: {:?}",
                late.changepoints
            );
        }
    }

    #[test]
    fn outliers_by_barretts_rule() {
        // 200 windows: runs of 20 around each, none sought in the first 10.
        let mut s = vec![100.0; 200];
        s[5] = 1_000.0;
        s[150] = 1_000.0;
        s[151] = 50.0;
        assert_eq!(outliers(&s), vec![150, 151]);
        // A step between regimes is not an outlier, nor is anything in a short series.
        assert!(outliers(&planted(&[(100, 20_000.0), (100, 2_000.0)])).is_empty());
        assert!(outliers(&[1.0, 1.0, 1.0, 9.0, 1.0]).is_empty());
        // Noise alone gives none: the band is 3 × 2.56 σ wide.
        assert!(outliers(&noisy(3, &[(2000, 5_000.0)], 0.05)).is_empty());
    }

    #[test]
    fn the_sliding_run_equals_a_fresh_sort_of_every_run() {
        use crate::quantile::sorted;
        fn naive(series: &[f64]) -> Vec<usize> {
            let n = series.len();
            let w = n / OUTLIER_WINDOW_DIVISOR;
            if w < OUTLIER_MIN_WINDOW {
                return Vec::new();
            }
            let half = w / 2;
            let step = grid(series).unwrap_or(0.0);
            (0..n)
                .filter(|&i| {
                    let (lo, hi) = (i.saturating_sub(half), (i + half).min(n));
                    if lo == 0 && hi < w {
                        return false;
                    }
                    let run = sorted(&series[lo..hi]);
                    let med = median(&run).unwrap();
                    let spread = quantile(&run, 0.9).unwrap() - quantile(&run, 0.1).unwrap();
                    let band = 3.0 * spread.max(step);
                    series[i] > med + band || series[i] < med - band
                })
                .collect()
        }
        let mut found = 0;
        for seed in 0..12u64 {
            let n = 200 + 83 * seed as usize;
            let mut s = noisy(seed, &[(n / 3, 9_000.0), (n - n / 3, 5_000.0)], 0.05);
            for j in 0..seed as usize {
                s[(j * 7919 + seed as usize * 31) % n] *= 4.0;
            }
            if seed % 3 == 0 {
                // Ties: a stretch of exactly equal windows.
                s[n / 2..n / 2 + n / 4].fill(5_000.0);
            }
            let want = naive(&s);
            found += want.len();
            assert_eq!(outliers(&s), want, "seed {seed}");
        }
        assert!(found > 20, "{found}");
    }

    #[test]
    fn a_pause_is_an_outlier_not_a_regime() {
        // A few windows of a collection pause late in a steady process: left out, so the
        // process is flat and its steady mean is the steady windows'.
        for (at, width, factor) in [(1700, 2, 6.0), (1700, 5, 2.0), (1990, 1, 6.0)] {
            let mut s = noisy(at as u64, &[(2000, 2_000.0)], 0.02);
            for x in &mut s[at..at + width] {
                *x *= factor;
            }
            let c = classify(&s);
            assert_eq!(c.outliers, (at..at + width).collect::<Vec<_>>());
            assert_eq!(c.class, Class::Flat, "{:?}", c.changepoints);
            let steady = c.steady_mean.unwrap();
            assert!((steady / 2_000.0 - 1.0).abs() < 0.005, "{steady}");
            assert_eq!(c.segments.iter().map(|g| g.outliers).sum::<usize>(), width);
        }
    }

    #[test]
    fn the_grid_of_whole_nanoseconds() {
        assert_eq!(grid(&[41.0, 42.0, 20_000.0]), Some(1.0));
        assert_eq!(grid(&[41.5, 42.0]), Some(0.5));
        assert_eq!(grid(&[41.25, 42.0, 43.75]), Some(0.25));
        assert_eq!(grid(&noisy(1, &[(50, 2_000.0)], 0.05)), None);
        assert_eq!(grid(&[]), None);
    }

    #[test]
    fn windows_of_one_operation_in_whole_nanoseconds_are_flat() {
        // Most windows 41 ns, the rest 42–44: p90 = p10 = 41 in most runs, which without the
        // grid would make every other window an outlier, and runs of equal windows segments.
        for seed in 0..2 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let s: Vec<f64> = (0..2000)
                .map(|_| {
                    if rng.random::<f64>() < 0.9 {
                        41.0
                    } else {
                        42.0 + (rng.random::<f64>() * 3.0).floor()
                    }
                })
                .collect();
            let c = classify(&s);
            assert!(c.outliers.is_empty(), "{:?}", c.outliers);
            assert_eq!(c.class, Class::Flat, "{:?}", c.changepoints);
            assert!(c.changepoints.is_empty(), "{:?}", c.changepoints);
        }
    }

    #[test]
    fn short_empty_and_non_finite_series() {
        assert!(pelt(&[], 1.0, 2).is_empty());
        assert!(pelt(&[1.0, 2.0, 3.0], 0.0, 2).is_empty());
        assert_eq!(classify(&[7.0]).class, Class::Flat);
        let e = classify(&[]);
        assert_eq!(
            (e.class, e.steady_mean, e.segments.len()),
            (Class::NoSteadyState, None, 0)
        );
        assert_eq!(classify(&[1.0, f64::NAN, 1.0]).class, Class::NoSteadyState);
    }

    #[test]
    fn names_and_shares() {
        let names: Vec<_> = Class::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names, ["flat", "warmup", "slowdown", "no steady state"]);
        assert_eq!(Class::NoSteadyState.to_string(), "no steady state");
        let s = shares(&[
            Class::Warmup,
            Class::Flat,
            Class::Warmup,
            Class::NoSteadyState,
        ]);
        assert_eq!(
            s,
            [
                (Class::Flat, 1),
                (Class::Warmup, 2),
                (Class::Slowdown, 0),
                (Class::NoSteadyState, 1)
            ]
        );
        assert_eq!(
            serde_json::to_string(&Class::NoSteadyState).unwrap(),
            "\"no_steady_state\""
        );
    }
}
