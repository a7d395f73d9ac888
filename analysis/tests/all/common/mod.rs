//! What the integration tests share: the binary, a fresh temporary folder, a run that prints
//! its output when it fails, and a synthetic run.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_analysis"))
}

pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-analysis-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the analysis binary runs");
    if !out.status.success() {
        eprintln!("stdout:\n{}", String::from_utf8_lossy(&out.stdout));
        eprintln!("stderr:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    out
}

pub fn synth(dir: &Path, samples: usize, seed: u64, extra: &[&str]) {
    let out = run(bin()
        .args(["synth", "--out"])
        .arg(dir)
        .args([
            "--samples",
            &samples.to_string(),
            "--seed",
            &seed.to_string(),
        ])
        .args(extra));
    assert!(out.status.success());
}

/// summary.csv as one map of column to value per row.
pub fn summary_rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The cells of one build of a synthetic run.
pub fn cells() -> usize {
    analysis::synth::cells_per_build()
}
