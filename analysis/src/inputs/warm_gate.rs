//! The warm track's gate decisions, `results/warm/gate.csv`: for every fixture × op × codec it
//! considered, whether it ran, was unsupported (with the library's reason) or was refused by the
//! correctness gate. The report uses it to show such cells as what they are, not as blanks.

use anyhow::Result;
use files::csv_rows::read_rows;
pub(crate) use schema::warm_files::GateRow;
use std::path::Path;

/// The decisions, plus a note if the last line was cut; `None` when the file does not exist.
pub(crate) fn load_gate(path: &Path) -> Result<Option<(Vec<GateRow>, Option<String>)>> {
    if !path.is_file() {
        return Ok(None);
    }
    read_rows::<GateRow>(path).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::warm_files::GateDecision;

    #[test]
    fn reads_the_warm_gate_format() {
        let d = std::env::temp_dir().join(format!("thaw-gate-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("gate.csv");
        std::fs::write(
            &p,
            "fixture,op,codec,decision,reason\n\
             users-1kb,ser,jiter,unsupported,jiter is a parser only: it has no writer\n\
             users-1kb,de,serde_json,run,\n",
        )
        .unwrap();
        let (rows, note) = load_gate(&p).unwrap().unwrap();
        assert!(note.is_none());
        assert_eq!(rows[0].decision, GateDecision::Unsupported);
        assert!(rows[0].reason.contains("no writer"));
        assert_eq!(rows[1].reason, "");
        assert!(load_gate(&d.join("absent.csv")).unwrap().is_none());
    }
}
