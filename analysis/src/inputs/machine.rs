//! `analysis report RUN --machine M2`: a run merged from several machines, seen from one of
//! them: only the plan rows and samples of the blocks its shards took (every block lies on one
//! machine), so each figure of the report is that machine's, as from a run of its own. The
//! manifest keeps only that machine's shards and names it as the run's machine.

use super::run::Run;
use anyhow::{bail, Context, Result};
use schema::run_folder::{Machine, Manifest, Shard, PLAN, SAMPLES};
use serde::Serialize;
use store::cell::Samples;
use store::rows::{read_plan, read_samples, PlanCount};

/// Keeps in `run` only the machine called `name` (`M1`, `M2`, … as the Machines section names
/// them, or its CPU model); the error lists the machines there are.
pub(crate) fn restrict(run: &mut Run, name: &str) -> Result<()> {
    let dir = run.dir.clone();
    let manifest = run.manifest.as_mut().with_context(|| {
        format!(
            "--machine {name}: {} has no readable manifest, so its machines are unknown",
            dir.display()
        )
    })?;
    let Some(machines) = Machines::of(manifest) else {
        bail!(
            "--machine {name}: {} was not merged from shards (`analysis merge`): it ran on one machine",
            dir.display()
        );
    };
    let Some(at) = machines
        .0
        .iter()
        .position(|e| e.name == name || e.machine.cpu_model.as_deref() == Some(name))
    else {
        let known: Vec<String> = machines
            .0
            .iter()
            .map(|e| {
                format!(
                    "{} ({})",
                    e.name,
                    e.machine.cpu_model.as_deref().unwrap_or("—")
                )
            })
            .collect();
        bail!(
            "--machine {name}: no such machine in {}; its machines: {}",
            dir.display(),
            known.join(", ")
        );
    };
    let on = |block: u32| machines.of_block(block) == Some(at);
    let (plan, _) = read_plan(run.folder.file(PLAN))?;
    let plan: Vec<_> = plan.into_iter().filter(|p| on(p.block)).collect();
    let (rows, _) = read_samples(run.folder.file(SAMPLES), None)?;
    let rows: Vec<_> = rows.into_iter().filter(|r| on(r.block)).collect();
    let entry = &machines.0[at];
    manifest.shards.retain(|s| s.machine == entry.machine);
    manifest.machine = entry.machine.clone();
    manifest.samples_planned = plan.len();
    run.samples = Samples::from_rows(&rows);
    run.plan = PlanCount::of(&plan);
    run.notes.push(format!(
        "Machine {} ({}) alone (`--machine`): the {} samples of the blocks its shards took, of the merged run's.",
        entry.name,
        entry.machine.cpu_model.as_deref().unwrap_or("CPU unknown"),
        rows.len()
    ));
    Ok(())
}

/// One machine of a merged run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct MachineEntry {
    /// `M1`, `M2`, … in the order of their first shard.
    pub(crate) name: String,
    pub(crate) machine: Machine,
    /// Its shards, in order.
    pub(crate) shards: Vec<MachineShard>,
    /// Planned samples over its shards.
    pub(crate) planned: u64,
}

/// A shard of a machine: which part, the blocks it took, the folder it was merged from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct MachineShard {
    pub(crate) shard: Shard,
    /// [start, end).
    pub(crate) blocks: (u32, u32),
    pub(crate) from: String,
}

/// The machines of a merged run, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Machines(pub Vec<MachineEntry>);

impl Machines {
    /// The machines of the run whose manifest is `m`; `None` for a run that was not merged.
    pub(crate) fn of(m: &Manifest) -> Option<Machines> {
        if m.shards.is_empty() {
            return None;
        }
        let blocks = m.settings.samples_per_cell;
        let mut out: Vec<MachineEntry> = Vec::new();
        for s in &m.shards {
            let range = s.shard.blocks(blocks);
            let shard = MachineShard {
                shard: s.shard,
                blocks: (range.start, range.end),
                from: s.from.clone(),
            };
            let planned = s.plan_indexes.1 - s.plan_indexes.0;
            match out.iter_mut().find(|e| e.machine == s.machine) {
                Some(e) => {
                    e.shards.push(shard);
                    e.planned += planned;
                }
                None => out.push(MachineEntry {
                    name: format!("M{}", out.len() + 1),
                    machine: s.machine.clone(),
                    shards: vec![shard],
                    planned,
                }),
            }
        }
        Some(Machines(out))
    }

    /// The machine block `b` ran on (its index in the list).
    pub(crate) fn of_block(&self, b: u32) -> Option<usize> {
        self.0.iter().position(|e| {
            e.shards
                .iter()
                .any(|s| (s.blocks.0..s.blocks.1).contains(&b))
        })
    }

    /// Whether the run was made on more than one machine.
    pub(crate) fn several(&self) -> bool {
        self.0.len() > 1
    }
}
