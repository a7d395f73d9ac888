//! Puts a report on disk: report.md (with its charts as SVG files under charts/), report.html,
//! summary.csv and summary.json, all in one output folder.

use super::doc::Block;
use super::model::Report;
use super::{html, markdown, sections, summary_csv};
use anyhow::{Context, Result};
use std::fs;
use std::path::{Path, PathBuf};

fn write_file(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Write every output file into `out`; returns their paths.
pub fn write_report(r: &Report, out: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let blocks = sections::document(r);
    let charts = out.join("charts");
    fs::create_dir_all(&charts).with_context(|| format!("cannot create {}", charts.display()))?;
    for b in &blocks {
        if let Block::Chart { file, svg, .. } = b {
            write_file(&charts.join(file), svg)?;
        }
    }
    let md = out.join("report.md");
    write_file(&md, &markdown::render(&blocks))?;
    let html_path = out.join("report.html");
    write_file(&html_path, &html::render("thaw report", &blocks))?;
    let csv = out.join("summary.csv");
    summary_csv::write(r, &csv)?;
    let json = out.join("summary.json");
    write_file(&json, &(serde_json::to_string_pretty(r)? + "\n"))?;
    Ok(vec![md, html_path, csv, json])
}
