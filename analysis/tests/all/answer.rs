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

/// The bytes of every file under `dir`.
fn size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| {
                    let p = e.path();
                    if p.is_dir() {
                        size(&p)
                    } else {
                        e.metadata().map_or(0, |m| m.len())
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn each_committed_run_is_raw_and_small() {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/runs");
    let mut all = 0;
    for runtime in std::fs::read_dir(&runs).unwrap().filter_map(Result::ok) {
        for run in std::fs::read_dir(runtime.path())
            .unwrap()
            .filter_map(Result::ok)
        {
            let p = run.path();
            // what `analysis report` needs to rebuild the run, and nothing rendered
            for f in ["manifest.json", "plan.csv", "samples.csv"] {
                assert!(p.join(f).is_file(), "{} has no {f}", p.display());
            }
            for f in ["summary.json", "report", ".lock"] {
                assert!(!p.join(f).exists(), "{} holds {f}", p.display());
            }
            let bytes = size(&p);
            assert!(
                bytes <= 5 << 20,
                "{}: {bytes} bytes, over 5 MiB",
                p.display()
            );
            all += bytes;
        }
    }
    assert!(all <= 60 << 20, "docs/runs: {all} bytes, over 60 MiB");
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
