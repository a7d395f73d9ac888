//! summary.csv: one flat row per cell with its statistics, its contrasts and its warm figures, in
//! raw units for spreadsheets and scripts. Each column is declared once below with what fills
//! it; the columns of a cell's figures carry the run's quantity in their names
//! (`init_plus_ops_median_ns` in a timed run, `init_plus_ops_median_instr` in a counted one),
//! so a file never holds one unit under another's name. A curve run's file has the curve's
//! columns after these (`curve_…`); a run without curves.csv has none of them.

use super::model::Report;
use crate::analyze::cells::CellSummary;
use crate::analyze::coldwarm::{find_warm, Scenario};
use crate::analyze::contrasts::ContrastRow;
use crate::stats::describe::Describe;
use anyhow::Result;
use schema::phases::Phase;

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// What fills a column from the report and one cell.
type Fill = Box<dyn Fn(&Report, &CellSummary) -> String>;
/// One statistic of a `Describe`.
type Stat = fn(&Describe) -> Option<f64>;
/// One field of a contrast, as text.
type Field = Box<dyn Fn(&ContrastRow) -> String>;

/// The columns of a `Describe` of a span: median, interval, p90 and, for the headline, the
/// rest.
fn describe_columns(
    columns: &mut Vec<(String, Fill)>,
    span: &str,
    unit: &str,
    of: fn(&CellSummary) -> Option<&Describe>,
    whole: bool,
) {
    let stat: [(&str, Stat); 7] = [
        ("median", |d| Some(d.median)),
        ("lo", |d| d.interval().map(|i| i.0)),
        ("hi", |d| d.interval().map(|i| i.1)),
        ("p90", |d| Some(d.p90)),
        ("min", |d| Some(d.min)),
        ("max", |d| Some(d.max)),
        ("mad", |d| Some(d.mad)),
    ];
    let n = if whole { stat.len() } else { 4 };
    for (name, f) in stat.into_iter().take(n) {
        columns.push((
            format!("{span}_{name}_{unit}"),
            Box::new(move |_, c| opt(of(c).and_then(f))),
        ));
    }
    if whole {
        columns.push((
            "outliers".into(),
            Box::new(move |_, c| opt(of(c).map(|d| d.outliers.total()))),
        ));
    }
}

/// The columns of a paired contrast, named with `prefix` (`ratio`, `variant_ratio`).
fn contrast_columns(
    columns: &mut Vec<(String, Fill)>,
    prefix: &str,
    of: fn(&Report, &CellSummary) -> Option<ContrastRow>,
    against: fn(&ContrastRow) -> String,
) {
    let entries: [(String, Field); 9] = [
        (
            format!("{prefix}against"),
            Box::new(move |x: &ContrastRow| against(x)),
        ),
        (
            format!("{prefix}pairs"),
            Box::new(|x: &ContrastRow| opt(x.contrast.as_ref().map(|c| c.pairs))),
        ),
        (
            format!("{prefix}ratio"),
            Box::new(|x: &ContrastRow| opt(x.contrast.as_ref().map(|c| c.ratio))),
        ),
        (
            format!("{prefix}ratio_lo"),
            Box::new(|x: &ContrastRow| {
                opt(x.contrast.as_ref().and_then(|c| c.interval).map(|i| i.0))
            }),
        ),
        (
            format!("{prefix}ratio_hi"),
            Box::new(|x: &ContrastRow| {
                opt(x.contrast.as_ref().and_then(|c| c.interval).map(|i| i.1))
            }),
        ),
        (
            format!("{prefix}ratio_half_width"),
            Box::new(|x: &ContrastRow| opt(x.half_width)),
        ),
        (
            format!("{prefix}p"),
            Box::new(|x: &ContrastRow| opt(x.contrast.as_ref().map(|c| c.test.p))),
        ),
        (
            format!("{prefix}p_holm"),
            Box::new(|x: &ContrastRow| opt(x.p_holm)),
        ),
        (
            format!("{prefix}verdict"),
            Box::new(|x: &ContrastRow| x.verdict.label().to_string()),
        ),
    ];
    for (name, f) in entries {
        columns.push((
            name,
            Box::new(move |r, c| of(r, c).map_or(String::new(), |x| f(&x))),
        ));
    }
}

/// Every column of summary.csv for `r`, in order.
fn columns(r: &Report) -> Vec<(String, Fill)> {
    let unit = r
        .cells
        .first()
        .map_or(r.measure.quantity(), |c| c.quantity)
        .name();
    let mut columns: Vec<(String, Fill)> = Vec::new();
    let mut add = |name: &str, f: Fill| columns.push((name.to_string(), f));
    add("fixture", Box::new(|_, c| c.key.fixture.clone()));
    add("op", Box::new(|_, c| c.key.op.to_string()));
    add("variant", Box::new(|_, c| c.key.variant.to_string()));
    add("batch", Box::new(|_, c| c.key.batch.to_string()));
    add("codec", Box::new(|_, c| c.key.codec.clone()));
    add(
        "runtime",
        Box::new(|r, c| r.runtimes.runtime_of(&c.key.codec).to_string()),
    );
    add(
        "floor",
        Box::new(|r, c| opt(r.runtimes.floor_of(&c.key.codec))),
    );
    add("measure", Box::new(|r, _| r.measure.to_string()));
    add("planned", Box::new(|_, c| opt(c.planned)));
    add("ok", Box::new(|_, c| c.ok.to_string()));
    add("failed", Box::new(|_, c| c.failed.to_string()));
    add("identical", Box::new(|_, c| c.identical.to_string()));
    describe_columns(
        &mut columns,
        "init_plus_ops",
        unit,
        |c| c.init_plus_ops.as_ref(),
        true,
    );
    columns.push((
        "init_plus_ops_half_width".into(),
        Box::new(|_, c| opt(c.init_plus_ops_half_width)),
    ));
    describe_columns(&mut columns, "process", unit, |c| c.process.as_ref(), false);
    describe_columns(&mut columns, "wall", unit, |c| c.wall.as_ref(), false);
    process_columns(&mut columns, unit);
    let mut add = |name: &str, f: Fill| columns.push((name.to_string(), f));
    add("child_bytes", Box::new(|r, c| opt(r.child_bytes(&c.key))));
    add(
        "ser_output",
        Box::new(|r, c| match (c.key.op, r.output_of(&c.key.codec)) {
            (schema::Op::Ser, Some(mode)) => mode.name().to_string(),
            _ => String::new(),
        }),
    );
    contrast_columns(
        &mut columns,
        "",
        |r, c| r.contrast(&c.key).cloned(),
        |x| x.against.codec.clone(),
    );
    process_ratio_columns(&mut columns);
    contrast_columns(
        &mut columns,
        "variant_",
        |r, c| r.variant_contrast(&c.key).cloned(),
        |x| x.against.variant.to_string(),
    );
    warm_columns(&mut columns);
    if r.curve.is_some() {
        curve_columns(&mut columns);
    }
    columns
}

/// The cell's process over its floor as a ratio to the reference's, with its interval.
fn process_ratio_columns(columns: &mut Vec<(String, Fill)>) {
    let mut add = |name: &str, f: Fill| columns.push((name.to_string(), f));
    add(
        "process_ratio",
        Box::new(|r, c| opt(r.process_ratio(&c.key).and_then(|p| p.ratio))),
    );
    add(
        "process_ratio_lo",
        Box::new(|r, c| {
            opt(r
                .process_ratio(&c.key)
                .and_then(|p| p.interval)
                .map(|i| i.0))
        }),
    );
    add(
        "process_ratio_hi",
        Box::new(|r, c| {
            opt(r
                .process_ratio(&c.key)
                .and_then(|p| p.interval)
                .map(|i| i.1))
        }),
    );
}

/// The warm figure beside the cell (its median, its fastest sample, processes and allocator), the
/// cold penalty, and the timed run's figures beside a counted one.
fn warm_columns(columns: &mut Vec<(String, Fill)>) {
    let mut add = |name: &str, f: Fill| columns.push((name.to_string(), f));
    add(
        "warm_ns_per_op",
        Box::new(|r, c| {
            opt(find_warm(&r.warm, &Scenario::of(&c.key), &c.key.codec).map(|w| w.median_ns))
        }),
    );
    add(
        "warm_fastest_ns",
        Box::new(|r, c| {
            opt(find_warm(&r.warm, &Scenario::of(&c.key), &c.key.codec)
                .and_then(|w| w.fastest)
                .map(|f| f.ns))
        }),
    );
    add(
        "warm_processes",
        Box::new(|r, c| {
            find_warm(&r.warm, &Scenario::of(&c.key), &c.key.codec)
                .and_then(|w| w.forks.as_ref())
                .map_or(String::new(), |f| f.processes.to_string())
        }),
    );
    add(
        "warm_allocator",
        Box::new(|r, c| {
            find_warm(&r.warm, &Scenario::of(&c.key), &c.key.codec)
                .and_then(|w| w.allocator)
                .map_or(String::new(), |a| a.to_string())
        }),
    );
    add(
        "cold_penalty",
        Box::new(|r, c| {
            let s = Scenario::of(&c.key);
            opt(r
                .penalties
                .iter()
                .find(|p| p.scenario == s && p.codec == c.key.codec && p.batch == c.key.batch)
                .map(|p| p.penalty))
        }),
    );
    let beside =
        |r: &Report, c: &CellSummary, f: fn(&crate::analyze::beside::BesideRow) -> Option<f64>| {
            opt(r
                .beside
                .as_ref()
                .and_then(|b| b.rows.iter().find(|x| x.key == c.key))
                .and_then(f))
        };
    add(
        "timed_init_plus_ops_median_ns",
        Box::new(move |r, c| beside(r, c, |b| b.init_plus_ops_ns)),
    );
    add(
        &format!("timed_{}_median_ns", Phase::FirstOp),
        Box::new(move |r, c| beside(r, c, |b| b.first_op_ns)),
    );
}

/// Each phase's median, the child's resource use and drift, its page faults by phase, its
/// allocations, and its time over the floor: the columns of what one child did.
fn process_columns(columns: &mut Vec<(String, Fill)>, unit: &str) {
    for p in Phase::ALL {
        columns.push((
            format!("{p}_median_{unit}"),
            Box::new(move |_, c| opt(c.phase(p))),
        ));
    }
    for (name, f) in [
        (
            "user_us",
            (|c| c.user_us) as fn(&CellSummary) -> Option<f64>,
        ),
        ("sys_us", |c| c.sys_us),
        ("hwm_kib", |c| c.hwm_kib),
        ("maxrss_kib", |c| c.maxrss_kib),
        ("minflt", |c| c.minflt),
        ("majflt", |c| c.majflt),
        ("drift_rho", |c| c.drift.map(|s| s.rho)),
        ("drift_p", |c| c.drift.map(|s| s.p)),
    ] {
        columns.push((name.into(), Box::new(move |_, c| opt(f(c)))));
    }
    // each phase's page faults, where the child read them (outside the library's phases, and
    // the library's three together)
    for p in schema::phases::Phase::ALL
        .iter()
        .filter(|p| !p.is_library())
        .map(|p| p.name())
        .chain(["library"])
    {
        for (kind, major) in [("minflt", false), ("majflt", true)] {
            columns.push((
                format!("{p}_{kind}_median"),
                Box::new(move |_, c| {
                    opt(c.faults.iter().find(|f| f.phase == p).and_then(|f| {
                        if major {
                            f.major
                        } else {
                            f.minor
                        }
                    }))
                }),
            ));
        }
    }
    for (f, _) in crate::analyze::cells::allocation_figures() {
        let name = f.column();
        columns.push((
            format!("{name}_median"),
            Box::new(move |_, c| opt(c.allocations.get(name).map(|s| s.median))),
        ));
    }
    // in the run's measure: ns of a timed run, instructions of a counted one
    columns.push((
        format!("over_floor_{unit}"),
        Box::new(|r, c| opt(r.over_floor(&c.key))),
    ));
}

/// A curve run's columns (only in a curve run's summary.csv): the cell's curve, and its
/// codec's crossing with the reference, measured, beyond the last read and by the straight line.
fn curve_columns(columns: &mut Vec<(String, Fill)>) {
    use crate::analyze::curve::{CurveCell, CurveCrossing, Measured, StraightLine};
    type OfCell = fn(&CurveCell) -> String;
    type OfCrossing = fn(&CurveCrossing) -> String;
    let cell: [(&str, OfCell); 6] = [
        ("curve_processes", |c| c.processes.to_string()),
        ("curve_class", |c| {
            c.classes
                .iter()
                .filter(|k| k.processes > 0)
                .map(|k| format!("{} {}", k.class, k.processes))
                .collect::<Vec<_>>()
                .join("; ")
        }),
        ("curve_changepoint_ops", |c| opt(c.changepoint_ops)),
        ("curve_steady_ns_per_op", |c| opt(c.steady_ns)),
        ("curve_steady_over_warm", |c| opt(c.steady_over_warm)),
        ("curve_clock_share", |c| opt(c.clock_share)),
    ];
    for (name, f) in cell {
        columns.push((
            name.into(),
            Box::new(move |r, c| {
                r.curve
                    .as_ref()
                    .and_then(|k| k.cell(&c.key))
                    .map_or(String::new(), f)
            }),
        ));
    }
    let crossing: [(&str, OfCrossing); 10] = [
        ("curve_against", |c| c.reference.clone()),
        ("curve_crossing_cheaper", |c| match &c.measured {
            Measured::From { cheaper, .. } => cheaper.clone(),
            Measured::None { .. } => String::new(),
        }),
        ("curve_crossing_n", |c| match &c.measured {
            Measured::From { n, .. } => n.to_string(),
            Measured::None { .. } => String::new(),
        }),
        ("curve_crossing_lo", |c| match &c.measured {
            Measured::From { lo, .. } => opt(*lo),
            Measured::None { .. } => String::new(),
        }),
        ("curve_crossing_hi", |c| match &c.measured {
            Measured::From { hi, .. } => opt(*hi),
            Measured::None { .. } => String::new(),
        }),
        ("curve_cheaper_throughout", |c| match &c.measured {
            Measured::None { cheaper } => opt(cheaper.as_ref()),
            Measured::From { .. } => String::new(),
        }),
        ("curve_beyond_cheaper", |c| {
            opt(c.beyond.as_ref().map(|b| &b.cheaper_after))
        }),
        ("curve_beyond_n", |c| {
            opt(c.beyond.as_ref().and_then(|b| b.n))
        }),
        ("curve_straight_line_n", |c| match &c.straight_line {
            StraightLine::From { n, .. } => n.to_string(),
            _ => String::new(),
        }),
        ("curve_measured_over_straight", |c| {
            opt(c.measured_over_straight)
        }),
    ];
    for (name, f) in crossing {
        columns.push((
            name.into(),
            Box::new(move |r, c| {
                r.curve
                    .as_ref()
                    .and_then(|k| k.crossing_of(&c.key))
                    .map_or(String::new(), f)
            }),
        ));
    }
}

/// The header and rows of summary.csv.
pub(crate) fn rows(r: &Report) -> (Vec<String>, Vec<Vec<String>>) {
    let columns = columns(r);
    let header = columns.iter().map(|(name, _)| name.clone()).collect();
    let rows = r
        .cells
        .iter()
        .map(|c| columns.iter().map(|(_, fill)| fill(r, c)).collect())
        .collect();
    (header, rows)
}

/// summary.csv as text.
pub(crate) fn text(r: &Report) -> Result<String> {
    let (header, rows) = rows(r);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header)?;
    for row in rows {
        // a cell a spreadsheet would run as a formula is made text
        w.write_record(row.iter().map(|c| text::for_spreadsheet(c)))?;
    }
    Ok(String::from_utf8(
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))?,
    )?)
}
