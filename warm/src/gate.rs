//! The cells of a warm run and the correctness gate in front of them: every codec × fixture ×
//! op is checked by `fixtures::gate` before the first measurement, and each gets a
//! [`Decision`]: run it, skip it as unsupported (with the library's reason), or refuse it
//! because the codec misread the fixture. A refused cell is never timed.
//!
//! Not for timing or counting: see `run`, `bench` and the `alloc` binary.

use codecs::verify::GateVerdict;
use codecs::{AnyCodec, Op};
use fixtures::catalog::Fixture;
pub use fixtures::gate::Document;
use schema::warm_files::{GateDecision, GateRow};
use std::collections::BTreeMap;
use std::path::Path;

/// The documents of `fixtures`, and a line for each one left out (a corpus without its folder
/// is left out with a single line for all three).
pub fn load_documents(
    fixtures: &[&'static Fixture],
    seed: u64,
    corpora: Option<&Path>,
) -> (Vec<Document>, Vec<String>) {
    let mut documents = Vec::new();
    let mut notes = Vec::new();
    let mut corpora_missing = false;
    for &fixture in fixtures {
        if fixture.is_corpus() && corpora.is_none() {
            corpora_missing = true;
            continue;
        }
        match Document::make(fixture, seed, corpora) {
            Ok(document) => documents.push(document),
            Err(e) => notes.push(format!("{e}; skipped")),
        }
    }
    if corpora_missing {
        notes.push(crate::settings::corpora_skipped_line());
    }
    (documents, notes)
}

/// What the gate decided for one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Verified (or the `noop` baseline, which has no value to check): measure it.
    Run,
    /// The library cannot express this cell; the reason is the library's.
    Unsupported(&'static str),
    /// The codec failed the correctness gate; never measured. Holds what went wrong.
    Refused(String),
}

impl Decision {
    pub fn from_verdict(verdict: GateVerdict) -> Decision {
        match verdict {
            GateVerdict::Pass | GateVerdict::Baseline => Decision::Run,
            GateVerdict::Unsupported(why) => Decision::Unsupported(why),
            GateVerdict::Fail(why) => Decision::Refused(why),
        }
    }
}

/// One cell and its decision.
#[derive(Debug, Clone)]
pub struct Cell {
    pub fixture: &'static str,
    pub op: Op,
    pub codec: &'static str,
    pub decision: Decision,
}

impl Cell {
    pub fn id(&self) -> String {
        crate::bench_id(self.fixture, self.op, self.codec)
    }
}

/// Every cell of a run, gated, in document × op × codec order.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub cells: Vec<Cell>,
}

/// Runs the gate over every document × codec × op given.
pub fn gate(documents: &[Document], codecs: &[&'static dyn AnyCodec], ops: &[Op]) -> Plan {
    let cells = fixtures::gate::verify_documents(codecs, documents, ops)
        .into_iter()
        .map(|check| Cell {
            fixture: check.fixture,
            op: check.op,
            codec: check.codec,
            decision: Decision::from_verdict(check.verdict),
        })
        .collect();
    Plan { cells }
}

impl Plan {
    /// The decision for one cell, `None` when it is not in the plan.
    pub fn decision(&self, fixture: &str, op: Op, codec: &str) -> Option<&Decision> {
        self.cells
            .iter()
            .find(|c| c.fixture == fixture && c.op == op && c.codec == codec)
            .map(|c| &c.decision)
    }

    /// Writes every cell's decision as CSV (fixture, op, codec, decision, reason), so that the
    /// report can show a cell a library cannot express as unsupported rather than as missing.
    pub fn write_decisions(&self, path: &std::path::Path) -> anyhow::Result<()> {
        use anyhow::Context;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let rows: Vec<GateRow> = self
            .cells
            .iter()
            .map(|cell| {
                let (decision, reason) = match &cell.decision {
                    Decision::Run => (GateDecision::Run, ""),
                    Decision::Unsupported(why) => (GateDecision::Unsupported, *why),
                    Decision::Refused(why) => (GateDecision::Refused, why.as_str()),
                };
                GateRow {
                    fixture: cell.fixture.to_string(),
                    op: cell.op,
                    codec: cell.codec.to_string(),
                    decision,
                    reason: reason.to_string(),
                }
            })
            .collect();
        files::csv_rows::write_rows(path, &rows)
    }

    pub fn runnable(&self) -> impl Iterator<Item = &Cell> {
        self.cells.iter().filter(|c| c.decision == Decision::Run)
    }

    pub fn refused(&self) -> impl Iterator<Item = &Cell> {
        self.cells
            .iter()
            .filter(|c| matches!(c.decision, Decision::Refused(_)))
    }

    /// What a reader is told before the first measurement: one line per refused cell, and the
    /// unsupported cells one line per codec and reason.
    pub fn report_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for cell in self.refused() {
            if let Decision::Refused(why) = &cell.decision {
                lines.push(format!(
                    "REFUSED {}: failed the correctness gate, not measured: {why}",
                    cell.id()
                ));
            }
        }
        let mut unsupported: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
        for cell in &self.cells {
            if let Decision::Unsupported(why) = cell.decision {
                unsupported
                    .entry((cell.codec, why))
                    .or_default()
                    .push(crate::group_name(cell.fixture, cell.op));
            }
        }
        for ((codec, why), where_) in unsupported {
            lines.push(format!(
                "unsupported, skipped: {codec} on {}: {why}",
                where_.join(", ")
            ));
        }
        let refused = self.refused().count();
        lines.push(format!(
            "correctness gate: {} cells to measure, {} unsupported, {refused} refused",
            self.runnable().count(),
            self.cells.len() - self.runnable().count() - refused,
        ));
        lines
    }
}

/// Keeps the items whose name is in `wanted` (all of them when `wanted` is empty); an unknown
/// name is an error that lists the known ones.
pub fn select<T: Copy>(
    what: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    wanted: &[String],
) -> anyhow::Result<Vec<T>> {
    if wanted.is_empty() {
        return Ok(all.to_vec());
    }
    for w in wanted {
        if !all.iter().any(|&item| name(item) == w) {
            let known: Vec<&str> = all.iter().map(|&item| name(item)).collect();
            anyhow::bail!("unknown {what} `{w}`; known: {}", known.join(", "));
        }
    }
    Ok(all
        .iter()
        .copied()
        .filter(|&item| wanted.iter().any(|w| w == name(item)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use doubles::Broken;
    use fixtures::catalog::find;

    fn small() -> Vec<Document> {
        let (documents, notes) =
            load_documents(&[find("small").unwrap()], fixtures::DEFAULT_SEED, None);
        assert!(notes.is_empty(), "{notes:?}");
        documents
    }

    #[test]
    fn the_gate_refuses_a_codec_that_misreads() {
        let documents = small();
        let plan = gate(&documents, &[codecs::any::<Broken>()], &Op::ALL);
        assert_eq!(plan.runnable().count(), 0);
        assert_eq!(plan.refused().count(), 2);
        let lines = plan.report_lines();
        assert!(lines[0].starts_with("REFUSED small/ser/broken: failed the correctness gate"));
        assert!(lines[1].starts_with("REFUSED small/de/broken"));
    }

    #[test]
    fn the_gate_passes_real_codecs_and_skips_what_they_cannot_express() {
        let documents = small();
        let plan = gate(&documents, &codecs::registry(), &Op::ALL);
        assert_eq!(
            plan.decision("small", Op::De, "serde_json"),
            Some(&Decision::Run)
        );
        assert_eq!(
            plan.decision("small", Op::Ser, "noop"),
            Some(&Decision::Run)
        );
        assert!(matches!(
            plan.decision("small", Op::Ser, "jiter"),
            Some(Decision::Unsupported(_))
        ));
        assert_eq!(plan.refused().count(), 0, "{:?}", plan.report_lines());
        assert!(plan
            .report_lines()
            .iter()
            .any(|l| l.starts_with("unsupported, skipped: jiter on small/ser")));
    }

    #[test]
    fn corpora_without_a_folder_are_skipped_with_one_line() {
        let corpora: Vec<&'static Fixture> = fixtures::FIXTURES
            .iter()
            .filter(|f| f.is_corpus())
            .collect();
        let (documents, notes) = load_documents(&corpora, fixtures::DEFAULT_SEED, None);
        assert!(documents.is_empty());
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("THAW_CORPORA"));
    }

    #[test]
    fn selection_by_name() {
        let all = ["a", "b", "c"];
        let pick = |w: &[&str]| {
            let wanted: Vec<String> = w.iter().map(|s| s.to_string()).collect();
            select("thing", &all, |s| s, &wanted)
        };
        assert_eq!(pick(&[]).unwrap(), all);
        assert_eq!(pick(&["c", "a"]).unwrap(), ["a", "c"]);
        let err = pick(&["d"]).unwrap_err().to_string();
        assert!(err.contains("unknown thing `d`; known: a, b, c"), "{err}");
    }

    #[test]
    fn the_decisions_file_names_every_cell_and_why() {
        let documents = small();
        let mut all = codecs::registry();
        all.push(codecs::any::<Broken>());
        let plan = gate(&documents, &all, &Op::ALL);
        let path = std::env::temp_dir().join(format!("thaw-warm-gate-{}.csv", std::process::id()));
        plan.write_decisions(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // Read back as the report reads it: one row per cell, in the plan's order.
        let (rows, torn) = files::csv_rows::read_rows::<GateRow>(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(torn.is_none());
        assert_eq!(rows.len(), plan.cells.len());
        for (row, cell) in rows.iter().zip(&plan.cells) {
            assert_eq!(
                (row.fixture.as_str(), row.op, row.codec.as_str()),
                (cell.fixture, cell.op, cell.codec)
            );
            let decided = match &cell.decision {
                Decision::Run => GateDecision::Run,
                Decision::Unsupported(_) => GateDecision::Unsupported,
                Decision::Refused(_) => GateDecision::Refused,
            };
            assert_eq!(row.decision, decided, "{}", cell.id());
        }
        assert_eq!(text.lines().count(), 1 + plan.cells.len());
        assert!(text.starts_with("fixture,op,codec,decision,reason\n"));
        assert!(text.contains("small,de,serde_json,run,\n"));
        assert!(text.contains("small,ser,jiter,unsupported,jiter is a parser only"));
        assert!(text.contains("small,de,broken,refused,"));
    }
}
