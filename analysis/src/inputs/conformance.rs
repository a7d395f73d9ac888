//! The conformance table, `results/conformance/conformance.csv`: one row per codec × test file
//! with what was expected (`y` must accept, `n` must reject, `i` either) and what happened.

use anyhow::Result;
use files::csv_rows::read_rows;
pub(crate) use schema::conformance_file::ConformanceRow;
use std::path::Path;

/// The rows, plus a note if the last line was cut; `None` when the file does not exist.
pub(crate) fn load_conformance(
    path: &Path,
) -> Result<Option<(Vec<ConformanceRow>, Option<String>)>> {
    if !path.is_file() {
        return Ok(None);
    }
    Ok(Some(read_rows::<ConformanceRow>(path)?))
}
