//! A run merged from shards: its machines and shards and, with several machines, each codec's
//! ratio to the reference machine by machine and pooled, how much the machines disagree, and
//! each machine's floor and price of CPU-feature detection. Nothing for a run made in one piece.

use super::common::*;
use crate::analyze::machines::{AcrossMachines, AcrossReport};
use crate::inputs::machine::MachineEntry;

fn or_dash(v: &Option<String>) -> Cell {
    match v {
        Some(v) => v.clone().into(),
        None => Cell::toned("—", Tone::Muted),
    }
}

/// Blocks `[start, end)` as a reader counts them.
fn blocks((start, end): (u32, u32)) -> String {
    match end - start {
        0 => "none".into(),
        1 => format!("{start}"),
        _ => format!("{start} to {}", end - 1),
    }
}

/// The machines; with one, without a name (there is nothing to tell it from).
fn machine_table(a: &AcrossReport) -> Table {
    let several = a.machines.several();
    let mut header = vec!["machine"];
    if !several {
        header.clear();
    }
    header.extend([
        "~CPU",
        ">cores",
        "kernel",
        "virtualization",
        "shards",
        ">planned samples",
    ]);
    let mut t = Table::new(&header);
    for e in &a.machines.0 {
        let m = &e.machine;
        let mut row: Vec<Cell> = Vec::new();
        if several {
            row.push(e.name.clone().into());
        }
        row.extend([
            or_dash(&m.cpu_model),
            m.cores.to_string().into(),
            or_dash(&m.kernel),
            or_dash(&m.virtualization),
            e.shards
                .iter()
                .map(|s| s.shard.to_string())
                .collect::<Vec<_>>()
                .join(", ")
                .into(),
            format::count(e.planned as f64).into(),
        ]);
        t.row(row);
    }
    t
}

/// The shards, each with its machine when there are several.
fn shard_table(r: &Report, a: &AcrossReport) -> Table {
    let several = a.machines.several();
    let mut header = vec!["shard"];
    if several {
        header.push("machine");
    }
    header.extend([">blocks", ">plan indices", "~folder", "started (UTC)"]);
    let mut t = Table::new(&header);
    let shards = r.manifest.as_ref().map_or(&[][..], |m| &m.shards);
    for s in shards {
        let name = a
            .machines
            .0
            .iter()
            .find(|e| e.machine == s.machine)
            .map_or("—", |e: &MachineEntry| e.name.as_str());
        let at = a
            .machines
            .0
            .iter()
            .flat_map(|e| &e.shards)
            .find(|x| x.shard == s.shard)
            .map_or((0, 0), |x| x.blocks);
        let (first, end) = s.plan_indexes;
        let mut row: Vec<Cell> = vec![s.shard.to_string().into()];
        if several {
            row.push(name.into());
        }
        row.extend([
            blocks(at).into(),
            if end > first {
                format!("{first} to {}", end - 1)
            } else {
                "none".into()
            }
            .into(),
            s.from.clone().into(),
            s.started_utc.clone().into(),
        ]);
        t.row(row);
    }
    t
}

/// The ratio on each machine, lowest to highest, in words: `0.804× on M1 to 1.21× on M2`.
fn spread_words(a: &AcrossReport, x: &AcrossMachines) -> String {
    let mut on: Vec<(f64, &str)> = x
        .machines
        .iter()
        .zip(&a.machines.0)
        .filter_map(|(c, e)| Some((c.as_ref()?.ratio, e.name.as_str())))
        .collect();
    on.sort_by(|p, q| p.0.total_cmp(&q.0));
    match (on.first(), on.last()) {
        (Some(lo), Some(hi)) => format!(
            "{} on {} to {} on {}",
            format::ratio(lo.0),
            lo.1,
            format::ratio(hi.0),
            hi.1
        ),
        _ => "no ratio".into(),
    }
}

/// The heterogeneity statement: on how many comparisons the machines disagree, and which.
fn disagreement_sentence(a: &AcrossReport, alpha: f64) -> String {
    let tested: Vec<&AcrossMachines> = a.ratios.iter().filter(|x| x.p_holm.is_some()).collect();
    if tested.is_empty() {
        return "No comparison has an interval on two machines (too few pairs on a machine), so how much the machines disagree cannot be measured.".into();
    }
    let i2 = |x: &AcrossMachines| x.heterogeneity.map_or(0.0, |h| h.i2);
    let disagree: Vec<&AcrossMachines> = a.disagreeing().collect();
    let n = tested.len();
    if disagree.is_empty() {
        let largest = tested
            .iter()
            .max_by(|p, q| i2(p).total_cmp(&i2(q)))
            .expect("not empty");
        return format!(
            "The machines agree: on none of the {n} comparisons do their ratios differ by more than their intervals allow (Cochran's Q, Holm-adjusted across the {n}, p ≥ {alpha}). The largest share of disagreement beyond chance is I² = {:.0}%, in {} ({}).",
            i2(largest) * 100.0,
            largest.key.label(),
            spread_words(a, largest)
        );
    }
    let mut named: Vec<&AcrossMachines> = disagree.clone();
    named.sort_by(|p, q| {
        let qs = |x: &AcrossMachines| x.heterogeneity.map_or(0.0, |h| h.q);
        qs(q).total_cmp(&qs(p))
    });
    let shown: Vec<String> = named
        .iter()
        .take(6)
        .map(|x| {
            format!(
                "{}: {} (I² = {:.0}%)",
                x.key.label(),
                spread_words(a, x),
                i2(x) * 100.0
            )
        })
        .collect();
    let more = if named.len() > shown.len() {
        format!("; and {} more in the table", named.len() - shown.len())
    } else {
        String::new()
    };
    format!(
        "The machines disagree on {} of the {n} comparisons (Cochran's Q, Holm-adjusted across the {n}, p < {alpha}): {}{more}. Where they disagree, the pooled ratio is an average over these machines, not a figure for any one of them: read the ratio of the machine you deploy on.",
        disagree.len(),
        shown.join("; ")
    )
}

fn ratio_table(r: &Report, a: &AcrossReport) -> Table {
    let names: Vec<String> = a
        .machines
        .0
        .iter()
        .map(|e| format!(">{} [95% CI]", e.name))
        .collect();
    let mut header = vec!["fixture", "op"];
    if r.has_variants() {
        header.push("variant");
    }
    header.extend([">batch", "codec"]);
    header.extend(names.iter().map(String::as_str));
    header.extend([
        ">pooled [95% CI]",
        ">Q (df)",
        ">p (Holm)",
        ">I²",
        "machines",
    ]);
    let mut t = Table::new(&header);
    let dash = || Cell::toned("—", Tone::Muted);
    for c in r.cells_in_order() {
        let Some(x) = a.ratios.iter().find(|x| x.key == c.key) else {
            continue;
        };
        let mut row: Vec<Cell> = vec![x.key.fixture.clone().into(), x.key.op.into()];
        if r.has_variants() {
            row.push(x.key.variant.into());
        }
        row.extend([x.key.batch.to_string().into(), codec_cell(r, &x.key.codec)]);
        for m in &x.machines {
            row.push(match m {
                Some(m) => format::ratio_ci(m.ratio, m.interval).into(),
                None => dash(),
            });
        }
        row.push(match &x.pooled {
            Some(p) => format::ratio_ci(p.ratio, p.interval).into(),
            None => dash(),
        });
        match (x.heterogeneity, x.p_holm) {
            (Some(h), Some(p)) => row.extend([
                format!("{:.2} ({})", h.q, h.df).into(),
                format::p(p).into(),
                format!("{:.0}%", h.i2 * 100.0).into(),
                if x.disagree {
                    Cell::toned("disagree", Tone::Bad)
                } else {
                    Cell::toned("agree", Tone::Muted)
                },
            ]),
            _ => row.extend([dash(), dash(), dash(), Cell::toned("", Tone::Muted)]),
        }
        t.row(row);
    }
    t
}

/// Each floor's median wall and the price of CPU-feature detection, machine by machine.
fn per_machine_floors(a: &AcrossReport) -> Vec<Block> {
    let mut header = vec!["".to_string()];
    header.extend(a.machines.0.iter().map(|e| format!(">{}", e.name)));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new(&header);
    let cells = |values: &[Option<f64>]| -> Vec<Cell> {
        values
            .iter()
            .map(|v| v.map_or(Cell::toned("—", Tone::Muted), |v| format::ns(v).into()))
            .collect()
    };
    for f in &a.floor_walls {
        let mut row: Vec<Cell> = vec![format!("wall of {}", f.key.label()).into()];
        row.extend(cells(&f.values));
        t.row(row);
    }
    for d in &a.detection {
        let mut row: Vec<Cell> = vec![format!(
            "CPU-feature detection ({}, first op over its floor's)",
            d.key.label()
        )
        .into()];
        row.extend(cells(&d.values));
        t.row(row);
    }
    if t.rows.is_empty() {
        return Vec::new();
    }
    vec![
        h(3, "Each machine's floor"),
        p(format!("The median wall of each floor (a child that runs no library: what starting a process costs on the machine){}.", if a.detection.is_empty() { "" } else { ", and the price of detecting the CPU's features (the `cpu-features` probe's first operation over its floor's: large where CPUID traps to a hypervisor)" })),
        Block::Table(t),
    ]
}

/// `n` and `noun`, plural from 2.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub(super) fn machines(r: &Report) -> Vec<Block> {
    let Some(a) = &r.machines else {
        return Vec::new();
    };
    let shards = r.manifest.as_ref().map_or(0, |m| m.shards.len());
    let mut out = vec![h(2, "Machines")];
    if !a.machines.several() {
        // fewer shards than the split: one machine of a merged run (`report --machine`)
        let split = r
            .manifest
            .as_ref()
            .and_then(|m| m.shards.first())
            .map_or(0, |s| s.shard.count as usize);
        out.push(p(if shards < split {
            format!(
                "One machine of a run merged from {split} shards (`analysis merge`), reported alone (`--machine`): its {}; the figures above are this machine's alone.",
                plural(shards, "shard")
            )
        } else {
            format!(
                "Merged from {} (`analysis merge`), on one machine: the figures above are that machine's, as from one run.",
                plural(shards, "shard")
            )
        }));
        out.push(Block::Table(machine_table(a)));
        out.push(Block::Table(shard_table(r, a)));
        return out;
    }
    out.push(p(format!(
        "Merged from {shards} shards (`analysis merge`) on {} machines. A shard takes whole blocks, so every block, and every pair within a block, ran on one machine; shards on one machine (the same CPU model and flags, cores, kernel and virtualisation) are pooled as one. The figures above pool every machine; below, each machine apart.",
        a.machines.0.len()
    )));
    out.push(Block::Table(machine_table(a)));
    out.push(Block::Table(shard_table(r, a)));
    if let Some(reference) = &r.reference {
        out.push(h(3, format!("Ratios to {reference}, machine by machine")));
        out.push(p(format!(
            "Each machine's ratio is the Hodges-Lehmann estimate of the within-block log ratios of that machine's blocks, with its 95% interval; pooled is every machine's pairs together (the ratio of the comparisons above). Q is Cochran's heterogeneity statistic over the machines' log ratios, each weighted by the inverse square of the standard error its interval implies, on machines − 1 degrees of freedom; its p-value is Holm-adjusted across this table's comparisons. I² is the share of the machines' spread beyond what their own intervals explain (below 25% little, above 75% much). The machines disagree on a ratio when the adjusted p is below {}.",
            r.alpha
        )));
        out.push(p(disagreement_sentence(a, r.alpha)));
        let t = ratio_table(r, a);
        if !t.rows.is_empty() {
            out.push(Block::Table(t));
        }
    }
    out.extend(per_machine_floors(a));
    out
}
