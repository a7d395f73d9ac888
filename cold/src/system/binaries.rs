//! Where the runner's binaries are: the `children` package's `child-<codec>` binaries and the
//! `cold-spawner`, next to the runner's own executable for the `portable` variant (`cargo build
//! --release --workspace` builds them all into target/release), and in target/native/release for
//! `native` (`scripts/build-children.sh native`). And, when the runner was started by `cargo
//! run`, building them first: `cargo run` builds only the runner's own binary, so without this a
//! fresh checkout would have no children and an edited one would time stale children. The
//! allocation counter of `--measure instructions` (`libthaw_alloc_phases.so`) lives there too.

use anyhow::{bail, Context, Result};
use schema::Variant;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The folder that holds the children of `variant`, found from the runner's own executable.
pub(crate) fn default_dir(variant: Variant) -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the runner's own executable")?;
    let here = exe
        .parent()
        .context("the runner's executable has no folder")?
        .to_path_buf();
    // target/release/cold → target/<variant>/release (unless we already are that build).
    let suffix = Path::new(variant.name()).join("release");
    Ok(if variant == Variant::PORTABLE || here.ends_with(&suffix) {
        here
    } else {
        here.parent()
            .map(|target| target.join(&suffix))
            .unwrap_or(here)
    })
}

/// `cargo build --manifest-path <workspace>` for a runner started by `cargo run` of this package
/// (`CARGO`, `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME=cold` in its environment), or `None` for a
/// runner started any other way.
fn cargo_build() -> Option<Command> {
    let var = |key: &str| std::env::var_os(key).filter(|v| !v.is_empty());
    let (Some(cargo), Some(manifest_dir)) = (var("CARGO"), var("CARGO_MANIFEST_DIR")) else {
        return None;
    };
    if var("CARGO_PKG_NAME").as_deref() != Some(std::ffi::OsStr::new("cold")) {
        return None;
    }
    let mut command = Command::new(cargo);
    command
        .arg("build")
        .arg("--manifest-path")
        .arg(Path::new(&manifest_dir).join("Cargo.toml"));
    Some(command)
}

/// `--profile P` when the runner was built with a profile other than `dev`: what it builds
/// lands beside it, in target/<profile>.
fn same_profile(command: &mut Command) -> Result<()> {
    let dir = default_dir(Variant::PORTABLE)?;
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => {}
        Some(profile) => {
            command.args(["--profile", profile]);
        }
    }
    Ok(())
}

/// The `cargo build` that makes the spawner and the child binaries `binaries` of `variant` for a
/// runner started by `cargo run`, or `None` for a runner started any other way.
pub(crate) fn cargo_build_command(
    variant: Variant,
    binaries: &[String],
) -> Result<Option<Command>> {
    let Some(mut command) = cargo_build() else {
        return Ok(None);
    };
    command
        .args(["-p", "spawner", "-p", "children"])
        .args(["--bin", spawner::BINARY])
        .args(binaries.iter().flat_map(|b| ["--bin", b.as_str()]));
    match variant {
        Variant::PORTABLE => same_profile(&mut command)?,
        Variant::NATIVE => {
            // As scripts/build-children.sh native: its own target folder, target-cpu=native.
            let dir = default_dir(Variant::NATIVE)?;
            let target = dir
                .parent()
                .context("the native children's folder has no parent")?;
            let mut flags = std::env::var_os("RUSTFLAGS").unwrap_or_default();
            if !flags.is_empty() {
                flags.push(" ");
            }
            flags.push("-C target-cpu=native");
            command
                .arg("--release")
                .env("CARGO_TARGET_DIR", target)
                .env("RUSTFLAGS", flags);
        }
        // A build a user described is made by `scripts/build-children.sh NAME`, never here.
        _ => return Ok(None),
    }
    Ok(Some(command))
}

/// The `cargo build` of the allocation counter (`alloc-phases`, for `--measure instructions`)
/// beside the runner, for a runner started by `cargo run`; `None` otherwise.
pub(crate) fn cargo_build_alloc_counter() -> Result<Option<Command>> {
    let Some(mut command) = cargo_build() else {
        return Ok(None);
    };
    command.args(["-p", "alloc-phases", "--lib"]);
    same_profile(&mut command)?;
    Ok(Some(command))
}

/// Runs `command` (a `cargo build`), its progress on stderr; an error if it fails.
pub(crate) fn build(mut command: Command) -> Result<()> {
    let shown: Vec<OsString> = std::iter::once(command.get_program().to_os_string())
        .chain(command.get_args().map(|a| a.to_os_string()))
        .collect();
    let shown = shown
        .iter()
        .map(|a| a.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ");
    let status = command
        .stdout(Stdio::null())
        .status()
        .with_context(|| format!("cannot run `{shown}`"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status}); the children could not be built");
    }
    Ok(())
}

/// The child binaries `binaries` (file names) in `dir`, checked to exist, with a hint at how to
/// build them if not.
pub(crate) fn find(dir: &Path, binaries: &[String], variant: Variant) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    let mut missing = Vec::new();
    for binary in binaries {
        let path = dir.join(binary);
        if path.is_file() {
            paths.push(path);
        } else {
            missing.push(binary.clone());
        }
    }
    if !missing.is_empty() {
        let how = if variant == Variant::PORTABLE {
            "cargo build --release -p children".to_string()
        } else {
            format!("scripts/build-children.sh {variant}")
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

/// The `cold-spawner` next to the runner, which must exist.
pub(crate) fn spawner_path() -> Result<PathBuf> {
    let path = spawner::Spawner::default_path().context("cannot find the runner's folder")?;
    if !path.is_file() {
        bail!(
            "no {} beside the runner (looked for {}); build it with `cargo build --release -p cold`",
            spawner::BINARY,
            path.display()
        );
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_children_say_how_to_build_them() {
        let wanted = ["child-noop-de-any".to_string()];
        let e = find(Path::new("/nonexistent"), &wanted, Variant::NATIVE).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("child-noop-de-any") && e.contains("build-children.sh native"),
            "{e}"
        );
    }

    #[test]
    fn native_children_live_beside_the_portable_target() {
        let dir = default_dir(Variant::NATIVE).unwrap();
        assert!(dir.ends_with("native/release"), "{}", dir.display());
    }
}
