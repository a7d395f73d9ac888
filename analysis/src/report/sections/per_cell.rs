//! Per cell: the timing and the process-life tables.

use super::common::*;
use schema::phases::Phase;

fn timing_table<'a>(r: &Report, cells: impl Iterator<Item = &'a CellSummary>) -> Table {
    let mut t = Table::new(&[
        ">batch",
        "codec",
        ">ok",
        ">failed",
        ">init_plus_ops median [95% CI]",
        ">p90",
        ">min",
        ">max",
        ">MAD",
        ">outliers",
        ">drift ρ",
        ">wall median [95% CI]",
    ]);
    for c in cells {
        let d = c.init_plus_ops.as_ref();
        let opt = |f: &dyn Fn(&crate::stats::describe::Describe) -> f64| {
            d.map_or("—".into(), |d| format::ns(f(d)))
        };
        let outliers = d.map_or("—".into(), |d| {
            let o = &d.outliers;
            format!("{} ({} severe)", o.total(), o.low_severe + o.high_severe)
        });
        let drift = c.drift.map_or(Cell::toned("—", Tone::Muted), |s| {
            let flagged = s.rho.abs() >= DRIFT_RHO && s.p < DRIFT_P;
            let rho = if s.rho.abs() < 0.005 {
                "0.00".to_string()
            } else {
                format!("{:+.2}", s.rho)
            };
            Cell::toned(rho, if flagged { Tone::Bad } else { Tone::Plain })
        });
        let planned = c.planned.map_or(String::new(), |p| format!(" / {p}"));
        t.row(vec![
            c.key.batch.to_string().into(),
            codec_cell(r, &c.key.codec),
            format!("{}{planned}", c.ok).into(),
            Cell::toned(
                c.failed.to_string(),
                if c.failed > 0 { Tone::Bad } else { Tone::Plain },
            ),
            median_ci(c).into(),
            opt(&|d| d.p90).into(),
            opt(&|d| d.min).into(),
            opt(&|d| d.max).into(),
            opt(&|d| d.mad).into(),
            outliers.into(),
            drift,
            c.wall
                .as_ref()
                .map_or("—".into(), |d| format::ns_ci(d.median, d.interval()))
                .into(),
        ]);
    }
    t
}

fn life_table<'a>(r: &Report, cells: impl Iterator<Item = &'a CellSummary>) -> Table {
    let mut header = vec![">batch", "codec"];
    let phase_cols: Vec<String> = Phase::ALL.iter().map(|p| format!(">{p}")).collect();
    header.extend(phase_cols.iter().map(String::as_str));
    header.extend([
        ">user",
        ">sys",
        ">peak RSS",
        ">kernel max RSS",
        ">minor faults",
        ">major faults",
        ">over floor",
        ">child size",
        "output",
    ]);
    let mut t = Table::new(&header);
    for c in cells {
        let mut row: Vec<Cell> = vec![c.key.batch.to_string().into(), codec_cell(r, &c.key.codec)];
        for p in Phase::ALL {
            row.push(c.phase(p).map_or("—".into(), format::ns).into());
        }
        let us = |v: Option<f64>| v.map_or("—".into(), |v| format::ns(v * 1000.0));
        row.push(us(c.user_us).into());
        row.push(us(c.sys_us).into());
        let kib = |v: Option<f64>| v.map_or("—".into(), |v| format::bytes(v * 1024.0));
        row.push(kib(c.hwm_kib).into());
        row.push(kib(c.maxrss_kib).into());
        row.push(c.minflt.map_or("—".into(), format::count).into());
        row.push(c.majflt.map_or("—".into(), format::count).into());
        row.push(over_floor_cell(r, &c.key));
        row.push(
            r.child_bytes(&c.key)
                .map_or("—".into(), |b| format::bytes(b as f64))
                .into(),
        );
        row.push(match (c.key.op, r.output_of(&c.key.codec)) {
            (schema::Op::Ser, Some(mode)) => mode.name().into(),
            _ => "".into(),
        });
        t.row(row);
    }
    t
}

/// The page faults of each phase, where the child read them: minor (major when any).
fn faults_table<'a>(r: &Report, cells: impl Iterator<Item = &'a CellSummary>) -> Option<Table> {
    let cells: Vec<&CellSummary> = cells.filter(|c| !c.faults.is_empty()).collect();
    let phases: Vec<&str> = cells.first()?.faults.iter().map(|f| f.phase).collect();
    let mut header = vec![">batch".to_string(), "codec".to_string()];
    header.extend(phases.iter().map(|p| format!(">{p}")));
    let mut t = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for c in cells {
        let mut row: Vec<Cell> = vec![c.key.batch.to_string().into(), codec_cell(r, &c.key.codec)];
        for p in &phases {
            let f = c.faults.iter().find(|f| f.phase == *p);
            row.push(match f.map(|f| (f.minor, f.major)) {
                Some((Some(minor), Some(major))) if major > 0.0 => {
                    format!("{} ({} major)", format::count(minor), format::count(major)).into()
                }
                Some((Some(minor), _)) => format::count(minor).into(),
                _ => Cell::toned("—", Tone::Muted),
            });
        }
        t.row(row);
    }
    Some(t)
}

pub(super) fn per_cell(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Per cell"),
        p("For each cell, the timing of init_plus_ops (ok shows finished / planned samples; outliers are beyond Tukey's 1.5·IQR fences, severe beyond 3·IQR; drift ρ is against the block index), then the median of each phase and resource of the child process: user and system CPU time and page faults from wait4; peak RSS is the child's own VmHWM, which it reads at its end (the kernel's max RSS from wait4 starts from the spawner's high-water mark, about 2 MiB, so it hides smaller differences); over floor is the median of (wall − fixture) minus the same for the floor of the codec's own runtime, so building the input is charged to no codec and each runtime's start to none of its libraries; the page faults per phase are the child's own, read at its stamps outside the library's phases (so the library's three are one figure: what the timed calls faulted in, which the input phase may have made smaller by touching the same pages first); child size is the child's size from the manifest (a Rust child's binary; for another runtime, the library's own child file, the runtime not counted); output says how a `ser` hands its output over (into a reused buffer, or a new string per call: the library's natural API)."),
    ];
    for s in chart_data::scenarios(r) {
        out.push(h(3, format!("Timing, {}", scenario_title(&s))));
        out.push(Block::Table(timing_table(r, cells_of(r, &s))));
        out.push(h(
            3,
            format!("Process life (medians), {}", scenario_title(&s)),
        ));
        out.push(Block::Table(life_table(r, cells_of(r, &s))));
        if let Some(t) = faults_table(r, cells_of(r, &s)) {
            out.push(h(
                3,
                format!("Page faults per phase (medians), {}", scenario_title(&s)),
            ));
            out.push(Block::Table(t));
        }
    }
    out
}
