//! The run's conditions, from its manifest.

use super::*;

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
        let mut t = Table::new(&[
            "codec",
            "library",
            "version",
            "style",
            ">child size",
            "child SHA-256",
        ]);
        for c in &r.codecs {
            t.row(vec![
                c.id.clone().into(),
                c.library.clone().into(),
                c.version.clone().into(),
                c.style.map_or("", schema::Style::name).into(),
                c.child_bytes
                    .map_or("—".into(), |b| format::bytes(b as f64))
                    .into(),
                c.child_sha256
                    .as_deref()
                    .unwrap_or("")
                    .chars()
                    .take(16)
                    .collect::<String>()
                    .into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    if !r.fixtures.is_empty() {
        out.push(h(3, "Fixtures"));
        let mut t = Table::new(&["fixture", ">bytes", "SHA-256"]);
        for f in &r.fixtures {
            t.row(vec![
                f.name.clone().into(),
                format::count(f.bytes as f64).into(),
                f.sha256.chars().take(16).collect::<String>().into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    if !r.verification.is_empty() {
        let passed = r.verification.iter().filter(|v| v.status == "pass").count();
        out.push(h(3, "Verification"));
        out.push(p(format!(
            "Every codec's output on every fixture was checked against the reference before anything was measured: {passed} of {} checks passed; the others are listed.",
            r.verification.len()
        )));
        let mut t = Table::new(&["codec", "fixture", "op", "status", "~detail"]);
        for v in r.verification.iter().filter(|v| v.status != "pass") {
            let tone = if v.status == "fail" {
                Tone::Bad
            } else {
                Tone::Muted
            };
            t.row(vec![
                v.codec.clone().into(),
                v.fixture.clone().into(),
                v.op.into(),
                Cell::toned(v.status.clone(), tone),
                v.detail.clone().into(),
            ]);
        }
        if !t.rows.is_empty() {
            out.push(Block::Table(t));
        }
    }
    out
}
