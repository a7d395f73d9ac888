//! `cold run --measure instructions`: each sample counted instead of timed. The child runs once
//! under Valgrind's callgrind, which dumps its instruction count each time the child enters
//! `clock_gettime` (a child reads CLOCK_MONOTONIC exactly at its seven stamps), so the dumps are
//! the phases: exec → main, fixture, init, first_op, remaining_ops, check, and the rest to the
//! process's end. The children are the timed ones, unchanged. Then the child runs once more,
//! natively, with the allocation counter (`alloc-phases`, an LD_PRELOAD library) that counts
//! heap blocks and bytes per phase the same way. Both counts are the same on every run of the
//! same binary and input, whatever else the machine does.
//!
//! Callgrind rather than cachegrind: only callgrind can cut a run at a named function, so the
//! phases need no change to the children (a client request at each stamp would put code in
//! the timed binaries, or make the counted build a variant of its own).

use anyhow::{bail, Context, Result};
use files::Folder;
use schema::phases::{Figure, Phase, Quantity, Stamp};
use schema::rows::SampleRow;
use schema::run_folder::Counting;
use schema::Measure;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The Valgrind tool.
pub(crate) const TOOL: &str = "callgrind";

/// The allocation counter's file name, beside the runner and in the run folder's `tools/`.
pub(crate) const ALLOC_LIBRARY: &str = "libthaw_alloc_phases.so";

/// The run folder's `tools/`: the allocation counter a counted run's children are counted with.
pub(crate) const TOOLS: &str = "tools";

/// The run folder's `.counting/`: callgrind's dumps of the sample in flight.
pub(crate) const SCRATCH: &str = ".counting";

/// The environment variable that tells the allocation counter where to write.
pub(crate) const ALLOC_OUT_VAR: &str = "THAW_ALLOC_PHASES";

/// The files a counted sample's tools write into the scratch folder: callgrind's output, and the
/// allocation counter's.
pub(crate) const CALLGRIND_OUT: &str = "callgrind.out";
pub(crate) const ALLOC_OUT: &str = "alloc-phases.txt";

/// Valgrind's options before the child's command line (the output file is added per sample).
pub(crate) fn options() -> Vec<String> {
    vec![
        "-q".into(),
        format!("--tool={TOOL}"),
        // Every entry into clock_gettime ends a part: the stamps.
        "--dump-before=clock_gettime*".into(),
        "--combine-dumps=yes".into(),
    ]
}

/// Valgrind, found on PATH, with its version.
#[derive(Debug, Clone)]
pub(crate) struct Valgrind {
    pub(crate) path: PathBuf,
    pub(crate) version: String,
}

/// What a counted run needs to count a sample.
#[derive(Debug, Clone)]
pub(crate) struct Counter {
    pub(crate) valgrind: Valgrind,
    /// The allocation counter, in the run folder.
    pub(crate) alloc_library: PathBuf,
    /// Where each sample's counts are written, then read and removed.
    pub(crate) scratch: PathBuf,
}

impl Counter {
    /// The command line of the counted run of `child args…`.
    pub(crate) fn callgrind_argv(&self, child: &Path, args: &[OsString]) -> Vec<OsString> {
        let mut argv: Vec<OsString> = options().into_iter().map(OsString::from).collect();
        let mut out = OsString::from("--callgrind-out-file=");
        out.push(self.callgrind_file());
        argv.push(out);
        argv.push(child.into());
        argv.extend(args.iter().cloned());
        argv
    }

    pub(crate) fn callgrind_file(&self) -> PathBuf {
        self.scratch.join(CALLGRIND_OUT)
    }

    pub(crate) fn alloc_file(&self) -> PathBuf {
        self.scratch.join(ALLOC_OUT)
    }

    /// The environment of the allocation run: the children's, plus the counter.
    pub(crate) fn alloc_env(&self, env: &[(OsString, OsString)]) -> Vec<(OsString, OsString)> {
        let mut env = env.to_vec();
        env.push(("LD_PRELOAD".into(), self.alloc_library.clone().into()));
        env.push((ALLOC_OUT_VAR.into(), self.alloc_file().into()));
        env
    }

    /// An empty scratch folder for the next sample (a link planted in its place is removed, not
    /// followed).
    pub(crate) fn clear_scratch(&self) -> Result<()> {
        let _ = std::fs::remove_dir_all(&self.scratch);
        let (run, name) = (
            self.scratch.parent().unwrap_or(Path::new(".")),
            self.scratch.file_name().unwrap_or_default(),
        );
        Folder::new(run)
            .create_dirs(name)
            .with_context(|| format!("cannot create {}", self.scratch.display()))
    }

    /// A file the counting tools wrote into the scratch folder, bounded.
    pub(crate) fn read_scratch(&self, name: &str) -> Result<String, String> {
        Folder::new(&self.scratch)
            .read_text(name)
            .map_err(|e| e.to_string())
    }

    /// The manifest's record of how this run counts.
    pub(crate) fn record(&self, run_dir: &Path) -> Result<Counting> {
        let bytes = std::fs::read(&self.alloc_library)
            .with_context(|| format!("cannot read {}", self.alloc_library.display()))?;
        Ok(Counting {
            valgrind: self.valgrind.version.clone(),
            tool: TOOL.into(),
            options: options(),
            alloc_library: self
                .alloc_library
                .strip_prefix(run_dir)
                .unwrap_or(&self.alloc_library)
                .display()
                .to_string(),
            alloc_library_sha256: fixtures::sha256_hex(&bytes),
        })
    }
}

/// The allocation counter beside the runner (built first when the runner was started by
/// `cargo run`), or an error saying how to build it.
pub(crate) fn alloc_counter_beside_runner() -> Result<PathBuf> {
    if let Some(command) = crate::system::binaries::cargo_build_alloc_counter()? {
        crate::system::binaries::build(command)?;
    }
    let path = crate::system::binaries::default_dir(schema::Variant::PORTABLE)?.join(ALLOC_LIBRARY);
    if !path.is_file() {
        bail!(
            "no {ALLOC_LIBRARY} beside the runner (looked for {}): --measure instructions counts \
             allocations with it; build it with `cargo build --release -p alloc-phases`",
            path.display()
        );
    }
    Ok(path)
}

/// The counter of a fresh run: the allocation counter copied into the run folder's `tools/`
/// (so that a resume uses the very same file), a scratch folder for each sample's counts.
pub(crate) fn start(run_dir: &Path, valgrind: Valgrind, alloc_counter: &Path) -> Result<Counter> {
    let tools = run_dir.join(TOOLS);
    let copy = tools.join(ALLOC_LIBRARY);
    let bytes = files::read_regular(alloc_counter, files::PROGRAM_LIMIT)
        .with_context(|| format!("cannot read {}", alloc_counter.display()))?;
    Folder::new(run_dir)
        .write_atomically(Path::new(TOOLS).join(ALLOC_LIBRARY), &bytes)
        .with_context(|| {
            format!(
                "cannot copy {} into {}",
                alloc_counter.display(),
                tools.display()
            )
        })?;
    Ok(Counter {
        valgrind,
        alloc_library: copy,
        scratch: run_dir.join(SCRATCH),
    })
}

/// The counter of a resumed run, once Valgrind and the allocation counter are proved the ones
/// the run started with (other versions count differently).
pub(crate) fn resume(run_dir: &Path, recorded: &Counting) -> Result<Counter> {
    let valgrind = find_valgrind()?;
    if valgrind.version != recorded.valgrind {
        bail!(
            "{}: this run counted with {}, and {} is {}: counts of two versions would be mixed; \
             start a new run",
            run_dir.display(),
            recorded.valgrind,
            valgrind.path.display(),
            valgrind.version
        );
    }
    let library = run_dir.join(&recorded.alloc_library);
    let bytes = Folder::new(run_dir)
        .read_bounded(&recorded.alloc_library, files::PROGRAM_LIMIT)
        .with_context(|| format!("cannot read the allocation counter {}", library.display()))?;
    if fixtures::sha256_hex(&bytes) != recorded.alloc_library_sha256 {
        bail!(
            "{} is not the allocation counter this run started with (its SHA-256 differs from \
             manifest.json); start a new run",
            library.display()
        );
    }
    Ok(Counter {
        valgrind,
        alloc_library: library,
        scratch: run_dir.join(SCRATCH),
    })
}

/// Valgrind on the runner's PATH, or an error saying how to install it.
pub(crate) fn find_valgrind() -> Result<Valgrind> {
    let path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("valgrind"))
        .find(|p| p.is_file())
        .with_context(|| {
            "valgrind not found on PATH: --measure instructions runs each child under Valgrind; \
             install it with `apt-get install -y valgrind` (or scripts/install-runtimes.sh)"
        })?;
    let out = std::process::Command::new(&path)
        .arg("--version")
        .output()
        .with_context(|| format!("cannot run {} --version", path.display()))?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || !version.starts_with("valgrind") {
        bail!(
            "{} --version said `{version}`: not a working Valgrind",
            path.display()
        );
    }
    Ok(Valgrind { path, version })
}

/// The instruction count of each part of a combined callgrind output (`part: N` … `summary:
/// COUNT`), in part order. Errors name what is missing.
pub(crate) fn parse_callgrind(text: &str) -> Result<Vec<u64>, String> {
    let mut parts: Vec<(u64, u64)> = Vec::new();
    let mut part = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("part: ") {
            part = Some(
                n.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("bad line `{line}`"))?,
            );
        } else if let Some(count) = line.strip_prefix("summary: ") {
            let n = part.take().ok_or("a `summary:` line outside a part")?;
            let count = count
                .split_whitespace()
                .next()
                .and_then(|c| c.parse::<u64>().ok())
                .ok_or_else(|| format!("bad line `{line}`"))?;
            parts.push((n, count));
        }
    }
    if parts.is_empty() {
        return Err("no parts in callgrind's output".into());
    }
    parts.sort();
    if parts
        .iter()
        .enumerate()
        .any(|(i, (n, _))| *n != i as u64 + 1)
    {
        return Err("callgrind's parts are not numbered 1, 2, …".into());
    }
    Ok(parts.into_iter().map(|(_, count)| count).collect())
}

/// Blocks and bytes allocated in each phase, as the allocation counter wrote them: `clock_reads
/// N`, then `blocks bytes` per phase (0 before main, 1 fixture, 2 init, 3 first_op, …).
pub(crate) fn parse_alloc(text: &str) -> Result<(u64, Vec<(u64, u64)>), String> {
    let mut lines = text.lines();
    let reads = lines
        .next()
        .and_then(|l| l.strip_prefix("clock_reads "))
        .and_then(|n| n.trim().parse().ok())
        .ok_or("no `clock_reads` line")?;
    let phases = lines
        .map(|l| {
            let mut fields = l.split_whitespace().map(str::parse::<u64>);
            match (fields.next(), fields.next(), fields.next()) {
                (Some(Ok(blocks)), Some(Ok(bytes)), None) => Ok((blocks, bytes)),
                _ => Err(format!("bad line `{l}`")),
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((reads, phases))
}

/// The stamps a child takes, each a read of the clock.
const STAMPS: usize = Stamp::CHILD.len();

/// Fills `row`'s instruction columns from callgrind's parts, one per phase in order; the error
/// says why it cannot.
pub(crate) fn fill_instructions(row: &mut SampleRow, parts: &[u64]) -> Result<(), String> {
    if parts.len() != Phase::ALL.len() {
        return Err(format!(
            "callgrind cut the child into {} parts, not {}: it read the clock {} times, not at \
             its {STAMPS} stamps only, so its phases cannot be told apart",
            parts.len(),
            Phase::ALL.len(),
            parts.len().saturating_sub(1)
        ));
    }
    for (p, count) in Phase::ALL.iter().zip(parts) {
        row.set(Figure::Of(Quantity::Instructions, *p), Some(*count));
    }
    Ok(())
}

/// Fills `row`'s allocation columns (the library's phases) from the counter's file, one
/// `blocks bytes` line per phase in order; the error says why it cannot.
pub(crate) fn fill_allocations(
    row: &mut SampleRow,
    reads: u64,
    phases: &[(u64, u64)],
) -> Result<(), String> {
    let last = Phase::LIBRARY.iter().map(|p| p.index()).max().unwrap_or(0);
    if reads != STAMPS as u64 || phases.len() <= last {
        return Err(format!(
            "the allocation run read the clock {reads} times, not at its {STAMPS} stamps only: \
             its phases cannot be told apart"
        ));
    }
    for p in Phase::LIBRARY {
        let (blocks, bytes) = phases[p.index()];
        row.set(Figure::Of(Quantity::AllocBlocks, p), Some(blocks));
        row.set(Figure::Of(Quantity::AllocBytes, p), Some(bytes));
    }
    Ok(())
}

/// A counted sample records no times, faults or rusage: they would be Valgrind's, fifty times a
/// native run's. Only its counts stay.
pub(crate) fn clear_times(row: &mut SampleRow) {
    for &f in Figure::all() {
        let counted = matches!(
            f,
            Figure::Of(
                Quantity::Instructions | Quantity::AllocBlocks | Quantity::AllocBytes,
                _
            )
        );
        if !counted {
            row.set(f, None);
        }
    }
}

/// The tools a run of `measure` needs, found before any folder is made (so a counted run
/// without Valgrind fails at once, with how to get it): none for a timed run.
pub(crate) fn tools(measure: Measure) -> Result<Option<(Valgrind, PathBuf)>> {
    match measure {
        Measure::Time => Ok(None),
        Measure::Instructions => Ok(Some((find_valgrind()?, alloc_counter_beside_runner()?))),
    }
}

/// The counter a resume of `dir` counts with, from what its manifest recorded (none for a
/// timed run).
pub(crate) fn resumed_counter(
    measure: Measure,
    dir: &Path,
    recorded: Option<&Counting>,
) -> Result<Option<Counter>> {
    match (measure, recorded) {
        (Measure::Time, _) => Ok(None),
        (Measure::Instructions, Some(recorded)) => Ok(Some(resume(dir, recorded)?)),
        (Measure::Instructions, None) => bail!(
            "{}: manifest.json says this run counts instructions but not how; start a new run",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SampleRow {
        SampleRow::planned(&schema::rows::PlanRow {
            plan_index: 0,
            block: 0,
            codec: "noop".into(),
            op: schema::Op::De,
            batch: 1,
            fixture: "small".into(),
            variant: schema::Variant::PORTABLE,
        })
    }

    const CALLGRIND: &str = "version: 1\ncreator: callgrind-3.19.0\npart: 1\n\
        desc: Trigger: --dump-before=clock_gettime@@GLIBC_2.17\nevents: Ir\nsummary: 284970\n\
        fn=x\n0 3\ntotals: 284970\npart: 2\nsummary: 5859\npart: 3\nsummary: 18\npart: 4\n\
        summary: 40\npart: 5\nsummary: 64896\npart: 6\nsummary: 23\npart: 7\nsummary: 8704\n\
        part: 8\ndesc: Trigger: Program termination\nsummary: 26916\n";

    #[test]
    fn callgrind_parts_in_order() {
        let parts = parse_callgrind(CALLGRIND).unwrap();
        assert_eq!(parts, [284970, 5859, 18, 40, 64896, 23, 8704, 26916]);
        let mut row = row();
        fill_instructions(&mut row, &parts).unwrap();
        let instr = |p| row.get(Figure::Of(Quantity::Instructions, p));
        assert_eq!(instr(Phase::FirstOp), Some(64896));
        assert_eq!(instr(Phase::Exit), Some(26916));
    }

    #[test]
    fn a_child_that_reads_the_clock_more_often_has_no_phases() {
        let mut row = row();
        let e = fill_instructions(&mut row, &[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap_err();
        assert!(e.contains("9 parts") && e.contains("8 times"), "{e}");
        assert_eq!(
            row.get(Figure::Of(Quantity::Instructions, Phase::FirstOp)),
            None
        );
        assert!(parse_callgrind("summary: 3\n").is_err());
        assert!(parse_callgrind("part: 2\nsummary: 3\n").is_err());
        assert!(parse_callgrind("nothing").is_err());
    }

    #[test]
    fn allocations_by_phase() {
        let text = "clock_reads 7\n9 2620\n0 0\n18 2498\n0 0\n86 6537\n0 0\n0 0\n10 5700\n0 0\n";
        let (reads, phases) = parse_alloc(text).unwrap();
        let mut row = row();
        fill_allocations(&mut row, reads, &phases).unwrap();
        let alloc = |q, p| row.get(Figure::Of(q, p));
        assert_eq!(alloc(Quantity::AllocBlocks, Phase::Init), Some(0));
        assert_eq!(alloc(Quantity::AllocBytes, Phase::Init), Some(0));
        assert_eq!(alloc(Quantity::AllocBlocks, Phase::FirstOp), Some(86));
        assert_eq!(alloc(Quantity::AllocBytes, Phase::FirstOp), Some(6537));
        assert_eq!(alloc(Quantity::AllocBlocks, Phase::RemainingOps), Some(0));
        assert!(fill_allocations(&mut row, 8, &phases).is_err());
        assert!(parse_alloc("clock_reads x\n").is_err());
        assert!(parse_alloc("clock_reads 6\n1 2 3\n").is_err());
    }
}
