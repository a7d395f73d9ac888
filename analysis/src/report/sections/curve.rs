//! The cost curve of a curve run (`cold run --curve N`): C(n) per codec at the checkpoints,
//! the paired ratios to the reference there, the measured crossing beside the straight line's,
//! each process's class and steady state, the clock's price, and the two charts per fixture and
//! op. Empty for a run without curves.csv.

use super::common::*;
use crate::analyze::curve::{
    shown, Beyond, CurveCell, CurveCrossing, CurveReport, Measured, StraightLine, CLOCK_SHARE_LIMIT,
};
use crate::report::curve_charts;

/// "b cheaper from n = 30,000 [29,950, 30,050]" or "none up to 100,000 (a cheaper throughout)".
pub(crate) fn measured_text(c: &CurveCrossing) -> String {
    match &c.measured {
        Measured::From {
            cheaper,
            n,
            lo,
            hi,
            level,
        } => {
            let bound = |v: &Option<u64>| v.map_or("never".to_string(), format::ops);
            format!(
                "{cheaper} cheaper from n = {} [{}, {}] ({}% bootstrap over blocks)",
                format::ops(*n),
                bound(lo),
                bound(hi),
                format::percent(*level).trim_end_matches('%')
            )
        }
        Measured::None { cheaper } => format!(
            "none up to {}{}",
            format::ops(c.batch),
            cheaper
                .as_ref()
                .map_or(" (equal at the end)".to_string(), |x| format!(
                    " ({x} cheaper throughout)"
                ))
        ),
    }
}

/// "extrapolated beyond n = 100,000: a cheaper from n = 150,000", or empty.
pub(crate) fn beyond_text(c: &CurveCrossing) -> String {
    match &c.beyond {
        Some(Beyond {
            cheaper_after,
            n: Some(n),
        }) => format!(
            "extrapolated beyond n = {}: {cheaper_after} cheaper from n = {}",
            format::ops(c.batch),
            format::ops(*n)
        ),
        Some(Beyond { n: None, .. }) => format!(
            "extrapolated beyond n = {}: the steady states never cross",
            format::ops(c.batch)
        ),
        None => String::new(),
    }
}

/// The straight line's crossing: "b cheaper from n = 47,346", "no warm figure", "none in 1..10⁹".
pub(crate) fn straight_text(c: &CurveCrossing) -> String {
    match &c.straight_line {
        StraightLine::NoWarmFigure => "no warm figure".into(),
        StraightLine::From { cheaper, n } => {
            format!("{cheaper} cheaper from n = {}", format::ops(*n))
        }
        StraightLine::None { cheaper } => format!(
            "none in 1..10⁹{}",
            cheaper
                .as_ref()
                .map_or(String::new(), |x| format!(" ({x} cheaper throughout)"))
        ),
    }
}

fn crossings_table(r: &Report, curve: &CurveReport, s: &Scenario) -> Option<Block> {
    let rows: Vec<&CurveCrossing> = curve
        .crossings
        .iter()
        .filter(|c| &c.scenario == s)
        .collect();
    if rows.is_empty() {
        return None;
    }
    let mut t = Table::new(&[
        "codec / reference",
        "~measured crossing",
        "~beyond the last read",
        "~straight line (C(1), C(10), C(100), then warm)",
        ">measured / straight line",
    ]);
    for c in rows {
        t.row(vec![
            codec_cell(r, &format!("{} / {}", c.codec, c.reference)),
            measured_text(c).into(),
            beyond_text(c).into(),
            straight_text(c).into(),
            c.measured_over_straight
                .map_or(Cell::toned("—", Tone::Muted), |x| {
                    Cell::new(format::factor(x))
                }),
        ]);
    }
    Some(Block::Table(t))
}

pub(super) fn curve(r: &Report) -> Vec<Block> {
    let Some(curve) = &r.curve else {
        return Vec::new();
    };
    let reference = r.reference.as_deref().unwrap_or("the reference");
    let mut out = vec![
        h(2, "The cost curve"),
        p(format!("A curve run (`cold run --curve N`) runs each cell as one batch of N operations in one process, and the child reads its clock after the checkpoints (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, …), after every window of W = ⌈N / 2,000⌉ operations, and after the last. C(n) is the library's cumulative cost after n operations, its init included: the median across processes (one per block) with its distribution-free interval. In a curve run `de` refreshes one working copy of the document before each call inside the timed loop and drops each value after its call, so C(n) of a curve includes that copy and the drops, unlike a cold run's batches. The ratios to {reference} are paired within blocks (Hodges–Lehmann, as in the comparison against the reference). The measured crossing is read on the two median curves over every read, linear between two reads: the first whole n from which one codec costs at most the other at every later read, with a percentile bootstrap interval (the blocks resampled with replacement, each block's pair of processes together, both median curves and the crossing computed again; \"never\": no such n up to N in that share of resamples). When the curves do not cross up to N, straight lines from C(N) with each codec's in-process steady state extend them, labelled as extrapolated. Beside it, what the straight line of \"Cold against warm\" gives when fed this curve's own C(1), C(10), C(100) and the warm time per operation.")),
    ];
    for (i, s) in curve.scenarios().iter().enumerate() {
        let cells: Vec<&CurveCell> = cells_of(r, s).filter_map(|c| curve.cell(&c.key)).collect();
        let Some(first) = cells.first() else {
            continue;
        };
        out.push(h(3, format!("The cost curve, {}", scenario_title(s))));
        let points = shown(u64::from(first.key.batch));
        out.push(costs_table(r, &cells, &points));
        if cells.iter().any(|c| !c.ratios.is_empty()) {
            out.push(p(
                "C(n) over the reference's, paired within blocks, with the 95% interval:",
            ));
            out.push(ratios_table(r, &cells, &points));
        }
        if let Some(t) = crossings_table(r, curve, s) {
            out.push(t);
        }
        out.push(p(format!("Each process's time per operation by window, t_k = (C(kW) − C((k − 1)W)) / W with C(0) its init, classified by changepoint analysis (Barrett et al., OOPSLA 2017) as flat, warmup, slowdown or without a steady state; the steady state per operation is the median across processes of each one's last segment, set beside criterion's or JMH's warm figure. The clock's price is the reads' cost (their number × the child's time of one read) over C(N), the median across processes; above {} the curve is inflated by as much.", format::percent(CLOCK_SHARE_LIMIT))));
        out.push(processes_table(r, &cells));
        out.extend(charts(r, curve, s, i, reference));
    }
    out
}

/// C(n) of each codec at the shown checkpoints, with its interval.
fn costs_table(r: &Report, cells: &[&CurveCell], points: &[u64]) -> Block {
    let labels: Vec<String> = points
        .iter()
        .map(|n| format!(">C({})", format::ops(*n)))
        .collect();
    let mut header = vec!["codec", ">processes"];
    header.extend(labels.iter().map(String::as_str));
    let mut t = Table::new(&header);
    for c in cells {
        let mut row = vec![codec_cell(r, &c.key.codec), c.processes.to_string().into()];
        for &n in points {
            row.push(
                c.median_at(n)
                    .map_or(Cell::toned("—", Tone::Muted), |(m, i)| {
                        Cell::new(format::ns_ci(m, i))
                    }),
            );
        }
        t.row(row);
    }
    Block::Table(t)
}

/// Each codec's C(n) over the reference's at the shown checkpoints (the codecs with ratios).
fn ratios_table(r: &Report, cells: &[&CurveCell], points: &[u64]) -> Block {
    let labels: Vec<String> = points
        .iter()
        .map(|n| format!(">n = {}", format::ops(*n)))
        .collect();
    let mut header = vec!["codec / reference"];
    header.extend(labels.iter().map(String::as_str));
    let mut t = Table::new(&header);
    for c in cells.iter().filter(|c| !c.ratios.is_empty()) {
        let mut row = vec![codec_cell(
            r,
            &format!("{} / {}", c.key.codec, c.ratios[0].against),
        )];
        for &n in points {
            let x = c.ratios.iter().find(|x| x.n == n);
            row.push(
                x.and_then(|x| x.contrast.as_ref())
                    .map_or(Cell::toned("—", Tone::Muted), |k| {
                        Cell::new(format::ratio_ci(k.ratio, k.interval))
                    }),
            );
        }
        t.row(row);
    }
    Block::Table(t)
}

/// Each codec's processes by class, its changepoint, steady state against warm, and the
/// clock's price.
fn processes_table(r: &Report, cells: &[&CurveCell]) -> Block {
    let mut t = Table::new(&[
        "codec",
        ">flat",
        ">warmup",
        ">slowdown",
        ">no steady state",
        ">changepoint (median, after operation)",
        ">steady per op",
        ">warm per op",
        ">steady / warm",
        ">clock's price",
    ]);
    for c in cells {
        let mut row = vec![codec_cell(r, &c.key.codec)];
        for k in &c.classes {
            row.push(format!("{}/{}", k.processes, c.processes).into());
        }
        let or_dash = |v: Option<String>| v.map_or(Cell::toned("—", Tone::Muted), Cell::new);
        row.push(or_dash(
            c.changepoint_ops.map(|x| format::ops(x.round() as u64)),
        ));
        row.push(or_dash(c.steady_ns.map(format::ns)));
        row.push(match c.warm_ns {
            Some(w) => Cell::new(format::ns(w)),
            None => Cell::toned("no warm figure", Tone::Muted),
        });
        row.push(or_dash(c.steady_over_warm.map(format::factor)));
        row.push(match c.clock_share {
            Some(x) if x > CLOCK_SHARE_LIMIT => Cell::toned(format::percent(x), Tone::Bad),
            Some(x) => Cell::new(format!("{:.4}%", x * 100.0)),
            None => Cell::toned("—", Tone::Muted),
        });
        t.row(row);
    }
    Block::Table(t)
}

/// The two charts of scenario `s` (the `i`-th): C(n), and the time per operation by window.
fn charts(r: &Report, curve: &CurveReport, s: &Scenario, i: usize, reference: &str) -> Vec<Block> {
    let mut out = Vec::new();
    if let Some(svg) = curve_charts::cost(r, curve, s) {
        out.push(Block::Chart {
            file: format!("curve-cost-{i}.svg"),
            title: format!("C(n) of one process, {}: the median across processes with its interval; rings where a codec crosses {reference}; dashed, n × the warm time per operation", scenario_title(s)),
            svg,
        });
    }
    if let Some(svg) = curve_charts::windows(r, curve, s) {
        out.push(Block::Chart {
            file: format!("curve-windows-{i}.svg"),
            title: format!("time per operation by window, {}: the median across processes of each window, where JIT tiers and changes of regime show", scenario_title(s)),
            svg,
        });
    }
    out
}
