//! The allocation and conformance tables, where those files exist.

use super::common::*;

pub(super) fn allocations(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Allocations (warm)")];
    let Some(rows) = &r.alloc else {
        out.push(p(format!(
            "Absent: no allocation table at {} (run `cargo run --release -p warm --bin alloc`).",
            r.alloc_source.path
        )));
        return out;
    };
    out.push(p(format!(
        "From {}: heap allocations and bytes allocated per operation in a warm loop, and the peak of live heap bytes during one operation.",
        r.alloc_source.path
    )));
    let scenarios = chart_data::scenarios(r);
    let in_run: Vec<_> = rows
        .iter()
        .filter(|a| {
            scenarios.iter().any(|s| {
                s.fixture == a.fixture && s.op == a.op && a.variant.is_none_or(|v| v == s.variant)
            })
        })
        .collect();
    let beyond_run = in_run.len() < rows.len();
    if !in_run.is_empty() {
        out.push(h(3, "On the run's fixtures"));
        let mut t = Table::new(&[
            "fixture",
            "op",
            "codec",
            ">allocations / op",
            ">bytes / op",
            ">peak live",
        ]);
        for a in in_run {
            t.row(vec![
                a.fixture.clone().into(),
                a.op.name().into(),
                a.codec.clone().into(),
                format::amount(a.allocs_per_op).into(),
                format::bytes(a.bytes_per_op).into(),
                format::bytes(a.peak_live_bytes).into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    let mut keys: Vec<(&str, schema::Op, Option<schema::Variant>)> = rows
        .iter()
        .map(|a| (a.fixture.as_str(), a.op, a.variant))
        .collect();
    keys.dedup();
    if beyond_run {
        out.push(h(3, "Every fixture: allocations per operation"));
        let mut codecs: Vec<&str> = rows.iter().map(|a| a.codec.as_str()).collect();
        codecs.sort_unstable();
        codecs.dedup();
        let variants = keys.iter().any(|k| k.2 != keys[0].2);
        let mut header = vec!["fixture", "op"];
        if variants {
            header.push("variant");
        }
        let cols: Vec<String> = codecs.iter().map(|c| format!(">{c}")).collect();
        header.extend(cols.iter().map(String::as_str));
        let mut t = Table::new(&header);
        for &(fixture, op, v) in &keys {
            let mut row: Vec<Cell> = vec![fixture.into(), op.name().into()];
            if variants {
                row.push(v.map_or("", schema::Variant::name).into());
            }
            for c in &codecs {
                let a = rows.iter().find(|a| {
                    a.fixture == fixture && a.op == op && a.variant == v && a.codec == *c
                });
                row.push(a.map_or(Cell::new(""), |a| format::amount(a.allocs_per_op).into()));
            }
            t.row(row);
        }
        out.push(Block::Table(t));
    }
    out
}

pub(super) fn conformance(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Conformance")];
    let Some(rows) = &r.conformance else {
        out.push(p(format!(
            "Absent: no conformance table at {}.",
            r.conformance_source.path
        )));
        return out;
    };
    out.push(p(format!("From {}: each codec's parser on the JSON test suite; y files must be accepted, n files rejected, i files may go either way.", r.conformance_source.path)));
    let mut t = Table::new(&[
        "codec",
        ">files",
        ">correct",
        ">valid rejected",
        ">invalid accepted",
        ">i accepted",
        ">i rejected",
        ">crashed",
        ">timeout",
    ]);
    let bad = |n: usize| Cell::toned(n.to_string(), if n > 0 { Tone::Bad } else { Tone::Plain });
    for s in rows {
        t.row(vec![
            s.codec.clone().into(),
            s.files.to_string().into(),
            s.correct.to_string().into(),
            bad(s.rejected_valid),
            bad(s.accepted_invalid),
            s.impl_accepted.to_string().into(),
            s.impl_rejected.to_string().into(),
            bad(s.crashed),
            bad(s.timeout),
        ]);
    }
    out.push(Block::Table(t));
    if !r.conformance_failures.is_empty() {
        const SHOW: usize = 60;
        let mut items: Vec<String> = r
            .conformance_failures
            .iter()
            .take(SHOW)
            .map(|f| {
                let detail = f.detail.as_deref().filter(|d| !d.is_empty());
                let detail = detail.map_or(String::new(), |d| format!(": {d}"));
                format!(
                    "{}: {} (expected {}, {}){detail}",
                    f.codec, f.file, f.expected, f.outcome
                )
            })
            .collect();
        if r.conformance_failures.len() > SHOW {
            items.push(format!(
                "… and {} more in summary.json",
                r.conformance_failures.len() - SHOW
            ));
        }
        out.push(h(3, "Incorrect outcomes"));
        out.push(Block::List(items));
    }
    out
}
