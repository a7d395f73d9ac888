//! `alloc` as a user runs it writes an alloc.csv that reads back as the report reads it: one
//! row per supported cell, with the counts the binary printed.

use schema::warm_files::AllocRow;
use schema::{Op, Variant};
use std::process::Command;

#[test]
fn alloc_csv_reads_back_cell_by_cell() {
    let dir = std::env::temp_dir().join(format!("thaw-alloc-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("alloc.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_alloc"))
        .args([
            "--fixtures",
            "users-1kb",
            "--codecs",
            "noop,serde_json,jiter",
        ])
        .args(["--warmup", "1", "--iterations", "3", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{said}");

    let (rows, torn) = files::csv_rows::read_rows::<AllocRow>(&out).unwrap();
    assert!(torn.is_none());
    let cells: Vec<(&str, Op)> = rows.iter().map(|r| (r.codec.as_str(), r.op)).collect();
    // jiter has no writer: its ser cell is unsupported, not a row of zeros.
    assert_eq!(cells.len(), 5, "{cells:?}");
    assert!(!cells.contains(&("jiter", Op::Ser)), "{cells:?}");
    let row = |codec: &str, op: Op| {
        rows.iter()
            .find(|r| r.codec == codec && r.op == op)
            .unwrap()
    };
    // Known answers: the baseline's de returns the input's length as one 8-byte vector; a ser
    // into the reused output buffer allocates nothing once warm; a typed decode of 1 KB
    // allocates (strings, vectors).
    let noop_de = row("noop", Op::De);
    assert_eq!(
        (
            noop_de.allocs_per_op,
            noop_de.bytes_per_op,
            noop_de.peak_live_bytes
        ),
        (1.0, 8.0, 8.0)
    );
    assert_eq!(row("serde_json", Op::Ser).allocs_per_op, 0.0);
    let serde_de = row("serde_json", Op::De);
    assert!(
        serde_de.allocs_per_op >= 1.0 && serde_de.bytes_per_op >= 100.0,
        "{serde_de:?}"
    );
    assert!(serde_de.peak_live_bytes >= serde_de.bytes_per_op / serde_de.allocs_per_op);
    assert!(rows.iter().all(|r| r.fixture == "users-1kb"));
    assert!(rows.iter().all(|r| r.variant == Some(Variant::PORTABLE)));
    // The figures printed are the ones written.
    let figure = schema::warm_files::figure_text(serde_de.bytes_per_op);
    assert!(said.contains(&figure), "{figure} not in: {said}");
    std::fs::remove_dir_all(&dir).unwrap();
}
