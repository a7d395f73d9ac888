//! Runs a forked warm run: the cells the gate let through and criterion's filter chose, each in
//! `forks` fresh processes of this same bench binary, in the fork plan's order (`forks::plan`).
//! Each fork writes criterion's output under `results/warm/forks/<variant>/fork-<k>/`; the
//! run's manifest says how they ran and on which allocator. `analysis` reads them.

use crate::forks::{cell_folder, fork_env, parse_fork_folder, plan, ForkRun};
use crate::settings::{self, Mode};
use anyhow::{Context, Result};
use schema::warm_files::{ForksManifest, FORKS_MANIFEST};
use schema::Variant;
use std::path::Path;
use std::process::Command;

/// What a forked run is: which build, how many processes per cell, in which order.
pub struct Forked {
    pub variant: Variant,
    pub mode: Mode,
    pub forks: u32,
    pub seed: u64,
}

/// The cells among `runnable` that criterion's `filter` (a regex on the id, as criterion reads
/// it) chooses; every one without a filter.
pub fn chosen(runnable: &[String], filter: Option<&str>) -> Result<Vec<String>> {
    let Some(filter) = filter else {
        return Ok(runnable.to_vec());
    };
    let re = regex::Regex::new(filter).with_context(|| format!("the filter `{filter}`"))?;
    Ok(runnable
        .iter()
        .filter(|id| re.is_match(id))
        .cloned()
        .collect())
}

impl Forked {
    /// Runs every cell of `cells` in `self.forks` processes, each handed `args` (criterion's
    /// options) and `--exact <cell>`. Returns the forks that failed, each with why; a failed fork
    /// is recorded and the run goes on.
    pub fn run(&self, cells: &[String], args: &[String]) -> Result<Vec<String>> {
        let root = settings::forks_dir(self.variant);
        std::fs::create_dir_all(&root)
            .with_context(|| format!("cannot create {}", root.display()))?;
        clear_cells(&root, cells)?;
        let mut manifest = ForksManifest {
            variant: self.variant,
            allocator: allocator::ALLOCATOR,
            mode: self.mode.to_string(),
            forks: self.forks,
            seed: self.seed,
            cells: cells.to_vec(),
            failed: Vec::new(),
            finished: false,
        };
        write_manifest(&root, &manifest)?;
        let exe = std::env::current_exe().context("cannot find the bench binary")?;
        let runs = plan(cells, self.forks, self.seed);
        for (i, run) in runs.iter().enumerate() {
            eprintln!(
                "thaw warm: [{}/{}] fork {} of {}: {}",
                i + 1,
                runs.len(),
                run.fork + 1,
                self.forks,
                run.cell
            );
            if let Err(why) = run_fork(&exe, run, args) {
                manifest
                    .failed
                    .push(format!("fork {} {}: {why:#}", run.fork, run.cell));
            }
        }
        manifest.finished = true;
        write_manifest(&root, &manifest)?;
        Ok(manifest.failed)
    }
}

/// One fork of one cell: this binary again, its stdout and stderr the user's.
fn run_fork(exe: &Path, run: &ForkRun, args: &[String]) -> Result<()> {
    let status = Command::new(exe)
        .args(args)
        .arg("--exact")
        .arg(&run.cell)
        .env(settings::FORK_VAR, fork_env(run))
        .status()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    anyhow::ensure!(status.success(), "the process ended with {status}");
    Ok(())
}

/// Removes every earlier fork's result of the chosen cells, so a cell's forks are all this run's
/// (a run with fewer forks than the last leaves none of the last one's behind).
fn clear_cells(root: &Path, cells: &[String]) -> Result<()> {
    let folders = files::entries(root)?
        .into_iter()
        .filter(|e| e.kind == files::Kind::Folder);
    for entry in folders {
        let name = entry.name.to_string_lossy().into_owned();
        if parse_fork_folder(&name).is_none() {
            continue;
        }
        for cell in cells {
            let Some((group, codec)) = cell_folder(cell) else {
                continue;
            };
            let dir = entry.path.join(group).join(codec);
            if dir.is_dir() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot clear {}", dir.display()))?;
            }
        }
    }
    Ok(())
}

fn write_manifest(root: &Path, manifest: &ForksManifest) -> Result<()> {
    let text = serde_json::to_string_pretty(manifest)?;
    files::Folder::new(root)
        .write_atomically(FORKS_MANIFEST, text.as_bytes())
        .with_context(|| format!("cannot write {}", root.join(FORKS_MANIFEST).display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_chooses_cells_as_criterion_does() {
        let cells: Vec<String> = [
            "users-1kb/de/serde_json",
            "users-1kb/ser/serde_json",
            "twitter/de/jiter",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(chosen(&cells, None).unwrap(), cells);
        assert_eq!(
            chosen(&cells, Some("users-1kb/de")).unwrap(),
            ["users-1kb/de/serde_json"]
        );
        assert_eq!(chosen(&cells, Some("/de/")).unwrap().len(), 2);
        assert!(chosen(&cells, Some("(")).is_err());
    }
}
