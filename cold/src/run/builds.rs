//! The children a run starts: every build of every runtime its codecs run on (a Rust build's
//! children built first when the runner was started by `cargo run`, only the binaries the cells
//! need), and the environment they start with (`PATH` and `HOME`, then every `--env`).

use crate::run::options::RunOptions;
use crate::run::status::say;
use crate::runtimes::codec_list;
use crate::system::binaries;
use anyhow::{bail, Context, Result};
use codecs::AnyCodec;
use schema::run_folder::VariantEntry;
use schema::{Allocator, Variant};
use std::ffi::OsString;

/// Every build the run takes, of every runtime its codecs run on: the builds asked for with
/// `--variant` of that runtime, or the runtime's default; a Rust build with the folder of its
/// children, built first when the runner was started by `cargo run` (only the binaries the cells
/// need).
pub(crate) fn of(o: &RunOptions, needed: &[String]) -> Result<Vec<VariantEntry>> {
    let mut runtimes: Vec<&'static str> = Vec::new();
    for c in &o.codecs {
        let r = codec_list::runtime_of(*c);
        if !runtimes.contains(&r) {
            runtimes.push(r);
        }
    }
    for v in &o.variants {
        let r = codec_list::runtime_of_variant(*v);
        if !runtimes.contains(&r) {
            bail!(
                "--variant {v}: a build of the {r} children, but no codec of the run is {r}'s; \
                 give a {r} codec too, or another build"
            );
        }
    }
    let mut entries = Vec::new();
    for runtime in runtimes {
        let asked: Vec<Variant> = o
            .variants
            .iter()
            .copied()
            .filter(|v| codec_list::runtime_of_variant(*v) == runtime)
            .collect();
        if runtime != codec_list::RUST {
            let builds = crate::runtimes::builds(runtime, &asked)?;
            if o.require_runtimes {
                require(runtime, &builds, &o.codecs)?;
            }
            entries.extend(builds);
            continue;
        }
        let asked = if asked.is_empty() {
            vec![Variant::PORTABLE]
        } else {
            asked
        };
        for variant in asked {
            entries.push(rust_build(o, variant, needed)?);
        }
    }
    Ok(entries)
}

/// One Rust build: a described one built (or, in a dry run, taken as built), portable or native
/// built by cargo when the runner was started by `cargo run`, or the children `--children-dir`
/// names; with its allocator and what it is.
fn rust_build(o: &RunOptions, variant: Variant, needed: &[String]) -> Result<VariantEntry> {
    let runtime = codec_list::RUST;
    let described = if [Variant::PORTABLE, Variant::NATIVE].contains(&variant) {
        None
    } else {
        Some(crate::system::variants::find(variant)?.with_context(|| {
            format!(
                "--variant {variant}: no build of that name; give portable, native, a \
                 runtime's build (`cold list`), or describe it in cold/variants/ or \
                 ${} (described: {})",
                crate::system::variants::EXTRA_VAR,
                crate::system::variants::names().join(", ")
            )
        })?)
    };
    let mut entry = match (&o.children_dir, &described) {
        (Some(dir), _) => VariantEntry::new(
            variant,
            runtime,
            std::path::absolute(dir)?.display().to_string(),
        ),
        // a dry run builds nothing (no cargo, no linker): it takes what is built
        (None, Some(_)) if o.dry_run => VariantEntry::new(
            variant,
            runtime,
            crate::system::variants::children_dir(variant)
                .display()
                .to_string(),
        ),
        (None, Some(d)) => {
            say!("building the {variant} children ({})", d.description.about);
            let built = d.build(needed)?;
            let mut e = VariantEntry::new(variant, runtime, built.dir.display().to_string());
            e.described = Some(d.record(&built));
            e
        }
        (None, None) => {
            let command = match o.dry_run {
                true => None,
                false => binaries::cargo_build_command(variant, needed)?,
            };
            if let Some(command) = command {
                say!("building the {variant} children (started by cargo run)");
                binaries::build(command)?;
            }
            VariantEntry::new(
                variant,
                runtime,
                binaries::default_dir(variant)?.display().to_string(),
            )
        }
    };
    // children given by folder were built by someone else: their allocator is not known
    if o.children_dir.is_none() {
        entry.allocator = Some(
            described
                .as_ref()
                .map_or(Allocator::default(), |d| d.description.allocator),
        );
    }
    entry.about = described.map(|d| d.description.about).or_else(|| {
        Some(
            if variant == Variant::PORTABLE {
                "the default target (libraries detect CPU features at run time)"
            } else {
                "-C target-cpu=native"
            }
            .to_string(),
        )
    });
    Ok(entry)
}

/// `--require-runtimes`: an error when a build of `runtime`, or the library of one of its codecs
/// among `codecs`, is not there.
fn require(runtime: &str, builds: &[VariantEntry], codecs: &[&dyn AnyCodec]) -> Result<()> {
    for c in codecs {
        let Some(ext) = codec_list::external_of(*c).filter(|e| e.runtime.name == runtime) else {
            continue;
        };
        for b in builds {
            if let Err(why) = ext.runtime.found(b.variant) {
                bail!("--require-runtimes: {} ({}): {why}", c.id(), b.variant);
            }
        }
        if let Err(why) = ext.available() {
            bail!("--require-runtimes: {}: {why}", c.id());
        }
    }
    Ok(())
}

/// What the children are started with, and nothing else: `PATH` and `HOME` from the runner's
/// own environment (where set), then every `--env KEY=VALUE` (which may replace them).
pub(crate) fn child_env(extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = PASSED
        .iter()
        .filter_map(|key| Some(((*key).into(), std::env::var_os(key)?)))
        .collect();
    for (key, value) in extra {
        env.retain(|(k, _)| k != key.as_str());
        env.push((key.into(), value.into()));
    }
    env
}

/// The variables passed through from the runner's environment.
pub(crate) const PASSED: [&str; 2] = ["PATH", "HOME"];

/// The environment as the manifest records it.
pub(crate) fn env_strings(env: &[(OsString, OsString)]) -> Vec<String> {
    env.iter()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_get_path_and_home_and_what_is_asked_only() {
        let env = child_env(&[("LANG".into(), "C".into()), ("HOME".into(), "/x".into())]);
        let keys: Vec<String> = env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert!(!keys
            .iter()
            .any(|k| k.starts_with("CARGO") || k == "LD_LIBRARY_PATH"));
        assert!(keys.contains(&"LANG".to_string()));
        let home: Vec<_> = env.iter().filter(|(k, _)| k == "HOME").collect();
        assert_eq!(home.len(), 1);
        assert_eq!(home[0].1, "/x", "--env replaces a passed variable");
        assert!(env_strings(&env).contains(&"LANG=C".to_string()));
    }
}
