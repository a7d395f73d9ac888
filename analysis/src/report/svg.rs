//! Hand-written SVG: a few drawing primitives, log and linear scales with readable ticks, and
//! the palette. No dependencies, no scripts: the output is a static picture any browser shows.

use std::fmt::Write;

/// Distinct colours (Tableau 10 plus two), assigned to codecs in a stable order.
pub(crate) const PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#2f4b7c", "#a05195", "#6b8e23",
];
/// The colour of the harness floors (the codecs of style baseline).
pub(crate) const GREY: &str = "#9a9a9a";

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stroke<'a> {
    pub(crate) color: &'a str,
    pub(crate) width: f64,
    /// An SVG dash pattern, e.g. `6 4`.
    pub(crate) dash: Option<&'a str>,
}

impl<'a> Stroke<'a> {
    pub(crate) fn solid(color: &'a str, width: f64) -> Self {
        Stroke {
            color,
            width,
            dash: None,
        }
    }

    pub(crate) fn dashed(color: &'a str, width: f64, dash: &'a str) -> Self {
        Stroke {
            color,
            width,
            dash: Some(dash),
        }
    }
}

/// How text is set: anchor (`start`, `middle`, `end`), size, colour, rotation in degrees.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Font<'a> {
    pub(crate) anchor: &'a str,
    pub(crate) size: f64,
    pub(crate) color: &'a str,
    pub(crate) rotate: Option<f64>,
}

impl<'a> Font<'a> {
    pub(crate) fn new(anchor: &'a str, size: f64, color: &'a str) -> Self {
        Font {
            anchor,
            size,
            color,
            rotate: None,
        }
    }

    pub(crate) fn rotated(self, degrees: f64) -> Self {
        Font {
            rotate: Some(degrees),
            ..self
        }
    }
}

pub(crate) struct Svg {
    pub(crate) width: f64,
    pub(crate) height: f64,
    body: String,
}

impl Svg {
    pub(crate) fn new(width: f64, height: f64) -> Self {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    pub(crate) fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: Stroke) {
        let dash = stroke
            .dash
            .map(|d| format!(r#" stroke-dasharray="{d}""#))
            .unwrap_or_default();
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{}"{dash}/>"#,
            stroke.color, stroke.width
        );
    }

    /// A rectangle with an optional hover title.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, title: Option<&str>) {
        let _ = write!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{fill}">"#,
            w.max(0.0),
            h.max(0.0)
        );
        if let Some(t) = title {
            let _ = write!(self.body, "<title>{}</title>", esc(t));
        }
        self.body.push_str("</rect>\n");
    }

    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, opacity: f64) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r}" fill="{fill}" fill-opacity="{opacity}"/>"#
        );
    }

    /// An unfilled circle.
    pub(crate) fn ring(&mut self, cx: f64, cy: f64, r: f64, stroke: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r}" fill="none" stroke="{stroke}" stroke-width="1.5"/>"#
        );
    }

    /// Text at (x, y) in `font`.
    pub(crate) fn text(&mut self, (x, y): (f64, f64), s: &str, font: Font) {
        let rot = font
            .rotate
            .map(|a| format!(r#" transform="rotate({a} {x:.1} {y:.1})""#))
            .unwrap_or_default();
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{}" font-size="{}" fill="{}"{rot}>{}</text>"#,
            font.anchor,
            font.size,
            font.color,
            esc(s)
        );
    }

    pub(crate) fn polyline(&mut self, pts: &[(f64, f64)], stroke: Stroke) {
        if pts.len() < 2 {
            return;
        }
        let p: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let dash = stroke
            .dash
            .map(|d| format!(r#" stroke-dasharray="{d}""#))
            .unwrap_or_default();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}"{dash}/>"#,
            p.join(" "),
            stroke.color,
            stroke.width
        );
    }

    /// A filled band between two lines of the same x's: `upper` left to right, then `lower`
    /// back.
    pub(crate) fn band(
        &mut self,
        upper: &[(f64, f64)],
        lower: &[(f64, f64)],
        fill: &str,
        opacity: f64,
    ) {
        if upper.len() < 2 || lower.len() < 2 {
            return;
        }
        let p: Vec<String> = upper
            .iter()
            .chain(lower.iter().rev())
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" fill="{fill}" fill-opacity="{opacity}" stroke="none"/>"#,
            p.join(" ")
        );
    }

    /// Vertical grid lines from `y0` down to `y1`, one per `(pixel x, label)`, each labelled
    /// below `y1`.
    pub(crate) fn x_grid(
        &mut self,
        ticks: impl IntoIterator<Item = (f64, String)>,
        (y0, y1): (f64, f64),
    ) {
        for (px, label) in ticks {
            self.line((px, y0), (px, y1), Stroke::solid("#e6e6e6", 1.0));
            self.text((px, y1 + 16.0), &label, Font::new("middle", 11.0, "#444"));
        }
    }

    /// Horizontal grid lines from `x0` to `x1`, one per `(pixel y, label)`, each labelled to the
    /// left of `x0`.
    pub(crate) fn y_grid(
        &mut self,
        ticks: impl IntoIterator<Item = (f64, String)>,
        (x0, x1): (f64, f64),
    ) {
        for (py, label) in ticks {
            self.line((x0, py), (x1, py), Stroke::solid("#e6e6e6", 1.0));
            self.text((x0 - 6.0, py + 4.0), &label, Font::new("end", 11.0, "#444"));
        }
    }

    /// The x and y axis lines of the plot area from `(x0, y0)` (top left) to `(x1, y1)`.
    pub(crate) fn axes(&mut self, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) {
        self.line((x0, y1), (x1, y1), Stroke::solid("#888", 1.0));
        self.line((x0, y0), (x0, y1), Stroke::solid("#888", 1.0));
    }

    /// Axis titles of the same plot area: `x` centred near the bottom of a chart `height` tall,
    /// `y` rotated at the left edge.
    pub(crate) fn axis_titles(
        &mut self,
        (x0, y0): (f64, f64),
        (x1, y1): (f64, f64),
        height: f64,
        x: &str,
        y: &str,
    ) {
        self.text(
            ((x0 + x1) / 2.0, height - 10.0),
            x,
            Font::new("middle", 12.0, "#333"),
        );
        self.text(
            (16.0, (y0 + y1) / 2.0),
            y,
            Font::new("middle", 12.0, "#333").rotated(-90.0),
        );
    }

    pub(crate) fn finish(self, title: &str) -> String {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" role="img" aria-label="{t}"><title>{t}</title>
<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>
{body}</svg>"##,
            w = self.width,
            h = self.height,
            t = esc(title),
            body = self.body
        )
    }
}

/// A log10 scale from data [lo, hi] to pixels [a, b].
#[derive(Debug, Clone, Copy)]
pub(crate) struct LogScale {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) a: f64,
    pub(crate) b: f64,
}

impl LogScale {
    /// A scale covering [lo, hi] widened to whole decades (or 1-2-5 steps when narrow). Values
    /// outside [10^-300, 10^300] (and NaN) are taken as those bounds: no figure of a run comes
    /// near them, and a scale past them would reach infinity.
    pub(crate) fn covering(lo: f64, hi: f64, a: f64, b: f64) -> Self {
        let bound = |v: f64| {
            if v.is_nan() {
                Self::LOWEST
            } else {
                v.clamp(Self::LOWEST, Self::HIGHEST)
            }
        };
        let lo = bound(lo);
        let hi = bound(hi).max(lo * 1.0001);
        let (mut l, mut h) = (lo.log10().floor(), hi.log10().ceil());
        if h - l < 1.0 {
            h = l + 1.0;
        }
        if h - l <= 2.0 {
            // narrow: snap to 1-2-5 steps instead of whole decades
            let snap_down = |v: f64| {
                let d = 10f64.powf(v.log10().floor());
                [5.0, 2.0, 1.0]
                    .iter()
                    .map(|m| m * d)
                    .find(|&x| x <= v)
                    .unwrap_or(d)
            };
            let snap_up = |v: f64| {
                let d = 10f64.powf(v.log10().floor());
                [1.0, 2.0, 5.0, 10.0]
                    .iter()
                    .map(|m| m * d)
                    .find(|&x| x >= v)
                    .unwrap_or(10.0 * d)
            };
            return LogScale {
                lo: snap_down(lo),
                hi: snap_up(hi),
                a,
                b,
            };
        }
        l = 10f64.powf(l);
        h = 10f64.powf(h);
        LogScale { lo: l, hi: h, a, b }
    }

    pub(crate) fn map(&self, v: f64) -> f64 {
        let t =
            (v.max(self.lo * 1e-3).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10());
        self.a + t * (self.b - self.a)
    }

    const LOWEST: f64 = 1e-300;
    const HIGHEST: f64 = 1e300;

    /// Tick values: each decade, plus 2 and 5 when the range spans at most three decades. At
    /// most one per decade of [10^-300, 10^300], whatever the scale holds.
    pub(crate) fn ticks(&self) -> Vec<f64> {
        let decades = (self.hi / self.lo).log10();
        let mults: &[f64] = if decades <= 3.01 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let exponent = |v: f64| v.log10().clamp(-300.0, 300.0);
        let (first, last) = (
            exponent(self.lo).floor() as i32,
            exponent(self.hi).ceil() as i32,
        );
        let mut out = Vec::new();
        for e in first..=last {
            let d = 10f64.powi(e);
            for m in mults {
                let v = d * m;
                if v >= self.lo * 0.9999 && v <= self.hi * 1.0001 {
                    out.push(v);
                }
            }
        }
        out
    }
}

/// A linear scale from data [0, hi] to pixels [a, b], with hi rounded up to a 1-2-5 step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LinScale {
    pub(crate) hi: f64,
    pub(crate) step: f64,
    pub(crate) a: f64,
    pub(crate) b: f64,
}

impl LinScale {
    pub(crate) fn zero_to(hi: f64, a: f64, b: f64) -> Self {
        let hi = hi.max(1e-9);
        let raw = hi / 5.0;
        let d = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * d)
            .find(|&s| s >= raw)
            .unwrap_or(10.0 * d);
        LinScale {
            hi: (hi / step).ceil() * step,
            step,
            a,
            b,
        }
    }

    pub(crate) fn map(&self, v: f64) -> f64 {
        self.a + v / self.hi * (self.b - self.a)
    }

    pub(crate) fn ticks(&self) -> Vec<f64> {
        let n = (self.hi / self.step).round() as usize;
        (0..=n).map(|i| i as f64 * self.step).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales() {
        let s = LogScale::covering(1.0, 1e9, 0.0, 900.0);
        assert_eq!((s.lo, s.hi), (1.0, 1e9));
        assert_eq!(s.ticks().len(), 10);
        assert!((s.map(1e3) - 300.0).abs() < 1e-9);
        // Impossible values (a hostile estimates.json) give a bounded scale, never a loop.
        for (lo, hi) in [
            (1.0, 1e308),
            (1e-320, 1.0),
            (f64::NAN, f64::INFINITY),
            (0.0, 0.0),
        ] {
            let s = LogScale::covering(lo, hi, 0.0, 100.0);
            assert!(s.lo.is_finite() && s.hi.is_finite(), "{lo} {hi}");
            assert!(s.ticks().len() <= 602, "{lo} {hi}");
        }
        let s = LogScale::covering(23_000.0, 61_000.0, 0.0, 100.0);
        assert_eq!((s.lo, s.hi), (20_000.0, 100_000.0));
        assert_eq!(s.ticks(), vec![20_000.0, 50_000.0, 100_000.0]);
        // a Rust library's 20 µs and a JVM library's 400 ms in one chart: whole decades from
        // 10 µs to 1 s, one tick each, both inside the plot
        let s = LogScale::covering(2e4, 4e8, 400.0, 0.0);
        assert_eq!((s.lo, s.hi), (1e4, 1e9));
        assert_eq!(s.ticks(), vec![1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
        for v in [2e4, 4e8] {
            assert!((0.0..=400.0).contains(&s.map(v)), "{v}");
        }
        assert!(s.map(2e4) > s.map(4e8), "larger values higher up");
        let l = LinScale::zero_to(730.0, 0.0, 100.0);
        assert_eq!((l.hi, l.step), (800.0, 200.0));
        assert_eq!(l.ticks().len(), 5);
        assert_eq!(esc("a<b&\"c\""), "a&lt;b&amp;&quot;c&quot;");
    }
}
