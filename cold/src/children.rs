//! Where the child binaries are: `child-<codec>` next to the runner's own executable for the
//! `portable` variant (`cargo build --release -p cold` builds them all into target/release), and
//! in target/native/release for `native` (`scripts/build-children.sh native`).

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// How the children were built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Variant {
    /// The default target; libraries detect CPU features at run time where they can.
    Portable,
    /// `-C target-cpu=native`.
    Native,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Portable => "portable",
            Variant::Native => "native",
        }
    }

    pub fn parse(text: &str) -> Result<Variant> {
        match text {
            "portable" => Ok(Variant::Portable),
            "native" => Ok(Variant::Native),
            other => bail!("unknown variant `{other}`; valid variants: portable, native"),
        }
    }
}

/// The folder that holds the children of `variant`, found from the runner's own executable.
pub fn default_dir(variant: Variant) -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the runner's own executable")?;
    let here = exe
        .parent()
        .context("the runner's executable has no folder")?
        .to_path_buf();
    Ok(match variant {
        Variant::Portable => here,
        // target/release/cold → target/native/release (unless we already are the native build).
        Variant::Native if here.ends_with("native/release") => here,
        Variant::Native => here
            .parent()
            .map(|target| target.join("native").join("release"))
            .unwrap_or(here),
    })
}

/// The child binary of `codec` in `dir`.
pub fn child_path(dir: &Path, codec: &str) -> PathBuf {
    dir.join(format!("child-{codec}"))
}

/// The children of `codecs`, checked to exist, with a hint at how to build them if not.
pub fn find(dir: &Path, codecs: &[&str], variant: Variant) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    let mut missing = Vec::new();
    for codec in codecs {
        let path = child_path(dir, codec);
        if path.is_file() {
            paths.push(path);
        } else {
            missing.push(format!("child-{codec}"));
        }
    }
    if !missing.is_empty() {
        let how = match variant {
            Variant::Portable => "cargo build --release -p cold",
            Variant::Native => "scripts/build-children.sh native",
        };
        bail!(
            "no {} in {} (the {} children); build them with `{how}`, or give --children-dir",
            missing.join(", "),
            dir.display(),
            variant.name()
        );
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_round_trip_and_reject_unknowns() {
        for v in [Variant::Portable, Variant::Native] {
            assert_eq!(Variant::parse(v.name()).unwrap(), v);
        }
        assert!(Variant::parse("fast")
            .unwrap_err()
            .to_string()
            .contains("portable, native"));
    }

    #[test]
    fn missing_children_say_how_to_build_them() {
        let e = find(Path::new("/nonexistent"), &["noop"], Variant::Native).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("child-noop") && e.contains("build-children.sh native"),
            "{e}"
        );
    }

    #[test]
    fn native_children_live_beside_the_portable_target() {
        let dir = default_dir(Variant::Native).unwrap();
        assert!(dir.ends_with("native/release"), "{}", dir.display());
    }
}
