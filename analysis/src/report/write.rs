//! Puts a report on disk: report.md (with its charts as SVG files under charts/), report.html,
//! summary.csv and summary.json (and machines.csv for a run merged from several machines), all
//! in one output folder, written anew and whole (the old report is replaced at once, never mixed
//! with the new) and never through a link planted in that folder.

use super::doc::Block;
use super::model::Report;
use super::{html, machines_csv, markdown, sections, summary_csv};
use anyhow::{Context, Result};
use files::Folder;
use std::path::PathBuf;

fn write_file(out: &Folder, rel: &str, text: &str) -> Result<String> {
    out.write_atomically(rel, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.join(rel).display()))?;
    Ok(rel.to_string())
}

/// The names a report folder holds: it is written anew, whole, and a folder holding anything
/// else is not replaced.
const OWNED: [&str; 6] = [
    "charts",
    "report.md",
    "report.html",
    "summary.csv",
    "summary.json",
    "machines.csv",
];

/// Write every output file into `out`, anew and whole (`Folder::replace_whole`): the files are
/// written into a new folder beside it that then takes its place, so that a failure (a full
/// disk) leaves the old report whole, never the new report.md beside the old summary; returns
/// their paths.
pub(crate) fn write_report(r: &Report, out: &Folder) -> Result<Vec<PathBuf>> {
    let names = out.replace_whole(&OWNED, |new| -> Result<Vec<String>> {
        new.create_dirs("charts")
            .with_context(|| format!("cannot create {}", out.join("charts").display()))?;
        let blocks = sections::document(r);
        for b in &blocks {
            if let Block::Chart { file, svg, .. } = b {
                write_file(new, &format!("charts/{file}"), svg)?;
            }
        }
        let md = write_file(new, "report.md", &markdown::render(&blocks))?;
        let html_path = write_file(new, "report.html", &html::render("thaw report", &blocks))?;
        let csv = write_file(new, "summary.csv", &summary_csv::text(r)?)?;
        let json = write_file(
            new,
            "summary.json",
            &(serde_json::to_string_pretty(r)? + "\n"),
        )?;
        let mut files = vec![md, html_path, csv, json];
        if let Some(text) = machines_csv::text(r)? {
            files.push(write_file(new, "machines.csv", &text)?);
        }
        Ok(files)
    })?;
    Ok(names.into_iter().map(|n| out.join(n)).collect())
}
