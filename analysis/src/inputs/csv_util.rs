//! One way to read a CSV file of serde rows, with errors that name the file and the line.

use anyhow::{anyhow, Context, Result};
use serde::de::DeserializeOwned;
use std::path::Path;

/// Rows of `path`, plus a note when only the last line was malformed (a run killed mid-write):
/// that line is dropped rather than failing the whole read. Any other bad line is an error
/// naming the file and line.
pub fn read_rows<T: DeserializeOwned>(path: &Path) -> Result<(Vec<T>, Option<String>)> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let results: Vec<Result<T, csv::Error>> = rdr.deserialize().collect();
    let last = results.len().saturating_sub(1);
    let mut rows = Vec::with_capacity(results.len());
    let mut note = None;
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(row) => rows.push(row),
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                if i == last && i > 0 {
                    note = Some(format!(
                        "{}: last line ({line}) is incomplete and was skipped ({e})",
                        path.display()
                    ));
                } else {
                    return Err(anyhow!("{e}"))
                        .with_context(|| format!("{}: line {line}", path.display()));
                }
            }
        }
    }
    Ok((rows, note))
}
