//! Children in other languages, described by data (`runtimes/<runtime>/`): a
//! `runtime.toml` says how to start (and, for the JVM, compile) that runtime's children and which
//! builds of them there are (JDK 25 and JDK 17; the Python of thaw's environment), and each
//! `codec-<id>.toml` names a library and its child. Each description becomes a codec like the
//! Rust ones (`cold list`, the plan, the manifest and the report pick it up), with a runtime that
//! may be absent: then its cells are unsupported, with the reason and how to install it, never a
//! failed run.
//!
//! Such a child cannot compute the Rust checksum of what it produced. Its harness prints instead
//! a digest of it computed without the library (docs/child-protocol.md), and, in the preflight
//! only, writes what it produced to the file `--check-file` names: the runner compares it with
//! the fixture by meaning ([`check`]) and learns the digest and length every timed sample must
//! print again, so every timed sample's output is checked by content.

pub(crate) mod check;
pub(crate) mod codec_list;
pub(crate) mod trained;
pub(crate) mod tree_text;

use anyhow::{bail, Context, Result};
use codecs::models::{Model, ModelKind};
use codecs::verify::GateVerdict;
use codecs::{AnyCodec, ChildOutput, CodecError, Op, OutputMode, Style, Support};
use files::Kind;
use schema::run_folder::VariantEntry;
use schema::Variant;
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

/// The variable naming a folder of more descriptions.
pub(crate) const EXTRA_VAR: &str = "THAW_EXTERNAL";

/// The most a `describe` or version output is kept of (its first bytes).
const DESCRIBE_LIMIT: usize = 16 * 1024;

/// The folder of the descriptions, in this repository.
pub(crate) fn folder() -> PathBuf {
    fixtures::catalog::workspace_root().join("runtimes")
}

/// Where a runtime's children are compiled (its `{build}`).
fn build_folder(runtime: &str) -> PathBuf {
    fixtures::catalog::workspace_root()
        .join("target")
        .join("external")
        .join(runtime)
}

/// `runtime.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuntimeFile {
    name: String,
    /// The builds of the runtime's children, each a variant of the run; those marked `default`
    /// (or the first) run when `--variant` names none of them.
    builds: Vec<BuildFile>,
    /// Arguments that make the executable print its version (on stdout or stderr).
    version: Vec<String>,
    /// Arguments that make the executable describe itself for the manifest (a script of the
    /// runtime's folder, `{dir}`): what its start-up loads and from where.
    #[serde(default)]
    describe: Option<Vec<String>>,
    /// How to compile the children into `{build}` (run when `sources` changed).
    #[serde(default)]
    compile: Option<Vec<String>>,
    /// The files and folders of the runtime's folder that `compile` reads.
    #[serde(default)]
    sources: Vec<String>,
    /// Where `compile` writes each child's class path (`{build}`, `{child}`): one line.
    #[serde(default)]
    classpath_file: Option<String>,
    /// A compiled runtime whose children are programs of their own (Go): each child's program
    /// (`{build}`, `{child}`), started as it is with `command` after it. The build's program is
    /// then the toolchain, which compiles the children and says its version.
    #[serde(default)]
    child_program: Option<String>,
    /// The child's arguments after the executable (`{dir}`, `{source}`, `{class}`, `{build}`,
    /// `{classpath}`).
    command: Vec<String>,
    /// What pinning (`--pin`) does to this runtime's children, said and recorded when a pinned
    /// run has any.
    #[serde(default)]
    when_pinned: Option<String>,
    /// What makes the runtime available.
    install: String,
}

/// One build of a runtime's children.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildFile {
    /// The variant's name (`jdk25`).
    name: String,
    /// Where the executable is, tried in order: an absolute path, a path from the repository's
    /// root (`target/external/python-venv/bin/python`, run as it is), or a name on PATH.
    program: Vec<String>,
    /// Arguments that make a program found on PATH print its real executable (a version
    /// manager's shim would otherwise be timed with every child).
    #[serde(default)]
    resolve: Option<Vec<String>>,
    /// Text the version output must hold (`version "25`), so that another JDK found at a path
    /// is not taken for this one.
    #[serde(default)]
    expect: Option<String>,
    #[serde(default)]
    default: bool,
    /// What the build is, for `cold list` and the manifest.
    about: String,
}

/// `codec-<id>.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CodecFile {
    id: String,
    library: String,
    style: String,
    /// The child's source file, in the runtime's folder.
    source: String,
    /// The main class (a compiled runtime), and the name its class path file is written under.
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    classpath: Option<String>,
    /// `own` (the library on its own model), or another mode whose codecs form a group of their
    /// own (`--codecs jvm-common`): the seed's one common Kotlin model.
    #[serde(default)]
    mode: Option<String>,
    /// The codec of the other mode this one is paired with in the report.
    #[serde(default)]
    pair: Option<String>,
    /// For a typed codec, the models it expresses (`users`, …); the others are unsupported.
    #[serde(default)]
    models: Vec<String>,
    /// Why the other models are unsupported.
    #[serde(default)]
    why: Option<String>,
    /// The ops the library can do (`["de"]` for a parser with no writer), both when not said;
    /// the others are unsupported with `ops_why`.
    #[serde(default)]
    ops: Option<Vec<String>>,
    /// Why the other ops are unsupported (needed with `ops`).
    #[serde(default)]
    ops_why: Option<String>,
    /// How `ser` hands its output over (`reused-buffer` or `new-string`).
    output: String,
    /// What `ser` returns, in the library's own type (`byte[]`), for the reader.
    #[serde(default)]
    returns: Option<String>,
    /// How `de` reads the document: `bytes`, or `text` (decoded from UTF-8 in the timed call).
    #[serde(default)]
    reads: Option<String>,
    /// Arguments to the runtime before its command, for this codec alone: a switch its child
    /// reads (`-Dthaw.fory.codegen=false`), so one child serves two ways of using its library.
    #[serde(default)]
    flags: Vec<String>,
    /// Arguments to the runtime's executable that succeed only where the library is installed
    /// (`["-c", "import orjson"]`; `{dir}` is the runtime's folder); without them the library is
    /// taken to come with the runtime.
    #[serde(default)]
    requires: Option<Vec<String>>,
    /// How to install the library, said when `requires` fails.
    #[serde(default)]
    install: Option<String>,
}

/// A build of a runtime, as found on this machine.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) executable: PathBuf,
    /// The version output's first line.
    pub(crate) version: String,
    /// The whole version output and what `describe` printed, for the manifest.
    pub(crate) described: String,
}

/// A runtime and its builds.
#[derive(Debug)]
pub(crate) struct Runtime {
    pub(crate) name: &'static str,
    pub(crate) dir: PathBuf,
    file: RuntimeFile,
    /// Each build's name, and whether it is there (asked once).
    builds: Vec<(Variant, OnceLock<Result<Found, String>>)>,
    /// Its trained builds (`cold/variants/`), each also one of `builds`.
    trained: Vec<(Variant, trained::Trained)>,
    compiled: OnceLock<Result<(), String>>,
}

impl Runtime {
    /// Its builds (variants), in the description's order.
    pub(crate) fn variants(&self) -> impl Iterator<Item = Variant> + '_ {
        self.builds.iter().map(|(v, _)| *v)
    }

    /// The builds a run takes when `--variant` names none of them.
    pub(crate) fn default_variants(&self) -> Vec<Variant> {
        let marked: Vec<Variant> = self
            .file
            .builds
            .iter()
            .zip(&self.builds)
            .filter(|(b, _)| b.default)
            .map(|(_, (v, _))| *v)
            .collect();
        if marked.is_empty() {
            self.builds.iter().take(1).map(|(v, _)| *v).collect()
        } else {
            marked
        }
    }

    /// The description of `variant`, if it is a trained build.
    pub(crate) fn trained(&self, variant: Variant) -> Option<&trained::Trained> {
        self.trained
            .iter()
            .find(|(v, _)| *v == variant)
            .map(|(_, t)| t)
    }

    /// What pinning does to its children, if its description says.
    pub(crate) fn when_pinned(&self) -> Option<&str> {
        self.file.when_pinned.as_deref()
    }

    /// What build `variant` is.
    pub(crate) fn about(&self, variant: Variant) -> Option<&str> {
        let i = self.builds.iter().position(|(v, _)| *v == variant)?;
        Some(&self.file.builds[i].about)
    }

    /// Build `variant` on this machine, or why it is not usable (with how to install it).
    pub(crate) fn found(&self, variant: Variant) -> Result<&Found, &str> {
        let Some(i) = self.builds.iter().position(|(v, _)| *v == variant) else {
            return Err(leak(format!(
                "the {} runtime has no build {variant} (its builds: {})",
                self.name,
                self.variants()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        self.builds[i]
            .1
            .get_or_init(|| self.probe(&self.file.builds[i]))
            .as_ref()
            .map_err(String::as_str)
    }

    /// The first of its default builds that is there, or why none is.
    pub(crate) fn found_default(&self) -> Result<&Found, &str> {
        let mut why = "no build";
        for v in self.default_variants() {
            match self.found(v) {
                Ok(f) => return Ok(f),
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    fn probe(&self, build: &BuildFile) -> Result<Found, String> {
        let install = &self.file.install;
        let root = fixtures::catalog::workspace_root();
        let path_dirs: Vec<PathBuf> = std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .collect();
        let candidate = |p: &String| -> Option<(PathBuf, bool)> {
            let path = Path::new(p);
            if path.is_absolute() {
                return path.is_file().then(|| (path.to_path_buf(), false));
            }
            if p.contains('/') {
                let path = root.join(path);
                return path.is_file().then_some((path, false));
            }
            path_dirs
                .iter()
                .map(|d| d.join(p))
                .find(|p| p.is_file())
                .map(|p| (p, true))
        };
        let (program, on_path) = build.program.iter().find_map(candidate).ok_or_else(|| {
            format!(
                "{} ({}) not found at {}: run {install}",
                build.name,
                build.about,
                build.program.join(" or ")
            )
        })?;
        let executable = match (&build.resolve, on_path) {
            (Some(args), true) => {
                let out = Command::new(&program).args(args).output().map_err(|e| {
                    format!("{} does not run ({e}): run {install}", program.display())
                })?;
                let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
                if !out.status.success() || text.is_empty() {
                    return Err(format!("{} does not run: run {install}", program.display()));
                }
                PathBuf::from(text)
            }
            _ => program,
        };
        let run = |args: &[String]| -> Result<String, String> {
            let args: Vec<String> = args.iter().map(|a| self.fill(a, None, None)).collect();
            let out = Command::new(&executable)
                .args(&args)
                .output()
                .map_err(|e| {
                    format!("{} does not run ({e}): run {install}", executable.display())
                })?;
            let mut text = [out.stdout, out.stderr].concat();
            text.truncate(DESCRIBE_LIMIT);
            Ok(String::from_utf8_lossy(&text).trim().to_string())
        };
        let version_text = run(&self.file.version)?;
        if let Some(expect) = &build.expect {
            if !version_text.contains(expect.as_str()) {
                return Err(format!(
                    "{} is not {} ({}): its version says `{}`; run {install}",
                    executable.display(),
                    build.name,
                    build.about,
                    version_text.lines().next().unwrap_or("")
                ));
            }
        }
        let mut described = version_text.clone();
        if let Some(args) = &self.file.describe {
            described.push('\n');
            described.push_str(&run(args)?);
        }
        Ok(Found {
            executable,
            version: version_text.lines().next().unwrap_or("").trim().to_string(),
            described: text::clip(&described, DESCRIBE_LIMIT),
        })
    }

    /// Every file of its sources (the listed files and folders, folders walked), sorted: what a
    /// compile reads and what a child of an interpreted runtime loads.
    fn source_files(&self) -> Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        let listed: Vec<PathBuf> = if self.file.sources.is_empty() {
            // an interpreted runtime: every file of its folder but the descriptions
            files::entries(&self.dir)?
                .into_iter()
                .filter(|e| e.kind == Kind::File)
                .map(|e| e.path)
                .filter(|p| p.extension().is_some_and(|x| x != "toml" && x != "md"))
                .collect()
        } else {
            self.file.sources.iter().map(|s| self.dir.join(s)).collect()
        };
        for path in listed {
            walk(&path, &mut files)?;
        }
        files.sort();
        Ok(files)
    }

    /// Compiles the runtime's children when it has a compile step and its sources changed since
    /// the last compile (a stamp of their hash in the build folder); once per run.
    pub(crate) fn compile_if_needed(&self) -> Result<()> {
        self.compiled
            .get_or_init(|| self.compile().map_err(|e| format!("{e:#}")))
            .clone()
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn compile(&self) -> Result<()> {
        let Some(args) = &self.file.compile else {
            return Ok(());
        };
        let out = build_folder(self.name);
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        // One compile of a build folder at a time: two runs started together (or two tests)
        // would otherwise both write it at once. The second waits, then finds the stamp current.
        let lock_path = out.join(".compile.lock");
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot open {}", lock_path.display()))?;
        lock.lock()
            .with_context(|| format!("cannot lock {}", lock_path.display()))?;
        let stamp = out.join(".sources.sha256");
        let want = hash_files(&self.source_files()?)?;
        if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
            return Ok(());
        }
        let argv: Vec<String> = args.iter().map(|a| self.fill(a, None, None)).collect();
        let (program, rest) = argv.split_first().context("an empty compile command")?;
        eprintln!("cold: compiling the {} children ({program})", self.name);
        let result = Command::new(program).args(rest).output().with_context(|| {
            format!("cannot run {program} to compile the {} children", self.name)
        })?;
        if !result.status.success() {
            let said =
                String::from_utf8_lossy(&[result.stdout, result.stderr].concat()).to_string();
            bail!(
                "compiling the {} children failed: {}",
                self.name,
                text::clip(said.trim(), 4000)
            );
        }
        std::fs::write(&stamp, want)
            .with_context(|| format!("cannot write {}", stamp.display()))?;
        Ok(())
    }

    /// `arg` with the runtime's placeholders filled; `codec` fills the child's.
    fn fill(&self, arg: &str, codec: Option<&ExternalCodec>, classpath: Option<&str>) -> String {
        let mut a = arg
            .replace("{dir}", &self.dir.display().to_string())
            .replace("{build}", &build_folder(self.name).display().to_string());
        if let Some(c) = codec {
            a = a
                .replace("{source}", &c.source.display().to_string())
                .replace("{class}", &c.class)
                .replace("{child}", &c.classpath_name);
        }
        if let Some(cp) = classpath {
            a = a.replace("{classpath}", cp);
        }
        a
    }
}

/// `path`'s files: itself, or every file below it.
fn walk(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let meta = std::fs::symlink_metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if meta.is_dir() {
        for e in files::entries(path)? {
            walk(&e.path, out)?;
        }
    } else if meta.is_file() {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// SHA-256 over each file's name and contents, in order.
fn hash_files(files: &[PathBuf]) -> Result<String> {
    let mut all = Vec::new();
    for file in files {
        all.extend(file.as_os_str().as_encoded_bytes());
        all.push(0);
        all.extend(
            files::read_regular(file, files::PROGRAM_LIMIT)
                .with_context(|| format!("cannot read {}", file.display()))?,
        );
    }
    Ok(fixtures::sha256_hex(&all))
}

/// A library of another runtime, as a codec.
#[derive(Debug)]
pub struct ExternalCodec {
    pub(crate) id: &'static str,
    library: &'static str,
    style: Style,
    output: OutputMode,
    pub(crate) source: PathBuf,
    /// The main class (compiled runtimes), or the source's stem.
    class: String,
    /// The name its class path file is written under, or its program's (`{child}`).
    classpath_name: String,
    /// `--codecs` group: the runtime's name, or `<runtime>-<mode>` for another mode.
    pub(crate) group: String,
    /// The codec of the other mode it is paired with.
    pub(crate) pair: Option<String>,
    /// Its arguments to the runtime before the runtime's command.
    flags: Vec<String>,
    models: Vec<ModelKind>,
    why: &'static str,
    /// The ops it can do, and why not the others.
    ops: Vec<Op>,
    ops_why: &'static str,
    pub(crate) runtime: &'static Runtime,
    version: OnceLock<&'static str>,
    requires: Option<Vec<String>>,
    install: String,
    /// Whether the library is there (asked once): `Err` says why not and how to install it.
    library_there: OnceLock<Result<(), &'static str>>,
    /// Its description file.
    pub(crate) described_in: PathBuf,
}

/// A child of another runtime, as a run records and starts it.
pub(crate) struct ExternalChild {
    /// `<runtime>/<class or source file>`.
    pub(crate) name: String,
    /// The build's executable.
    pub(crate) program: PathBuf,
    /// The arguments before the protocol's.
    pub(crate) prefix: Vec<OsString>,
    /// The files it loads besides the executable (its classes and jars, or its scripts), for
    /// `--cold-cache` to evict.
    pub(crate) loads: Arc<Vec<PathBuf>>,
    /// Each class path entry (a jar, a folder of classes) or script it loads, for the manifest.
    pub(crate) files: Vec<schema::run_folder::FileEntry>,
    /// The bytes of those files.
    pub(crate) bytes: u64,
    /// SHA-256 of those files, the executable's path and the build's version.
    pub(crate) sha256: String,
}

impl ExternalCodec {
    /// The child of this codec in build `variant`, compiled first if its sources changed (for
    /// a trained build, its base's child: `run::train` packs and flags it).
    pub(crate) fn child(&self, variant: Variant) -> Result<ExternalChild> {
        self.child_as(variant, None)
    }

    /// The child with its classes folder replaced by `jar` and `flags` before the runtime's
    /// command: a trained build's.
    pub(crate) fn child_packed(
        &self,
        variant: Variant,
        jar: &Path,
        flags: &[String],
    ) -> Result<ExternalChild> {
        self.child_as(variant, Some((jar, flags)))
    }

    /// The folder of the child's own classes (its class path's one folder), and its main class.
    pub(crate) fn classes(&self) -> Result<(PathBuf, String)> {
        self.runtime.compile_if_needed()?;
        let cp = self.classpath()?.unwrap_or_default();
        let dir = cp
            .split(':')
            .map(PathBuf::from)
            .find(|p| p.is_dir())
            .with_context(|| format!("{}: no folder of classes on its class path", self.id))?;
        Ok((dir, self.class.clone()))
    }

    fn child_as(
        &self,
        variant: Variant,
        packed: Option<(&Path, &[String])>,
    ) -> Result<ExternalChild> {
        let found = self
            .runtime
            .found(variant)
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.id))?;
        self.runtime.compile_if_needed()?;
        let mut classpath = self.classpath()?;
        let mut prefix: Vec<OsString> = Vec::new();
        if let Some((jar, flags)) = packed {
            classpath = classpath.map(|cp| {
                cp.split(':')
                    .map(|e| match Path::new(e).is_dir() {
                        true => jar.display().to_string(),
                        false => e.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(":")
            });
            prefix.extend(flags.iter().map(OsString::from));
        }
        prefix.extend(self.flags.iter().map(OsString::from));
        prefix.extend(
            self.runtime
                .file
                .command
                .iter()
                .map(|a| OsString::from(self.runtime.fill(a, Some(self), classpath.as_deref()))),
        );
        let own_program = match &self.runtime.file.child_program {
            Some(p) => {
                let path = PathBuf::from(self.runtime.fill(p, Some(self), None));
                if !path.is_file() {
                    bail!(
                        "{}: its child {} was not built: run {}",
                        self.id,
                        path.display(),
                        self.runtime.file.install
                    );
                }
                Some(path)
            }
            None => None,
        };
        let entries: Vec<PathBuf> = match (&own_program, &classpath) {
            (Some(program), _) => vec![program.clone()],
            (None, Some(cp)) => cp
                .split(':')
                .filter(|e| !e.is_empty())
                .map(PathBuf::from)
                .collect(),
            (None, None) => self.runtime.source_files()?,
        };
        let mut loads = Vec::new();
        let mut files = Vec::new();
        for entry in &entries {
            let mut under = Vec::new();
            walk(entry, &mut under)?;
            files.push(schema::run_folder::FileEntry {
                path: entry.display().to_string(),
                bytes: under
                    .iter()
                    .filter_map(|p| std::fs::metadata(p).ok())
                    .map(|m| m.len())
                    .sum(),
                sha256: hash_files(&under)?,
            });
            loads.extend(under);
        }
        let mut fingerprint = hash_files(&loads)?.into_bytes();
        fingerprint.extend(found.executable.as_os_str().as_encoded_bytes());
        fingerprint.extend(found.version.as_bytes());
        let bytes = loads
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
        // A child program is named by its codec (Go's are all `main.go`), a class or script by itself.
        let own = match own_program {
            Some(_) => &self.classpath_name,
            None => &self.class,
        };
        Ok(ExternalChild {
            name: format!("{}/{own}", self.runtime.name),
            program: own_program.unwrap_or_else(|| found.executable.clone()),
            prefix,
            loads: Arc::new(loads),
            files,
            bytes,
            sha256: fixtures::sha256_hex(&fingerprint),
        })
    }

    /// The child's class path, read from the file its compile wrote (`None` for a runtime
    /// without one).
    fn classpath(&self) -> Result<Option<String>> {
        let Some(file) = &self.runtime.file.classpath_file else {
            return Ok(None);
        };
        let path = PathBuf::from(self.runtime.fill(file, Some(self), None));
        let text = files::read_regular(&path, 1 << 20).with_context(|| {
            format!(
                "cannot read {}: compile the {} children",
                path.display(),
                self.runtime.name
            )
        })?;
        let line = String::from_utf8_lossy(&text).trim().to_string();
        if line.is_empty() || line.contains('\n') {
            bail!(
                "{}: one line of class path entries, joined by ':'",
                path.display()
            );
        }
        Ok(Some(line))
    }

    /// The runtime's default build and the library, when they are there; if not, why and how to
    /// install them.
    pub(crate) fn available(&self) -> Result<&'static Found, &'static str> {
        let found = self.runtime.found_default()?;
        let library = self.library_there.get_or_init(|| self.check_library(found));
        library.map(|()| found)
    }

    /// Runs the description's `requires` with the runtime (once; a library without one comes
    /// with its runtime).
    fn check_library(&self, found: &Found) -> Result<(), &'static str> {
        let Some(args) = &self.requires else {
            return Ok(());
        };
        let args = args.iter().map(|a| self.runtime.fill(a, Some(self), None));
        match Command::new(&found.executable).args(args).output() {
            Ok(out) if out.status.success() => Ok(()),
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stderr);
                let last = said.lines().rev().find(|l| !l.trim().is_empty());
                Err(leak(format!(
                    "{} not found ({}): run {}",
                    self.library,
                    text::clip(last.unwrap_or("its check failed").trim(), 200),
                    self.install
                )))
            }
            Err(e) => Err(leak(format!(
                "{} does not run ({e}): run {}",
                found.executable.display(),
                self.install
            ))),
        }
    }
}

impl AnyCodec for ExternalCodec {
    fn id(&self) -> &'static str {
        self.id
    }
    fn library(&self) -> &'static str {
        self.library
    }
    /// Asked of the child (`--version`) in the default build, once, when the runtime is there.
    fn version(&self) -> &'static str {
        self.version.get_or_init(|| {
            let ask = || -> Result<String> {
                let default = *self
                    .runtime
                    .default_variants()
                    .first()
                    .context("no build")?;
                let child = self.child(default)?;
                let out = Command::new(child.program)
                    .args(child.prefix)
                    .arg("--version")
                    .output()?;
                Ok(text::clip(String::from_utf8_lossy(&out.stdout).trim(), 100))
            };
            leak(ask().unwrap_or_else(|_| "unknown".into()))
        })
    }
    fn style(&self) -> Style {
        self.style
    }
    fn output(&self) -> OutputMode {
        self.output
    }
    fn type_path(&self) -> String {
        String::new()
    }
    fn supports(&self, model: Option<ModelKind>, op: Op) -> Support {
        if !self.ops.contains(&op) {
            return Err(self.ops_why);
        }
        self.available()?;
        let expressed = match self.style {
            Style::Typed => model.is_some_and(|m| self.models.contains(&m)),
            _ => true,
        };
        expressed.then_some(()).ok_or(self.why)
    }
    fn verify(&self, _op: Op, _model: Option<&Model>, _document: &[u8]) -> GateVerdict {
        // Checked by meaning in its preflight instead (see `check`).
        GateVerdict::Pass
    }
    fn expected_output(
        &self,
        _op: Op,
        _model: Option<ModelKind>,
        _input: &[u8],
    ) -> Result<ChildOutput, CodecError> {
        Err(CodecError(
            "an external child's output is learned in its preflight".into(),
        ))
    }
    fn accepts(&self, _bytes: &[u8]) -> bool {
        false
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Every described codec, loaded once; an error names the description that is wrong.
pub(crate) fn all() -> Result<&'static [ExternalCodec]> {
    static ALL: OnceLock<Result<Vec<ExternalCodec>, String>> = OnceLock::new();
    ALL.get_or_init(|| load_all().map_err(|e| format!("{e:#}")))
        .as_deref()
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// The repository's descriptions, and a folder of the user's (`THAW_EXTERNAL`): a library tried
/// before it joins the repository, or a test's deliberately wrong child.
fn load_all() -> Result<Vec<ExternalCodec>> {
    let mut all = load(&folder())?;
    if let Some(more) = std::env::var_os(EXTRA_VAR).filter(|v| !v.is_empty()) {
        all.extend(load(Path::new(&more))?);
    }
    let mut seen = std::collections::BTreeMap::new();
    for c in &all {
        let file = c.described_in.display();
        if codecs::find_codec(c.id).is_ok() {
            bail!(
                "{file}: the codec id {} is a Rust codec's; give another id",
                c.id
            );
        }
        if let Some(other) = seen.insert(c.id, &c.described_in) {
            bail!(
                "{file}: the codec id {} is described twice (also in {}); give another id",
                c.id,
                other.display()
            );
        }
    }
    Ok(all)
}

/// `rel` in `dir`, which it must not leave (no `..`, no absolute path, no link out of it).
fn inside(dir: &Path, rel: &str) -> Result<PathBuf> {
    let path = Path::new(rel);
    if path.is_absolute()
        || path
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        bail!(
            "`{rel}` leaves its folder: give a path inside {}",
            dir.display()
        );
    }
    let full = dir.join(path);
    if let (Ok(real), Ok(root)) = (std::fs::canonicalize(&full), std::fs::canonicalize(dir)) {
        if !real.starts_with(&root) {
            bail!("`{rel}` leads out of {} (a link)", dir.display());
        }
    }
    Ok(full)
}

/// Reads a TOML description, bounded.
fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = files::read_regular(path, 1 << 20)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text =
        String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8", path.display()))?;
    toml::from_str(&text).with_context(|| format!("{}", path.display()))
}

/// The codecs described under `root`.
fn load(root: &Path) -> Result<Vec<ExternalCodec>> {
    let mut codecs = Vec::new();
    let dirs = files::subfolders(root)
        .into_iter()
        .map(|e| e.path)
        .filter(|p| p.join("runtime.toml").is_file());
    for dir in dirs {
        let runtime = load_runtime(&dir)?;
        let files = files::entries(&dir)?
            .into_iter()
            .filter(|e| e.kind == Kind::File)
            .filter(|e| {
                let name = e.name.to_string_lossy();
                name.starts_with("codec-") && name.ends_with(".toml")
            })
            .map(|e| e.path);
        for path in files {
            codecs.push(load_codec(runtime, &path)?);
        }
    }
    Ok(codecs)
}

/// The runtime described by `dir`/runtime.toml, with the trained builds described for it (each
/// a copy of its base build under the trained build's name), its sources checked to lie inside
/// `dir`.
fn load_runtime(dir: &Path) -> Result<&'static Runtime> {
    let path = dir.join("runtime.toml");
    let mut file: RuntimeFile = read_toml(&path)?;
    schema::rows::check_name("runtime", &file.name)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut described = Vec::new();
    for (v, t, at) in trained::load_for(&file.name, &crate::system::variants::folders())? {
        let base = file
            .builds
            .iter()
            .find(|b| b.name == t.base)
            .with_context(|| {
                format!(
                    "{}: base `{}` is not a build of {} ({})",
                    at.display(),
                    t.base,
                    file.name,
                    path.display()
                )
            })?;
        let mut b = base.clone();
        b.name = v.name().to_string();
        b.about = t.about.clone();
        b.default = false;
        file.builds.push(b);
        described.push((v, t));
    }
    let mut builds = Vec::new();
    for b in &file.builds {
        let v = Variant::parse(&b.name).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        builds.push((v, OnceLock::new()));
    }
    if builds.is_empty() {
        bail!(
            "{}: a runtime has at least one build ([[builds]])",
            path.display()
        );
    }
    for source in &file.sources {
        inside(dir, source).map_err(|e| anyhow::anyhow!("{}: sources: {e}", path.display()))?;
    }
    Ok(Box::leak(Box::new(Runtime {
        name: leak(file.name.clone()),
        dir: dir.to_path_buf(),
        file,
        builds,
        trained: described,
        compiled: OnceLock::new(),
    })))
}

/// The codec described by the codec file at `path` of `runtime`: its names checked, its source
/// inside the runtime's folder and there.
fn load_codec(runtime: &'static Runtime, path: &Path) -> Result<ExternalCodec> {
    let c: CodecFile = read_toml(path)?;
    let bad = |e: String| anyhow::anyhow!("{}: {e}", path.display());
    schema::rows::check_name("codec", &c.id).map_err(|e| bad(e.to_string()))?;
    let style = Style::parse(&c.style).map_err(bad)?;
    let output = OutputMode::parse(&c.output).map_err(bad)?;
    let models = c
        .models
        .iter()
        .map(|m| {
            ModelKind::ALL
                .iter()
                .copied()
                .find(|k| k.id() == m)
                .with_context(|| format!("{}: unknown model `{m}`", path.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    let (ops, ops_why) = match (c.ops, c.ops_why) {
        (None, None) => (Op::ALL.to_vec(), String::new()),
        (Some(ops), Some(why)) => (
            ops.iter()
                .map(|o| Op::parse(o).map_err(|e| bad(format!("ops: {e}"))))
                .collect::<Result<Vec<_>>>()?,
            why,
        ),
        (Some(_), None) => bail!(
            "{}: `ops` needs `ops_why`: why the others are unsupported",
            path.display()
        ),
        (None, Some(_)) => bail!("{}: `ops_why` without `ops`", path.display()),
    };
    if ops.is_empty() {
        bail!("{}: `ops` names no op", path.display());
    }
    let source = inside(&runtime.dir, &c.source)
        .map_err(|e| anyhow::anyhow!("{}: source: {e}", path.display()))?;
    if !source.is_file() {
        bail!(
            "{}: its source {} does not exist",
            path.display(),
            source.display()
        );
    }
    let stem = source
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let group = match c.mode.as_deref() {
        None | Some("own") => runtime.name.to_string(),
        Some(mode) => format!("{}-{mode}", runtime.name),
    };
    let _ = (c.returns, c.reads);
    Ok(ExternalCodec {
        class: c.class.unwrap_or(stem),
        classpath_name: c.classpath.unwrap_or_else(|| c.id.clone()),
        group,
        pair: c.pair,
        flags: c.flags,
        id: leak(c.id),
        library: leak(c.library),
        style,
        output,
        source,
        models,
        ops,
        ops_why: leak(ops_why),
        why: leak(
            c.why
                .unwrap_or_else(|| "not a model this library is set up for".into()),
        ),
        install: c.install.unwrap_or_else(|| runtime.file.install.clone()),
        requires: c.requires,
        runtime,
        version: OnceLock::new(),
        library_there: OnceLock::new(),
        described_in: path.to_path_buf(),
    })
}

/// The runtime whose children variant `v` builds, if one of the described runtimes does.
pub(crate) fn runtime_of_variant(v: Variant) -> Option<&'static str> {
    all()
        .ok()?
        .iter()
        .find(|c| c.runtime.variants().any(|b| b == v))
        .map(|c| c.runtime.name)
}

/// The builds of `runtime`'s children a run takes: those asked for, or its defaults; each with
/// its executable, version and what it says of itself.
pub(crate) fn builds(runtime: &str, asked: &[Variant]) -> Result<Vec<VariantEntry>> {
    let codec = all()?
        .iter()
        .find(|c| c.runtime.name == runtime)
        .with_context(|| format!("no runtime {runtime} is described"))?;
    let rt = codec.runtime;
    let chosen = if asked.is_empty() {
        rt.default_variants()
    } else {
        asked.to_vec()
    };
    Ok(chosen
        .into_iter()
        .map(|variant| {
            let found = rt.found(variant).ok();
            VariantEntry {
                variant,
                runtime: runtime.to_string(),
                children_dir: build_folder(runtime).display().to_string(),
                about: rt.about(variant).map(String::from),
                executable: found.map(|f| f.executable.display().to_string()),
                described: found.map(|f| f.described.clone()),
                allocator: None,
            }
        })
        .collect())
}

/// The external codec `id`, if one is described.
pub fn find(id: &str) -> Option<&'static ExternalCodec> {
    all().ok()?.iter().find(|c| c.id == id)
}

/// The `--codecs` groups of the described codecs (each runtime's name, and `<runtime>-<mode>`
/// for another mode), in order.
pub(crate) fn groups() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in all().unwrap_or_default() {
        if !names.contains(&c.group.as_str()) {
            names.push(c.group.as_str());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder holding a Python runtime (the repository's description) and one codec
    /// described by `codec` (its source, `child.py`, an empty file).
    fn described(name: &str, codec: &str) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("thaw-cold-ops-{name}-{}", std::process::id()))
            .join("python");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            folder().join("python").join("runtime.toml"),
            dir.join("runtime.toml"),
        )
        .unwrap();
        std::fs::write(dir.join("child.py"), "").unwrap();
        std::fs::write(
            dir.join("codec-x.toml"),
            format!(
                "id = \"x-{name}\"\nlibrary = \"x\"\nstyle = \"dom\"\nsource = \"child.py\"\n\
                 output = \"new-string\"\n{codec}"
            ),
        )
        .unwrap();
        dir.parent().unwrap().to_path_buf()
    }

    #[test]
    fn a_codec_that_names_its_ops_leaves_the_others_unsupported_with_its_reason() {
        let root = described("de", "ops = [\"de\"]\nops_why = \"it parses only\"\n");
        let codecs = load(&root).unwrap();
        assert_eq!(codecs.len(), 1);
        assert_eq!(codecs[0].ops, vec![Op::De]);
        assert_eq!(codecs[0].supports(None, Op::Ser), Err("it parses only"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_codec_that_names_no_ops_does_both() {
        let root = described("both", "");
        let codecs = load(&root).unwrap();
        assert_eq!(codecs[0].ops, Op::ALL.to_vec());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn ops_without_a_reason_or_naming_nothing_or_no_op_are_refused_with_the_file() {
        for (name, codec, said) in [
            ("noreason", "ops = [\"de\"]\n", "`ops` needs `ops_why`"),
            ("noops", "ops_why = \"x\"\n", "`ops_why` without `ops`"),
            ("empty", "ops = []\nops_why = \"x\"\n", "`ops` names no op"),
            ("wrong", "ops = [\"read\"]\nops_why = \"x\"\n", "ops: "),
        ] {
            let root = described(name, codec);
            let e = format!("{:#}", load(&root).expect_err(name));
            assert!(
                e.contains(said) && e.contains("codec-x.toml"),
                "{name}: {e}"
            );
            std::fs::remove_dir_all(&root).unwrap();
        }
    }
}
