//! How numbers read in the reports: ratios, p-values, factors, axis ticks and amounts; durations,
//! sizes and counts come from `stats::units`, shared with the cold runner's closing table.

pub(crate) use crate::stats::units::{bytes, count, ns, sig3, unit_for};

/// e.g. `45.6 µs [44.9, 46.3]`: the bounds in the median's unit; `45.6 µs [—]` when there is
/// no interval (too few samples for one), never a made-up one.
pub(crate) fn ns_ci(median: f64, interval: Option<(f64, f64)>) -> String {
    let u = unit_for(median);
    match interval {
        Some((lo, hi)) => format!(
            "{} {} [{}, {}]",
            sig3(median / u.ns),
            u.name,
            sig3(lo / u.ns),
            sig3(hi / u.ns)
        ),
        None => format!("{} {} [—]", sig3(median / u.ns), u.name),
    }
}

/// An axis tick: like [`ns`] without trailing zeros (`1 ms`, `0.2 ms`, `2.5 µs`).
pub(crate) fn tick_ns(v: f64) -> String {
    let u = unit_for(v);
    let x = v / u.ns;
    let mut s = format!("{x:.2}");
    while s.contains('.') && (s.ends_with('0') || s.ends_with('.')) {
        s.pop();
    }
    format!("{s} {}", u.name)
}

/// A factor with three significant digits, e.g. `7.88×`, `31.6×`.
pub(crate) fn factor(x: f64) -> String {
    format!("{}×", sig3(x))
}

/// e.g. `0.812×`.
pub(crate) fn ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}×")
    } else if r >= 10.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.3}×")
    }
}

/// e.g. `0.812× [0.801, 0.824]`.
pub(crate) fn ratio_ci(r: f64, interval: Option<(f64, f64)>) -> String {
    match interval {
        Some((lo, hi)) => format!("{} [{lo:.3}, {hi:.3}]", ratio(r)),
        None => format!("{} [—]", ratio(r)),
    }
}

/// A relative half-width as a precision: `±2.4%`, `±0.35%` below 1%, `±0%` for none.
pub(crate) fn half_width(hw: f64) -> String {
    let pct = hw * 100.0;
    if pct == 0.0 {
        "±0%".into()
    } else if pct < 1.0 {
        format!("±{pct:.2}%")
    } else {
        format!("±{pct:.1}%")
    }
}

/// A fraction as a percentage without trailing zeros: `3%`, `2.5%`, `0.25%`.
pub(crate) fn percent(x: f64) -> String {
    let mut s = format!("{:.2}", x * 100.0);
    while s.contains('.') && (s.ends_with('0') || s.ends_with('.')) {
        s.pop();
    }
    format!("{s}%")
}

/// A span of seconds for a reader: `1.96 s`, `12.5 min`, `2.0 h`.
pub(crate) fn seconds(secs: f64) -> String {
    if secs < 120.0 {
        ns(secs * 1e9)
    } else if secs < 7200.0 {
        format!("{:.1} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

/// p-values: four decimals, or `<0.0001`.
pub(crate) fn p(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// A per-operation amount that may be fractional: `12`, `0.25`, `37.5`, `1,234`.
pub(crate) fn amount(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 || x.abs() >= 1000.0 {
        count(x)
    } else if x.abs() < 10.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.1}")
    }
}

/// Numbers of operations in a break-even: `192`, `12,345`, `1.2 million`.
pub(crate) fn ops(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{} million", sig3(n as f64 / 1e6))
    } else {
        count(n as f64)
    }
}

/// An amount of `measure`'s quantity as tables write it (`45.6 µs`, `47,449`).
pub(crate) fn of_measure(measure: schema::Measure, v: f64) -> String {
    match measure {
        schema::Measure::Time => ns(v),
        schema::Measure::Instructions => amount(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(ns(850.0), "850 ns");
        assert_eq!(ns(45_612.0), "45.6 µs");
        assert_eq!(ns(1_234_567.0), "1.23 ms");
        assert_eq!(ns(2.5e9), "2.50 s");
        assert_eq!(
            ns_ci(45_612.0, Some((44_900.0, 46_300.0))),
            "45.6 µs [44.9, 46.3]"
        );
        assert_eq!(ns_ci(45_612.0, None), "45.6 µs [—]");
        assert_eq!(ratio_ci(0.8123, Some((0.8, 0.82))), "0.812× [0.800, 0.820]");
        assert_eq!(p(0.00001), "<0.0001");
        assert_eq!(p(0.04126), "0.0413");
        assert_eq!(bytes(573_440.0), "560 KiB");
        assert_eq!(count(1_234_567.0), "1,234,567");
        assert_eq!(count(12.0), "12");
        assert_eq!(ops(2_500_000), "2.50 million");
        assert_eq!(tick_ns(1e6), "1 ms");
        assert_eq!(tick_ns(2e5), "200 µs");
        assert_eq!(tick_ns(2_500.0), "2.5 µs");
        assert_eq!(tick_ns(0.0), "0 ns");
        assert_eq!(factor(7.878), "7.88×");
        assert_eq!(half_width(0.02399), "±2.4%");
        assert_eq!(half_width(0.0035), "±0.35%");
        assert_eq!(half_width(0.0), "±0%");
        assert_eq!(seconds(1.9597), "1.96 s");
        assert_eq!(
            (percent(0.03), percent(0.025), percent(0.0025)),
            ("3%".into(), "2.5%".into(), "0.25%".into())
        );
        assert_eq!(seconds(750.0), "12.5 min");
        assert_eq!(seconds(7200.0), "2.0 h");
        assert_eq!(
            (amount(12.0), amount(0.25), amount(37.5)),
            ("12".into(), "0.25".into(), "37.5".into())
        );
    }
}
