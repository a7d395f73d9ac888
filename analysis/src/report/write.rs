//! Puts a report on disk: report.md (with its charts as SVG files under charts/), report.html,
//! summary.csv and summary.json (and machines.csv for a run merged from several machines), all
//! in one output folder, each written whole and never through a link planted in that folder.

use super::doc::Block;
use super::model::Report;
use super::{html, machines_csv, markdown, sections, summary_csv};
use anyhow::{Context, Result};
use files::Folder;
use std::path::PathBuf;

fn write_file(out: &Folder, rel: &str, text: &str) -> Result<PathBuf> {
    out.write_atomically(rel, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.join(rel).display()))?;
    Ok(out.join(rel))
}

/// Write every output file into `out`; returns their paths.
pub(crate) fn write_report(r: &Report, out: &Folder) -> Result<Vec<PathBuf>> {
    out.create_dirs("charts")
        .with_context(|| format!("cannot create {}", out.join("charts").display()))?;
    let blocks = sections::document(r);
    for b in &blocks {
        if let Block::Chart { file, svg, .. } = b {
            write_file(out, &format!("charts/{file}"), svg)?;
        }
    }
    let md = write_file(out, "report.md", &markdown::render(&blocks))?;
    let html_path = write_file(out, "report.html", &html::render("thaw report", &blocks))?;
    let csv = write_file(out, "summary.csv", &summary_csv::text(r)?)?;
    let json = write_file(
        out,
        "summary.json",
        &(serde_json::to_string_pretty(r)? + "\n"),
    )?;
    let mut files = vec![md, html_path, csv, json];
    if let Some(text) = machines_csv::text(r)? {
        files.push(write_file(out, "machines.csv", &text)?);
    }
    Ok(files)
}
