//! The warm track's allocation table, `results/warm/alloc.csv`: allocations, bytes and peak live
//! bytes per operation, per fixture × op × codec (a `variant` column is optional).

use anyhow::Result;
use schema::csv_rows::read_rows;
pub use schema::warm_files::AllocRow;
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_warm_alloc_format() {
        let d = std::env::temp_dir().join(format!("thaw-alloc-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("alloc.csv");
        std::fs::write(
            &p,
            "fixture,op,codec,allocs_per_op,bytes_per_op,peak_live_bytes,variant\n\
             users-2kb,de,serde_json,41,3120.5,4096,portable\n\
             users-1kb,ser,noop,0,0,0,portable\n",
        )
        .unwrap();
        let (rows, note) = load_alloc(&p).unwrap().unwrap();
        assert!(note.is_none());
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].codec, "serde_json"); // sorted by fixture
        assert_eq!(rows[1].bytes_per_op, 3120.5);
        assert_eq!(rows[1].variant, Some(schema::Variant::PORTABLE));
        assert!(load_alloc(&d.join("absent.csv")).unwrap().is_none());
    }
}
