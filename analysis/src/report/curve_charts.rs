//! The two charts of a curve run, drawn as SVG: C(n) per codec against n (log-log) with its
//! interval band, the crossings with the reference and each codec's warm asymptote n × warm per
//! operation; and the time per operation by window (the median across processes), where JIT
//! tiers and changes of regime show. What they draw is computed in `analyze::curve`.

use super::chart_data::codec_colors;
use super::charts::{frame, legend_entry, MARGINS, SIZE};
use super::model::Report;
use super::svg::{Font, Stroke, Svg, GREY};
use crate::analyze::coldwarm::Scenario;
use crate::analyze::curve::{CurveCell, CurveReport, Measured};

/// The curve cells of a scenario, in the report's order.
fn cells<'a>(r: &Report, curve: &'a CurveReport, s: &Scenario) -> Vec<&'a CurveCell> {
    r.cells_in_order()
        .into_iter()
        .filter(|c| s.holds(&c.key) && !r.is_baseline(&c.key.codec))
        .filter_map(|c| curve.cell(&c.key))
        .collect()
}

/// The (lowest, highest) positive value of `values`, `None` when there is none.
fn positive_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    lo.is_finite().then_some((lo, hi))
}

/// C(n) per codec with its interval band, the crossings with the reference ringed, and each
/// codec's warm asymptote n × warm per operation dashed.
pub(crate) fn cost(r: &Report, curve: &CurveReport, s: &Scenario) -> Option<String> {
    let cells = cells(r, curve, s);
    let x_hi = cells.iter().filter_map(|c| c.ops.last()).max().copied()? as f64;
    let (y_lo, y_hi) = positive_range(cells.iter().flat_map(|c| {
        c.median_ns
            .iter()
            .copied()
            .chain(c.interval.iter().flatten().flat_map(|i| [i.0, i.1]))
    }))?;
    let colors = codec_colors(r);
    let mut svg = Svg::new(SIZE.0, SIZE.1);
    let (x, y) = frame(
        &mut svg,
        (1.0, x_hi),
        (y_lo, y_hi),
        "C(n), cumulative cost (log scale)",
    );
    let px = |n: f64, v: f64| (x.map(n), y.map(v.max(y_lo)));
    for (ci, c) in cells.iter().enumerate() {
        let color = colors.get(&c.key.codec).copied().unwrap_or(GREY);
        draw_cost_curve(&mut svg, c, &px, x_hi, color);
        legend_entry(
            &mut svg,
            (
                SIZE.0 - MARGINS.1 + 14.0,
                MARGINS.2 + 10.0 + ci as f64 * 18.0,
            ),
            color,
            &c.key.codec,
        );
    }
    ring_crossings(&mut svg, curve, s, &cells, &px);
    cost_legend_marks(&mut svg, r, cells.len());
    Some(svg.finish(&format!(
        "C(n) of one process, {} {} ({})",
        s.fixture, s.op, s.variant
    )))
}

/// One codec's C(n): its interval as a band, its median as a line, and n × its warm time per
/// operation dashed; `px` places a point (n, ns).
fn draw_cost_curve(
    svg: &mut Svg,
    c: &CurveCell,
    px: &dyn Fn(f64, f64) -> (f64, f64),
    x_hi: f64,
    color: &str,
) {
    let banded: Vec<(f64, (f64, f64))> = c
        .ops
        .iter()
        .zip(&c.interval)
        .filter_map(|(&n, i)| Some((n as f64, (*i)?)))
        .collect();
    svg.band(
        &banded.iter().map(|(n, i)| px(*n, i.1)).collect::<Vec<_>>(),
        &banded.iter().map(|(n, i)| px(*n, i.0)).collect::<Vec<_>>(),
        color,
        0.18,
    );
    let line: Vec<(f64, f64)> = c
        .ops
        .iter()
        .zip(&c.median_ns)
        .map(|(&n, &v)| px(n as f64, v))
        .collect();
    svg.polyline(&line, Stroke::solid(color, 2.2));
    if let Some(w) = c.warm_ns {
        svg.polyline(
            &[px(1.0, w), px(x_hi, w * x_hi)],
            Stroke::dashed(color, 1.5, "6 4"),
        );
    }
}

/// A ring on the reference's curve where each measured crossing of scenario `s` is.
fn ring_crossings(
    svg: &mut Svg,
    curve: &CurveReport,
    s: &Scenario,
    cells: &[&CurveCell],
    px: &dyn Fn(f64, f64) -> (f64, f64),
) {
    for k in curve.crossings.iter().filter(|k| &k.scenario == s) {
        let Measured::From { n, .. } = k.measured else {
            continue;
        };
        let reference = cells.iter().find(|c| c.key.codec == k.reference);
        let value = reference.and_then(|c| interpolate(&c.ops, &c.median_ns, n));
        if let Some(v) = value {
            let (cx, cy) = px(n as f64, v);
            svg.ring(cx, cy, 6.0, "#111");
        }
    }
}

/// The legend's last entries, below the `codecs` codecs': the dashed warm line and, with a
/// reference, the crossing's ring.
fn cost_legend_marks(svg: &mut Svg, r: &Report, codecs: usize) {
    let (lx, ly) = (
        SIZE.0 - MARGINS.1 + 14.0,
        MARGINS.2 + 16.0 + codecs as f64 * 18.0,
    );
    svg.line(
        (lx, ly),
        (lx + 22.0, ly),
        Stroke::dashed("#555", 1.5, "6 4"),
    );
    svg.text(
        (lx + 28.0, ly + 4.0),
        "n × warm per op",
        Font::new("start", 11.0, "#444"),
    );
    if let Some(refname) = &r.reference {
        svg.ring(lx + 11.0, ly + 17.0, 6.0, "#111");
        svg.text(
            (lx + 28.0, ly + 21.0),
            &format!("crosses {refname}"),
            Font::new("start", 11.0, "#444"),
        );
    }
}

/// The value of a curve read at `ops`, linear between two reads, at `n`.
fn interpolate(ops: &[u64], values: &[f64], n: u64) -> Option<f64> {
    let i = ops.partition_point(|&o| o < n);
    if ops.get(i) == Some(&n) {
        return values.get(i).copied();
    }
    let (x0, x1) = (*ops.get(i.checked_sub(1)?)? as f64, *ops.get(i)? as f64);
    let (y0, y1) = (values[i - 1], values[i]);
    Some(y0 + (n as f64 - x0) / (x1 - x0) * (y1 - y0))
}

/// The median time per operation of each window, per codec, against the window's last
/// operation (log-log).
pub(crate) fn windows(r: &Report, curve: &CurveReport, s: &Scenario) -> Option<String> {
    let cells = cells(r, curve, s);
    let x_hi = cells
        .iter()
        .map(|c| c.window as f64 * c.window_ns.len() as f64)
        .fold(0.0, f64::max);
    let x_lo = cells
        .iter()
        .map(|c| c.window as f64)
        .fold(f64::INFINITY, f64::min);
    if x_hi <= x_lo {
        return None;
    }
    let (y_lo, y_hi) = positive_range(cells.iter().flat_map(|c| c.window_ns.iter().copied()))?;
    let colors = codec_colors(r);
    let mut svg = Svg::new(SIZE.0, SIZE.1);
    let (x, y) = frame(
        &mut svg,
        (x_lo, x_hi),
        (y_lo, y_hi),
        "time per operation in the window (log scale)",
    );
    for (ci, c) in cells.iter().enumerate() {
        let color = colors.get(&c.key.codec).copied().unwrap_or(GREY);
        let line: Vec<(f64, f64)> = c
            .window_ns
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0.0)
            .map(|(k, &v)| (x.map((k as u64 + 1) as f64 * c.window as f64), y.map(v)))
            .collect();
        svg.polyline(&line, Stroke::solid(color, 1.6));
        legend_entry(
            &mut svg,
            (
                SIZE.0 - MARGINS.1 + 14.0,
                MARGINS.2 + 10.0 + ci as f64 * 18.0,
            ),
            color,
            &c.key.codec,
        );
    }
    Some(svg.finish(&format!(
        "time per operation by window, {} {} ({})",
        s.fixture, s.op, s.variant
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_between_reads() {
        let ops = [1, 10, 30];
        let v = [10.0, 100.0, 300.0];
        assert_eq!(interpolate(&ops, &v, 20), Some(200.0));
        assert_eq!(interpolate(&ops, &v, 10), Some(100.0));
        assert_eq!(interpolate(&ops, &v, 31), None);
        assert_eq!(interpolate(&ops, &v, 0), None);
    }
}
