//! Settings read from the environment, once: the build variant, quick or full mode, the classic
//! corpora folder, and where results go. Not for command-line options (criterion owns the
//! bench's arguments; the alloc binary parses its own).

use anyhow::{bail, Result};
use fixtures::catalog::{corpora_given, CORPORA_VAR};
use schema::Variant;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Names the build variant the results are filed under (default `portable`).
pub const VARIANT_VAR: &str = "THAW_VARIANT";
/// `quick` for short warm-up and measurement over every cell; `full` (or unset) for criterion's
/// own defaults.
pub const MODE_VAR: &str = "THAW_WARM";

/// How many fresh processes each cell runs in (default [`crate::forks::DEFAULT_FORKS`]).
pub const FORKS_VAR: &str = "THAW_FORKS";
/// The seed of the cells' order within each fork (default fixtures' seed, 20261130).
pub const FORKS_SEED_VAR: &str = "THAW_FORKS_SEED";
/// Set by the driver in a fork's environment (`<fork> <cell>`): this process is one fork of one
/// cell. Not for users.
pub const FORK_VAR: &str = "THAW_FORK";

/// How long criterion measures each cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// criterion's defaults (3 s warm-up, 5 s measurement, 100 samples, 100,000 resamples).
    Full,
    /// A first look and CI: every cell briefly.
    Quick,
}

/// The measurement settings of a mode, before criterion's own flags override them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub warm_up: Duration,
    pub measurement: Duration,
    pub sample_size: usize,
    pub resamples: usize,
}

impl Mode {
    pub fn parse(text: &str) -> Result<Mode> {
        match text {
            "" | "full" => Ok(Mode::Full),
            "quick" => Ok(Mode::Quick),
            other => bail!("{MODE_VAR}=`{other}`: expected `quick` or `full`"),
        }
    }

    /// The mode named by `THAW_WARM` (unset: full).
    pub fn from_env() -> Result<Mode> {
        match std::env::var(MODE_VAR) {
            Ok(text) => Mode::parse(&text),
            Err(std::env::VarError::NotPresent) => Ok(Mode::Full),
            Err(e) => bail!("{MODE_VAR}: {e}"),
        }
    }

    pub fn timing(self) -> Timing {
        match self {
            Mode::Full => Timing {
                warm_up: Duration::from_secs(3),
                measurement: Duration::from_secs(5),
                sample_size: 100,
                resamples: 100_000,
            },
            Mode::Quick => Timing {
                warm_up: Duration::from_millis(200),
                measurement: Duration::from_millis(500),
                sample_size: 10,
                resamples: 10_000,
            },
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Mode::Full => "full",
            Mode::Quick => "quick",
        })
    }
}

/// The build variant named by `THAW_VARIANT`, or `portable`.
pub fn variant() -> Result<Variant> {
    match std::env::var(VARIANT_VAR) {
        Ok(name) if !name.is_empty() => {
            Variant::parse(&name).map_err(|e| anyhow::anyhow!("{VARIANT_VAR}: {e}"))
        }
        _ => Ok(Variant::PORTABLE),
    }
}

/// The forks per cell named by `THAW_FORKS`, or the default.
pub fn forks() -> Result<u32> {
    match std::env::var(FORKS_VAR) {
        Ok(text) => {
            crate::forks::parse_forks(&text).map_err(|e| anyhow::anyhow!("{FORKS_VAR}: {e}"))
        }
        Err(_) => Ok(crate::forks::DEFAULT_FORKS),
    }
}

/// The seed named by `THAW_FORKS_SEED`, or the fixtures' seed.
pub fn forks_seed() -> Result<u64> {
    match std::env::var(FORKS_SEED_VAR) {
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("{FORKS_SEED_VAR}=`{text}`: expected a whole number")),
        Err(_) => Ok(fixtures::DEFAULT_SEED),
    }
}

/// This process's fork and cell, when the driver started it as one (`THAW_FORK`).
pub fn this_fork() -> Result<Option<crate::forks::ForkRun>> {
    match std::env::var(FORK_VAR) {
        Ok(text) => crate::forks::parse_fork_env(&text)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{FORK_VAR}: {e}")),
        Err(_) => Ok(None),
    }
}

pub use fixtures::catalog::workspace_root;

/// `results/warm/` at the workspace root (cargo runs benches from the package folder, `warm/`).
pub fn warm_results() -> PathBuf {
    workspace_root().join(schema::warm_files::DEFAULT_ROOT)
}

/// Where criterion writes a variant's benches: `results/warm/criterion/<variant>/`, in
/// criterion's own layout (`<group>/<codec>/new/{benchmark,estimates}.json`).
pub fn criterion_dir(variant: Variant) -> PathBuf {
    warm_results()
        .join(schema::warm_files::CRITERION)
        .join(variant.name())
}

/// Where a forked run of a variant writes: `results/warm/forks/<variant>/`, one criterion folder
/// per fork (`fork-<k>/`) and the run's manifest.
pub fn forks_dir(variant: Variant) -> PathBuf {
    warm_results()
        .join(schema::warm_files::FORKS)
        .join(variant.name())
}

/// The classic corpora folder named by `THAW_CORPORA`, if set (the benches take no options of
/// their own: criterion owns their command line), by the rule every command uses.
pub fn corpora() -> Option<PathBuf> {
    corpora_given(None)
}

/// The line printed when the corpora are left out.
pub fn corpora_skipped_line() -> String {
    format!(
        "classic corpora (twitter, citm_catalog, canada) skipped: {CORPORA_VAR} is not set \
         (for development: {CORPORA_VAR}=../shared/corpora)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!(Mode::parse("quick").unwrap(), Mode::Quick);
        assert_eq!(Mode::parse("full").unwrap(), Mode::Full);
        assert_eq!(Mode::parse("").unwrap(), Mode::Full);
        assert!(Mode::parse("fast").is_err());
        assert!(Mode::Quick.timing().measurement < Mode::Full.timing().measurement);
        assert!(
            Mode::Quick.timing().sample_size >= 10,
            "criterion's minimum"
        );
    }

    #[test]
    fn criterion_dir_is_under_results_warm() {
        let dir = criterion_dir(Variant::NATIVE);
        assert!(dir.ends_with("results/warm/criterion/native"));
        assert!(dir.starts_with(workspace_root()));
    }
}
