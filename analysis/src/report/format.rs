//! How numbers read in the reports: durations with a unit and three significant digits, ratios,
//! p-values, byte sizes.

/// A duration unit chosen for a value in ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    pub name: &'static str,
    pub ns: f64,
}

pub fn unit_for(ns: f64) -> Unit {
    let a = ns.abs();
    if a >= 1e9 {
        Unit { name: "s", ns: 1e9 }
    } else if a >= 1e6 {
        Unit {
            name: "ms",
            ns: 1e6,
        }
    } else if a >= 1e3 {
        Unit {
            name: "µs",
            ns: 1e3,
        }
    } else {
        Unit {
            name: "ns",
            ns: 1.0,
        }
    }
}

/// `x` (already in the unit) with three significant digits, no exponent.
pub fn sig3(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// e.g. `45.6 µs`.
pub fn ns(v: f64) -> String {
    let u = unit_for(v);
    format!("{} {}", sig3(v / u.ns), u.name)
}

/// e.g. `45.6 µs [44.9, 46.3]`: the bounds in the median's unit.
pub fn ns_ci(median: f64, lo: f64, hi: f64) -> String {
    let u = unit_for(median);
    format!(
        "{} {} [{}, {}]",
        sig3(median / u.ns),
        u.name,
        sig3(lo / u.ns),
        sig3(hi / u.ns)
    )
}

/// An axis tick: like [`ns`] without trailing zeros (`1 ms`, `0.2 ms`, `2.5 µs`).
pub fn tick_ns(v: f64) -> String {
    let u = unit_for(v);
    let x = v / u.ns;
    let mut s = format!("{x:.2}");
    while s.contains('.') && (s.ends_with('0') || s.ends_with('.')) {
        s.pop();
    }
    format!("{s} {}", u.name)
}

/// A factor with three significant digits, e.g. `7.88×`, `31.6×`.
pub fn factor(x: f64) -> String {
    format!("{}×", sig3(x))
}

/// e.g. `0.812×`.
pub fn ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}×")
    } else if r >= 10.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.3}×")
    }
}

/// e.g. `0.812× [0.801, 0.824]`.
pub fn ratio_ci(r: f64, interval: Option<(f64, f64)>) -> String {
    match interval {
        Some((lo, hi)) => format!("{} [{lo:.3}, {hi:.3}]", ratio(r)),
        None => format!("{} [—]", ratio(r)),
    }
}

/// p-values: four decimals, or `<0.0001`.
pub fn p(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// Bytes in binary units, e.g. `1.2 MiB`.
pub fn bytes(b: f64) -> String {
    if b >= 1024.0 * 1024.0 {
        format!("{} MiB", sig3(b / (1024.0 * 1024.0)))
    } else if b >= 1024.0 {
        format!("{} KiB", sig3(b / 1024.0))
    } else {
        format!("{b:.0} B")
    }
}

/// A whole count with thousands separators, e.g. `1,234,567`.
pub fn count(n: f64) -> String {
    let s = format!("{:.0}", n.round().abs());
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0.0 && n.round() != 0.0 {
        out.insert(0, '-');
    }
    out
}

/// A per-operation amount that may be fractional: `12`, `0.25`, `37.5`, `1,234`.
pub fn amount(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 || x.abs() >= 1000.0 {
        count(x)
    } else if x.abs() < 10.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.1}")
    }
}

/// Numbers of operations in a break-even: `192`, `12,345`, `1.2 million`.
pub fn ops(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{} million", sig3(n as f64 / 1e6))
    } else {
        count(n as f64)
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
        assert_eq!(ns_ci(45_612.0, 44_900.0, 46_300.0), "45.6 µs [44.9, 46.3]");
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
        assert_eq!(
            (amount(12.0), amount(0.25), amount(37.5)),
            ("12".into(), "0.25".into(), "37.5".into())
        );
    }
}
