//! manifest.json: what a run was (version, commit, command line, seed, cells, variant, rustc,
//! each codec's library version and child binary, the fixtures, the machine, the gate's and the
//! preflight's verdicts), and whether it finished. Written when the run starts, and again with
//! `finished: true` at its end. The keys are the ones `analysis` reads.

use crate::child::Drops;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// A codec as the manifest lists it.
#[derive(Debug, Clone, Serialize)]
pub struct CodecEntry {
    pub id: String,
    pub library: String,
    pub version: String,
    pub style: String,
    pub child: String,
    pub child_bytes: u64,
    pub child_sha256: String,
}

/// A fixture as the manifest lists it.
#[derive(Debug, Clone, Serialize)]
pub struct FixtureEntry {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
    /// Relative to the run folder.
    pub file: String,
}

/// A verdict of the correctness gate or of a preflight child.
#[derive(Debug, Clone, Serialize)]
pub struct CheckEntry {
    pub codec: String,
    pub fixture: String,
    pub op: String,
    pub status: String,
    pub detail: String,
}

/// A cell a library cannot express.
#[derive(Debug, Clone, Serialize)]
pub struct UnsupportedEntry {
    pub codec: String,
    pub fixture: String,
    pub op: String,
    pub reason: String,
}

/// The settings of a run (what `--resume` reads back).
#[derive(Debug, Clone)]
pub struct Settings {
    pub seed: u64,
    pub samples_per_cell: u32,
    pub variant: String,
    pub children_dir: String,
    pub pinning: Option<String>,
    pub cold_cache: bool,
    pub timeout_secs: f64,
    /// When `de` children drop their values.
    pub drops: Drops,
}

/// Everything the first manifest holds.
pub struct Contents {
    pub settings: Settings,
    pub started_utc: String,
    pub command_line: Vec<String>,
    pub codecs: Vec<CodecEntry>,
    pub fixtures: Vec<FixtureEntry>,
    pub ops: Vec<String>,
    pub batches: Vec<u32>,
    pub cells: usize,
    pub samples_planned: usize,
    pub unsupported: Vec<UnsupportedEntry>,
    pub verification: Vec<CheckEntry>,
    pub preflight: Vec<CheckEntry>,
    /// Cells left out because their codec failed the gate or the preflight.
    pub excluded: Vec<CheckEntry>,
}

/// The manifest of a run that has just started (`finished: false`).
pub fn build(c: &Contents) -> Value {
    let s = &c.settings;
    json!({
        "thaw_version": env!("CARGO_PKG_VERSION"),
        "commit": git_commit(),
        "command_line": c.command_line,
        "seed": s.seed,
        "samples_per_cell": s.samples_per_cell,
        "ops": c.ops,
        "batches": c.batches,
        "cells": c.cells,
        "samples_planned": c.samples_planned,
        "variant": s.variant,
        "children_dir": s.children_dir,
        "rustc": env!("THAW_RUSTC_VERSION"),
        "codecs": c.codecs,
        "fixtures": c.fixtures,
        "cpu_model": cpu_model(),
        "cores": crate::pin::online_cpus(),
        "kernel": kernel(),
        "pinning": s.pinning,
        "cold_cache": s.cold_cache,
        "timeout_secs": s.timeout_secs,
        "drops": s.drops.name(),
        "started_utc": c.started_utc,
        "finished": false,
        "unsupported": c.unsupported,
        "verification": c.verification,
        "preflight": c.preflight,
        "excluded": c.excluded,
    })
}

/// Reads the settings back from a manifest, for `--resume`; the error names the missing key.
pub fn settings(m: &Value) -> Result<Settings, String> {
    let missing = |key: &str| format!("manifest.json has no valid `{key}`");
    let seed = m
        .get("seed")
        .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
        .ok_or_else(|| missing("seed"))?;
    let text = |key: &str| {
        m.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| missing(key))
    };
    Ok(Settings {
        seed,
        samples_per_cell: m
            .get("samples_per_cell")
            .and_then(Value::as_u64)
            .ok_or_else(|| missing("samples_per_cell"))? as u32,
        variant: text("variant")?,
        children_dir: text("children_dir")?,
        pinning: m.get("pinning").and_then(Value::as_str).map(str::to_string),
        cold_cache: m
            .get("cold_cache")
            .and_then(Value::as_bool)
            .ok_or_else(|| missing("cold_cache"))?,
        timeout_secs: m
            .get("timeout_secs")
            .and_then(Value::as_f64)
            .ok_or_else(|| missing("timeout_secs"))?,
        // Manifests written before `drops` existed kept every value to the end.
        drops: match m.get("drops").and_then(Value::as_str) {
            None => Drops::AfterOps,
            Some(text) => Drops::parse(text).map_err(|_| missing("drops"))?,
        },
    })
}

/// `git rev-parse HEAD` in the current folder, if git and a repository are there.
pub fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The CPU's model name from /proc/cpuinfo.
pub fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// `uname -sr`.
pub fn kernel() -> Option<String> {
    // SAFETY: utsname is plain old data; uname fills it.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: a valid, writable utsname.
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    let field = |chars: &[libc::c_char]| {
        let bytes: Vec<u8> = chars
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Some(format!("{} {}", field(&u.sysname), field(&u.release)))
}

/// The UTC time now, as the manifest writes it.
pub fn utc_now() -> (chrono::DateTime<chrono::Utc>, String) {
    let now = chrono::DateTime::<chrono::Utc>::from(std::time::SystemTime::now());
    let text = now.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    (now, text)
}

/// Writes `manifest` into the run folder.
pub fn write(dir: &Path, manifest: &Value) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(manifest)? + "\n";
    crate::folder::write_atomically(&dir.join(crate::folder::MANIFEST), &text)
}

/// Reads the run folder's manifest.
pub fn read(dir: &Path) -> anyhow::Result<Value> {
    use anyhow::Context;
    let path = dir.join(crate::folder::MANIFEST);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents() -> Contents {
        Contents {
            settings: Settings {
                seed: 5,
                samples_per_cell: 2,
                variant: "portable".into(),
                children_dir: "/x".into(),
                pinning: Some("0".into()),
                cold_cache: true,
                timeout_secs: 1.5,
                drops: Drops::EachCall,
            },
            started_utc: "2026-01-01T00:00:00Z".into(),
            command_line: vec!["cold".into(), "run".into()],
            codecs: vec![],
            fixtures: vec![],
            ops: vec!["de".into()],
            batches: vec![1],
            cells: 1,
            samples_planned: 2,
            unsupported: vec![],
            verification: vec![],
            preflight: vec![],
            excluded: vec![],
        }
    }

    #[test]
    fn has_every_key_analysis_reads_and_round_trips_settings() {
        let m = build(&contents());
        for key in [
            "thaw_version",
            "commit",
            "command_line",
            "seed",
            "samples_per_cell",
            "variant",
            "rustc",
            "codecs",
            "fixtures",
            "cpu_model",
            "cores",
            "kernel",
            "pinning",
            "cold_cache",
            "timeout_secs",
            "started_utc",
            "finished",
            "unsupported",
            "verification",
            "preflight",
        ] {
            assert!(m.get(key).is_some(), "missing {key}");
        }
        assert_eq!(m["finished"], false);
        let s = settings(&m).unwrap();
        assert_eq!((s.seed, s.samples_per_cell, s.timeout_secs), (5, 2, 1.5));
        assert_eq!(s.pinning.as_deref(), Some("0"));
        assert_eq!(s.drops, Drops::EachCall);
        assert!(settings(&json!({})).unwrap_err().contains("seed"));
    }

    #[test]
    fn machine_facts() {
        assert!(kernel().unwrap().starts_with("Linux"));
        assert!(!env!("THAW_RUSTC_VERSION").is_empty());
    }
}
