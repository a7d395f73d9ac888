//! Trained builds of a runtime's children, described by data beside the Rust builds
//! (`cold/variants/<name>.toml` with `runtime = "jvm"`, or `$THAW_VARIANTS`): a build of the
//! runtime (`base`, `jdk25`) with flags added, whose every child first runs once on another
//! document of its model to leave an archive (an AOT cache, an AppCDS archive), then once more
//! with a log that must prove the archive was mapped. Every timed sample runs with flags that
//! make an archive that cannot be mapped an error (`-XX:AOTMode=on`, `-Xshare:on`), so no
//! sample falls back silently.
//!
//! This module is the description and its pure rules (placeholders, the training document, the
//! proof read from the log); `run::train` runs them.

use anyhow::{bail, Context, Result};
use fixtures::Fixture;
use schema::Variant;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `<name>.toml` of a trained build.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Trained {
    /// What the build is, for `cold list` and the manifest.
    pub(crate) about: String,
    /// The runtime whose children it builds (`jvm`).
    pub(crate) runtime: String,
    /// The runtime's build whose executable it runs (`jdk25`).
    pub(crate) base: String,
    /// Packs the child's own classes folder into `{jar}` first (CDS and the AOT cache map
    /// classes from jars only); run in the archive's folder.
    pub(crate) pack: Vec<String>,
    /// Added before the runtime's command in the verification run and every timed sample.
    pub(crate) flags: Vec<String>,
    /// The archive's file name extension (`aot`, `jsa`).
    pub(crate) archive: String,
    pub(crate) train: Train,
    pub(crate) verify: Verify,
}

/// The training step.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Train {
    /// Added before the runtime's command in the training run, instead of `flags`.
    pub(crate) flags: Vec<String>,
    /// The documents it may train on: the first of the measured fixture's model that is not
    /// the measured fixture itself.
    pub(crate) fixtures: Vec<String>,
    /// Operations in the training run.
    pub(crate) batch: u32,
}

/// How the archive is proved used.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Verify {
    /// Added after `flags` in the verification run (`{log}`: where the runtime writes its log).
    pub(crate) flags: Vec<String>,
    /// A line the log must hold (`{class}`: the child's main class, which only an archive made
    /// from this child can hold).
    pub(crate) expect: String,
    /// Lines holding this are counted into the manifest (classes mapped from an archive).
    pub(crate) count: String,
}

/// The values of a description's placeholders.
#[derive(Debug, Clone, Default)]
pub(crate) struct Places {
    pub(crate) archive: PathBuf,
    pub(crate) jar: PathBuf,
    pub(crate) log: PathBuf,
    pub(crate) classes: PathBuf,
    /// The folder of the runtime's executable (`{bin}/jar`).
    pub(crate) bin: PathBuf,
    pub(crate) class: String,
}

/// `args` with the placeholders filled.
pub(crate) fn fill(args: &[String], p: &Places) -> Vec<String> {
    args.iter()
        .map(|a| {
            a.replace("{archive}", &p.archive.display().to_string())
                .replace("{jar}", &p.jar.display().to_string())
                .replace("{log}", &p.log.display().to_string())
                .replace("{classes}", &p.classes.display().to_string())
                .replace("{bin}", &p.bin.display().to_string())
                .replace("{class}", &p.class)
        })
        .collect()
}

/// The fixture a cell on `measured` trains on, or why there is none.
pub(crate) fn training_fixture(
    t: &Trained,
    measured: &Fixture,
) -> Result<&'static Fixture, String> {
    let model = measured.model_kind();
    for name in &t.train.fixtures {
        let Ok(f) = fixtures::catalog::find(name) else {
            continue;
        };
        if f.name != measured.name && f.model_kind() == model {
            return Ok(f);
        }
    }
    Err(format!(
        "no training document: none of {} is another document of {}'s model",
        t.train.fixtures.join(", "),
        measured.name
    ))
}

/// What the verification log proves: the lines that count, or why the archive was not used.
pub(crate) fn proof(log: &str, expect: &str, count: &str) -> Result<String, String> {
    let counted = log.lines().filter(|l| l.contains(count)).count();
    if !log.lines().any(|l| l.contains(expect)) {
        return Err(format!(
            "the archive was not used: no line of the runtime's log holds `{expect}` ({counted} \
             lines hold `{count}`)"
        ));
    }
    Ok(format!(
        "`{expect}` in the log; {counted} lines hold `{count}`"
    ))
}

/// The run folder's folder of trained builds' archives, packed jars, training inputs and logs.
pub(crate) const ARCHIVES: &str = "archives";

/// Where a trained build's archives of a run are: `<run>/archives/<build>/`.
pub(crate) fn folder(run: &Path, variant: Variant) -> PathBuf {
    run.join(ARCHIVES).join(variant.name())
}

/// Reads a trained build's description if `text` is one (it names a `runtime`); `None` for a
/// Rust build's.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Option<Trained>> {
    if !crate::system::variants::of_another_runtime(path, text)? {
        return Ok(None);
    }
    let t: Trained = toml::from_str(text).with_context(|| path.display().to_string())?;
    if t.train.batch == 0 || t.train.fixtures.is_empty() {
        bail!(
            "{}: train: a batch of at least 1 and at least one fixture",
            path.display()
        );
    }
    schema::rows::check_name("archive extension", &t.archive)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(Some(t))
}

/// Every trained build of `runtime` described in `folders` (the builds' folders), by name, with
/// its file.
pub(crate) fn load_for(
    runtime: &str,
    folders: &[PathBuf],
) -> Result<Vec<(Variant, Trained, PathBuf)>> {
    let mut out = Vec::new();
    for folder in folders {
        let Ok(entries) = files::entries(folder) else {
            continue;
        };
        let paths = entries
            .into_iter()
            .filter(|e| e.kind == files::Kind::File)
            .map(|e| e.path)
            .filter(|p| p.extension().is_some_and(|x| x == "toml"));
        for path in paths {
            let bytes = files::read_regular(&path, 1 << 20)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let text = String::from_utf8(bytes)
                .with_context(|| format!("{}: not UTF-8", path.display()))?;
            let Some(t) = parse(&path, &text)? else {
                continue;
            };
            if t.runtime != runtime {
                continue;
            }
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let v =
                Variant::parse(&stem).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            out.push((v, t, path));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AOT: &str = r#"
about = "an AOT cache"
runtime = "jvm"
base = "jdk25"
pack = ["{bin}/jar", "--create", "--file", "{jar}", "-C", "{classes}", "."]
flags = ["-XX:AOTCache={archive}", "-XX:AOTMode=on"]
archive = "aot"
[train]
flags = ["-XX:AOTCacheOutput={archive}"]
fixtures = ["users-1kb", "users-10kb"]
batch = 100
[verify]
flags = ["-Xlog:class+load=info:file={log}"]
expect = "{class} source: shared objects file"
count = "source: shared objects file"
"#;

    fn aot() -> Trained {
        parse(Path::new("aot.toml"), AOT).unwrap().unwrap()
    }

    #[test]
    fn a_rust_description_is_not_a_trained_build() {
        let rust = "about = \"sonic-rs 0.5.0\"\nupdate = { sonic-rs = \"0.5.0\" }\n";
        assert!(parse(Path::new("x.toml"), rust).unwrap().is_none());
    }

    #[test]
    fn a_wrong_field_names_the_file() {
        let bad = AOT.replace("batch = 100", "batch = 100\nbatches = 2");
        let e = parse(Path::new("bad.toml"), &bad).unwrap_err();
        assert!(format!("{e:#}").contains("bad.toml"), "{e:#}");
    }

    #[test]
    fn trains_on_another_document_of_the_same_model() {
        let t = aot();
        let on = |m: &str| training_fixture(&t, fixtures::catalog::find(m).unwrap());
        assert_eq!(on("users-10kb").unwrap().name, "users-1kb");
        assert_eq!(on("users-1kb").unwrap().name, "users-10kb");
        assert!(on("clients-1kb").unwrap_err().contains("clients-1kb"));
    }

    #[test]
    fn fills_every_placeholder() {
        let p = Places {
            archive: "/r/a.aot".into(),
            class: "thaw.X".into(),
            ..Places::default()
        };
        let t = aot();
        assert_eq!(
            fill(&t.flags, &p),
            ["-XX:AOTCache=/r/a.aot", "-XX:AOTMode=on"]
        );
        assert_eq!(
            fill(std::slice::from_ref(&t.verify.expect), &p),
            ["thaw.X source: shared objects file"]
        );
    }

    #[test]
    fn the_proof_needs_the_childs_own_class_from_the_archive() {
        let expect = "thaw.X source: shared objects file";
        let count = "source: shared objects file";
        let used = "[info] java.lang.Object source: shared objects file\n\
                    [info] thaw.X source: shared objects file\n";
        assert!(proof(used, expect, count).unwrap().contains("2 lines"));
        // The JDK's own default archive mapped, the child's class read from its jar: not used.
        let fallback = "[info] java.lang.Object source: shared objects file\n\
                        [info] thaw.X source: file:/r/x.jar\n";
        let why = proof(fallback, expect, count).unwrap_err();
        assert!(why.contains("not used") && why.contains("1 lines"), "{why}");
    }
}
