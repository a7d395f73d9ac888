//! The closing table of `cold run`: per fixture × op × batch × codec (× build), the samples ok
//! and failed, the median library cost (init + first op + remaining ops) in the run's measure
//! with its p90 (times) or whether every sample agreed (counts), the first op's median, and for a
//! timed run the median wall, how far it sits above its runtime's floor once the input building
//! is taken out of both, and the child's own peak RSS; the child's size and how a `ser` hands its
//! output over; with `--cold-cache`, major faults, block reads and how many samples were fully
//! evicted. Pure: the samples in, text out. The figures are `store::cell`', the ones the reports
//! use; the full statistics are `analysis`'s job.

use schema::phases::{Figure, Phase, Quantity, Whole};
use schema::{CellKey, GateCell, Measure, Op, OutputMode};
use stats::quantile::quantile;
use stats::units::{bytes, count, ns};
use std::collections::HashMap;
use store::cell::{library, over_floor, values};
use store::cell::{CellSamples, Samples};

/// What the table needs beyond the samples.
pub(crate) struct Context<'a> {
    pub(crate) measure: Measure,
    /// Codec ids in the order rows are listed (the registry's: the baseline first).
    pub(crate) codec_order: &'a [&'a str],
    /// Each codec's floor: the baseline codec of its runtime (`noop` for Rust, `jvm-floor`…),
    /// whose cells the others are measured from; a floor maps to itself.
    pub(crate) floors: &'a HashMap<String, String>,
    /// Fixture names in the order rows are listed.
    pub(crate) fixture_order: &'a [&'a str],
    /// The child size of each codec × fixture × op, in bytes.
    pub(crate) child_bytes: &'a HashMap<GateCell, u64>,
    /// How each codec's `ser` hands its output over.
    pub(crate) outputs: &'a HashMap<String, OutputMode>,
    pub(crate) cold_cache: bool,
}

/// What the table's columns mean, printed under it.
pub(crate) fn legend(measure: Measure) -> &'static str {
    match measure {
        Measure::Time => {
            "(init+ops: init + first op + remaining ops; wall: spawn to reaped; over floor: \
             median of (wall − input phase) minus the floor's, so building the input is charged \
             to no codec; peak RSS: the child's own VmHWM; lib faults: minor page faults in init \
             + first op + remaining ops, read by the child outside them; output: how `ser` hands \
             its output over; medians and p90 of the ok samples)"
        }
        Measure::Instructions => {
            "(instructions executed, counted by callgrind: init+ops = init + first op + remaining \
             ops; same: every sample counted them alike; first-op allocs: heap blocks / bytes of \
             the first operation, counted natively by the allocation counter; medians of the ok \
             samples)"
        }
    }
}

/// An amount of the measure, for a person.
fn amount(measure: Measure, v: f64) -> String {
    match measure {
        Measure::Time => ns(v),
        Measure::Instructions => count(v),
    }
}

/// The column beside the median library cost: its p90 for times, whether every sample agreed
/// for counts.
fn spread_header(measure: Measure) -> &'static str {
    match measure {
        Measure::Time => "p90",
        Measure::Instructions => "same",
    }
}

/// That column's cell, from the library costs sorted.
fn spread(measure: Measure, cost: &[f64]) -> String {
    match measure {
        Measure::Time => or_dash(quantile(cost, 0.9), ns),
        Measure::Instructions => match (cost.first(), cost.last()) {
            (Some(lo), Some(hi)) if lo == hi => format!("yes ×{}", cost.len()),
            (Some(_), Some(_)) => "NO".to_string(),
            _ => "—".to_string(),
        },
    }
}

/// The columns after the first op.
fn extra_headers(measure: Measure) -> &'static [&'static str] {
    match measure {
        Measure::Time => &["wall", "over floor", "peak RSS", "lib faults"],
        Measure::Instructions => &["first-op allocs"],
    }
}

/// Their cells; `floor` is where the cell stands against its runtime's floor.
fn extra(measure: Measure, cell: &CellSamples, floor: Floor) -> Vec<String> {
    let median = |f: Figure| quantile(&values(cell, f), 0.5);
    match measure {
        Measure::Time => {
            let above = match floor {
                Floor::Itself => "floor".to_string(),
                Floor::Cell(f) => over_floor(cell, f).map_or("—".to_string(), |d| {
                    format!("{}{}", if d >= 0.0 { "+" } else { "−" }, ns(d.abs()))
                }),
                Floor::Missing => "—".to_string(),
            };
            vec![
                or_dash(median(Figure::WALL), ns),
                above,
                or_dash(
                    median(Figure::Whole(Whole::HwmKib)).map(|k| k * 1024.0),
                    bytes,
                ),
                or_dash(median(Figure::Whole(Whole::LibraryMinflt)), count),
            ]
        }
        Measure::Instructions => {
            let first = |q| median(Figure::Of(q, Phase::FirstOp));
            vec![
                match (first(Quantity::AllocBlocks), first(Quantity::AllocBytes)) {
                    (Some(n), Some(b)) => format!("{} / {}", count(n), bytes(b)),
                    _ => "—".to_string(),
                },
            ]
        }
    }
}

/// Where a cell stands against its runtime's floor.
pub(crate) enum Floor<'a> {
    /// The cell is a floor.
    Itself,
    /// The floor's cell at the same op, batch, fixture and build.
    Cell(&'a CellSamples),
    /// No floor in the run.
    Missing,
}

impl<'a> Floor<'a> {
    /// The floor of `key`, given each codec's floor.
    pub(crate) fn of(
        key: &CellKey,
        samples: &'a Samples,
        floors: &HashMap<String, String>,
    ) -> Self {
        match floors.get(&key.codec) {
            Some(id) if *id == key.codec => Floor::Itself,
            Some(id) => samples
                .cells
                .get(&key.with_codec(id))
                .map_or(Floor::Missing, Floor::Cell),
            None => Floor::Missing,
        }
    }
}

fn or_dash(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("—".to_string(), f)
}

/// The table, as text.
pub(crate) fn table(samples: &Samples, cx: &Context) -> String {
    let m = cx.measure;
    let q = cx.measure.quantity();
    let position = |list: &[&str], x: &str| list.iter().position(|y| *y == x).unwrap_or(usize::MAX);
    let mut keys: Vec<&CellKey> = samples.cells.keys().collect();
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
    let several_builds = keys.iter().any(|k| k.variant != keys[0].variant);

    let mut header = vec!["fixture", "op", "batch", "codec"];
    if several_builds {
        header.push("variant");
    }
    header.extend(["ok", "failed", "init+ops", spread_header(m), "first op"]);
    header.extend(extra_headers(m));
    header.extend(["child", "output"]);
    if cx.cold_cache {
        header.extend(["majflt", "inblock", "evicted"]);
    }
    let text_columns = if several_builds { 5 } else { 4 };
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for key in keys {
        let cell = &samples.cells[key];
        let ok = cell.ok_count();
        let cost = library(cell, q);
        let median = |f: Figure| quantile(&values(cell, f), 0.5);
        let mut line = vec![
            key.fixture.clone(),
            key.op.to_string(),
            key.batch.to_string(),
            key.codec.clone(),
        ];
        if several_builds {
            line.push(key.variant.to_string());
        }
        line.extend([
            ok.to_string(),
            (cell.len() - ok).to_string(),
            or_dash(quantile(&cost, 0.5), |v| amount(m, v)),
            spread(m, &cost),
            or_dash(median(Figure::Of(q, Phase::FirstOp)), |v| amount(m, v)),
        ]);
        line.extend(extra(m, cell, Floor::of(key, samples, cx.floors)));
        line.push(or_dash(
            cx.child_bytes.get(&key.gate_cell()).map(|&b| b as f64),
            bytes,
        ));
        line.push(match (key.op, cx.outputs.get(&key.codec)) {
            (Op::Ser, Some(mode)) => mode.name().to_string(),
            _ => String::new(),
        });
        if cx.cold_cache {
            line.push(or_dash(median(Figure::Whole(Whole::Majflt)), |v| {
                format!("{v:.0}")
            }));
            line.push(or_dash(median(Figure::Whole(Whole::Inblock)), |v| {
                format!("{v:.0}")
            }));
            let evicted = cell.ok().filter(|&i| cell.evicted[i] == Some(true)).count();
            line.push(format!("{evicted}/{ok}"));
        }
        lines.push(line);
    }
    render(&lines, text_columns)
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
pub(crate) fn failures(samples: &Samples) -> Option<String> {
    let mut by_status: std::collections::BTreeMap<String, usize> = Default::default();
    for cell in samples.cells.values() {
        for s in cell.statuses.iter().filter(|s| !s.is_ok()) {
            *by_status.entry(s.name()).or_default() += 1;
        }
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
    use schema::rows::{PlanRow, SampleRow};
    use schema::{Status, Variant};

    fn row(codec: &str, status: Status, first_op: u64, wall: u64, fixture: u64) -> SampleRow {
        let plan = PlanRow {
            plan_index: 0,
            block: 0,
            codec: codec.into(),
            op: Op::Ser,
            batch: 1,
            fixture: "users-2kb".into(),
            variant: Variant::PORTABLE,
        };
        let mut row = SampleRow::planned(&plan);
        row.status = status;
        if status.is_ok() {
            for p in Phase::ALL {
                row.set(Figure::time(p), Some(0));
            }
            row.set(Figure::time(Phase::FirstOp), Some(first_op));
            row.set(Figure::time(Phase::Fixture), Some(fixture));
            row.set(Figure::INIT_PLUS_OPS, Some(first_op));
            row.set(Figure::WALL, Some(wall));
            row.set(Figure::Whole(Whole::HwmKib), Some(3000));
        }
        row
    }

    #[test]
    fn the_table_puts_the_floor_first_and_measures_from_it_without_input() {
        let rows = vec![
            row("serde_json", Status::Ok, 40_000, 1_500_000, 400_000),
            row("serde_json", Status::Ok, 40_000, 1_500_000, 400_000),
            row("serde_json", Status::Crash, 0, 0, 0),
            row("floor", Status::Ok, 100, 1_000_000, 20_000),
        ];
        let samples = Samples::from_rows(&rows);
        let sizes = HashMap::from([(rows[3].gate_cell(), 400_000u64)]);
        let outputs = HashMap::from([("serde_json".to_string(), OutputMode::ReusedBuffer)]);
        let floors = HashMap::from([
            ("floor".to_string(), "floor".to_string()),
            ("serde_json".to_string(), "floor".to_string()),
        ]);
        let cx = Context {
            measure: Measure::Time,
            codec_order: &["floor", "serde_json"],
            floors: &floors,
            fixture_order: &["users-2kb"],
            child_bytes: &sizes,
            outputs: &outputs,
            cold_cache: false,
        };
        let text = table(&samples, &cx);
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
        assert!(lines[2].contains("  2       1  "), "ok 2, failed 1: {text}");
        assert_eq!(failures(&samples).unwrap(), "failed samples: 1 (crash 1)");
    }
}
