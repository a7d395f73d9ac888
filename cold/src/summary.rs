//! The closing table of `cold run`: per fixture × op × batch × codec, the samples ok and failed,
//! median and p90 of init_plus_ops, median wall and how far it sits above the floor (the
//! baseline codec of its runtime) once the input building is taken out of both, the median of the
//! child's own peak RSS, the child's size, how a `ser` hands its output over (and with
//! `--cold-cache`, median major faults, block reads, and how many samples were fully evicted).
//! Pure: rows in, text out. The full statistics are `analysis`'s job; the quantiles and units are
//! the ones it uses (`schema`).

use schema::figures::quantile;
use schema::run_folder::SampleRow;
use schema::units::{bytes, count, ns};
use schema::{CellKey, GateCell, Op, OutputMode};
use std::collections::{BTreeMap, HashMap};

fn sorted(values: impl Iterator<Item = u64>) -> Vec<f64> {
    let v: Vec<f64> = values.map(|x| x as f64).collect();
    schema::figures::sorted(&v)
}

/// What the table needs beyond the rows.
pub struct Context<'a> {
    /// Codec ids in the order rows are listed (the registry's: the baseline first).
    pub codec_order: &'a [&'a str],
    /// Each codec's floor: the baseline codec of its runtime (`noop` for Rust, `jvm-floor`…),
    /// whose cells the others are measured from; a floor maps to itself.
    pub floors: &'a HashMap<String, String>,
    /// Fixture names in the order rows are listed.
    pub fixture_order: &'a [&'a str],
    /// The child size of each codec × fixture × op, in bytes.
    pub child_bytes: &'a HashMap<GateCell, u64>,
    /// How each codec's `ser` hands its output over.
    pub outputs: &'a HashMap<String, OutputMode>,
    pub cold_cache: bool,
}

/// What the table's columns mean, printed under it.
pub const LEGEND: &str = "(init+ops: init + first op + remaining ops; wall: spawn to reaped; \
over floor: median of (wall − input phase) minus the floor's, so building the input is charged \
to no codec; peak RSS: the child's own VmHWM; output: how `ser` hands its output over; medians \
and p90 of the ok samples)";

/// The figures of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellFigures {
    pub ok: usize,
    pub failed: usize,
    pub init_plus_ops_median: Option<f64>,
    pub init_plus_ops_p90: Option<f64>,
    pub wall_median: Option<f64>,
    /// Median of wall − fixture (the whole process but its input building).
    pub wall_without_input_median: Option<f64>,
    /// Median of the child's own peak RSS (VmHWM), KiB.
    pub hwm_median: Option<f64>,
    pub maxrss_median: Option<f64>,
    pub majflt_median: Option<f64>,
    pub inblock_median: Option<f64>,
    /// Samples whose child and input were fully evicted (with `--cold-cache`).
    pub evicted: usize,
}

pub fn figures(rows: &[SampleRow]) -> BTreeMap<CellKey, CellFigures> {
    let mut groups: BTreeMap<CellKey, Vec<&SampleRow>> = BTreeMap::new();
    for r in rows {
        groups.entry(r.cell()).or_default().push(r);
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
                wall_without_input_median: quantile(
                    &of(|r| Some(r.wall_ns?.saturating_sub(r.fixture_ns?))),
                    0.5,
                ),
                hwm_median: quantile(&of(|r| r.hwm_kib), 0.5),
                maxrss_median: quantile(&of(|r| r.maxrss_kib), 0.5),
                majflt_median: quantile(&of(|r| r.majflt), 0.5),
                inblock_median: quantile(&of(|r| r.inblock), 0.5),
                evicted: ok.iter().filter(|r| r.evicted == Some(true)).count(),
            };
            (key, figures)
        })
        .collect()
}

fn or_dash(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("—".to_string(), f)
}

/// The table, as text.
pub fn table(rows: &[SampleRow], cx: &Context) -> String {
    let figures = figures(rows);
    let position = |list: &[&str], x: &str| list.iter().position(|y| *y == x).unwrap_or(usize::MAX);
    let mut keys: Vec<&CellKey> = figures.keys().collect();
    keys.sort_by_key(|k| {
        (
            position(cx.fixture_order, &k.fixture),
            k.fixture.clone(),
            k.op,
            k.variant,
            k.batch,
            position(cx.codec_order, &k.codec),
            k.codec.clone(),
        )
    });

    let mut header = vec![
        "fixture",
        "op",
        "batch",
        "codec",
        "variant",
        "ok",
        "failed",
        "init+ops",
        "p90",
        "wall",
        "over floor",
        "peak RSS",
        "child",
        "output",
    ];
    if cx.cold_cache {
        header.extend(["majflt", "inblock", "evicted"]);
    }
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for key in keys {
        let f = &figures[key];
        let floor_id = cx.floors.get(&key.codec);
        let floor = floor_id
            .and_then(|id| figures.get(&key.with_codec(id)))
            .and_then(|n| n.wall_without_input_median);
        let above_floor = if floor_id == Some(&key.codec) {
            "floor".to_string()
        } else {
            match (f.wall_without_input_median, floor) {
                (Some(w), Some(n)) => {
                    format!("{}{}", if w >= n { "+" } else { "−" }, ns((w - n).abs()))
                }
                _ => "—".to_string(),
            }
        };
        let mut line = vec![
            key.fixture.clone(),
            key.op.to_string(),
            key.batch.to_string(),
            key.codec.clone(),
            key.variant.to_string(),
            f.ok.to_string(),
            f.failed.to_string(),
            or_dash(f.init_plus_ops_median, ns),
            or_dash(f.init_plus_ops_p90, ns),
            or_dash(f.wall_median, ns),
            above_floor,
            or_dash(f.hwm_median.map(|k| k * 1024.0), bytes),
            or_dash(
                cx.child_bytes.get(&key.gate_cell()).map(|&b| b as f64),
                bytes,
            ),
            match (key.op, cx.outputs.get(&key.codec)) {
                (Op::Ser, Some(mode)) => mode.name().to_string(),
                _ => String::new(),
            },
        ];
        if cx.cold_cache {
            line.push(or_dash(f.majflt_median, |v| format!("{v:.0}")));
            line.push(or_dash(f.inblock_median, |v| format!("{v:.0}")));
            line.push(format!("{}/{}", f.evicted, f.ok));
        }
        lines.push(line);
    }
    let variants: std::collections::BTreeSet<_> = figures.keys().map(|k| k.variant).collect();
    if variants.len() < 2 {
        for line in &mut lines {
            line.remove(4);
        }
        return render(&lines, 4);
    }
    render(&lines, 5)
}

/// The closing table of a counted run (`--measure instructions`): per cell, the median
/// instructions of each phase, whether every sample counted the library's phases (init,
/// first op, remaining ops) alike, and the blocks and bytes the first operation allocated.
pub fn counts_table(rows: &[SampleRow], cx: &Context) -> String {
    let mut cells: BTreeMap<(usize, usize, CellKey), Vec<&SampleRow>> = BTreeMap::new();
    let position = |list: &[&str], x: &str| list.iter().position(|y| *y == x).unwrap_or(usize::MAX);
    for r in rows.iter().filter(|r| r.is_ok()) {
        let key = r.cell();
        let order = (
            position(cx.fixture_order, &key.fixture),
            position(cx.codec_order, &key.codec),
        );
        cells.entry((order.0, order.1, key)).or_default().push(r);
    }
    let mut keys: Vec<&(usize, usize, CellKey)> = cells.keys().collect();
    keys.sort_by_key(|(f, c, k)| (*f, k.op, k.variant, k.batch, *c));
    let header = [
        "fixture",
        "op",
        "batch",
        "codec",
        "n",
        "to main",
        "fixture",
        "init",
        "first op",
        "rest",
        "check",
        "exit",
        "same",
        "first-op allocs",
    ];
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for key in keys {
        let rows = &cells[key];
        let median = |f: fn(&SampleRow) -> Option<u64>| {
            quantile(&sorted(rows.iter().filter_map(|r| f(r))), 0.5)
        };
        let library = |r: &&SampleRow| (r.instr_init, r.instr_first_op, r.instr_remaining_ops);
        let counted: Vec<_> = rows.iter().map(library).filter(|c| c.1.is_some()).collect();
        let same = match counted.first() {
            None => "—".to_string(),
            Some(first) if counted.iter().all(|c| c == first) => format!("yes ×{}", counted.len()),
            Some(_) => "NO".to_string(),
        };
        let allocs = match (
            median(|r| r.alloc_first_op_blocks),
            median(|r| r.alloc_first_op_bytes),
        ) {
            (Some(n), Some(b)) => format!("{} / {}", count(n), bytes(b)),
            _ => "—".to_string(),
        };
        let k = &key.2;
        lines.push(vec![
            k.fixture.clone(),
            k.op.to_string(),
            k.batch.to_string(),
            k.codec.clone(),
            rows.len().to_string(),
            or_dash(median(|r| r.instr_to_main), count),
            or_dash(median(|r| r.instr_fixture), count),
            or_dash(median(|r| r.instr_init), count),
            or_dash(median(|r| r.instr_first_op), count),
            or_dash(median(|r| r.instr_remaining_ops), count),
            or_dash(median(|r| r.instr_check), count),
            or_dash(median(|r| r.instr_exit), count),
            same,
            allocs,
        ]);
    }
    render(&lines, 4)
}

/// What the counted table's columns are.
pub const COUNTS_LEGEND: &str = "(instructions executed, counted by callgrind: to main = exec to \
main, the loader and the runtime's start; rest = the remaining ops; same = every sample counted \
init, first op and rest alike; first-op allocs = heap blocks / bytes of the first operation, \
counted natively by the allocation counter)";

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
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.is_ok()) {
        *by_status.entry(r.status.name()).or_default() += 1;
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
    use schema::run_folder::PlanRow;
    use schema::{Op, Status, Variant};

    fn row(codec: &str, status: Status, ipo: u64, wall: u64) -> SampleRow {
        let plan = PlanRow {
            plan_index: 0,
            block: 0,
            codec: codec.into(),
            op: Op::De,
            batch: 1,
            fixture: "users-2kb".into(),
            variant: Variant::Portable,
        };
        SampleRow {
            status,
            init_plus_ops_ns: status.is_ok().then_some(ipo),
            wall_ns: status.is_ok().then_some(wall),
            maxrss_kib: Some(2048),
            ..SampleRow::planned(&plan)
        }
    }

    #[test]
    fn figures_use_ok_samples_and_count_failures() {
        let rows = vec![
            row("serde_json", Status::Ok, 100, 1000),
            row("serde_json", Status::Ok, 300, 3000),
            row("serde_json", Status::Ok, 200, 2000),
            row("serde_json", Status::Crash, 0, 0),
        ];
        let f = figures(&rows);
        let cell = &f[&rows[0].cell()];
        assert_eq!((cell.ok, cell.failed), (3, 1));
        assert_eq!(cell.init_plus_ops_median, Some(200.0));
        assert_eq!(cell.init_plus_ops_p90, Some(280.0));
        assert_eq!(cell.wall_median, Some(2000.0));
        assert_eq!(failures(&rows).unwrap(), "failed samples: 1 (crash 1)");
        assert_eq!(failures(&rows[..1]), None);
    }

    #[test]
    fn table_puts_the_floor_first_and_measures_from_it_without_input() {
        let mut codec = row("serde_json", Status::Ok, 40_000, 1_500_000);
        codec.op = Op::Ser;
        codec.fixture_ns = Some(400_000);
        codec.hwm_kib = Some(3000);
        let mut floor = row("floor", Status::Ok, 100, 1_000_000);
        floor.op = Op::Ser;
        floor.fixture_ns = Some(20_000);
        let sizes = HashMap::from([(floor.gate_cell(), 400_000u64)]);
        let outputs = HashMap::from([("serde_json".to_string(), OutputMode::ReusedBuffer)]);
        let cx = Context {
            codec_order: &["floor", "serde_json"],
            floors: &HashMap::from([
                ("floor".to_string(), "floor".to_string()),
                ("serde_json".to_string(), "floor".to_string()),
            ]),
            fixture_order: &["users-2kb"],
            child_bytes: &sizes,
            outputs: &outputs,
            cold_cache: false,
        };
        let text = table(&[codec, floor], &cx);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("fixture"));
        assert!(
            lines[1].contains("floor") && lines[1].contains("391 KiB"),
            "{text}"
        );
        // (1,500,000 − 400,000) − (1,000,000 − 20,000) = 120,000 ns over the floor: the
        // 380 µs more input building of the codec's cell is not charged to it.
        assert!(
            lines[2].contains("serde_json") && lines[2].contains("+120 µs"),
            "{text}"
        );
        assert!(
            lines[2].contains("40.0 µs") && lines[2].contains("2.93 MiB"),
            "{text}"
        );
        assert!(lines[2].ends_with("reused-buffer"), "{text}");
    }
}
