//! The run's conditions, from its manifest.

use super::common::*;
use crate::analyze::runtimes::RUST;
use schema::run_folder::{CheckStatus, ChildEntry, CodecEntry};

/// The children of `codec` the manifest lists, one per op, fixture and build.
fn children_of<'a>(r: &'a Report, codec: &str) -> Vec<&'a ChildEntry> {
    r.children.iter().filter(|x| x.codec == codec).collect()
}

/// A codec's child size: the one size of all its children, or each size labelled by what
/// sets it apart (the op, the build, the fixture: the fewest of these that decide the size) when
/// they differ.
pub(super) fn child_size(r: &Report, c: &CodecEntry) -> String {
    let children = children_of(r, &c.id);
    if children.is_empty() {
        return "—".into();
    }
    type Dim = fn(&ChildEntry) -> String;
    let dims: [Dim; 3] = [
        |x| x.op.to_string(),
        |x| x.variant.to_string(),
        |x| x.fixture.clone(),
    ];
    let label = |mask: usize, x: &ChildEntry| -> String {
        (0..3)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| dims[i](x))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    // the fewest dimensions whose values decide the size (all three always do, or the
    // children repeat)
    let decides = |mask: usize| {
        children.iter().all(|a| {
            children
                .iter()
                .all(|b| label(mask, a) != label(mask, b) || a.bytes == b.bytes)
        })
    };
    let mask = [0b000, 0b001, 0b010, 0b100, 0b011, 0b101, 0b110, 0b111]
        .into_iter()
        .find(|&m| decides(m))
        .unwrap_or(0b111);
    let mut seen = Vec::new();
    for x in &children {
        let entry = match label(mask, x) {
            l if l.is_empty() => format::bytes(x.bytes as f64),
            l => format!("{l} {}", format::bytes(x.bytes as f64)),
        };
        if !seen.contains(&entry) {
            seen.push(entry);
        }
    }
    seen.join(", ")
}

/// The first 16 hex digits of a codec's child's SHA-256 when all its children share one;
/// how many differ otherwise (summary.json lists them).
fn child_sha(r: &Report, c: &CodecEntry) -> String {
    let children = children_of(r, &c.id);
    if children.is_empty() {
        return String::new();
    }
    let mut shas: Vec<&str> = children.iter().map(|x| x.sha256.as_str()).collect();
    shas.sort_unstable();
    shas.dedup();
    match shas[..] {
        [one] => one.chars().take(16).collect(),
        _ => format!("{} children (summary.json)", shas.len()),
    }
}

pub(super) fn conditions(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Run conditions")];
    if r.conditions.is_empty() {
        out.push(p("No manifest: conditions unknown."));
    } else {
        let mut t = Table::new(&["", "value"]);
        for (k, v) in &r.conditions {
            t.row(vec![k.clone().into(), v.clone().into()]);
        }
        out.push(Block::Table(t));
    }
    if !r.codecs.is_empty() {
        out.push(h(3, "Codecs"));
        out.push(codecs_table(r));
    }
    if !r.fixtures.is_empty() {
        out.push(h(3, "Fixtures"));
        out.push(fixtures_table(r));
    }
    if !r.verification.is_empty() {
        out.extend(verification(r));
    }
    out
}

/// The run's codecs, grouped by runtime: library, version, style, and the child's size and hash.
fn codecs_table(r: &Report) -> Block {
    let runtimes = r.codecs.iter().any(|c| c.runtime.is_some());
    let mut header = vec!["codec", "library", "version", "style"];
    if runtimes {
        header.push("runtime");
    }
    header.extend(["~child size", "child SHA-256"]);
    let mut t = Table::new(&header);
    // grouped by runtime as the other tables are (stable: the manifest's order within)
    let mut codecs: Vec<&CodecEntry> = r.codecs.iter().collect();
    codecs.sort_by_key(|c| {
        let name = c.runtime.as_deref().unwrap_or(RUST);
        r.runtimes
            .0
            .iter()
            .position(|rt| rt.name == name)
            .unwrap_or(usize::MAX)
    });
    for c in codecs {
        let mut row: Vec<Cell> = vec![
            c.id.clone().into(),
            c.library.clone().into(),
            c.version.clone().into(),
            c.style.name().into(),
        ];
        if runtimes {
            row.push(c.runtime.as_deref().unwrap_or(RUST).into());
        }
        row.push(child_size(r, c).into());
        row.push(child_sha(r, c).into());
        t.row(row);
    }
    Block::Table(t)
}

/// The fixtures with their size and hash.
fn fixtures_table(r: &Report) -> Block {
    let mut t = Table::new(&["fixture", ">bytes", "SHA-256"]);
    for f in &r.fixtures {
        t.row(vec![
            f.name.clone().into(),
            format::count(f.bytes as f64).into(),
            f.sha256.chars().take(16).collect::<String>().into(),
        ]);
    }
    Block::Table(t)
}

/// How many of the output checks passed, and the ones that did not.
fn verification(r: &Report) -> Vec<Block> {
    let mut out = Vec::new();
    let passed = r
        .verification
        .iter()
        .filter(|v| v.status == CheckStatus::Pass)
        .count();
    out.push(h(3, "Verification"));
    out.push(p(format!(
        "Every codec's output on every fixture was checked against the reference before anything was measured: {passed} of {} checks passed; the others are listed.",
        r.verification.len()
    )));
    let mut t = Table::new(&["codec", "fixture", "op", "status", "~detail"]);
    for v in r
        .verification
        .iter()
        .filter(|v| v.status != CheckStatus::Pass)
    {
        let tone = if v.status == CheckStatus::Fail {
            Tone::Bad
        } else {
            Tone::Muted
        };
        t.row(vec![
            v.codec.clone().into(),
            v.fixture.clone().into(),
            v.op.into(),
            Cell::toned(v.status.name(), tone),
            v.detail.clone().into(),
        ]);
    }
    if !t.rows.is_empty() {
        out.push(Block::Table(t));
    }
    out
}
