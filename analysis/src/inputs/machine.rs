//! `analysis report RUN --machine M2`: a run merged from several machines, seen from one of
//! them: only the plan rows and samples of the blocks its shards took (every block lies on one
//! machine), so each figure of the report is that machine's, as from a run of its own. The
//! manifest keeps only that machine's shards and names it as the run's machine.

use super::run::Run;
use crate::analyze::machines::Machines;
use anyhow::{bail, Context, Result};
use schema::rows::{read_plan, read_samples, PlanCount, Samples};
use schema::run_folder::{PLAN, SAMPLES};

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
