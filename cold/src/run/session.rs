//! The part of a run that a fresh run and a resumed one share: turning plan rows into jobs,
//! taking the samples into samples.csv, marking the manifest finished, and printing the summary
//! from what samples.csv holds (so a resumed run's summary covers every sample).

use crate::counting::Counter;
use crate::folder::{self, manifest, SamplesWriter};
use crate::run::plan::{self, Unit};
use crate::run::precision::{self, Next};
use crate::run::prepare::Routes;
use crate::run::progress::Progress;
use crate::run::sampler::{self, Job, Sampler};
use crate::run::status::say;
use crate::run::summary;
use crate::runtimes::codec_list;
use crate::system::binaries::spawner_path;
use crate::system::cache::EvictionTally;
use crate::system::interrupt::{self, Interrupted};
use anyhow::{bail, Context, Result};
use codecs::{AnyCodec, Style};
use schema::rows::PlanRow;
use schema::run_folder::{Manifest, Settings, SAMPLES};
use schema::{GateCell, StopReason};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

/// The plan as CSV on stdout (`--dry-run`).
pub(crate) fn print_plan(rows: &[PlanRow]) -> Result<()> {
    let mut w = csv::Writer::from_writer(std::io::stdout().lock());
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// One job per plan row: its child, its input file, what it must print.
pub(crate) fn jobs(rows: &[PlanRow], routes: &Routes, settings: &Settings) -> Result<Vec<Job>> {
    rows.iter()
        .map(|row| {
            let key = (row.gate_cell(), row.variant);
            let route = routes.get(&key).with_context(|| {
                format!(
                    "plan index {}: no child for {} ({})",
                    row.plan_index, key.0, row.variant
                )
            })?;
            let expected = route.expected.with_context(|| {
                format!(
                    "plan index {}: {} ({}) has no learned output (its preflight did not pass)",
                    row.plan_index, key.0, row.variant
                )
            })?;
            Ok(Job {
                plan: row.clone(),
                child: route.child.clone(),
                prefix: route.prefix.clone(),
                input: route.input.clone(),
                loads: route.loads.clone(),
                drops: settings.drops,
                expected: Some(expected),
                check_file: None,
                window: settings.curve.map(|c| c.window),
            })
        })
        .collect()
}

/// The children's environment as the settings record it (`KEY=VALUE`).
pub(crate) fn env_of(settings: &Settings) -> Vec<(OsString, OsString)> {
    settings
        .child_env
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.into(), v.into()),
            None => (kv.into(), OsString::new()),
        })
        .collect()
}

/// How a `--precision` run adds whole blocks to its plan: the units and what the gate and the
/// preflight left out, as `plan::build` and `plan::without` take them (a longer plan keeps the
/// shorter one as its beginning).
pub(crate) struct Blocks {
    pub(crate) units: Vec<Unit>,
    pub(crate) excluded: Vec<schema::run_folder::CheckEntry>,
    pub(crate) seed: u64,
}

impl Blocks {
    /// The plan of `blocks` blocks.
    pub(crate) fn plan(&self, blocks: u32) -> Vec<PlanRow> {
        plan::without(plan::build(&self.units, blocks, self.seed), &self.excluded)
    }
}

/// How a run that finished ends when some of its samples failed or cells were left out by the
/// gate or the preflight: every finished sample is in its folder and the summary says which
/// failed; the process exits with [`INCOMPLETE_EXIT`], so that a script (CI) knows.
#[derive(Debug)]
pub(crate) struct Incomplete {
    pub(crate) dir: std::path::PathBuf,
    pub(crate) failed: usize,
    pub(crate) left_out: usize,
}

/// The exit status of a run that finished with failed samples or left-out cells.
pub(crate) const INCOMPLETE_EXIT: i32 = 3;

impl std::fmt::Display for Incomplete {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "the run finished with {} failed samples and {} codec × fixture × op left out by \
             the correctness gate or the preflight (see the summary above and {})",
            self.failed,
            self.left_out,
            self.dir.display()
        )
    }
}

impl std::error::Error for Incomplete {}

/// Takes every planned sample that has no row yet into the folder's samples.csv (counted, with
/// `counter`); then, for a `--precision` run (`blocks`, and the rule in the manifest), checks
/// the intervals and adds blocks until the rule says stop, writing the longer plan and the
/// manifest before each new block's first sample. Returns how eviction went, for the summary. A
/// signal stops it with an [`Interrupted`] error that says how to resume.
pub(crate) fn take_samples(
    dir: &Path,
    manifest: &mut Manifest,
    routes: &Routes,
    counter: Option<Counter>,
    mut plan: Vec<PlanRow>,
    blocks: Option<&Blocks>,
) -> Result<EvictionTally> {
    let settings = manifest.settings.clone();
    let settings = &settings;
    let timeout = Duration::from_secs_f64(settings.timeout_secs);
    let mut sampler = Sampler::new(
        &spawner_path()?,
        timeout,
        settings.cold_cache,
        env_of(settings),
    )?
    .with_memory_limit(settings.memory_limit_mib);
    if let Some(counter) = counter {
        sampler = sampler.with_counter(counter);
    }
    if let Some(said) = containment_after(
        manifest.machine.containment.as_deref(),
        sampler.containment(),
    ) {
        manifest.machine.containment = Some(said);
        manifest::write(dir, manifest)?;
    }
    let done = folder::finished_indices(dir, &plan)?;
    let mut left: Vec<PlanRow> = plan
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    folder::prune_curves(dir, &done)?;
    let mut writer = SamplesWriter::open(dir, done.len() as u64)?;
    let mut before = plan.len() - left.len();
    let mut progress = Progress::new(plan.len() as u64, before as u64);
    let floors = floors_of(manifest);
    loop {
        let jobs = jobs(&left, routes, settings)?;
        let total = plan.len();
        let stop = |taken: usize| {
            interrupt::caught().map(|signal| Interrupted {
                signal,
                dir: dir.to_path_buf(),
                done: before + taken,
                planned: total,
            })
        };
        let started = std::time::Instant::now();
        sampler::execute(&jobs, &mut sampler, &mut writer, &mut progress, &stop)?;
        writer.still_ours()?;
        let (Some(blocks), Some(rule)) = (blocks, manifest.settings.stopping.as_mut()) else {
            break;
        };
        rule.sampling_secs += started.elapsed().as_secs_f64();
        if rule.stopped_on.is_some() {
            break;
        }
        let Some(longer) = more_blocks(dir, manifest, blocks, &plan, &floors, &mut progress)?
        else {
            break;
        };
        left = longer[plan.len()..].to_vec();
        progress.grow(left.len() as u64);
        before = plan.len();
        plan = longer;
    }
    progress.finish();
    writer.still_ours()?;
    manifest.samples_written = Some(writer.rows());
    Ok(std::mem::take(&mut sampler.eviction))
}

/// What the manifest says contained the samples once a session whose spawner said `now` runs,
/// if that changes it: `now` for a fresh run, `…; then now` for a resume under another
/// containment than the last.
fn containment_after(recorded: Option<&str>, now: &str) -> Option<String> {
    match recorded {
        None => Some(now.to_string()),
        Some(r) if r == now || r.ends_with(&format!("; then {now}")) => None,
        Some(r) => Some(format!("{r}; then {now}")),
    }
}

/// The ids of the run's floors (baseline codecs), which a `--precision` run samples but does not
/// ask for precision.
fn floors_of(manifest: &Manifest) -> Vec<&'static str> {
    manifest
        .codecs
        .iter()
        .filter(|c| c.style == Style::Baseline)
        .map(|c| codec_list::find(&c.id).map_or("", |c| c.id()))
        .collect()
}

/// After a round of a `--precision` run: the intervals of what `plan` has taken so far, checked
/// against the rule; the longer plan (written, with the manifest, before its first sample) when
/// the rule asks for more blocks, or `None` when it says stop (recorded in the manifest).
fn more_blocks(
    dir: &Path,
    manifest: &mut Manifest,
    blocks: &Blocks,
    plan: &[PlanRow],
    floors: &[&str],
    progress: &mut Progress,
) -> Result<Option<Vec<PlanRow>>> {
    let taken = manifest.settings.samples_per_cell;
    let Some(rule) = manifest.settings.stopping.as_mut() else {
        return Ok(None);
    };
    let now = precision::stand(&folder::read_store(dir, plan)?, rule, floors);
    rule.widest = now.widest.as_ref().map(|w| (w.label.clone(), w.half_width));
    progress.note(precision::describe_widest(&now));
    match precision::next(rule, taken, now.met) {
        Next::Stop(reason) => {
            rule.stopped_on = Some(reason);
            manifest::write(dir, manifest)?;
            say_stop(reason, taken, &now);
            Ok(None)
        }
        Next::More(more) => {
            let longer = blocks.plan(taken + more);
            manifest.settings.samples_per_cell = taken + more;
            manifest.samples_planned = longer.len();
            manifest::write(dir, manifest)?;
            folder::write_plan(dir, &longer)?;
            Ok(Some(longer))
        }
    }
}

fn say_stop(reason: StopReason, blocks: u32, now: &stats::precision::Standing) {
    let why = match reason {
        StopReason::Precision => "every interval reached the precision asked",
        StopReason::Samples => "--max-samples reached",
        StopReason::Time => "another round would run past --max-time",
    };
    say!(
        "stopped after {blocks} samples per cell: {why} ({})",
        precision::describe_widest(now)
    );
}

/// Marks the manifest finished and prints the summary; an [`Incomplete`] error when samples
/// failed or cells were left out.
pub(crate) fn finish(dir: &Path, manifest: &mut Manifest, tally: &EvictionTally) -> Result<()> {
    // the rows on disk must be the rows written, or the run is not finished
    let plan = folder::read_plan(dir)?;
    let on_disk = folder::read_samples(dir, &plan)?.len() as u64;
    if let Some(written) = manifest.samples_written.filter(|&w| w != on_disk) {
        bail!(
            "{}: it holds {on_disk} rows where this run wrote {written}: rows were taken out of \
             it or added by something else; the run is not finished. `cold resume {}` takes \
             the missing samples again",
            dir.join(SAMPLES).display(),
            text::for_shell(&dir.display().to_string())
        );
    }
    manifest.finished = true;
    manifest.finished_utc = Some(manifest::utc_now().1);
    let cold_cache = manifest.settings.cold_cache;
    if cold_cache {
        manifest.cold_cache_check = Some(tally.describe());
    }
    manifest::write(dir, manifest)?;
    let samples = folder::read_store(dir, &plan)?;
    print_summary(&samples, manifest, cold_cache.then_some(tally));
    print_answers(dir, manifest, &samples);
    say!("run folder: {} (finished)", dir.display());
    let failed = samples
        .cells
        .values()
        .map(|c| c.len() - c.ok_count())
        .sum::<usize>();
    if failed > 0 || !manifest.excluded.is_empty() {
        return Err(Incomplete {
            dir: dir.to_path_buf(),
            failed,
            left_out: manifest.excluded.len(),
        }
        .into());
    }
    Ok(())
}

/// The run's answer, one line per fixture and op, after its table: what a reader came for. A
/// reading that fails is said, and loses nothing (the run is on disk).
fn print_answers(dir: &Path, m: &Manifest, samples: &store::cell::Samples) {
    match super::answers::of_run(dir, m, samples) {
        Ok(answers) if answers.is_empty() => {}
        Ok(answers) => {
            say!();
            say!("The answer (medians; each switch with its 95% bootstrap interval over blocks):");
            for a in answers {
                say!("  {}", text::for_terminal(&a.line(), false));
            }
        }
        Err(e) => say!(
            "no answer: {}",
            text::for_terminal(&format!("{e:#}"), false)
        ),
    }
}

fn print_summary(samples: &store::cell::Samples, m: &Manifest, tally: Option<&EvictionTally>) {
    let child_bytes: HashMap<GateCell, u64> = m
        .children
        .iter()
        .map(|c| (c.gate_cell(), c.bytes))
        .collect();
    let outputs: HashMap<String, schema::OutputMode> =
        m.codecs.iter().map(|c| (c.id.clone(), c.output)).collect();
    // The run's codecs in the order it took them (the registry's for the default run).
    let codecs: Vec<&'static dyn AnyCodec> = m
        .codecs
        .iter()
        .filter_map(|c| codec_list::find(&c.id).ok())
        .collect();
    let codec_order: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
    let floors: HashMap<String, String> = codecs
        .iter()
        .filter_map(|c| {
            let floor = codec_list::floor_of(c.id(), &codecs)?;
            Some((c.id().to_string(), floor.to_string()))
        })
        .collect();
    let fixture_order: Vec<&str> = fixtures::FIXTURES.iter().map(|f| f.name).collect();
    let cx = summary::Context {
        measure: m.settings.measure,
        codec_order: &codec_order,
        floors: &floors,
        fixture_order: &fixture_order,
        child_bytes: &child_bytes,
        outputs: &outputs,
        cold_cache: tally.is_some(),
    };
    say!();
    say!("{}", summary::table(samples, &cx).trim_end());
    say!("{}", summary::legend(m.settings.measure));
    if let Some(f) = summary::failures(samples) {
        say!("{f}");
    }
    let shown = |t: &str| text::for_terminal(t, false);
    for u in &m.unsupported {
        say!(
            "unsupported: {} {} on {}: {}",
            u.codec,
            u.op,
            u.fixture,
            shown(&u.reason)
        );
    }
    for e in &m.excluded {
        say!(
            "left out ({}): {}: {}",
            e.status,
            e.gate_cell(),
            shown(&e.detail)
        );
    }
    if let Some(t) = tally {
        say!("{}", t.describe());
    }
}

#[cfg(test)]
mod tests {
    use super::containment_after;

    #[test]
    fn the_manifest_names_each_containment_a_session_ran_under() {
        assert_eq!(containment_after(None, "a; b").as_deref(), Some("a; b"));
        assert_eq!(containment_after(Some("a; b"), "a; b"), None);
        assert_eq!(
            containment_after(Some("a; b"), "c").as_deref(),
            Some("a; b; then c")
        );
        assert_eq!(containment_after(Some("a; b; then c"), "c"), None);
    }
}
