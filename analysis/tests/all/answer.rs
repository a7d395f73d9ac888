//! README.md's answer table is `analysis answer`'s output on the committed runs (`docs/runs/`):
//! a figure on the front page changes only by committing a new run, never by typing.

use std::path::Path;
use std::process::Command;

/// README.md's block between its answer markers, without them.
fn readme_block(readme: &str) -> Option<&str> {
    let start = readme.find("<!-- answer: written by")?;
    let body = &readme[start..];
    let body = &body[body.find('\n')? + 1..];
    let end = body.find("<!-- answer: end -->")?;
    Some(&body[..end])
}

#[test]
fn the_readme_answer_table_is_what_the_committed_runs_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let runs = root.join("docs/runs");
    let committed = std::fs::read_dir(&runs)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .count()
        })
        .unwrap_or(0);
    assert!(committed > 0, "no committed run in {}", runs.display());
    let out = Command::new(env!("CARGO_BIN_EXE_analysis"))
        .arg("answer")
        .current_dir(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "analysis answer failed: {stderr}");
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("| question |"), "{table}");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block = readme_block(&readme).expect("README.md has the answer markers");
    assert_eq!(
        block.trim(),
        table.trim(),
        "README.md's answer table differs from `cargo run --release -p analysis -- answer`: paste its output between the markers"
    );
}
