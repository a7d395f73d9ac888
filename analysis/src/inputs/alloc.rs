//! The warm track's allocation table, `results/warm/alloc.csv`: allocations, bytes and peak live
//! bytes per operation, per fixture × op × codec (a `variant` column is optional).

use super::csv_util::read_rows;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocRow {
    pub fixture: String,
    pub op: String,
    pub codec: String,
    #[serde(default)]
    pub variant: Option<String>,
    pub allocs_per_op: f64,
    pub bytes_per_op: f64,
    pub peak_live_bytes: f64,
}

/// The table sorted by fixture, op, codec, plus a note if its last line was cut; `None` when
/// the file does not exist.
pub fn load_alloc(path: &Path) -> Result<Option<(Vec<AllocRow>, Option<String>)>> {
    if !path.is_file() {
        return Ok(None);
    }
    let (mut rows, note) = read_rows::<AllocRow>(path)?;
    rows.sort_by(|a, b| (&a.fixture, &a.op, &a.codec).cmp(&(&b.fixture, &b.op, &b.codec)));
    Ok(Some((rows, note)))
}
