//! A fresh `cold run`, step by step: what the run needs before its folder (`prepare::ready`: its
//! cells, its children built if started by `cargo run`, the documents), then the run folder
//! created (fresh, or refuse) and locked, everything else before the first sample in it (inputs,
//! gate, preflight, plan: `Ready::prepare`), the manifest and then
//! plan.csv, then take every sample, mark the manifest finished and print the summary the way
//! `cold resume` does (`resume::check`, `resume::take_rest`): the samples are taken from what the
//! folder records, so there is one route builder for sampling and every run exercises resume.
//! `--dry-run` builds nothing (no cargo, no linker): it plans with the children already built.
//!
//! The folder is written in an order where every prefix is either plainly not a run (no
//! manifest yet) or resumable: the manifest holds the settings plan.csv is derived from, and
//! `cold resume` checks one against the other. `--dry-run` does the same preparation in a
//! temporary folder and prints the plan the run would take.

use crate::counting;
use crate::folder::{self, lock, manifest};
use crate::run::builds;
use crate::run::options::RunOptions;
use crate::run::plan::Unsupported;
use crate::run::prepare::{self, describe_unsupported, Prepared, Ready};
use crate::run::status::{self, say};
use crate::run::{resume, session};
use crate::runtimes::codec_list;
use crate::system::{interrupt, pin};
use anyhow::{bail, Context, Result};
use codecs::AnyCodec;
use schema::run_folder::{CodecEntry, Manifest, Settings, UnsupportedEntry, VariantEntry};

use std::ffi::OsString;
use std::path::PathBuf;

/// A fresh run. Returns the run folder (none for `--dry-run`).
pub(crate) fn run(o: &RunOptions) -> Result<Option<PathBuf>> {
    interrupt::install();
    if o.dry_run {
        status::status_to_stderr();
    }
    let ready = prepare::ready(o)?;
    if o.dry_run {
        return dry_run(o, &ready).map(|()| None);
    }

    // Before any folder is made: a counted run without Valgrind fails here, with how to get it.
    let counting_tools = crate::counting::tools(o.measure)?;
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
    // the one rule of outputs: a run never lands inside another run or warm results, named or
    // through a link (the folder itself holding a run is `create`'s to refuse, naming resume)
    let itself = [
        std::path::absolute(&dir).ok(),
        store::outputs::resolved(&dir),
    ];
    if let Some((holder, what)) = store::outputs::inside_inputs(&dir)
        .filter(|(holder, _)| !itself.iter().flatten().any(|d| d == holder))
    {
        bail!(
            "--out {}: {} holds {what}, an input of thaw's, and the run would land inside it; \
             give a folder elsewhere",
            dir.display(),
            holder.display()
        );
    }
    let before = folder::Made::before(&dir);
    if let Err(refused) = folder::create(&dir) {
        // A run still writing the folder: say whose it is.
        if dir.join(schema::run_folder::LOCK).exists() {
            lock::lock(&dir)?;
        }
        return Err(refused);
    }
    // held from here on: every file of the run is reached from this descriptor, so the folder
    // swapped for a link (by a child) moves no write elsewhere; made just now, its name is not
    // followed if it has become a link already
    files::hold(&dir, false).with_context(|| format!("cannot hold {}", dir.display()))?;
    let _lock = lock::lock(&dir)?;
    // once the folder is this run's (locked): a failure before the manifest leaves nothing this
    // run made (undone before the lock is let go)
    let mut made = before;
    made.arm();
    say!("run folder: {}", dir.display());
    let counter = match counting_tools {
        Some((valgrind, library)) => Some(counting::start(&dir, valgrind, &library)?),
        None => None,
    };

    let prepared = ready.prepare(o, &dir)?;
    let settings = settings_of(o, ready.builds, pinning, &ready.env);
    let mut manifest = manifest_of(o, settings, started_utc, &prepared, &ready.unsupported);
    note_pinned_runtimes(o, &mut manifest);
    manifest.counting = counter.as_ref().map(|c| c.record(&dir)).transpose()?;
    manifest::write(&dir, &manifest)?;
    made.keep();
    if o.out.is_none() {
        // results/cold/latest names the newest default run (once it has a manifest); a folder
        // given with --out is left alone, and so are its neighbours.
        folder::point_latest(&dir)?;
    }
    folder::write_plan(&dir, &prepared.plan)?;
    if prepared.plan.is_empty() {
        bail!(
            "every cell failed the correctness gate or the preflight; see {}",
            dir.join(schema::run_folder::MANIFEST).display()
        );
    }
    announce(o, &prepared);
    // The folder now holds everything a resume checks: the samples are taken from what it
    // records, as a resumed run takes them, so every run goes through resume's checks.
    let checked = resume::check(&dir, &manifest, false)?;
    resume::take_rest(&dir, &mut manifest, checked).map(|()| Some(dir))
}

/// `--dry-run`: the plan on stdout, computed in a scratch folder that is removed after, and
/// what was left out on stderr.
fn dry_run(o: &RunOptions, ready: &Ready) -> Result<()> {
    let scratch = std::env::temp_dir().join(format!("thaw-dry-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    folder::create(&scratch)?;
    let prepared = ready.prepare(o, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let prepared = prepared?;
    session::print_plan(&prepared.plan)?;
    eprintln!(
        "{} cells × {} samples = {} samples ({} left out by the gate or the preflight)",
        prepared.units.len(),
        o.samples,
        prepared.plan.len(),
        prepared.excluded.len()
    );
    for u in &ready.unsupported {
        eprintln!("unsupported: {}", describe_unsupported(u));
    }
    Ok(())
}

/// The settings the manifest records.
fn settings_of(
    o: &RunOptions,
    builds: Vec<VariantEntry>,
    pinning: Option<String>,
    env: &[(OsString, OsString)],
) -> Settings {
    Settings {
        seed: o.seed,
        plan_seed: o.plan_seed,
        samples_per_cell: o.samples,
        codecs: o.codecs.iter().map(|c| c.id().to_string()).collect(),
        ops: o.ops.clone(),
        batches: o.batches.clone(),
        fixtures: o.fixtures.iter().map(|f| f.name.to_string()).collect(),
        variants: builds,
        pinning,
        cold_cache: o.cold_cache,
        timeout_secs: o.timeout.as_secs_f64(),
        memory_limit_mib: o.memory_limit_mib,
        drops: o.drops,
        child_env: builds::env_strings(env),
        measure: o.measure,
        stopping: o.stopping.clone(),
        shard: o.shard,
        curve: o.curve,
    }
}

/// A runtime that sizes itself to its CPUs runs its children as on a smaller machine when the
/// run is pinned: said once per note, and kept in the manifest.
fn note_pinned_runtimes(o: &RunOptions, manifest: &mut Manifest) {
    let Some(mask) = manifest.settings.pinning.clone() else {
        return;
    };
    let mut said = Vec::new();
    for c in &o.codecs {
        let Some(note) = codec_list::external_of(*c).and_then(|e| e.runtime.when_pinned()) else {
            continue;
        };
        if !said.contains(&note) {
            said.push(note);
            let text = format!("pinned to CPUs {mask}: {note}");
            say!("warning: {text}");
            manifest.notes.push(text);
        }
    }
}

/// The line that says how many children the run will start (and which blocks a shard takes).
fn announce(o: &RunOptions, prepared: &prepare::Prepared) {
    let blocks_taken = o.shard.map_or(0..o.samples, |s| s.blocks(o.samples));
    let blocks_n = (blocks_taken.end - blocks_taken.start).max(1);
    say!(
        "{} cells × {} samples = {} children{}{}",
        prepared.plan.len() / blocks_n as usize,
        blocks_n,
        prepared.plan.len(),
        o.shard.map_or(String::new(), |s| format!(
            " (shard {s}: blocks {} to {} of {})",
            blocks_taken.start,
            blocks_taken.end.saturating_sub(1),
            o.samples
        )),
        if o.cold_cache { ", cold cache" } else { "" }
    );
}

/// The manifest of a run that has just started (`finished: false`).
fn manifest_of(
    o: &RunOptions,
    settings: Settings,
    started_utc: String,
    p: &Prepared,
    unsupported: &[Unsupported],
) -> Manifest {
    let ids: std::collections::BTreeSet<&str> = p.units.iter().map(|(c, _)| c.codec).collect();
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
                style: c.style(),
                output: c.output(),
                runtime: external.map(|e| e.runtime.name.to_string()),
                runtime_version: external
                    .and_then(|e| e.runtime.found_default().ok())
                    .map(|f| f.version.clone()),
                pair: external.and_then(|e| e.pair.clone()),
                floor: codec_list::floor_of(c.id(), &o.codecs).map(String::from),
            }
        })
        .collect();
    Manifest {
        synthetic: false,
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: manifest::git_commit(),
        command_line: std::env::args().collect(),
        settings,
        machine: manifest::machine(),
        rustc: Some(manifest::RUSTC.to_string()),
        cells: p.units.len(),
        samples_planned: p.plan.len(),
        samples_written: None,
        codecs,
        children: p.children.clone(),
        fixtures: p.fixtures.clone(),
        inputs: p.inputs.clone(),
        counting: None,
        cold_cache_check: None,
        started_utc,
        resumed_utc: Vec::new(),
        stopped_utc: Vec::new(),
        finished: false,
        finished_utc: None,
        unsupported: unsupported
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
        notes: Vec::new(),
        shards: Vec::new(),
    }
}
