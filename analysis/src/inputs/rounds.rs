//! What the warm harnesses of the other runtimes have in common once read: one figure of one
//! cell in one fork round (a fresh process), named `codec=<id>/fixture=<name>/op=<de|ser>` after
//! each harness's own prefix (Go's `go test -bench`, Python's pyperf, Node's mitata), and a
//! cell's figure as the median of its rounds' with the distribution-free interval across them
//! ([`super::forks::across`], as the Rust track's forks). Also the bounded reading of a folder's
//! result files, links never followed, each file that cannot be read skipped with a note.

use super::criterion::WarmEstimate;
use anyhow::Result;
use files::Kind;
use schema::{Op, Variant};
use std::collections::BTreeMap;
use std::path::Path;

/// One figure of one cell in one fork round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RoundResult {
    pub(crate) codec: String,
    pub(crate) fixture: String,
    pub(crate) op: Op,
    /// The fork round (a fresh process) it was measured in (0 where none was given).
    pub(crate) fork: u32,
    pub(crate) ns_per_op: f64,
}

/// The cell a name's rest names: exactly `codec=<id>/fixture=<name>/op=<de|ser>`, each name
/// checked as the store checks it; `shown` (the whole name) is escaped in the reason otherwise.
pub(crate) fn cell(rest: &str, shown: &str) -> std::result::Result<(String, String, Op), String> {
    let escaped = || shown.escape_debug().to_string();
    let parts: Vec<(&str, &str)> = rest.split('/').filter_map(|p| p.split_once('=')).collect();
    let named = |k: &str| parts.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let (Some(codec), Some(fixture), Some(op), 3) =
        (named("codec"), named("fixture"), named("op"), parts.len())
    else {
        return Err(format!(
            "`{}` does not end in codec=<id>/fixture=<name>/op=<de|ser>",
            escaped()
        ));
    };
    schema::rows::check_name("codec", codec).map_err(|e| format!("`{}`: {e}", escaped()))?;
    schema::rows::check_name("fixture", fixture).map_err(|e| format!("`{}`: {e}", escaped()))?;
    let op = Op::parse(op).map_err(|_| format!("`{}`: op is de or ser", escaped()))?;
    Ok((codec.to_string(), fixture.to_string(), op))
}

/// One figure per cell from `results`, of build `variant`: the median of each fork round's
/// figures (the median of the round's, where a round measured a cell more than once), across
/// rounds.
pub(crate) fn estimates(results: &[RoundResult], variant: &str) -> Vec<WarmEstimate> {
    let variant = Variant::parse(variant).ok();
    let mut cells: BTreeMap<(String, Op, String), BTreeMap<u32, Vec<f64>>> = BTreeMap::new();
    for r in results {
        cells
            .entry((r.fixture.clone(), r.op, r.codec.clone()))
            .or_default()
            .entry(r.fork)
            .or_default()
            .push(r.ns_per_op);
    }
    cells
        .into_iter()
        .filter_map(|((fixture, op, codec), rounds)| {
            let (forks, processes): (Vec<u32>, Vec<WarmEstimate>) = rounds
                .into_iter()
                .filter_map(|(fork, ns)| {
                    let ns = stats::quantile::median(&stats::quantile::sorted(&ns))?;
                    Some((
                        fork,
                        WarmEstimate {
                            fixture: fixture.clone(),
                            op,
                            codec: codec.clone(),
                            variant,
                            median_ns: ns,
                            lo_ns: ns,
                            hi_ns: ns,
                            criterion_samples: None,
                            fastest: None,
                            forks: None,
                            allocator: None,
                            // these harnesses' figures are one per run, not samples by size
                            size_effects: Vec::new(),
                        },
                    ))
                })
                .unzip();
            super::forks::across(&processes, &forks)
        })
        .collect()
}

/// Files' texts, each with its path as shown, and notes about the files skipped.
pub(crate) type Texts = (Vec<(String, String)>, Vec<String>);

/// The text of every file directly in `root` whose name ends in `.<ext>`, by name, each named as
/// shown, and notes naming each file skipped (a link or other non-file, one over `limit` bytes,
/// one not UTF-8). `None` when `root` does not exist.
pub(crate) fn texts(root: &Path, ext: &str, limit: u64) -> Result<Option<Texts>> {
    if !root.is_dir() {
        return Ok(None);
    }
    let mut notes = Vec::new();
    let mut out = Vec::new();
    let mut entries: Vec<_> = files::entries(root)?
        .into_iter()
        .filter(|e| Path::new(&e.name).extension().is_some_and(|x| x == ext))
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    for entry in entries {
        let shown = entry.path.display().to_string();
        if entry.kind != Kind::File {
            notes.push(format!(
                "{shown}: not a regular file (thaw follows no link below {}); skipped",
                root.display()
            ));
            continue;
        }
        match files::read_regular(&entry.path, limit)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 text".to_string()))
        {
            Ok(t) => out.push((shown, t)),
            Err(why) => notes.push(format!("{shown}: cannot read it: {why}; skipped")),
        }
    }
    Ok(Some((out, notes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_exactly_three_named_parts() {
        assert_eq!(
            cell("codec=sonic/fixture=users-2kb/op=de", "x"),
            Ok(("sonic".into(), "users-2kb".into(), Op::De))
        );
        for bad in [
            "codec=sonic/op=de",
            "codec=sonic/fixture=users-2kb/op=both",
            "codec=sonic/fixture=users-2kb/op=de/extra=1",
            "codec=so\u{1b}nic/fixture=users-2kb/op=de",
        ] {
            let why = cell(bad, bad).unwrap_err();
            assert!(!why.contains('\u{1b}'), "{why}");
        }
    }
}
