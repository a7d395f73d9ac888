//! Builds of the Rust children that a user names and describes by data (`cold/variants/*.toml`,
//! and a folder of the user's, `THAW_VARIANTS`): a library taken at another version (`update`:
//! the version required exactly, then `cargo update --precise`), from a path or a git revision
//! (`patch`: cargo's `[patch.crates-io]`), or other `rustflags`. Each is built into a folder of its
//! own, `target/variants/<name>/`, from a copy of the workspace where it changes Cargo.toml or
//! Cargo.lock (so the checkout is never touched), and the manifest records its description, the
//! packages whose versions it changed and how long it took to build. `portable` and `native` are
//! the built-in builds (`binaries`).

use anyhow::{bail, Context, Result};
use files::Kind;
use schema::{Allocator, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The variable naming a folder of more descriptions.
pub(crate) const EXTRA_VAR: &str = "THAW_VARIANTS";

/// The most of a build's description that is read.
const DESCRIPTION_LIMIT: u64 = 1 << 20;

/// `<name>.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Description {
    /// What the build is, in a few words (`sonic-rs 0.5.0`).
    pub(crate) about: String,
    /// Packages taken at exactly this version: `sonic-rs = "0.5.0"`.
    #[serde(default)]
    pub(crate) update: BTreeMap<String, String>,
    /// Packages taken from elsewhere: `simd-json = { path = "../simd-json" }` or `{ git = "…",
    /// rev = "…" }`, a path relative to the description's folder.
    #[serde(default)]
    pub(crate) patch: BTreeMap<String, Patch>,
    /// Added to RUSTFLAGS (`-C target-cpu=native`).
    #[serde(default)]
    pub(crate) rustflags: Option<String>,
    /// The global allocator the build swaps in (`jemalloc`, `mimalloc`; the system's when
    /// absent): the `allocator` crate's feature of that name. The warm track reads it too
    /// (`scripts/warm-variant.sh`).
    #[serde(default)]
    pub(crate) allocator: Allocator,
}

/// Where a patched package comes from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Patch {
    #[serde(default)]
    pub(crate) path: Option<String>,
    #[serde(default)]
    pub(crate) git: Option<String>,
    #[serde(default)]
    pub(crate) rev: Option<String>,
}

/// A described variant: its name, description and the folder it was described in.
#[derive(Debug, Clone)]
pub(crate) struct Described {
    pub(crate) variant: Variant,
    pub(crate) description: Description,
    pub(crate) folder: PathBuf,
}

/// The folders of descriptions: the repository's and the user's.
pub(crate) fn folders() -> Vec<PathBuf> {
    let mut out = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")];
    if let Some(more) = std::env::var_os(EXTRA_VAR).filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(more));
    }
    out
}

/// The description of `variant`, if one is written; an error names a description that is wrong.
pub(crate) fn find(variant: Variant) -> Result<Option<Described>> {
    for folder in folders() {
        let path = folder.join(format!("{}.toml", variant.name()));
        if !path.is_file() {
            continue;
        }
        let bytes = files::read_regular(&path, DESCRIPTION_LIMIT)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let text =
            String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8", path.display()))?;
        if of_another_runtime(&path, &text)? {
            return Ok(None);
        }
        let description: Description =
            toml::from_str(&text).with_context(|| path.display().to_string())?;
        for (name, p) in &description.patch {
            if p.path.is_some() == p.git.is_some() {
                bail!(
                    "{}: patch {name}: give a path or a git repository",
                    path.display()
                );
            }
        }
        return Ok(Some(Described {
            variant,
            description,
            folder,
        }));
    }
    Ok(None)
}

/// Whether a description beside the Rust builds is of a build of another runtime's children: it
/// names a `runtime` (a trained build, read by `runtimes::trained`).
pub(crate) fn of_another_runtime(path: &Path, text: &str) -> Result<bool> {
    let table: toml::Table = toml::from_str(text).with_context(|| path.display().to_string())?;
    Ok(table.contains_key("runtime"))
}

/// Every described variant's name, for `cold list`.
pub(crate) fn names() -> Vec<String> {
    let mut out = Vec::new();
    for folder in folders() {
        let Ok(entries) = files::entries(&folder) else {
            continue;
        };
        for e in entries.into_iter().filter(|e| e.kind == Kind::File) {
            let name = e.name.to_string_lossy().into_owned();
            let text = files::read_regular(&e.path, DESCRIPTION_LIMIT)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            let trained = text.is_some_and(|t| of_another_runtime(&e.path, &t).unwrap_or(false));
            if let Some(stem) = name.strip_suffix(".toml").filter(|_| !trained) {
                out.push(stem.to_string());
            }
        }
    }
    out.sort();
    out
}

/// Where a build's copy of the workspace and its target folder are.
fn home(variant: Variant) -> PathBuf {
    fixtures::catalog::workspace_root()
        .join("target")
        .join("variants")
        .join(variant.name())
}

/// The folder that holds the children of a described build.
pub(crate) fn children_dir(variant: Variant) -> PathBuf {
    home(variant).join("target").join("release")
}

/// What building a variant did: the packages whose version it changed, and how long it took.
#[derive(Debug, Clone)]
pub(crate) struct Built {
    pub(crate) dir: PathBuf,
    /// `sonic-rs 0.5.10 → 0.5.0`, one per package that differs from the checkout's Cargo.lock.
    pub(crate) changed: Vec<String>,
    pub(crate) seconds: f64,
}

impl Described {
    /// The description and what its build did, for the manifest.
    pub(crate) fn record(&self, built: &Built) -> String {
        let d = &self.description;
        let mut parts = vec![d.about.clone()];
        if !built.changed.is_empty() {
            parts.push(format!("Cargo.lock: {}", built.changed.join(", ")));
        }
        if let Some(flags) = &d.rustflags {
            parts.push(format!("RUSTFLAGS {flags}"));
        }
        parts.push(format!("allocator {}", d.allocator));
        parts.push(format!("built in {:.0} s", built.seconds));
        parts.join("; ")
    }

    /// Builds `binaries` of this variant (and nothing else): in place with its own target folder
    /// when it only adds flags, else in a copy of the workspace with its Cargo.toml and
    /// Cargo.lock changed as described.
    pub(crate) fn build(&self, binaries: &[String]) -> Result<Built> {
        let root = fixtures::catalog::workspace_root();
        let home = home(self.variant);
        let d = &self.description;
        let started = Instant::now();
        let copy = !d.update.is_empty() || !d.patch.is_empty();
        let source = if copy {
            let src = home.join("src");
            copy_workspace(&root, &src)?;
            self.edit_manifest(&src)?;
            src
        } else {
            root.clone()
        };
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        for (name, version) in &d.update {
            run(Command::new(&cargo).current_dir(&source).args([
                "update",
                "-q",
                "-p",
                name,
                "--precise",
                version,
            ]))
            .with_context(|| format!("cargo update -p {name} --precise {version}"))?;
        }
        let mut build = Command::new(&cargo);
        build
            .current_dir(&source)
            .args(["build", "-q", "--release", "-p", "children"])
            .args(binaries.iter().flat_map(|b| ["--bin", b.as_str()]))
            .arg("--target-dir")
            .arg(home.join("target"));
        if let Some(feature) = allocator::feature(d.allocator) {
            build.args(["--features", &format!("allocator/{feature}")]);
        }
        for (name, p) in &d.patch {
            let mut keys: Vec<(&str, String)> = Vec::new();
            if let Some(path) = &p.path {
                let path = self.folder.join(path);
                let path = std::fs::canonicalize(&path)
                    .with_context(|| format!("patch {name}: no folder {}", path.display()))?;
                keys.push(("path", path.display().to_string()));
            }
            if let Some(git) = &p.git {
                keys.push(("git", git.clone()));
            }
            if let Some(rev) = &p.rev {
                keys.push(("rev", rev.clone()));
            }
            for (key, value) in keys {
                build
                    .arg("--config")
                    .arg(format!("patch.crates-io.{name}.{key}={value:?}"));
            }
        }
        if let Some(flags) = &d.rustflags {
            let mut all = std::env::var("RUSTFLAGS").unwrap_or_default();
            if !all.is_empty() {
                all.push(' ');
            }
            all.push_str(flags);
            build.env("RUSTFLAGS", all);
        }
        run(&mut build).with_context(|| format!("building the {} children", self.variant))?;
        let changed = if copy {
            lock_changes(&root.join("Cargo.lock"), &source.join("Cargo.lock"))?
        } else {
            Vec::new()
        };
        Ok(Built {
            dir: children_dir(self.variant),
            changed,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// In the copy's Cargo.toml, each updated package required at exactly its version.
    fn edit_manifest(&self, src: &Path) -> Result<()> {
        let path = src.join("Cargo.toml");
        let text = std::fs::read_to_string(&path)?;
        let mut manifest: toml::Table = toml::from_str(&text)?;
        let deps = manifest
            .get_mut("workspace")
            .and_then(|w| w.get_mut("dependencies"))
            .and_then(|d| d.as_table_mut())
            .context("the workspace's Cargo.toml has no [workspace.dependencies]")?;
        for (name, version) in &self.description.update {
            let exact = toml::Value::String(format!("={version}"));
            match deps.get_mut(name) {
                Some(toml::Value::Table(t)) => {
                    t.insert("version".into(), exact);
                }
                Some(v) => *v = exact,
                None => bail!(
                    "update {name}: not a dependency of the workspace ([workspace.dependencies])"
                ),
            }
        }
        std::fs::write(&path, toml::to_string(&manifest)?)?;
        Ok(())
    }
}

/// Runs `command`, its output kept for the error.
fn run(command: &mut Command) -> Result<()> {
    let out = command.output().context("cannot run cargo")?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        bail!("{}", text::clip(said.trim(), 4000));
    }
    Ok(())
}

/// The workspace's sources (every file but target/, results/ and .git) copied into `to`, which
/// is made new.
fn copy_workspace(from: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to).with_context(|| format!("cannot clear {}", to.display()))?;
    }
    fn copy(from: &Path, to: &Path, top: bool) -> Result<()> {
        std::fs::create_dir_all(to)?;
        for e in files::entries(from)? {
            let name = e.name;
            if top && ["target", "results", ".git"].iter().any(|n| name == *n) {
                continue;
            }
            if e.kind == Kind::Folder {
                copy(&e.path, &to.join(&name), false)?;
            } else if e.kind == Kind::File {
                std::fs::copy(&e.path, to.join(&name))?;
            }
        }
        Ok(())
    }
    copy(from, to, true).with_context(|| format!("cannot copy the workspace to {}", to.display()))
}

/// The packages whose versions differ between two Cargo.lock files: `name old → new`.
fn lock_changes(before: &Path, after: &Path) -> Result<Vec<String>> {
    let versions = |path: &Path| -> Result<BTreeMap<String, Vec<String>>> {
        let lock: toml::Table = toml::from_str(&std::fs::read_to_string(path)?)?;
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in lock
            .get("package")
            .and_then(|p| p.as_array())
            .into_iter()
            .flatten()
        {
            if let (Some(n), Some(v)) = (
                p.get("name").and_then(|x| x.as_str()),
                p.get("version").and_then(|x| x.as_str()),
            ) {
                out.entry(n.to_string()).or_default().push(v.to_string());
            }
        }
        Ok(out)
    };
    let (a, b) = (versions(before)?, versions(after)?);
    let mut out = Vec::new();
    for (name, new) in &b {
        let old = a.get(name).cloned().unwrap_or_default();
        if &old != new {
            out.push(format!(
                "{name} {} → {}",
                if old.is_empty() {
                    "none".into()
                } else {
                    old.join("/")
                },
                new.join("/")
            ));
        }
    }
    Ok(out)
}

/// `cold build`: every child of each described variant, with what its build did.
pub(crate) fn build_all(variants: &[Variant]) -> Result<()> {
    let binaries: Vec<String> = children::catalog::all()
        .iter()
        .map(|c| c.binary())
        .collect();
    for &v in variants {
        let d = find(v)?.with_context(|| {
            format!(
                "{v}: no description in cold/variants/ or ${EXTRA_VAR} (described: {})",
                names().join(", ")
            )
        })?;
        let built = d.build(&binaries)?;
        println!(
            "{v}: {} — children in {}",
            d.record(&built),
            built.dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allocator_builds_are_described_and_say_their_allocator() {
        for name in names() {
            let v = Variant::parse(&name).unwrap();
            assert!(find(v).unwrap().is_some(), "{name} parses");
        }
        for (name, allocator) in [
            ("jemalloc", Allocator::Jemalloc),
            ("mimalloc", Allocator::Mimalloc),
        ] {
            let d = find(Variant::parse(name).unwrap()).unwrap().unwrap();
            assert_eq!(d.description.allocator, allocator);
            assert_eq!(allocator::feature(allocator), Some(name));
            let built = Built {
                dir: PathBuf::new(),
                changed: Vec::new(),
                seconds: 1.0,
            };
            assert!(d.record(&built).contains(&format!("allocator {name}")));
        }
        // a description without the key is on the system's allocator
        let d: Description = toml::from_str("about = \"x\"").unwrap();
        assert_eq!(d.allocator, Allocator::System);
        assert!(toml::from_str::<Description>("about = \"x\"\nallocator = \"tcmalloc\"").is_err());
    }
}
