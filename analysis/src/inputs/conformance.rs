//! The conformance table, `results/conformance/conformance.csv`: one row per codec × test file
//! with what was expected (`y` must accept, `n` must reject, `i` either) and what happened.

use super::csv_util::read_rows;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConformanceRow {
    pub codec: String,
    pub file: String,
    /// `y`, `n` or `i`.
    pub expected: String,
    /// `accepted`, `rejected`, `crashed` or `timeout`.
    pub outcome: String,
    pub correct: bool,
    /// Why, when the conformance runner says (optional column).
    #[serde(default)]
    pub detail: Option<String>,
}

/// The rows, plus a note if the last line was cut; `None` when the file does not exist.
pub fn load_conformance(path: &Path) -> Result<Option<(Vec<ConformanceRow>, Option<String>)>> {
    if !path.is_file() {
        return Ok(None);
    }
    Ok(Some(read_rows::<ConformanceRow>(path)?))
}
