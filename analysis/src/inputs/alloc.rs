//! The warm track's allocation table, `results/warm/alloc.csv`: allocations, bytes and peak live
//! bytes per operation, per fixture × op × codec (a `variant` column is optional).

use anyhow::{ensure, Result};
use files::csv_rows::for_each_row;
pub(crate) use schema::warm_files::AllocRow;
use std::path::Path;

/// The most a count per operation can plausibly be (a terabyte a call).
const MAX_PER_OP: f64 = 1e12;

/// The table sorted by fixture, op, codec, plus a note if its last line was cut; `None` when
/// the file does not exist. A row with a name that is not one, or a figure that no operation can
/// have (not a number, infinite, negative, beyond 10^12), is refused with its line.
pub(crate) fn load_alloc(path: &Path) -> Result<Option<(Vec<AllocRow>, Option<String>)>> {
    if !path.is_file() {
        return Ok(None);
    }
    let mut rows = Vec::new();
    let note = for_each_row(path, |row: AllocRow| {
        schema::rows::check_name("codec", &row.codec)?;
        schema::rows::check_name("fixture", &row.fixture)?;
        for (name, v) in [
            ("allocs_per_op", row.allocs_per_op),
            ("bytes_per_op", row.bytes_per_op),
            ("peak_live_bytes", row.peak_live_bytes),
        ] {
            ensure!(
                v.is_finite() && (0.0..=MAX_PER_OP).contains(&v),
                "{name} = {v}: a count per operation is a finite number from 0 to 10^12"
            );
        }
        rows.push(row);
        Ok(())
    })?;
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
        for bad in ["NaN", "inf", "-5", "1e308"] {
            std::fs::write(
                &p,
                format!(
                    "fixture,op,codec,allocs_per_op,bytes_per_op,peak_live_bytes\n\
                     users-2kb,de,serde_json,41,{bad},4096\n"
                ),
            )
            .unwrap();
            let e = format!("{:#}", load_alloc(&p).unwrap_err());
            assert!(
                e.contains("line 2") && e.contains("bytes_per_op"),
                "{bad}: {e}"
            );
        }
    }
}
