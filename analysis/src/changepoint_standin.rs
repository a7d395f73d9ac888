//! STAND-IN — DELETE AT MERGE. A minimal `stats::changepoint` with exactly the signature the
//! `stats` branch is writing (`classify(&series) -> Classified`), so the curve analysis builds
//! before that branch lands. At merge: delete this file and its `mod` line in lib.rs, and change
//! the one `use crate::changepoint_standin as changepoint;` in `analyze/curve.rs` to
//! `use stats::changepoint;`.
//!
//! What it does (enough for planted curves, not a method to publish): binary segmentation by
//! least squares (each split the one that most reduces the sum of squared deviations, kept when
//! both sides hold at least [`MIN_SEGMENT`] windows, their means differ by more than 5% and the
//! split removes at least half of the squares), then Barrett et al.'s classes from the last
//! two segments. `changepoints[i]` is the index of the first window of segment i + 1.

use serde::Serialize;

/// The fewest windows a segment may hold.
pub const MIN_SEGMENT: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Class {
    Flat,
    Warmup,
    Slowdown,
    NoSteadyState,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Flat => "flat",
            Class::Warmup => "warmup",
            Class::Slowdown => "slowdown",
            Class::NoSteadyState => "no steady state",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Segment {
    pub start: usize,
    pub end: usize,
    pub mean: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classified {
    pub class: Class,
    pub changepoints: Vec<usize>,
    pub segments: Vec<Segment>,
    pub steady_mean: Option<f64>,
}

fn mean(s: &[f64]) -> f64 {
    s.iter().sum::<f64>() / s.len().max(1) as f64
}

/// The split of `s` that most reduces its squares, if it is one to keep (prefix sums: O(n)).
fn split(s: &[f64]) -> Option<usize> {
    if s.len() < 2 * MIN_SEGMENT {
        return None;
    }
    let (mut sum, mut sq) = (vec![0.0], vec![0.0]);
    for x in s {
        sum.push(sum.last().unwrap_or(&0.0) + x);
        sq.push(sq.last().unwrap_or(&0.0) + x * x);
    }
    let cost = |a: usize, b: usize| {
        let n = (b - a) as f64;
        let t = sum[b] - sum[a];
        (sq[b] - sq[a] - t * t / n).max(0.0)
    };
    let whole = cost(0, s.len());
    let (at, rest) = (MIN_SEGMENT..=s.len() - MIN_SEGMENT)
        .map(|i| (i, cost(0, i) + cost(i, s.len())))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let (a, b) = (mean(&s[..at]), mean(&s[at..]));
    let apart = (a - b).abs() > 0.05 * a.abs().min(b.abs());
    (apart && rest <= 0.5 * whole).then_some(at)
}

fn segment(s: &[f64], offset: usize, cuts: &mut Vec<usize>) {
    if let Some(at) = split(s) {
        segment(&s[..at], offset, cuts);
        cuts.push(offset + at);
        segment(&s[at..], offset + at, cuts);
    }
}

/// The classes of one process's series of time per operation by window.
pub fn classify(series: &[f64]) -> Classified {
    if series.is_empty() {
        return Classified {
            class: Class::NoSteadyState,
            changepoints: Vec::new(),
            segments: Vec::new(),
            steady_mean: None,
        };
    }
    let mut changepoints = Vec::new();
    segment(series, 0, &mut changepoints);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(changepoints.iter().copied())
        .chain(std::iter::once(series.len()))
        .collect();
    let segments: Vec<Segment> = bounds
        .windows(2)
        .map(|w| Segment {
            start: w[0],
            end: w[1],
            mean: mean(&series[w[0]..w[1]]),
        })
        .collect();
    let class = match segments.as_slice() {
        [] => Class::NoSteadyState,
        [_] => Class::Flat,
        [.., before, last] if last.mean < before.mean => Class::Warmup,
        _ => Class::Slowdown,
    };
    let steady_mean = segments
        .last()
        .filter(|_| class != Class::NoSteadyState)
        .map(|s| s.mean);
    Classified {
        class,
        changepoints,
        segments,
        steady_mean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_series_are_classified() {
        let flat = vec![5.0; 2000];
        assert_eq!(classify(&flat).class, Class::Flat);
        let mut warm: Vec<f64> = vec![20.0; 100];
        warm.extend(vec![2.0; 1900]);
        let c = classify(&warm);
        assert_eq!(
            (c.class, c.changepoints.clone()),
            (Class::Warmup, vec![100])
        );
        assert_eq!(c.steady_mean, Some(2.0));
        let mut slow: Vec<f64> = vec![2.0; 20];
        slow.extend(vec![20.0; 1980]);
        let c = classify(&slow);
        assert_eq!((c.class, c.changepoints), (Class::Slowdown, vec![20]));
        assert_eq!(classify(&[]).class, Class::NoSteadyState);
    }
}
