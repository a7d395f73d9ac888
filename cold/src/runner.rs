//! A fresh `cold run`, step by step: plan the cells, find and fingerprint the children, write
//! the run folder and the fixtures' documents, pass the correctness gate, run one unrecorded
//! preflight child per codec × fixture × op, write plan.csv and the manifest, take every sample,
//! mark the manifest finished and print the summary.
//!
//! Each step is a function of its own; the pieces they call each do one thing (plan, folder,
//! manifest, sampler, session). A codec × fixture × op that fails the gate or the preflight is
//! reported and left out of the plan, never timed.

use crate::children;
use crate::cli::RunOptions;
use crate::folder;
use crate::manifest::{self, CheckEntry, CodecEntry, FixtureEntry, Settings, UnsupportedEntry};
use crate::pin;
use crate::plan::{self, Cell, Unsupported};
use crate::sampler::{Job, Sampler};
use crate::session::{self, say, trio, Trio};
use analysis::samples::PlanRow;
use anyhow::{bail, Context, Result};
use fixtures::codecs::{find_codec, AnyCodec, Op};
use fixtures::verify::{verify_all, Verdict};
use fixtures::{catalog, sha256_hex};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A fresh run. Returns the run folder (none for `--dry-run`).
pub fn run(o: &RunOptions) -> Result<Option<PathBuf>> {
    let (cells, unsupported) = plan::cells(&o.codecs, &o.ops, &o.batches, &o.fixtures);
    if cells.is_empty() {
        let why: Vec<String> = unsupported.iter().map(describe_unsupported).collect();
        bail!(
            "nothing to run: every cell is unsupported ({})",
            why.join("; ")
        );
    }
    if o.dry_run {
        let rows = plan::build(&cells, o.samples, o.seed, o.variant.name());
        session::print_plan(&rows)?;
        eprintln!(
            "{} cells × {} samples = {} samples (before the correctness gate and preflight)",
            cells.len(),
            o.samples,
            rows.len()
        );
        for u in &unsupported {
            eprintln!("unsupported: {}", describe_unsupported(u));
        }
        return Ok(None);
    }

    let codecs: Vec<&'static dyn AnyCodec> = o
        .codecs
        .iter()
        .copied()
        .filter(|c| cells.iter().any(|cell| cell.codec == c.id()))
        .collect();
    let children_dir = match &o.children_dir {
        Some(dir) => dir.clone(),
        None => {
            if let Some(command) = children::cargo_build_command(o.variant)? {
                say!(
                    "building the {} children (started by cargo run)",
                    o.variant.name()
                );
                children::build(command)?;
            }
            children::default_dir(o.variant)?
        }
    };
    let (codec_entries, child_paths) = fingerprint_children(&codecs, &children_dir, o)?;
    let documents = make_documents(o)?;

    let pinning = match &o.pin {
        Some(cpus) => {
            let mask = pin::format_cpus(&pin::pin(cpus)?);
            say!("pinned to CPUs {mask}");
            Some(mask)
        }
        None => None,
    };

    let (started, started_utc) = manifest::utc_now();
    let dir = o
        .out
        .clone()
        .unwrap_or_else(|| folder::default_dir(started));
    folder::create(&dir)?;
    if o.out.is_none() {
        // results/cold/latest names the newest default run; a folder given with --out is left
        // alone, and so are its neighbours.
        folder::point_latest(&dir)?;
    }
    say!("run folder: {}", dir.display());
    let fixture_entries = write_documents(&dir, o, &documents)?;

    let (verification, mut excluded) = gate(&codecs, o);
    let (expected, preflight) =
        preflight(&cells, &documents, &child_paths, &dir, o, &mut excluded)?;

    let timed: Vec<Cell> = cells
        .iter()
        .filter(|c| !is_excluded(&excluded, c.codec, c.fixture, c.op.name()))
        .cloned()
        .collect();
    let plan_rows = plan::build(&timed, o.samples, o.seed, o.variant.name());
    folder::write_plan(&dir, &plan_rows)?;
    let settings = Settings {
        seed: o.seed,
        samples_per_cell: o.samples,
        variant: o.variant.name().to_string(),
        children_dir: children_dir.display().to_string(),
        pinning,
        cold_cache: o.cold_cache,
        timeout_secs: o.timeout.as_secs_f64(),
        drops: o.drops,
    };
    let mut manifest_value = manifest::build(&manifest::Contents {
        settings: settings.clone(),
        started_utc,
        command_line: std::env::args().collect(),
        codecs: codec_entries,
        fixtures: fixture_entries,
        ops: o.ops.iter().map(|op| op.name().to_string()).collect(),
        batches: o.batches.clone(),
        cells: timed.len(),
        samples_planned: plan_rows.len(),
        unsupported: unsupported
            .iter()
            .map(|u| UnsupportedEntry {
                codec: u.codec.to_string(),
                fixture: u.fixture.to_string(),
                op: u.op.name().to_string(),
                reason: u.reason.to_string(),
            })
            .collect(),
        verification,
        preflight,
        excluded,
    });
    manifest::write(&dir, &manifest_value)?;
    if timed.is_empty() {
        bail!(
            "every cell failed the correctness gate or the preflight; see {}",
            dir.join(folder::MANIFEST).display()
        );
    }

    say!(
        "{} cells × {} samples = {} children{}",
        timed.len(),
        o.samples,
        plan_rows.len(),
        if o.cold_cache { ", cold cache" } else { "" }
    );
    let jobs = session::jobs(&plan_rows, &child_paths, &dir, &settings, &expected)?;
    let tally = session::take_samples(&dir, &jobs, &settings, plan_rows.len(), 0)?;
    session::finish(&dir, &mut manifest_value, &settings, &tally)?;
    Ok(Some(dir))
}

fn describe_unsupported(u: &Unsupported) -> String {
    format!("{} {} on {}: {}", u.codec, u.op, u.fixture, u.reason)
}

/// Finds every planned codec's child and records its size and SHA-256.
fn fingerprint_children(
    codecs: &[&'static dyn AnyCodec],
    dir: &Path,
    o: &RunOptions,
) -> Result<(Vec<CodecEntry>, HashMap<String, PathBuf>)> {
    let ids: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
    let paths = children::find(dir, &ids, o.variant)?;
    let mut entries = Vec::new();
    let mut by_codec = HashMap::new();
    for (codec, path) in codecs.iter().zip(paths) {
        let bytes = std::fs::read(&path).with_context(|| {
            format!(
                "cannot read the child of codec {}: {}",
                codec.id(),
                path.display()
            )
        })?;
        entries.push(CodecEntry {
            id: codec.id().to_string(),
            library: codec.library().to_string(),
            version: codec.version().to_string(),
            style: codec.style().name().to_string(),
            child: path.display().to_string(),
            child_bytes: bytes.len() as u64,
            child_sha256: sha256_hex(&bytes),
        });
        by_codec.insert(codec.id().to_string(), path);
    }
    Ok((entries, by_codec))
}

/// Each fixture's canonical document, by fixture name.
type Documents = HashMap<&'static str, Vec<u8>>;

/// Makes each fixture's one canonical document (before anything is written, so a fixture that
/// cannot be had leaves no folder behind).
fn make_documents(o: &RunOptions) -> Result<Documents> {
    o.fixtures
        .iter()
        .map(|fixture| {
            let document = fixture
                .document(o.seed, o.corpora.as_deref())
                .with_context(|| format!("fixture {}", fixture.name))?;
            Ok((fixture.name, document))
        })
        .collect()
}

/// Writes the documents where the children read them, and lists them for the manifest.
fn write_documents(dir: &Path, o: &RunOptions, documents: &Documents) -> Result<Vec<FixtureEntry>> {
    let mut entries = Vec::new();
    for fixture in &o.fixtures {
        let document = &documents[fixture.name];
        let path = folder::fixture_file(dir, fixture.name);
        std::fs::write(&path, document).with_context(|| {
            format!(
                "cannot write fixture {} to {}",
                fixture.name,
                path.display()
            )
        })?;
        entries.push(FixtureEntry {
            name: fixture.name.to_string(),
            bytes: document.len() as u64,
            sha256: sha256_hex(document),
            file: format!("{}/{}.json", folder::FIXTURES, fixture.name),
        });
    }
    Ok(entries)
}

fn entry(codec: &str, fixture: &str, op: &str, status: &str, detail: &str) -> CheckEntry {
    CheckEntry {
        codec: codec.to_string(),
        fixture: fixture.to_string(),
        op: op.to_string(),
        status: status.to_string(),
        detail: detail.to_string(),
    }
}

fn is_excluded(excluded: &[CheckEntry], codec: &str, fixture: &str, op: &str) -> bool {
    excluded
        .iter()
        .any(|e| e.codec == codec && e.fixture == fixture && e.op == op)
}

/// The correctness gate, in-process, on every codec × fixture × op: every verdict for the
/// manifest, and the failures, to be left out.
fn gate(codecs: &[&'static dyn AnyCodec], o: &RunOptions) -> (Vec<CheckEntry>, Vec<CheckEntry>) {
    let checks = verify_all(codecs, &o.fixtures, &o.ops, o.seed, o.corpora.as_deref());
    let verdicts = checks
        .iter()
        .map(|c| {
            let status = c.verdict.label().to_lowercase();
            entry(c.codec, c.fixture, c.op.name(), &status, c.verdict.detail())
        })
        .collect();
    let failed: Vec<_> = checks
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Fail(_)))
        .collect();
    say!(
        "correctness gate: {} checks, {} failed",
        checks.len(),
        failed.len()
    );
    for c in &failed {
        say!("  {c} — left out, never timed");
    }
    let failed = failed
        .iter()
        .map(|c| {
            entry(
                c.codec,
                c.fixture,
                c.op.name(),
                "gate-failed",
                c.verdict.detail(),
            )
        })
        .collect();
    (verdicts, failed)
}

/// The checksum each codec × fixture × op must print, and one unrecorded child (batch 1) per
/// codec × fixture × op that checks it. Failures join `excluded`.
fn preflight(
    cells: &[Cell],
    documents: &Documents,
    child_paths: &HashMap<String, PathBuf>,
    dir: &Path,
    o: &RunOptions,
    excluded: &mut Vec<CheckEntry>,
) -> Result<(HashMap<Trio, u64>, Vec<CheckEntry>)> {
    let trios: BTreeSet<(&str, &str, Op)> =
        cells.iter().map(|c| (c.codec, c.fixture, c.op)).collect();
    let mut expected = HashMap::new();
    let mut verdicts = Vec::new();
    let mut sampler = Sampler::new(&session::spawner_path()?, o.timeout, false)?;
    for (codec_id, fixture_name, op) in trios {
        if is_excluded(excluded, codec_id, fixture_name, op.name()) {
            continue;
        }
        let codec = find_codec(codec_id).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(fixture_name)?;
        let sum = match codec.expected_checksum(fixture, op, o.seed, &documents[fixture_name]) {
            Ok(sum) => sum,
            Err(e) => {
                let detail = format!("cannot compute the expected checksum: {e}");
                say!("  preflight {codec_id} {op} on {fixture_name}: {detail} — left out");
                excluded.push(entry(
                    codec_id,
                    fixture_name,
                    op.name(),
                    "preflight-failed",
                    &detail,
                ));
                continue;
            }
        };
        let job = Job {
            plan: PlanRow {
                plan_index: 0,
                block: 0,
                codec: codec_id.to_string(),
                op: op.name().to_string(),
                batch: 1,
                fixture: fixture_name.to_string(),
                variant: o.variant.name().to_string(),
            },
            child: child_paths[codec_id].clone(),
            fixture_file: folder::fixture_file(dir, fixture_name),
            seed: o.seed,
            drops: o.drops,
            expected: sum,
        };
        let row = sampler.sample(&job)?;
        let detail = row.error.clone().unwrap_or_default();
        verdicts.push(entry(
            codec_id,
            fixture_name,
            op.name(),
            &row.status,
            &detail,
        ));
        if row.is_ok() {
            expected.insert(trio(codec_id, fixture_name, op.name()), sum);
        } else {
            let why = format!("{}: {detail}", row.status);
            say!("  preflight {codec_id} {op} on {fixture_name}: {why} — left out, never timed");
            excluded.push(entry(
                codec_id,
                fixture_name,
                op.name(),
                "preflight-failed",
                &why,
            ));
        }
    }
    say!(
        "preflight: {} children, {} failed",
        verdicts.len(),
        verdicts.iter().filter(|p| p.status != "ok").count()
    );
    Ok((expected, verdicts))
}
