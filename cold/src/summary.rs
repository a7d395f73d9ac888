//! The closing table of `cold run`: per fixture × op × batch × codec, the samples ok and failed,
//! median and p90 of init_plus_ops, median wall and how far it sits above the `noop` floor,
//! median max RSS, the child's size (and with `--cold-cache`, median major faults and block
//! reads). Pure: rows in, text out. The full statistics are `analysis`'s job.

use analysis::samples::SampleRow;
use std::collections::{BTreeMap, HashMap};

/// The `p` quantile of ascending `sorted` (Hyndman & Fan type 7, as `analysis` computes it).
pub fn quantile(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

fn sorted(values: impl Iterator<Item = u64>) -> Vec<f64> {
    let mut v: Vec<f64> = values.map(|x| x as f64).collect();
    v.sort_unstable_by(f64::total_cmp);
    v
}

/// What the table needs beyond the rows.
pub struct Context<'a> {
    /// Codec ids in the order rows are listed (noop, the floor, first).
    pub codec_order: &'a [&'a str],
    /// Fixture names in the order rows are listed.
    pub fixture_order: &'a [&'a str],
    /// Each codec's child size in bytes.
    pub child_bytes: &'a HashMap<String, u64>,
    pub cold_cache: bool,
}

/// The figures of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellFigures {
    pub ok: usize,
    pub failed: usize,
    pub init_plus_ops_median: Option<f64>,
    pub init_plus_ops_p90: Option<f64>,
    pub wall_median: Option<f64>,
    pub maxrss_median: Option<f64>,
    pub majflt_median: Option<f64>,
    pub inblock_median: Option<f64>,
}

/// (fixture, op, batch, codec) → figures.
pub type Key = (String, String, u32, String);

pub fn figures(rows: &[SampleRow]) -> BTreeMap<Key, CellFigures> {
    let mut groups: BTreeMap<Key, Vec<&SampleRow>> = BTreeMap::new();
    for r in rows {
        let key = (r.fixture.clone(), r.op.clone(), r.batch, r.codec.clone());
        groups.entry(key).or_default().push(r);
    }
    groups
        .into_iter()
        .map(|(key, rows)| {
            let ok: Vec<&SampleRow> = rows.iter().copied().filter(|r| r.is_ok()).collect();
            let of = |f: fn(&SampleRow) -> Option<u64>| sorted(ok.iter().filter_map(|r| f(r)));
            let ipo = of(|r| r.init_plus_ops_ns);
            let figures = CellFigures {
                ok: ok.len(),
                failed: rows.len() - ok.len(),
                init_plus_ops_median: quantile(&ipo, 0.5),
                init_plus_ops_p90: quantile(&ipo, 0.9),
                wall_median: quantile(&of(|r| r.wall_ns), 0.5),
                maxrss_median: quantile(&of(|r| r.maxrss_kib), 0.5),
                majflt_median: quantile(&of(|r| r.majflt), 0.5),
                inblock_median: quantile(&of(|r| r.inblock), 0.5),
            };
            (key, figures)
        })
        .collect()
}

/// `812 ns`, `41.3 µs`, `1.52 ms`, `2.05 s`.
pub fn duration(ns: f64) -> String {
    let a = ns.abs();
    if a < 1e3 {
        format!("{ns:.0} ns")
    } else if a < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if a < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// `812 B`, `412 KiB`, `3.1 MiB`.
pub fn size(bytes: f64) -> String {
    if bytes < 1024.0 {
        format!("{bytes:.0} B")
    } else if bytes < 1024.0 * 1024.0 {
        format!("{:.0} KiB", bytes / 1024.0)
    } else {
        format!("{:.1} MiB", bytes / 1024.0 / 1024.0)
    }
}

fn or_dash(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("—".to_string(), f)
}

/// The table, as text.
pub fn table(rows: &[SampleRow], cx: &Context) -> String {
    let figures = figures(rows);
    let position = |list: &[&str], x: &str| list.iter().position(|y| *y == x).unwrap_or(usize::MAX);
    let mut keys: Vec<&Key> = figures.keys().collect();
    keys.sort_by_key(|(fixture, op, batch, codec)| {
        (
            position(cx.fixture_order, fixture),
            fixture.clone(),
            op.clone(),
            *batch,
            position(cx.codec_order, codec),
            codec.clone(),
        )
    });

    let mut header = vec![
        "fixture",
        "op",
        "batch",
        "codec",
        "ok",
        "failed",
        "init+ops",
        "p90",
        "wall",
        "wall−floor",
        "max RSS",
        "child",
    ];
    if cx.cold_cache {
        header.extend(["majflt", "inblock"]);
    }
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for key in keys {
        let (fixture, op, batch, codec) = key;
        let f = &figures[key];
        let floor_key = (fixture.clone(), op.clone(), *batch, "noop".to_string());
        let above_floor = if codec == "noop" {
            "floor".to_string()
        } else {
            match (
                f.wall_median,
                figures.get(&floor_key).and_then(|n| n.wall_median),
            ) {
                (Some(w), Some(n)) => format!(
                    "{}{}",
                    if w >= n { "+" } else { "−" },
                    duration((w - n).abs())
                ),
                _ => "—".to_string(),
            }
        };
        let mut line = vec![
            fixture.clone(),
            op.clone(),
            batch.to_string(),
            codec.clone(),
            f.ok.to_string(),
            f.failed.to_string(),
            or_dash(f.init_plus_ops_median, duration),
            or_dash(f.init_plus_ops_p90, duration),
            or_dash(f.wall_median, duration),
            above_floor,
            or_dash(f.maxrss_median.map(|k| k * 1024.0), size),
            or_dash(cx.child_bytes.get(codec).map(|&b| b as f64), size),
        ];
        if cx.cold_cache {
            line.push(or_dash(f.majflt_median, |v| format!("{v:.0}")));
            line.push(or_dash(f.inblock_median, |v| format!("{v:.0}")));
        }
        lines.push(line);
    }
    render(&lines, 4)
}

/// Columns padded to their widest cell; the first `text_columns` left-aligned, the rest right.
fn render(lines: &[Vec<String>], text_columns: usize) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| l.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in lines {
        let cells: Vec<String> = line
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let pad = " ".repeat(widths[c] - s.chars().count());
                if c < text_columns {
                    format!("{s}{pad}")
                } else {
                    format!("{pad}{s}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// `failed samples: 3 (crash 1, timeout 2)`, or nothing when every sample was ok.
pub fn failures(rows: &[SampleRow]) -> Option<String> {
    let mut by_status: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.is_ok()) {
        *by_status.entry(r.status.as_str()).or_default() += 1;
    }
    let total: usize = by_status.values().sum();
    (total > 0).then(|| {
        let parts: Vec<String> = by_status.iter().map(|(s, n)| format!("{s} {n}")).collect();
        format!("failed samples: {total} ({})", parts.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(codec: &str, status: &str, ipo: u64, wall: u64) -> SampleRow {
        SampleRow {
            codec: codec.into(),
            op: "de".into(),
            batch: 1,
            fixture: "users-2kb".into(),
            status: status.into(),
            init_plus_ops_ns: (status == "ok").then_some(ipo),
            wall_ns: (status == "ok").then_some(wall),
            maxrss_kib: Some(2048),
            ..SampleRow::default()
        }
    }

    #[test]
    fn quantiles_are_type_7() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), Some(2.5));
        assert_eq!(quantile(&v, 0.9), Some(3.7));
        assert_eq!(quantile(&[5.0], 0.9), Some(5.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn figures_use_ok_samples_and_count_failures() {
        let rows = vec![
            row("serde_json", "ok", 100, 1000),
            row("serde_json", "ok", 300, 3000),
            row("serde_json", "ok", 200, 2000),
            row("serde_json", "crash", 0, 0),
        ];
        let f = figures(&rows);
        let cell = &f[&("users-2kb".into(), "de".into(), 1, "serde_json".into())];
        assert_eq!((cell.ok, cell.failed), (3, 1));
        assert_eq!(cell.init_plus_ops_median, Some(200.0));
        assert_eq!(cell.init_plus_ops_p90, Some(280.0));
        assert_eq!(cell.wall_median, Some(2000.0));
        assert_eq!(failures(&rows).unwrap(), "failed samples: 1 (crash 1)");
        assert_eq!(failures(&rows[..1]), None);
    }

    #[test]
    fn table_puts_the_floor_first_and_measures_from_it() {
        let rows = vec![
            row("serde_json", "ok", 40_000, 1_500_000),
            row("noop", "ok", 100, 1_000_000),
        ];
        let bytes = HashMap::from([("noop".to_string(), 400_000u64)]);
        let cx = Context {
            codec_order: &["noop", "serde_json"],
            fixture_order: &["users-2kb"],
            child_bytes: &bytes,
            cold_cache: false,
        };
        let text = table(&rows, &cx);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("fixture"));
        assert!(
            lines[1].contains("noop") && lines[1].contains("floor") && lines[1].contains("391 KiB")
        );
        assert!(
            lines[2].contains("serde_json") && lines[2].contains("+500.0 µs"),
            "{text}"
        );
        assert!(
            lines[2].contains("40.0 µs") && lines[2].contains("2.0 MiB"),
            "{text}"
        );
    }

    #[test]
    fn units() {
        assert_eq!(duration(812.0), "812 ns");
        assert_eq!(duration(41_300.0), "41.3 µs");
        assert_eq!(duration(1_520_000.0), "1.52 ms");
        assert_eq!(size(400_000.0), "391 KiB");
    }
}
