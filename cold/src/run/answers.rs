//! The answer a finished run ends with: per fixture and op, which codec is cheapest from which
//! number of operations (the `answer` crate's, the words every report uses), from the run's
//! samples, or from its curves in a curve run. A counted run measures no time and has none.

use answer::form::Answer;
use answer::{Draws, Lineup};
use anyhow::{Context, Result};
use files::Folder;
use schema::curve::{read_curves, CURVES};
use schema::run_folder::{Manifest, SAMPLES};
use schema::Measure;
use std::path::Path;
use store::cell::Samples;
use store::rows::read_samples;

/// The answers of the run in `dir`, whose samples are `samples`.
pub(crate) fn of_run(dir: &Path, manifest: &Manifest, samples: &Samples) -> Result<Vec<Answer>> {
    if manifest.settings.measure != Measure::Time {
        return Ok(Vec::new());
    }
    let lineup = Lineup::of(&manifest.codecs);
    // the report's default draws, so that `analysis report` prints the same lines
    let draws = Draws {
        resamples: answer::RESAMPLES,
        seed: manifest.settings.seed,
    };
    if !Folder::new(dir).exists(CURVES) {
        return Ok(answer::from_batches(samples, &lineup, draws));
    }
    let path = dir.join(CURVES);
    let (curves, _) = read_curves(&path).with_context(|| format!("{}", path.display()))?;
    let (rows, _) = read_samples(&dir.join(SAMPLES), None)?;
    let curves = answer::curves_of(&rows, &curves);
    Ok(answer::from_curves(&curves, &lineup, draws))
}
