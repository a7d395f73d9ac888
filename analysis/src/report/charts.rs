//! The report's four charts, drawn as SVG: the samples of init_plus_ops per codec and batch
//! (strip plot, log scale), the stacked median phases of each codec's process life, the
//! cumulative cost against the number of operations (log-log), and that cost relative to the
//! reference's. What they show is computed in `chart_data`; this module only draws it.

use super::chart_data::{
    chart_curves, codec_colors, codecs_by_cost, cost_series, relative_series, sort_by_final_value,
    x_range,
};
use super::format;
use super::model::Report;
use super::svg::{Font, LinScale, LogScale, Stroke, Svg, GREY};
use crate::analyze::cells::CellKey;
use crate::analyze::coldwarm::{CostCurve, Scenario};
use schema::phases::Phase;

const BATCH_COLORS: [&str; 6] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#9c755f",
];

fn jitter(i: usize) -> f64 {
    ((i as u64).wrapping_mul(2_654_435_761) % 1000) as f64 / 1000.0 - 0.5
}

/// Strip plot of init_plus_ops: one band per codec, one column per batch, log y.
pub(crate) fn strip(report: &Report, s: &Scenario) -> Option<String> {
    let codecs = codecs_by_cost(report, s);
    let batches = strip_batches(report, s);
    let values = report
        .strips
        .iter()
        .filter(|(k, _)| s.holds(k))
        .flat_map(|(_, v)| v.iter().copied());
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    if codecs.is_empty() || !lo.is_finite() || hi <= 0.0 {
        return None;
    }
    let (left, right, top, bottom) = (78.0, 16.0, 44.0, 96.0);
    let width =
        (left + right + codecs.len() as f64 * 30.0 * batches.len() as f64).clamp(720.0, 1100.0);
    let height = 440.0;
    let mut svg = Svg::new(width, height);
    let y = LogScale::covering(lo.max(1.0), hi, height - bottom, top);
    let plot_w = width - left - right;
    svg.y_grid(
        y.ticks()
            .into_iter()
            .map(|t| (y.map(t), format::tick_ns(t))),
        (left, width - right),
    );
    svg.text(
        (16.0, top + (height - top - bottom) / 2.0),
        "init_plus_ops per process (log scale)",
        Font::new("middle", 12.0, "#333").rotated(-90.0),
    );
    let band = plot_w / codecs.len() as f64;
    let sub = band / batches.len() as f64;
    for (ci, codec) in codecs.iter().enumerate() {
        let x0 = left + ci as f64 * band;
        if ci > 0 {
            svg.line(
                (x0, top),
                (x0, height - bottom),
                Stroke::solid("#f0f0f0", 1.0),
            );
        }
        for (bi, &batch) in batches.iter().enumerate() {
            let key = report
                .strips
                .keys()
                .find(|k| s.holds(k) && k.codec == *codec && k.batch == batch);
            let Some(key) = key else { continue };
            let cx = x0 + (bi as f64 + 0.5) * sub;
            let color = BATCH_COLORS[bi % BATCH_COLORS.len()];
            draw_strip(&mut svg, report, key, (cx, sub), color, &y);
        }
        svg.text(
            (x0 + band / 2.0, height - bottom + 14.0),
            codec,
            Font::new("end", 12.0, "#222").rotated(-35.0),
        );
    }
    svg.axes((left, top), (width - right, height - bottom));
    batch_legend(&mut svg, &batches, left);
    let title = format!(
        "init_plus_ops samples, {} {} ({})",
        s.fixture, s.op, s.variant
    );
    Some(svg.finish(&title))
}

/// The batches of scenario `s` that have strips, smallest first.
fn strip_batches(report: &Report, s: &Scenario) -> Vec<u32> {
    let mut batches: Vec<u32> = report
        .strips
        .keys()
        .filter(|k| s.holds(k))
        .map(|k| k.batch)
        .collect();
    batches.sort_unstable();
    batches.dedup();
    batches
}

/// One cell's strip in its column (centred at `cx`, `sub` wide): its samples as jittered
/// points, and its median as a bar.
fn draw_strip(
    svg: &mut Svg,
    report: &Report,
    key: &CellKey,
    (cx, sub): (f64, f64),
    color: &str,
    y: &LogScale,
) {
    for (i, &v) in report.strips[key].iter().enumerate() {
        svg.circle(cx + jitter(i) * sub * 0.6, y.map(v), 1.7, color, 0.35);
    }
    if let Some(d) = report.cell(key).and_then(|c| c.init_plus_ops.as_ref()) {
        let py = y.map(d.median);
        svg.line(
            (cx - sub * 0.38, py),
            (cx + sub * 0.38, py),
            Stroke::solid("#111", 2.0),
        );
    }
}

/// The strip chart's legend along its top, from `left`: each batch's colour, then the median's
/// bar.
fn batch_legend(svg: &mut Svg, batches: &[u32], left: f64) {
    let mut lx = left;
    for (bi, b) in batches.iter().enumerate() {
        svg.circle(
            lx + 6.0,
            20.0,
            5.0,
            BATCH_COLORS[bi % BATCH_COLORS.len()],
            0.9,
        );
        let label = format!("{b} op{}", if *b == 1 { "" } else { "s" });
        svg.text((lx + 15.0, 24.0), &label, Font::new("start", 12.0, "#222"));
        lx += 24.0 + label.len() as f64 * 7.0;
    }
    svg.line((lx, 20.0), (lx + 18.0, 20.0), Stroke::solid("#111", 2.0));
    svg.text(
        (lx + 24.0, 24.0),
        "median",
        Font::new("start", 12.0, "#222"),
    );
}

/// The colour of each phase, in [`Phase::ALL`]'s order.
pub(crate) const PHASE_COLORS: [&str; Phase::ALL.len()] = [
    "#bab0ac", "#edc948", "#d7b5d8", "#f28e2b", "#e15759", "#4e79a7", "#76b7b2", "#9c755f",
];

/// Stacked median phases of each codec's process at `batch`, horizontal bars, linear x.
pub(crate) fn phases(report: &Report, s: &Scenario, batch: u32) -> Option<String> {
    let mut rows: Vec<(&str, Vec<f64>)> = report
        .cells
        .iter()
        .filter(|c| s.holds(&c.key) && c.key.batch == batch)
        .filter(|c| !c.phases.is_empty())
        .map(|c| {
            let v = Phase::ALL
                .iter()
                .map(|&p| c.phase(p).unwrap_or(0.0))
                .collect();
            (c.key.codec.as_str(), v)
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    rows.sort_by(|a, b| a.1.iter().sum::<f64>().total_cmp(&b.1.iter().sum::<f64>()));
    let max = rows
        .iter()
        .map(|r| r.1.iter().sum::<f64>())
        .fold(0.0, f64::max);
    let (left, right, top, row_h) = (150.0, 90.0, 56.0, 26.0);
    let width = 980.0;
    let height = top + rows.len() as f64 * row_h + 40.0;
    let mut svg = Svg::new(width, height);
    let x = LinScale::zero_to(max, left, width - right);
    let bottom = top + rows.len() as f64 * row_h;
    svg.x_grid(
        x.ticks()
            .into_iter()
            .map(|t| (x.map(t), format::tick_ns(t))),
        (top - 4.0, bottom),
    );
    for (ri, (codec, v)) in rows.iter().enumerate() {
        let y0 = top + ri as f64 * row_h + 4.0;
        svg.text(
            (left - 8.0, y0 + 13.0),
            codec,
            Font::new("end", 12.0, "#222"),
        );
        let mut acc = 0.0;
        for (pi, d) in v.iter().enumerate() {
            let title = format!("{codec}: {} {}", Phase::ALL[pi], format::ns(*d));
            svg.rect(
                x.map(acc),
                y0,
                x.map(acc + d) - x.map(acc),
                row_h - 8.0,
                PHASE_COLORS[pi],
                Some(&title),
            );
            acc += d;
        }
        svg.text(
            (x.map(acc) + 5.0, y0 + 13.0),
            &format::ns(acc),
            Font::new("start", 11.0, "#333"),
        );
    }
    let mut lx = left;
    for (pi, name) in Phase::ALL.iter().map(|p| p.name()).enumerate() {
        svg.rect(lx, 14.0, 12.0, 12.0, PHASE_COLORS[pi], None);
        svg.text((lx + 16.0, 24.0), name, Font::new("start", 12.0, "#222"));
        lx += 26.0 + name.len() as f64 * 7.0;
    }
    svg.text(
        (left, 46.0),
        "medians of each phase, stacked (they need not add up to the median total)",
        Font::new("start", 11.0, "#666"),
    );
    let title = format!(
        "process life at batch {batch}, {} {} ({})",
        s.fixture, s.op, s.variant
    );
    Some(svg.finish(&title))
}

/// Operation counts on the cost chart's x axis: 1, 10, 100, 1000, then 10⁴…
pub(crate) fn ops_label(n: f64) -> String {
    if n < 1e4 {
        format!("{n:.0}")
    } else {
        let e = n.log10().round() as u32;
        let sup: String = e
            .to_string()
            .chars()
            .map(|c| {
                "⁰¹²³⁴⁵⁶⁷⁸⁹"
                    .chars()
                    .nth(c.to_digit(10).unwrap_or(0) as usize)
                    .unwrap_or(c)
            })
            .collect();
        format!("10{sup}")
    }
}

/// The size of the cost charts, and their margins (left, right, top, bottom).
pub(crate) const SIZE: (f64, f64) = (980.0, 460.0);
pub(crate) const MARGINS: (f64, f64, f64, f64) = (78.0, 190.0, 24.0, 48.0);

/// A log-log frame of the cost charts (a cold run's and a curve's): the scales, the grid and the
/// axes' titles.
pub(crate) fn frame(
    svg: &mut Svg,
    (x_lo, x_hi): (f64, f64),
    (y_lo, y_hi): (f64, f64),
    y_title: &str,
) -> (LogScale, LogScale) {
    let (width, height) = SIZE;
    let (left, right, top, bottom) = MARGINS;
    let x = LogScale::covering(x_lo, x_hi, left, width - right);
    let y = LogScale::covering(y_lo, y_hi, height - bottom, top);
    grids(svg, (&x, &y), format::tick_ns, MARGINS);
    titled_axes(svg, y_title, MARGINS);
    (x, y)
}

/// The grids of a log-log chart inside `margins` (left, right, top, bottom): operations along
/// x, `y_label` of each tick along y.
fn grids(
    svg: &mut Svg,
    (x, y): (&LogScale, &LogScale),
    y_label: impl Fn(f64) -> String,
    (left, right, top, bottom): (f64, f64, f64, f64),
) {
    let (width, height) = (svg.width, svg.height);
    svg.x_grid(
        x.ticks().into_iter().map(|t| (x.map(t), ops_label(t))),
        (top, height - bottom),
    );
    svg.y_grid(
        y.ticks().into_iter().map(|t| (y.map(t), y_label(t))),
        (left, width - right),
    );
}

/// The axes of a chart inside `margins` and their titles: operations in one process along x,
/// `y_title` along y.
fn titled_axes(svg: &mut Svg, y_title: &str, (left, right, top, bottom): (f64, f64, f64, f64)) {
    let (width, height) = (svg.width, svg.height);
    svg.axes((left, top), (width - right, height - bottom));
    svg.axis_titles(
        (left, top),
        (width - right, height - bottom),
        height,
        "operations in one process (log scale)",
        y_title,
    );
}

/// Cumulative cost C(n) against n, log-log, one line per codec: solid where measured, dashed
/// where extrapolated with the warm time per operation; rings where a codec crosses the reference.
pub(crate) fn cost(report: &Report, s: &Scenario) -> Option<String> {
    let curves = chart_curves(report, s);
    if curves.is_empty() {
        return None;
    }
    let colors = codec_colors(report);
    let (x_lo, x_hi) = x_range(report, s, &curves);
    let (_, right, top, _) = MARGINS;
    let (width, height) = SIZE;
    let mut series = cost_series(&curves, x_lo, x_hi);
    let (y_lo, y_hi) = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .filter(|v| *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    if !y_lo.is_finite() {
        return None;
    }
    let mut svg = Svg::new(width, height);
    let (x, y) = frame(
        &mut svg,
        (x_lo, x_hi),
        (y_lo, y_hi),
        "cumulative cost (log scale)",
    );
    sort_by_final_value(&mut series);
    for (ci, (c, pts)) in series.iter().enumerate() {
        let color = colors.get(&c.codec).copied().unwrap_or(GREY);
        let last_batch = f64::from(c.points.last().map_or(1, |p| p.0));
        measured_then_extended(
            &mut svg,
            pts,
            last_batch,
            |p| (x.map(p.0), y.map(p.1)),
            color,
        );
        for p in &c.points {
            svg.circle(x.map(f64::from(p.0)), y.map(p.1), 3.2, color, 1.0);
        }
        legend_entry(
            &mut svg,
            (width - right + 14.0, top + 10.0 + ci as f64 * 18.0),
            color,
            &c.codec,
        );
    }
    ring_break_evens(&mut svg, report, s, &curves, x_hi, (&x, &y));
    let ly = top + 16.0 + series.len() as f64 * 18.0;
    cold_warm_legend(&mut svg, report, (width - right + 14.0, ly));
    let title = format!("cumulative cost, {} {} ({})", s.fixture, s.op, s.variant);
    Some(svg.finish(&title))
}

/// Rings on the reference's cost curve where scenario `s`'s break-evens with it lie (up to
/// `x_hi` operations).
fn ring_break_evens(
    svg: &mut Svg,
    report: &Report,
    s: &Scenario,
    curves: &[&CostCurve],
    x_hi: f64,
    (x, y): (&LogScale, &LogScale),
) {
    let Some(r) = &report.reference else {
        return;
    };
    for b in report
        .break_evens
        .iter()
        .filter(|b| &b.scenario == s && (&b.a == r || &b.b == r))
    {
        let Some(rc) = curves.iter().find(|c| &c.codec == r) else {
            continue;
        };
        for cr in &b.crossings {
            let n = cr.n as f64;
            if n > x_hi {
                continue;
            }
            if let Some(v) = rc.cost(n) {
                svg.ring(x.map(n), y.map(v), 6.0, "#111");
            }
        }
    }
}

/// The cost chart's legend below the codecs' (from (`lx`, `ly`)): the measured line, the
/// dashed warm extension and, with a reference, the break-even's ring.
fn cold_warm_legend(svg: &mut Svg, report: &Report, (lx, ly): (f64, f64)) {
    svg.line((lx, ly), (lx + 22.0, ly), Stroke::solid("#555", 2.0));
    svg.text(
        (lx + 28.0, ly + 4.0),
        "cold, measured",
        Font::new("start", 11.0, "#444"),
    );
    svg.line(
        (lx, ly + 16.0),
        (lx + 22.0, ly + 16.0),
        Stroke::dashed("#555", 2.0, "6 4"),
    );
    svg.text(
        (lx + 28.0, ly + 20.0),
        "+ warm per op",
        Font::new("start", 11.0, "#444"),
    );
    if report.reference.is_some() {
        svg.ring(lx + 11.0, ly + 33.0, 6.0, "#111");
        let refname = report.reference.as_deref().unwrap_or("");
        svg.text(
            (lx + 28.0, ly + 37.0),
            &format!("crosses {refname}"),
            Font::new("start", 11.0, "#444"),
        );
    }
}

/// Each codec's cumulative cost relative to the reference's, C(n) / C_ref(n), against n (both
/// log): a line crosses 1 exactly where that codec breaks even with the reference.
pub(crate) fn relative(report: &Report, s: &Scenario) -> Option<String> {
    let refname = report.reference.as_deref()?;
    let curves = chart_curves(report, s);
    let rc = *curves.iter().find(|c| c.codec == refname)?;
    let others: Vec<_> = curves
        .iter()
        .copied()
        .filter(|c| c.codec != refname)
        .collect();
    if others.is_empty() {
        return None;
    }
    let colors = codec_colors(report);
    let (x_lo, x_hi) = x_range(report, s, &curves);
    let mut series = relative_series(&others, rc, x_lo, x_hi);
    let (y_lo, y_hi) = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold((1.0f64, 1.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let (left, right, top, bottom) = (78.0, 190.0, 24.0, 48.0);
    let (width, height) = (980.0, 400.0);
    let mut svg = Svg::new(width, height);
    let x = LogScale::covering(x_lo, x_hi, left, width - right);
    let y = LogScale::covering(y_lo / 1.05, y_hi * 1.05, height - bottom, top);
    ratio_grid(&mut svg, (&x, &y), refname, (left, right, top, bottom));
    sort_by_final_value(&mut series);
    for (ci, (c, pts)) in series.iter().enumerate() {
        let color = colors.get(&c.codec).copied().unwrap_or(GREY);
        let last_batch = f64::from(c.points.last().map_or(1, |p| p.0))
            .min(f64::from(rc.points.last().map_or(1, |p| p.0)));
        measured_then_extended(
            &mut svg,
            pts,
            last_batch,
            |p| (x.map(p.0), y.map(p.1)),
            color,
        );
        legend_entry(
            &mut svg,
            (width - right + 14.0, top + 10.0 + ci as f64 * 18.0),
            color,
            &c.codec,
        );
    }
    let ly = top + 16.0 + series.len() as f64 * 18.0;
    let lx = width - right + 14.0;
    svg.text(
        (lx, ly + 4.0),
        "below the line: cheaper",
        Font::new("start", 11.0, "#444"),
    );
    svg.text(
        (lx, ly + 20.0),
        "than the reference",
        Font::new("start", 11.0, "#444"),
    );
    let title = format!(
        "cumulative cost relative to {refname}, {} {} ({})",
        s.fixture, s.op, s.variant
    );
    Some(svg.finish(&title))
}

/// The relative chart's frame inside its margins (left, right, top, bottom): the grids, the
/// reference's line at 1, the axes and their titles.
fn ratio_grid(
    svg: &mut Svg,
    (x, y): (&LogScale, &LogScale),
    refname: &str,
    margins: (f64, f64, f64, f64),
) {
    let ratio_label = |t: f64| {
        format!(
            "{}×",
            format::sig3(t).trim_end_matches('0').trim_end_matches('.')
        )
    };
    grids(svg, (x, y), ratio_label, margins);
    let (left, right, _, _) = margins;
    let (width, one) = (svg.width, y.map(1.0));
    svg.line(
        (left, one),
        (width - right, one),
        Stroke::solid("#111", 1.5),
    );
    svg.text(
        (width - right - 4.0, one - 5.0),
        &format!("{refname} = 1"),
        Font::new("end", 11.0, "#111"),
    );
    titled_axes(svg, &format!("cost / {refname} cost (log scale)"), margins);
}

/// A cost curve, solid up to `last_measured` operations (the cold medians) and dashed beyond
/// (where the warm time per operation extends it).
fn measured_then_extended(
    svg: &mut Svg,
    points: &[(f64, f64)],
    last_measured: f64,
    to_px: impl Fn(&(f64, f64)) -> (f64, f64),
    color: &str,
) {
    let part = |keep: &dyn Fn(f64) -> bool| -> Vec<(f64, f64)> {
        points.iter().filter(|p| keep(p.0)).map(&to_px).collect()
    };
    svg.polyline(&part(&|n| n <= last_measured), Stroke::solid(color, 2.2));
    svg.polyline(
        &part(&|n| n >= last_measured),
        Stroke::dashed(color, 2.0, "6 4"),
    );
}

/// One line of a chart's legend: a short stroke in the series' colour and its name.
pub(crate) fn legend_entry(svg: &mut Svg, (lx, ly): (f64, f64), color: &str, label: &str) {
    svg.line((lx, ly), (lx + 22.0, ly), Stroke::solid(color, 2.5));
    svg.text(
        (lx + 28.0, ly + 4.0),
        label,
        Font::new("start", 12.0, "#222"),
    );
}
