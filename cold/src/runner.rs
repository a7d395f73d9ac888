//! A fresh `cold run`, step by step: build the children if started by `cargo run`, make the
//! documents, create the run folder (fresh, or refuse) and lock it, prepare everything before
//! the first sample (inputs, gate, preflight, plan: see `prepare`), write the manifest and then
//! plan.csv, take every sample, mark the manifest finished and print the summary.
//!
//! The folder is written in an order where every prefix is either plainly not a run (no
//! manifest yet) or resumable: the manifest holds everything plan.csv is derived from, and
//! `--resume` checks one against the other. `--dry-run` does the same preparation in a
//! temporary folder and prints the plan the run would take.

use crate::binaries;
use crate::cli::RunOptions;
use crate::codec_list;
use crate::counting;
use crate::folder;
use crate::interrupt;
use crate::lock;
use crate::manifest;
use crate::pin;
use crate::prepare::{self, describe_unsupported, Prepared};
use crate::session::{self, say};
use anyhow::{bail, Result};
use codecs::AnyCodec;
use schema::run_folder::{
    CodecEntry, Manifest, Settings, UnsupportedEntry, VariantEntry, MANIFEST,
};
use schema::{Measure, Variant};
use std::ffi::OsString;
use std::path::PathBuf;

/// A fresh run. Returns the run folder (none for `--dry-run`).
pub fn run(o: &RunOptions) -> Result<Option<PathBuf>> {
    interrupt::install();
    if o.dry_run {
        session::status_to_stderr();
    }
    let (cells, unsupported) = prepare::cells(o)?;
    let children_dirs = children_dirs(o, &prepare::binaries(&cells)?)?;
    let documents = prepare::documents(o)?;
    let env = child_env(&o.env);

    if o.dry_run {
        let scratch = std::env::temp_dir().join(format!("thaw-dry-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        folder::create(&scratch)?;
        let prepared = prepare::prepare_run(o, &documents, &children_dirs, &scratch, &env);
        let _ = std::fs::remove_dir_all(&scratch);
        let prepared = prepared?;
        session::print_plan(&prepared.plan)?;
        eprintln!(
            "{} cells × {} samples = {} samples ({} left out by the gate or the preflight)",
            prepared.cells.len(),
            o.samples,
            prepared.plan.len(),
            prepared.excluded.len()
        );
        for u in &unsupported {
            eprintln!("unsupported: {}", describe_unsupported(u));
        }
        return Ok(None);
    }

    // Before any folder is made: a counted run without Valgrind fails here, with how to get it.
    let counting_tools = match o.measure {
        Measure::Time => None,
        Measure::Instructions => Some((
            counting::find_valgrind()?,
            counting::alloc_counter_beside_runner()?,
        )),
    };
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
    if let Err(refused) = folder::create(&dir) {
        // A run still writing the folder: say whose it is.
        if dir.join(lock::LOCK).exists() {
            lock::lock(&dir)?;
        }
        return Err(refused);
    }
    let _lock = lock::lock(&dir)?;
    say!("run folder: {}", dir.display());
    let counter = match counting_tools {
        Some((valgrind, library)) => Some(counting::start(&dir, valgrind, &library)?),
        None => None,
    };

    let prepared = prepare::prepare_run(o, &documents, &children_dirs, &dir, &env)?;
    let settings = Settings {
        seed: o.seed,
        plan_seed: o.plan_seed,
        samples_per_cell: o.samples,
        variants: children_dirs
            .iter()
            .map(|(variant, dir)| VariantEntry {
                variant: *variant,
                children_dir: dir.display().to_string(),
            })
            .collect(),
        pinning,
        cold_cache: o.cold_cache,
        timeout_secs: o.timeout.as_secs_f64(),
        drops: o.drops,
        child_env: env_strings(&env),
        measure: o.measure,
        stopping: o.stopping.clone(),
    };
    let mut manifest = manifest_of(o, &settings, started_utc, prepared_parts(o, &prepared));
    manifest.measure = Some(o.measure);
    manifest.stopping = o.stopping.clone();
    manifest.counting = counter.as_ref().map(|c| c.record(&dir)).transpose()?;
    manifest::write(&dir, &manifest)?;
    if o.out.is_none() {
        // results/cold/latest names the newest default run (once it has a manifest); a folder
        // given with --out is left alone, and so are its neighbours.
        folder::point_latest(&dir)?;
    }
    folder::write_plan(&dir, &prepared.plan)?;
    if prepared.plan.is_empty() {
        bail!(
            "every cell failed the correctness gate or the preflight; see {}",
            dir.join(MANIFEST).display()
        );
    }

    say!(
        "{} cells × {} samples = {} children{}",
        prepared.plan.len() / o.samples.max(1) as usize,
        o.samples,
        prepared.plan.len(),
        if o.cold_cache { ", cold cache" } else { "" }
    );
    let blocks = o.stopping.is_some().then(|| session::Blocks {
        cells: prepared.cells.clone(),
        excluded: prepared.excluded.clone(),
        seed: o.plan_seed,
        variants: o.variants.clone(),
    });
    let tally = session::take_samples(
        &dir,
        &mut manifest,
        &settings,
        &prepared.routes,
        counter,
        prepared.plan.clone(),
        blocks.as_ref(),
    )?;
    session::finish(&dir, &mut manifest, &settings, &tally)?;
    Ok(Some(dir))
}

/// The folder of the children of each of the run's variants, built first when the runner was
/// started by `cargo run` (only the binaries the cells need).
fn children_dirs(o: &RunOptions, needed: &[String]) -> Result<Vec<(Variant, PathBuf)>> {
    if let Some(dir) = &o.children_dir {
        return Ok(vec![(o.variants[0], dir.clone())]);
    }
    let mut dirs = Vec::new();
    for &variant in &o.variants {
        if let Some(command) = binaries::cargo_build_command(variant, needed)? {
            say!(
                "building the {} children (started by cargo run)",
                variant.name()
            );
            binaries::build(command)?;
        }
        dirs.push((variant, binaries::default_dir(variant)?));
    }
    Ok(dirs)
}

/// What the children are started with, and nothing else: `PATH` and `HOME` from the runner's
/// own environment (where set), then every `--env KEY=VALUE` (which may replace them).
pub fn child_env(extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = PASSED
        .iter()
        .filter_map(|key| Some(((*key).into(), std::env::var_os(key)?)))
        .collect();
    for (key, value) in extra {
        env.retain(|(k, _)| k != key.as_str());
        env.push((key.into(), value.into()));
    }
    env
}

/// The variables passed through from the runner's environment.
pub const PASSED: [&str; 2] = ["PATH", "HOME"];

/// The environment as the manifest records it.
pub fn env_strings(env: &[(OsString, OsString)]) -> Vec<String> {
    env.iter()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        .collect()
}

/// The parts of a preparation that go into the manifest.
pub struct ManifestParts<'a> {
    pub codecs: Vec<CodecEntry>,
    pub prepared: &'a Prepared,
}

fn prepared_parts<'a>(o: &RunOptions, prepared: &'a Prepared) -> ManifestParts<'a> {
    let ids: std::collections::BTreeSet<&str> = prepared.cells.iter().map(|c| c.codec).collect();
    let codecs = o
        .codecs
        .iter()
        .copied()
        .filter(|c| ids.contains(c.id()))
        .map(|c: &dyn AnyCodec| {
            let external = codec_list::external_of(c);
            CodecEntry {
                id: c.id().to_string(),
                library: c.library().to_string(),
                version: c.version().to_string(),
                style: Some(c.style()),
                output: Some(c.output()),
                child: None,
                child_bytes: None,
                child_sha256: None,
                runtime: external.map(|e| e.runtime.name.to_string()),
                runtime_version: external
                    .and_then(|e| e.runtime.found().ok())
                    .map(|f| f.version.clone()),
            }
        })
        .collect();
    ManifestParts { codecs, prepared }
}

/// The manifest of a run that has just started (`finished: false`).
fn manifest_of(
    o: &RunOptions,
    s: &Settings,
    started_utc: String,
    parts: ManifestParts,
) -> Manifest {
    let p = parts.prepared;
    Manifest {
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: manifest::git_commit(),
        command_line: std::env::args().collect(),
        seed: Some(s.seed),
        plan_seed: Some(s.plan_seed),
        samples_per_cell: Some(s.samples_per_cell),
        ops: o.ops.clone(),
        batches: o.batches.clone(),
        cells: Some(p.cells.len()),
        samples_planned: Some(p.plan.len()),
        variant: s.variants.first().map(|v| v.variant),
        children_dir: s.variants.first().map(|v| v.children_dir.clone()),
        variants: if s.variants.len() > 1 {
            s.variants.clone()
        } else {
            Vec::new()
        },
        rustc: Some(manifest::RUSTC.to_string()),
        codecs: parts.codecs,
        children: p.children.clone(),
        child_env: Some(s.child_env.clone()),
        fixtures: p.fixtures.clone(),
        inputs: p.inputs.clone(),
        cpu_model: manifest::cpu_model(),
        cores: Some(crate::pin::online_cpus()),
        kernel: manifest::kernel(),
        pinning: s.pinning.clone(),
        cold_cache: s.cold_cache,
        timeout_secs: Some(s.timeout_secs),
        drops: Some(s.drops),
        started_utc,
        unsupported: p
            .unsupported
            .iter()
            .map(|u| UnsupportedEntry {
                codec: u.codec.to_string(),
                fixture: u.fixture.to_string(),
                op: u.op,
                reason: u.reason.to_string(),
            })
            .collect(),
        verification: p.verification.clone(),
        preflight: p.preflight.clone(),
        excluded: p.excluded.clone(),
        ..Manifest::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_get_path_and_home_and_what_is_asked_only() {
        let env = child_env(&[("LANG".into(), "C".into()), ("HOME".into(), "/x".into())]);
        let keys: Vec<String> = env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert!(!keys
            .iter()
            .any(|k| k.starts_with("CARGO") || k == "LD_LIBRARY_PATH"));
        assert!(keys.contains(&"LANG".to_string()));
        let home: Vec<_> = env.iter().filter(|(k, _)| k == "HOME").collect();
        assert_eq!(home.len(), 1);
        assert_eq!(home[0].1, "/x", "--env replaces a passed variable");
        assert!(env_strings(&env).contains(&"LANG=C".to_string()));
    }
}
