//! `analysis merge`: one run folder from the shards of a run (`cold run --shard K/N`, each on
//! its own machine of a CI matrix or a job array), with the machine a factor of every row.
//!
//! The rules (docs/machines.md says them to users):
//! - every folder is a shard (its manifest's `settings.shard`), all of one split N, each K once,
//!   every K of 1..N present: the merged plan is the whole plan or nothing (a missing shard's
//!   blocks have no plan rows anywhere, and a plan with a hole is no run). An unmerged whole run
//!   or a merged one is refused: two whole runs are compared with `analysis compare`;
//! - the shards belong to one run: their manifests agree on everything but the facts of their
//!   machine and session ([`rules::PER_SHARD`]): settings but the shard, thaw's commit, rustc,
//!   each codec's library and version, the children's names, the fixtures' and inputs' SHA-256,
//!   the cells the gate left out;
//! - shards of one machine (equal [`Machine`] descriptions) ran the same children, byte for byte
//!   (same SHA-256); shards of different machines may have built their own (recorded: each
//!   shard's manifest is kept, verbatim, in `shards/K-of-N.json`, and a note says how many
//!   children differ);
//! - each shard's plan is its blocks ([`Shard::blocks`]), whole, numbered on from the previous
//!   shard's, every block holding the same cells once; every row of its samples.csv is checked
//!   against it by the one reader (`schema::rows`);
//! - a shard that has not finished is merged with a warning, and the merged run is unfinished;
//!   a shard a run is writing now is refused.
//!
//! The merged folder: manifest.json (the first shard's, with `settings.shard` none,
//! `samples_planned` the whole plan's, `shards` listing each shard with its machine and plan
//! indices, `machine` the one machine, or an empty description when there are several,
//! `finished` only when every shard finished, the command line this merge's), plan.csv (the
//! shards' plans in order: the whole plan), samples.csv (every shard's rows, unchanged, in shard
//! order) and `shards/`. `--out` must be new or empty.

mod rules;

use crate::inputs::run::{being_written, resolve_run_dir, MANIFEST_LIMIT};
use anyhow::{bail, ensure, Context, Result};
use files::csv_rows::write_rows;
use files::Folder;
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::{utc_text, Machine, Manifest, Shard, ShardEntry, MANIFEST, PLAN, SAMPLES};
use std::collections::BTreeSet;
use std::path::Path;
use store::manifest::ManifestError;
use store::rows::{read_plan, read_samples};

/// One shard as read from its folder.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// The folder as given.
    pub(crate) from: String,
    pub(crate) manifest: Manifest,
    /// manifest.json as read, kept in the merged folder.
    pub(crate) manifest_bytes: Vec<u8>,
    pub(crate) plan: Vec<PlanRow>,
    pub(crate) samples: Vec<SampleRow>,
    /// What was repaired while reading (a torn last row).
    pub(crate) notes: Vec<String>,
    /// When its samples.csv last changed (UTC): the end of an unfinished shard's last session.
    pub(crate) last_change: Option<String>,
}

/// A merged run, before it is written.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    pub(crate) manifest: Manifest,
    pub(crate) plan: Vec<PlanRow>,
    pub(crate) samples: Vec<SampleRow>,
    /// Each shard's manifest, verbatim, and its name under `shards/`.
    pub(crate) kept: Vec<(String, Vec<u8>)>,
    /// What the user must know (an unfinished shard, a torn row).
    pub(crate) warnings: Vec<String>,
}

/// The shard in folder `path` (or in the folder a `latest` file names).
pub(crate) fn read_part(path: &Path) -> Result<Part> {
    let from = path.display().to_string();
    let folder = resolve_run_dir(path)?;
    ensure!(
        !being_written(&folder),
        "{from}: a run or resume is writing this folder now; merge it once it has stopped"
    );
    let manifest_bytes = folder
        .read_bounded(MANIFEST, MANIFEST_LIMIT)
        .with_context(|| {
            format!(
                "{from}: cannot read its {MANIFEST}; merge needs each shard's manifest to place it"
            )
        })?;
    let manifest = store::manifest::parse_manifest(&manifest_bytes).map_err(|e| match e {
        ManifestError::Beyond(e) => anyhow::anyhow!("{from}: {MANIFEST}: {e}"),
        ManifestError::Other(e) => anyhow::anyhow!("{from}: {MANIFEST} is {e}"),
    })?;
    ensure!(
        folder.exists(PLAN),
        "{from}: no {PLAN}: the shard stopped before its plan was written; resume it first (cold resume)"
    );
    let (plan, plan_note) = read_plan(folder.file(PLAN))?;
    let (samples, samples_note) = if folder.exists(SAMPLES) {
        read_samples(folder.file(SAMPLES), Some(&plan))?
    } else {
        (Vec::new(), None)
    };
    let notes = plan_note
        .into_iter()
        .chain(samples_note)
        .map(|n| format!("{from}: {n}"))
        .collect();
    let last_change = folder
        .open_read(SAMPLES)
        .and_then(|f| f.metadata())
        .and_then(|f| f.modified())
        .ok()
        .map(utc_text);
    Ok(Part {
        from,
        manifest,
        manifest_bytes,
        plan,
        samples,
        notes,
        last_change,
    })
}

/// The shard a part says it is; the error says why a folder is not one.
fn shard_of(p: &Part) -> Result<Shard> {
    if let Some(s) = p.manifest.settings.shard {
        return Ok(s);
    }
    if !p.manifest.shards.is_empty() {
        bail!(
            "{} is a merged run already; merge the folders of its shards (listed in its manifest's `shards`) instead",
            p.from
        );
    }
    bail!(
        "{} is not a shard (its manifest has no settings.shard): merge joins the folders of `cold run --shard K/N`; two whole runs are set side by side by `analysis compare A B`",
        p.from
    )
}

/// Joins `parts` into one run; `command_line` is the merge's, for the merged manifest.
pub(crate) fn merge(parts: Vec<Part>, command_line: Vec<String>) -> Result<Merged> {
    ensure!(!parts.is_empty(), "no shard to merge");
    let (parts, shards) = in_shard_order(parts)?;
    check_split(&parts, &shards)?;
    check_one_run(&parts)?;
    let entries = check_plans(&parts, &shards)?;
    let plan: Vec<PlanRow> = parts.iter().flat_map(|p| p.plan.iter().cloned()).collect();
    check_blocks(&plan)?;

    let mut warnings: Vec<String> = parts.iter().flat_map(|p| p.notes.clone()).collect();
    warnings.extend(unfinished(&parts, &shards));

    let manifest = merged_manifest(&parts, entries, command_line, plan.len());
    let kept = parts
        .iter()
        .zip(&shards)
        .map(|(p, s)| {
            (
                format!("{}-of-{}.json", s.index, s.count),
                p.manifest_bytes.clone(),
            )
        })
        .collect();
    let samples = parts
        .iter()
        .flat_map(|p| p.samples.iter().cloned())
        .collect();
    Ok(Merged {
        manifest,
        plan,
        samples,
        kept,
        warnings,
    })
}

/// The parts sorted by their shard (those given first first, among equals), with their shards.
fn in_shard_order(mut parts: Vec<Part>) -> Result<(Vec<Part>, Vec<Shard>)> {
    let shards: Vec<Shard> = parts.iter().map(shard_of).collect::<Result<_>>()?;
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| (shards[i], i));
    parts = order.iter().map(|&i| parts[i].clone()).collect();
    let shards: Vec<Shard> = order.iter().map(|&i| shards[i]).collect();
    Ok((parts, shards))
}

/// Refuses parts (in shard order) that are not one split, each part once, none missing.
fn check_split(parts: &[Part], shards: &[Shard]) -> Result<()> {
    let n = shards[0].count;
    for (p, s) in parts.iter().zip(shards) {
        ensure!(
            s.count == n,
            "{} is shard {s} and {} is shard {}: parts of different splits do not make one plan",
            p.from,
            parts[0].from,
            shards[0]
        );
    }
    for w in 0..parts.len() - 1 {
        ensure!(
            shards[w] != shards[w + 1],
            "{} and {} are both shard {}: each part of the plan is merged once",
            parts[w].from,
            parts[w + 1].from,
            shards[w]
        );
    }
    let have: BTreeSet<u32> = shards.iter().map(|s| s.index).collect();
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    ensure!(
        missing.is_empty(),
        "shard {} of the split into {n} not given: a merged plan is the whole plan, and the blocks of a missing shard have no plan rows here; run it (`cold run --shard K/{n}` with the same options) or resume it, then merge all {n}",
        missing.join(", ")
    );
    Ok(())
}

/// Refuses parts that are not of one run: manifests that differ beyond the machine and the
/// session, or parts of one machine built differently.
fn check_one_run(parts: &[Part]) -> Result<()> {
    let first = &parts[0].manifest;
    for p in &parts[1..] {
        let why = rules::mismatches(first, &p.manifest);
        if !why.is_empty() {
            bail!(
                "{} does not belong with {}: their manifests differ beyond the machine and the session:\n  - {}",
                p.from,
                parts[0].from,
                why.join("\n  - ")
            );
        }
    }
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            if a.manifest.machine == b.manifest.machine {
                let why = rules::same_build(&a.manifest, &b.manifest);
                if !why.is_empty() {
                    bail!(
                        "{} and {} ran on one machine with different children (a rebuild between them), so they cannot pool as one machine:\n  - {}\nrun every shard of a machine with one build",
                        b.from,
                        a.from,
                        why.join("\n  - ")
                    );
                }
            }
        }
    }

    Ok(())
}

/// Checks that the parts' plans are the whole plan, each part its blocks numbered on from the
/// last; each part's entry in the merged manifest's shards.
fn check_plans(parts: &[Part], shards: &[Shard]) -> Result<Vec<ShardEntry>> {
    let blocks = parts[0].manifest.settings.samples_per_cell;
    let mut next = 0u64;
    let mut entries = Vec::new();
    for (p, &s) in parts.iter().zip(shards) {
        check_plan(p, s, blocks, next)?;
        let end = next + p.plan.len() as u64;
        entries.push(ShardEntry {
            shard: s,
            machine: p.manifest.machine.clone(),
            plan_indexes: (next, end),
            from: p.from.clone(),
            started_utc: p.manifest.started_utc.clone(),
            sessions: sessions(&p.manifest, p.last_change.as_deref()),
        });
        next = end;
    }
    Ok(entries)
}

/// When a shard's sessions ran, each as its start and its last sample: a session before a
/// resume ends at its `stopped_utc` (at the next session's start where an older manifest has
/// none), the last at `finished_utc`, or, unfinished, at samples.csv's last change (`last`; its
/// start without one). An end is never before its start.
pub(crate) fn sessions(m: &Manifest, last: Option<&str>) -> Vec<(String, String)> {
    let starts: Vec<&str> = std::iter::once(&m.started_utc)
        .chain(&m.resumed_utc)
        .map(String::as_str)
        .collect();
    let known = m.stopped_utc.len() == m.resumed_utc.len();
    starts
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let end = match starts.get(i + 1) {
                Some(_) if known => m.stopped_utc[i].as_str(),
                Some(&next) => next,
                None if m.finished => m.finished_utc.as_deref().unwrap_or(start),
                None => last.unwrap_or(start),
            };
            (start.to_string(), end.max(start).to_string())
        })
        .collect()
}

/// A warning for each part that has not finished: the merged run has not either.
fn unfinished(parts: &[Part], shards: &[Shard]) -> Vec<String> {
    let mut warnings = Vec::new();
    for (p, s) in parts.iter().zip(shards) {
        if !p.manifest.finished {
            warnings.push(format!(
                "{} (shard {s}) has not finished: {} of its {} samples; the merged run is unfinished too (finish the shard with `cold resume`, then merge again)",
                p.from,
                p.samples.len(),
                p.plan.len()
            ));
        }
    }
    warnings
}

/// Part `p` (shard `s` of a plan of `blocks` blocks) holds exactly its blocks, numbered on from
/// `next`, as its manifest says.
fn check_plan(p: &Part, s: Shard, blocks: u32, next: u64) -> Result<()> {
    let taken = s.blocks(blocks);
    let said = format!(
        "{} (shard {s}: blocks {} to {} of {blocks})",
        p.from,
        taken.start,
        taken.end.saturating_sub(1)
    );
    if let Some(first) = p.plan.first() {
        ensure!(
            first.plan_index == next,
            "{said}: its plan starts at index {} where {next} comes next: its plan was not cut from the same whole plan as the shards before it",
            first.plan_index
        );
    }
    ensure!(
        p.manifest.samples_planned == p.plan.len(),
        "{said}: its manifest plans {} samples and its plan.csv holds {}",
        p.manifest.samples_planned,
        p.plan.len()
    );
    let held: BTreeSet<u32> = p.plan.iter().map(|r| r.block).collect();
    let wanted: BTreeSet<u32> = taken.collect();
    if let Some(b) = held.difference(&wanted).next() {
        bail!("{said}: its plan holds block {b}, which is not this shard's");
    }
    if let Some(b) = wanted.difference(&held).next() {
        bail!("{said}: its plan lacks block {b}");
    }
    Ok(())
}

/// Every block of the whole plan holds the same cells, each once (so the shards' plans were
/// cut from one plan of one set of cells).
fn check_blocks(plan: &[PlanRow]) -> Result<()> {
    let mut by_block: std::collections::BTreeMap<u32, Vec<schema::CellKey>> = Default::default();
    for r in plan {
        by_block.entry(r.block).or_default().push(r.cell());
    }
    let mut first: Option<(u32, BTreeSet<schema::CellKey>)> = None;
    for (b, cells) in by_block {
        let set: BTreeSet<schema::CellKey> = cells.iter().cloned().collect();
        ensure!(
            set.len() == cells.len(),
            "block {b} of the merged plan holds a cell twice: not a plan thaw writes"
        );
        match &first {
            None => first = Some((b, set)),
            Some((b0, s0)) => ensure!(
                s0 == &set,
                "blocks {b0} and {b} of the merged plan hold different cells: the shards' plans are not parts of one plan"
            ),
        }
    }
    Ok(())
}

/// The merged manifest: the first shard's, with what the merge changes (see the module).
fn merged_manifest(
    parts: &[Part],
    shards: Vec<ShardEntry>,
    command_line: Vec<String>,
    planned: usize,
) -> Manifest {
    let mut m = parts[0].manifest.clone();
    m.command_line = command_line;
    m.settings.shard = None;
    m.samples_planned = planned;
    let machines: Vec<&Machine> = distinct(shards.iter().map(|s| &s.machine));
    m.machine = match machines[..] {
        [one] => one.clone(),
        _ => Machine::default(),
    };
    m.started_utc = parts
        .iter()
        .map(|p| p.manifest.started_utc.clone())
        .min()
        .unwrap_or_default();
    let mut resumed: Vec<String> = parts
        .iter()
        .flat_map(|p| p.manifest.resumed_utc.iter().cloned())
        .collect();
    resumed.sort();
    m.resumed_utc = resumed;
    let mut stopped: Vec<String> = parts
        .iter()
        .flat_map(|p| p.manifest.stopped_utc.iter().cloned())
        .collect();
    stopped.sort();
    m.stopped_utc = stopped;
    m.finished = parts.iter().all(|p| p.manifest.finished);
    // the rows written by every shard's runner (unknown if one shard did not record them)
    m.samples_written = parts.iter().map(|p| p.manifest.samples_written).sum();
    m.finished_utc = if m.finished {
        parts
            .iter()
            .filter_map(|p| p.manifest.finished_utc.clone())
            .max()
    } else {
        None
    };
    let mut notes: Vec<String> = Vec::new();
    for n in parts.iter().flat_map(|p| &p.manifest.notes) {
        if !notes.contains(n) {
            notes.push(n.clone());
        }
    }
    let rebuilt = parts[1..]
        .iter()
        .map(|p| rules::children_rebuilt(&parts[0].manifest, &p.manifest))
        .max()
        .unwrap_or(0);
    if rebuilt > 0 {
        notes.push(format!(
            "The machines ran children of their own builds: up to {rebuilt} of the {} children differ in SHA-256 from the first shard's (the same thaw commit, rustc and library versions; a build is byte-identical only on identical paths and toolchains). Each shard's manifest, with its children, is kept in shards/.",
            parts[0].manifest.children.len()
        ));
    }
    m.notes = notes;
    m.shards = shards;
    m
}

/// The distinct items of `items`, in first-seen order.
fn distinct<'a, T: PartialEq>(items: impl Iterator<Item = &'a T>) -> Vec<&'a T> {
    let mut out: Vec<&T> = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Writes `m` into `out`, which must be new or empty; nothing below it is reached through a
/// link.
pub(crate) fn write(out: &Path, m: &Merged) -> Result<()> {
    let folder = Folder::new(out);
    folder
        .create_dirs("")
        .with_context(|| format!("cannot create {}", out.display()))?;
    ensure!(
        folder.entries()?.is_empty(),
        "{} is not empty; merge writes only into a new or empty folder",
        out.display()
    );
    for (name, bytes) in &m.kept {
        folder
            .write_atomically(format!("shards/{name}"), bytes)
            .with_context(|| format!("cannot write {}", out.join("shards").join(name).display()))?;
    }
    folder
        .write_atomically(
            MANIFEST,
            (serde_json::to_string_pretty(&m.manifest)? + "\n").as_bytes(),
        )
        .with_context(|| format!("cannot write {}", out.join(MANIFEST).display()))?;
    write_rows(folder.file(PLAN), &m.plan)?;
    write_rows(folder.file(SAMPLES), &m.samples)?;
    Ok(())
}

#[cfg(test)]
mod tests;
