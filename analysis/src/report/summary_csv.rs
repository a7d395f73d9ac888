//! summary.csv: one flat row per cell with its statistics, its contrast against the reference
//! and its warm figures, in raw units (ns, KiB, counts) for spreadsheets and scripts; in a
//! counted run, the timing columns are empty and the `instr_` and `alloc_` columns hold the
//! counts (empty in a timed run).

use super::model::Report;
use crate::analyze::cells::PHASES;
use crate::analyze::coldwarm::{find_warm, Scenario};
use crate::inputs::samples::Count;
use anyhow::Result;

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// The header and rows of summary.csv.
pub fn rows(r: &Report) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header: Vec<String> = [
        "fixture",
        "op",
        "variant",
        "batch",
        "codec",
        "planned",
        "ok",
        "failed",
        "init_plus_ops_median_ns",
        "init_plus_ops_lo_ns",
        "init_plus_ops_hi_ns",
        "init_plus_ops_p90_ns",
        "init_plus_ops_min_ns",
        "init_plus_ops_max_ns",
        "init_plus_ops_mad_ns",
        "outliers",
        "wall_median_ns",
        "wall_lo_ns",
        "wall_hi_ns",
        "wall_p90_ns",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(PHASES.iter().map(|(n, _)| format!("{n}_median_ns")));
    header.extend(
        [
            "user_us",
            "sys_us",
            "hwm_kib",
            "maxrss_kib",
            "minflt",
            "majflt",
            "wall_without_input_ns",
            "over_floor_ns",
            "child_bytes",
            "ser_output",
            "drift_rho",
            "drift_p",
            "reference",
            "pairs",
            "ratio",
            "ratio_lo",
            "ratio_hi",
            "p",
            "p_holm",
            "verdict",
            "warm_ns_per_op",
            "cold_penalty",
            "measure",
            "instr_n",
            "instr_identical",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    header.extend(
        Count::INSTRUCTIONS
            .iter()
            .map(|c| format!("{}_median", c.column())),
    );
    header.extend(
        [
            "instr_init_plus_ops_median",
            "instr_init_plus_ops_vs_reference",
            "instr_first_op_vs_reference",
            "instr_ratios_exact",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    header.extend(
        Count::ALLOCATIONS
            .iter()
            .map(|c| format!("{}_median", c.column())),
    );
    header.extend(
        [
            "timed_init_plus_ops_median_ns",
            "timed_first_op_median_ns",
            "init_plus_ops_half_width",
            "ratio_half_width",
            "variant_against",
            "variant_pairs",
            "variant_ratio",
            "variant_ratio_lo",
            "variant_ratio_hi",
            "variant_ratio_half_width",
            "variant_p",
            "variant_p_holm",
            "variant_verdict",
            "runtime",
            "floor",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let mut out = Vec::new();
    for c in &r.cells {
        let k = &c.key;
        let d = c.init_plus_ops.as_ref();
        let w = c.wall.as_ref();
        let mut row = vec![
            k.fixture.clone(),
            k.op.to_string(),
            k.variant.to_string(),
            k.batch.to_string(),
            k.codec.clone(),
            opt(c.planned),
            c.ok.to_string(),
            c.failed.to_string(),
            opt(d.map(|d| d.median)),
            opt(d.and_then(|d| d.interval()).map(|i| i.0)),
            opt(d.and_then(|d| d.interval()).map(|i| i.1)),
            opt(d.map(|d| d.p90)),
            opt(d.map(|d| d.min)),
            opt(d.map(|d| d.max)),
            opt(d.map(|d| d.mad)),
            opt(d.map(|d| d.outliers.total())),
            opt(w.map(|d| d.median)),
            opt(w.and_then(|d| d.interval()).map(|i| i.0)),
            opt(w.and_then(|d| d.interval()).map(|i| i.1)),
            opt(w.map(|d| d.p90)),
        ];
        row.extend(PHASES.iter().map(|(n, _)| opt(c.phases.0.get(*n))));
        let con = r.contrast(k);
        let pc = con.and_then(|x| x.contrast.as_ref());
        let s = Scenario::of(k);
        let warm = find_warm(&r.warm, &s, &k.codec).map(|w| w.median_ns);
        let penalty = r
            .penalties
            .iter()
            .find(|p| p.scenario == s && p.codec == k.codec && p.batch == k.batch)
            .map(|p| p.penalty);
        row.extend([
            opt(c.user_us),
            opt(c.sys_us),
            opt(c.hwm_kib),
            opt(c.maxrss_kib),
            opt(c.minflt),
            opt(c.majflt),
            opt(c.wall_without_input),
            opt(r.over_floor(k)),
            opt(r.child_bytes(k)),
            match (k.op, r.output_of(&k.codec)) {
                (schema::Op::Ser, Some(mode)) => mode.name().to_string(),
                _ => String::new(),
            },
            opt(c.drift.map(|s| s.rho)),
            opt(c.drift.map(|s| s.p)),
            opt(con.map(|x| x.reference.clone())),
            opt(pc.map(|x| x.pairs)),
            opt(pc.map(|x| x.ratio)),
            opt(pc.and_then(|x| x.interval).map(|i| i.0)),
            opt(pc.and_then(|x| x.interval).map(|i| i.1)),
            opt(pc.map(|x| x.test.p)),
            opt(con.and_then(|x| x.p_holm)),
            opt(con.map(|x| x.verdict.label())),
            opt(warm),
            opt(penalty),
            r.measure.to_string(),
        ]);
        let counts = r.counts(k);
        let ratio = counts.and_then(|c| c.vs_reference.as_ref());
        row.push(opt(counts.map(|c| c.counted)));
        row.push(opt(counts.map(|c| c.identical)));
        row.extend(
            Count::INSTRUCTIONS
                .iter()
                .map(|&n| opt(counts.and_then(|c| c.median(n)))),
        );
        row.extend([
            opt(counts.and_then(|c| c.init_plus_ops).map(|s| s.median)),
            opt(ratio.and_then(|x| x.init_plus_ops)),
            opt(ratio.and_then(|x| x.first_op)),
            opt(ratio.map(|x| x.exact)),
        ]);
        row.extend(
            Count::ALLOCATIONS
                .iter()
                .map(|&n| opt(counts.and_then(|c| c.median(n)))),
        );
        let beside = r
            .counted
            .as_ref()
            .and_then(|c| c.beside.as_ref())
            .and_then(|b| b.rows.iter().find(|x| &x.key == k));
        row.push(opt(beside.and_then(|b| b.init_plus_ops_ns)));
        row.push(opt(beside.and_then(|b| b.first_op_ns)));
        row.push(opt(c.init_plus_ops_half_width));
        row.push(opt(con.and_then(|x| x.half_width)));
        let v = r.variant_contrast(k);
        let vc = v.and_then(|x| x.contrast.as_ref());
        row.extend([
            opt(v.map(|x| x.against)),
            opt(vc.map(|x| x.pairs)),
            opt(vc.map(|x| x.ratio)),
            opt(vc.and_then(|x| x.interval).map(|i| i.0)),
            opt(vc.and_then(|x| x.interval).map(|i| i.1)),
            opt(v.and_then(|x| x.half_width)),
            opt(vc.map(|x| x.test.p)),
            opt(v.and_then(|x| x.p_holm)),
            opt(v.map(|x| x.verdict.label())),
            r.runtimes.runtime_of(&k.codec).to_string(),
            opt(r.runtimes.floor_of(&k.codec)),
        ]);
        out.push(row);
    }
    (header, out)
}

/// summary.csv as text.
pub fn text(r: &Report) -> Result<String> {
    let (header, rows) = rows(r);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header)?;
    for row in rows {
        w.write_record(&row)?;
    }
    Ok(String::from_utf8(
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))?,
    )?)
}
