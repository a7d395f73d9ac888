//! `cold run --resume DIR`: finish a run that stopped early. It reads plan.csv and samples.csv,
//! and takes exactly the plan indices that have no row, with the run's own settings (seed,
//! variant, timeout, cold cache, pinning, from manifest.json), its own fixture documents, and
//! only if the children are byte for byte the ones the run started with.

use crate::children::{self, Variant};
use crate::folder;
use crate::manifest;
use crate::pin;
use crate::session::{self, say, trio, Trio};
use analysis::samples::PlanRow;
use anyhow::{bail, Context, Result};
use fixtures::codecs::{find_codec, Op};
use fixtures::{catalog, sha256_hex};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Finishes the run in `dir` (with `dry_run`: prints what is left of its plan).
pub fn resume(dir: &Path, dry_run: bool) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!(
            "--resume {}: no run folder there (give the folder of a run that was started, \
             e.g. results/cold/latest)",
            dir.display()
        );
    }
    if !dir.join(folder::PLAN).exists() {
        bail!(
            "--resume {}: no {} there: not a run folder, or a run that stopped before its plan \
             was written (during the correctness gate or the preflight); start a new run",
            dir.display(),
            folder::PLAN
        );
    }
    let mut manifest_value = manifest::read(dir)?;
    let settings = manifest::settings(&manifest_value)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("--resume {}", dir.display()))?;
    let plan_rows = folder::read_plan(dir)?;
    let cut = folder::repair_samples(dir)?;
    if cut > 0 {
        say!("samples.csv: cut a partial last row ({cut} bytes) left by an interrupted write");
    }
    let done = folder::finished_indices(&folder::read_samples(dir)?);
    let left: Vec<PlanRow> = plan_rows
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    if dry_run {
        session::print_plan(&left)?;
        eprintln!("{} of {} planned samples left", left.len(), plan_rows.len());
        return Ok(dir.to_path_buf());
    }
    say!(
        "resuming {}: {} of {} planned samples left",
        dir.display(),
        left.len(),
        plan_rows.len()
    );

    if let Some(cpus) = &settings.pinning {
        let mask = pin::pin(&pin::parse_cpus(cpus)?)?;
        say!("pinned to CPUs {}", pin::format_cpus(&mask));
    }
    let variant = Variant::parse(&settings.variant)?;
    let child_paths = same_children(&manifest_value, &left, &settings.children_dir, variant)?;
    let expected = expected_checksums(dir, &manifest_value, &left, settings.seed)?;

    let (_, now) = manifest::utc_now();
    manifest_value["finished"] = Value::Bool(false);
    match manifest_value["resumed_utc"].as_array_mut() {
        Some(list) => list.push(Value::String(now)),
        None => manifest_value["resumed_utc"] = serde_json::json!([now]),
    }
    manifest::write(dir, &manifest_value)?;

    let jobs = session::jobs(&left, &child_paths, dir, &settings, &expected)?;
    let before = plan_rows.len() - left.len();
    let tally = session::take_samples(dir, &jobs, &settings, plan_rows.len(), before)?;
    session::finish(dir, &mut manifest_value, &settings, &tally)?;
    Ok(dir.to_path_buf())
}

/// The SHA-256 the manifest recorded for the entry of list `key` whose `name_key` is `name`.
fn recorded(m: &Value, key: &str, name_key: &str, name: &str, hash_key: &str) -> Option<String> {
    m[key]
        .as_array()?
        .iter()
        .find(|e| e[name_key].as_str() == Some(name))?
        .get(hash_key)?
        .as_str()
        .map(str::to_string)
}

/// The children of the codecs left, checked against the manifest's SHA-256.
fn same_children(
    m: &Value,
    left: &[PlanRow],
    children_dir: &str,
    variant: Variant,
) -> Result<HashMap<String, PathBuf>> {
    let codecs: Vec<&str> = left
        .iter()
        .map(|r| r.codec.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let paths = children::find(Path::new(children_dir), &codecs, variant)?;
    let mut by_codec = HashMap::new();
    for (codec, path) in codecs.into_iter().zip(paths) {
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if recorded(m, "codecs", "id", codec, "child_sha256").as_deref()
            != Some(sha256_hex(&bytes).as_str())
        {
            bail!(
                "the child of codec {codec} ({}) is not the one this run started with (its \
                 SHA-256 differs from manifest.json); a resumed run would mix two builds — \
                 start a new run",
                path.display()
            );
        }
        by_codec.insert(codec.to_string(), path);
    }
    Ok(by_codec)
}

/// The checksum each codec × fixture × op left must print, from the run's own documents
/// (checked against the manifest's SHA-256).
fn expected_checksums(
    dir: &Path,
    m: &Value,
    left: &[PlanRow],
    seed: u64,
) -> Result<HashMap<Trio, u64>> {
    let trios: BTreeSet<Trio> = left
        .iter()
        .map(|r| trio(&r.codec, &r.fixture, &r.op))
        .collect();
    let mut expected = HashMap::new();
    for (codec_id, fixture_name, op) in trios {
        let path = folder::fixture_file(dir, &fixture_name);
        let document = std::fs::read(&path)
            .with_context(|| format!("cannot read fixture {fixture_name} at {}", path.display()))?;
        if recorded(m, "fixtures", "name", &fixture_name, "sha256").as_deref()
            != Some(sha256_hex(&document).as_str())
        {
            bail!(
                "{} differs from the document this run started with",
                path.display()
            );
        }
        let codec = find_codec(&codec_id).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(&fixture_name)?;
        let op_value = Op::parse(&op).map_err(anyhow::Error::msg)?;
        let sum = codec
            .expected_checksum(fixture, op_value, seed, &document)
            .map_err(|e| {
                anyhow::anyhow!("codec {codec_id} {op} on {fixture_name}: expected checksum: {e}")
            })?;
        expected.insert((codec_id, fixture_name, op), sum);
    }
    Ok(expected)
}
