//! Children in other languages, described by data (`cold/external/<runtime>/`): a
//! `runtime.toml` says how to start (and, for the JVM, build) that runtime's children, and each
//! `codec-<id>.toml` names a library and its child source file. Each description becomes a
//! codec like the Rust ones (`cold list`, the plan, the manifest and the report pick it up), with
//! a runtime that may be absent: then its cells are unsupported, with the reason and how to
//! install it, never a failed run.
//!
//! Such a child cannot compute the Rust checksum of what it produced. It prints instead the
//! length of its output (`ser`) or of its decoded value written back by the same library (`de`),
//! and, in the preflight, writes that output to the file `--check-file` names: the runner
//! compares it with the fixture by meaning ([`check`]) and learns the length every timed sample
//! must print again.

pub mod check;
pub mod codec_list;
pub mod tree_text;

use anyhow::{bail, Context, Result};
use codecs::models::{Model, ModelKind};
use codecs::verify::GateVerdict;
use codecs::{AnyCodec, ChildOutput, CodecError, Op, OutputMode, Style, Support};
use schema::run_folder::VariantEntry;
use schema::Variant;
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The variable naming a folder of more descriptions.
pub const EXTRA_VAR: &str = "THAW_EXTERNAL";

/// The folder of the descriptions, in this repository.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("external")
}

/// Where a runtime's children are built (its `{build}`).
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
    /// The program children start with, found on PATH.
    program: String,
    /// Arguments that make `program` print its real executable (a shim on PATH is not timed).
    #[serde(default)]
    resolve: Option<Vec<String>>,
    /// Arguments that make `program` print its version (on stdout or stderr).
    version: Vec<String>,
    /// Files the children need on their class path (`{classpath}`), each checked to exist.
    #[serde(default)]
    classpath: Vec<String>,
    /// How to build the children (`{build}`, `{classpath}`, `{sources}`), run when their sources
    /// changed; with `sources`, the files of the folder it compiles.
    #[serde(default)]
    build: Option<Vec<String>>,
    #[serde(default)]
    sources: Option<String>,
    /// The child's arguments after the program (`{source}`, `{class}`, `{build}`, `{classpath}`).
    command: Vec<String>,
    /// What makes the runtime available.
    install: String,
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
    /// For a typed codec, the models it expresses (`users`, …); the others are unsupported.
    #[serde(default)]
    models: Vec<String>,
    /// Why the other models are unsupported.
    #[serde(default)]
    why: Option<String>,
    /// How `ser` hands its output over (`reused-buffer` or `new-string`).
    output: String,
    /// Arguments to the runtime's executable that succeed only where the library is installed
    /// (`["-c", "import orjson"]`); without them the library is taken to come with the runtime.
    #[serde(default)]
    requires: Option<Vec<String>>,
    /// How to install the library, said when `requires` fails.
    #[serde(default)]
    install: Option<String>,
}

/// A runtime, as found on this machine.
#[derive(Debug)]
pub struct Runtime {
    pub name: &'static str,
    pub dir: PathBuf,
    file: RuntimeFile,
    found: OnceLock<Result<Found, String>>,
}

/// A runtime that is there: its real executable and version.
#[derive(Debug, Clone)]
pub struct Found {
    pub executable: PathBuf,
    pub version: String,
}

impl Runtime {
    /// The runtime on this machine, or why it is not usable (with how to install it).
    pub fn found(&self) -> Result<&Found, &str> {
        self.found
            .get_or_init(|| self.probe())
            .as_ref()
            .map_err(String::as_str)
    }

    fn probe(&self) -> Result<Found, String> {
        let f = &self.file;
        let missing = |what: &str| format!("{what} not found: run {}", f.install);
        let on_path = std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join(&f.program))
            .find(|p| p.is_file())
            .ok_or_else(|| missing(&f.program))?;
        let executable = match &f.resolve {
            None => on_path.clone(),
            Some(args) => {
                let out = Command::new(&on_path)
                    .args(args)
                    .output()
                    .map_err(|e| format!("{} does not run ({e}): run {}", f.program, f.install))?;
                let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
                if !out.status.success() || text.is_empty() {
                    return Err(format!("{} does not run: run {}", f.program, f.install));
                }
                PathBuf::from(text)
            }
        };
        for jar in &f.classpath {
            if !Path::new(jar).is_file() {
                return Err(missing(jar));
            }
        }
        let out = Command::new(&executable)
            .args(&f.version)
            .output()
            .map_err(|e| format!("{} does not run ({e}): run {}", f.program, f.install))?;
        let text = [out.stdout, out.stderr].concat();
        let version = String::from_utf8_lossy(&text)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        Ok(Found {
            executable,
            version,
        })
    }

    /// The one build of this runtime's children, named after it (`jvm`, `python`, `node`).
    pub fn variant(&self) -> Variant {
        Variant::parse(self.name).unwrap_or(Variant::PORTABLE)
    }

    fn classpath(&self) -> String {
        self.file.classpath.join(":")
    }

    /// The runtime's source files (every file of its folder but the descriptions), sorted.
    fn source_files(&self) -> Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .with_context(|| format!("cannot read {}", self.dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x != "toml"))
            .collect();
        files.sort();
        Ok(files)
    }

    /// SHA-256 of the runtime's sources, its executable's path and version, and its class path:
    /// what its children are, for the manifest and a resume.
    pub fn fingerprint(&self) -> Result<String> {
        let found = self.found().map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut all = Vec::new();
        for file in self.source_files()? {
            all.extend(file.file_name().unwrap_or_default().as_encoded_bytes());
            all.extend(
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?,
            );
        }
        all.extend(found.executable.as_os_str().as_encoded_bytes());
        all.extend(found.version.as_bytes());
        all.extend(self.classpath().as_bytes());
        Ok(fixtures::sha256_hex(&all))
    }

    /// Builds the runtime's children when it has a build and its sources changed since the last
    /// build (a stamp of their hash in the build folder).
    pub fn build_if_needed(&self) -> Result<()> {
        let (Some(args), Some(ext)) = (&self.file.build, &self.file.sources) else {
            return Ok(());
        };
        let out = build_folder(self.name);
        let stamp = out.join(".sources.sha256");
        let sources: Vec<PathBuf> = self
            .source_files()?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == ext.as_str()))
            .collect();
        let want = self.fingerprint()?;
        if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
            return Ok(());
        }
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        let mut argv: Vec<OsString> = Vec::new();
        for a in args {
            if a == "{sources}" {
                argv.extend(sources.iter().map(|s| s.clone().into_os_string()));
            } else {
                argv.push(self.fill(a, None).into());
            }
        }
        let (program, rest) = argv.split_first().context("an empty build command")?;
        let result = Command::new(program).args(rest).output().with_context(|| {
            format!(
                "cannot run {} to build the {} children",
                program.to_string_lossy(),
                self.name
            )
        })?;
        if !result.status.success() {
            bail!(
                "building the {} children failed: {}",
                self.name,
                String::from_utf8_lossy(&result.stderr).trim()
            );
        }
        std::fs::write(&stamp, want)
            .with_context(|| format!("cannot write {}", stamp.display()))?;
        Ok(())
    }

    fn fill(&self, arg: &str, source: Option<&Path>) -> String {
        let mut a = arg
            .replace("{build}", &build_folder(self.name).display().to_string())
            .replace("{classpath}", &self.classpath());
        if let Some(source) = source {
            a = a
                .replace("{source}", &source.display().to_string())
                .replace(
                    "{class}",
                    &source.file_stem().unwrap_or_default().to_string_lossy(),
                );
        }
        a
    }
}

/// A library of another runtime, as a codec.
#[derive(Debug)]
pub struct ExternalCodec {
    pub id: &'static str,
    library: &'static str,
    style: Style,
    output: OutputMode,
    pub source: PathBuf,
    models: Vec<ModelKind>,
    why: &'static str,
    pub runtime: &'static Runtime,
    version: OnceLock<&'static str>,
    requires: Option<Vec<String>>,
    install: String,
    /// Whether the library is there (asked once): `Err` says why not and how to install it.
    library_there: OnceLock<Result<(), &'static str>>,
}

/// A child of another runtime, as a run records and starts it.
pub struct ExternalChild {
    /// `<runtime>/<source file>`.
    pub name: String,
    /// The runtime's executable.
    pub program: PathBuf,
    /// The arguments before the protocol's.
    pub prefix: Vec<OsString>,
    /// The size of its source file.
    pub bytes: u64,
    /// Its runtime's fingerprint (sources, executable, version, class path).
    pub sha256: String,
}

impl ExternalCodec {
    /// The child of this codec in `variant`, its runtime's build, built first if its sources
    /// changed.
    pub fn child(&self, variant: Variant) -> Result<ExternalChild> {
        if variant != self.runtime.variant() {
            bail!(
                "{}: the {} runtime has one build, {}, not {variant}",
                self.id,
                self.runtime.name,
                self.runtime.variant()
            );
        }
        self.runtime.build_if_needed()?;
        let (program, prefix) = self.command()?;
        Ok(ExternalChild {
            name: self.child_name(),
            program,
            prefix,
            bytes: std::fs::metadata(&self.source).map_or(0, |m| m.len()),
            sha256: self.runtime.fingerprint()?,
        })
    }

    /// The program and the arguments before the protocol's.
    pub fn command(&self) -> Result<(PathBuf, Vec<OsString>)> {
        let found = self.runtime.found().map_err(|e| anyhow::anyhow!("{e}"))?;
        let args = self
            .runtime
            .file
            .command
            .iter()
            .map(|a| OsString::from(self.runtime.fill(a, Some(&self.source))))
            .collect();
        Ok((found.executable.clone(), args))
    }

    /// The runtime, when it and the library are there; if not, why and how to install them.
    pub fn available(&self) -> Result<&'static Found, &'static str> {
        let found = self.runtime.found()?;
        let library = self.library_there.get_or_init(|| self.check_library(found));
        library.map(|()| found)
    }

    /// Runs the description's `requires` with the runtime (once; a library without one comes
    /// with its runtime).
    fn check_library(&self, found: &Found) -> Result<(), &'static str> {
        let Some(args) = &self.requires else {
            return Ok(());
        };
        match Command::new(&found.executable).args(args).output() {
            Ok(out) if out.status.success() => Ok(()),
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stderr);
                let last = said.lines().rev().find(|l| !l.trim().is_empty());
                Err(leak(format!(
                    "{} not found ({}): run {}",
                    self.library,
                    last.unwrap_or("its check failed").trim(),
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

    /// The child's name in the manifest: `<runtime>/<source file>`.
    pub fn child_name(&self) -> String {
        format!(
            "{}/{}",
            self.runtime.name,
            self.source
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
        )
    }
}

impl AnyCodec for ExternalCodec {
    fn id(&self) -> &'static str {
        self.id
    }
    fn library(&self) -> &'static str {
        self.library
    }
    /// Asked of the child (`--version`), once, when the runtime is there.
    fn version(&self) -> &'static str {
        self.version.get_or_init(|| {
            let ask = || -> Result<String> {
                self.runtime.build_if_needed()?;
                let (program, args) = self.command()?;
                let out = Command::new(program).args(args).arg("--version").output()?;
                Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
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
    fn supports(&self, model: Option<ModelKind>, _op: Op) -> Support {
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
pub fn all() -> Result<&'static [ExternalCodec]> {
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
    Ok(all)
}

/// The codecs described under `root`.
fn load(root: &Path) -> Result<Vec<ExternalCodec>> {
    let mut codecs = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return Ok(codecs);
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("runtime.toml").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let path = dir.join("runtime.toml");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let file: RuntimeFile =
            toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
        let runtime: &'static Runtime = Box::leak(Box::new(Runtime {
            name: leak(file.name.clone()),
            dir: dir.clone(),
            file,
            found: OnceLock::new(),
        }));
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy();
                name.starts_with("codec-") && name.ends_with(".toml")
            })
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let c: CodecFile =
                toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
            let style =
                Style::parse(&c.style).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let output = OutputMode::parse(&c.output)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
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
            let source = dir.join(&c.source);
            if !source.is_file() {
                bail!(
                    "{}: its source {} does not exist",
                    path.display(),
                    source.display()
                );
            }
            codecs.push(ExternalCodec {
                id: leak(c.id),
                library: leak(c.library),
                style,
                output,
                source,
                models,
                why: leak(
                    c.why
                        .unwrap_or_else(|| "not a model this library is set up for".into()),
                ),
                install: c.install.unwrap_or_else(|| runtime.file.install.clone()),
                requires: c.requires,
                runtime,
                version: OnceLock::new(),
                library_there: OnceLock::new(),
            });
        }
    }
    Ok(codecs)
}

/// The runtime whose children variant `v` builds, if one of the described runtimes does.
pub fn runtime_of_variant(v: Variant) -> Option<&'static str> {
    all()
        .ok()?
        .iter()
        .find(|c| c.runtime.variant() == v)
        .map(|c| c.runtime.name)
}

/// The builds of `runtime`'s children a run takes: those asked for, or its one.
pub fn builds(runtime: &str, asked: &[Variant]) -> Result<Vec<VariantEntry>> {
    let codec = all()?
        .iter()
        .find(|c| c.runtime.name == runtime)
        .with_context(|| format!("no runtime {runtime} is described"))?;
    let one = codec.runtime.variant();
    if let Some(other) = asked.iter().find(|v| **v != one) {
        bail!("--variant {other}: the {runtime} runtime has one build, {one}");
    }
    Ok(vec![VariantEntry {
        variant: one,
        runtime: runtime.to_string(),
        children_dir: build_folder(runtime).display().to_string(),
    }])
}

/// The external codec `id`, if one is described.
pub fn find(id: &str) -> Option<&'static ExternalCodec> {
    all().ok()?.iter().find(|c| c.id == id)
}

/// The runtimes' names, for `--codecs` groups.
pub fn runtimes() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = all()
        .map(|a| a.iter().map(|c| c.runtime.name).collect())
        .unwrap_or_default();
    names.dedup();
    names
}
