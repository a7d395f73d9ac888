//! `cold list`: the Rust codecs (id, library, version, style, ser output), the codecs of other
//! runtimes (with whether each runtime is there), and the fixtures (name, size, what it is), so a
//! user can see the valid values of `--codecs` and `--fixture`. The descriptions of other
//! runtimes are the user's files (`$THAW_EXTERNAL`): the whole listing goes through the one
//! escape for a terminal, so no name in them reaches it raw.

use crate::system::variants;
use anyhow::Result;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

pub(crate) fn list(seed: u64, corpora: Option<&Path>, out: &mut impl Write) -> Result<()> {
    let mut text = String::new();
    listing(seed, corpora, &mut text)?;
    write!(out, "{}", text::for_terminal(&text, true))?;
    Ok(())
}

fn listing(seed: u64, corpora: Option<&Path>, out: &mut String) -> Result<()> {
    write!(out, "{}", codecs::codec_table())?;
    writeln!(out)?;
    rust_builds(out)?;
    writeln!(out)?;
    let external = crate::runtimes::all()?;
    if !external.is_empty() {
        writeln!(
            out,
            "codecs of other runtimes (--codecs {} or their ids; described in runtimes/):",
            crate::runtimes::groups().join(", ")
        )?;
        // The id column as wide as the longest id (`fast-json-stringify-standalone`).
        let w = external
            .iter()
            .map(|c| c.id.len())
            .max()
            .unwrap_or(0)
            .max(20);
        writeln!(
            out,
            "{:<w$} {:<28} {:<12} {:<14} there",
            "codec", "library", "group", "style"
        )?;
        for c in external {
            let there = match c.available() {
                Ok(_) => "yes".to_string(),
                Err(why) => format!("no: {why}"),
            };
            writeln!(
                out,
                "{:<w$} {:<28} {:<12} {:<14} {there}",
                c.id,
                codecs::AnyCodec::library(c),
                c.group,
                codecs::AnyCodec::style_shown(c)
            )?;
        }
        writeln!(
            out,
            "\nbuilds of the other runtimes (--variant; * the default):"
        )?;
        let mut shown = Vec::new();
        for c in external {
            if shown.contains(&c.runtime.name) {
                continue;
            }
            shown.push(c.runtime.name);
            let defaults = c.runtime.default_variants();
            for v in c.runtime.variants() {
                let star = if defaults.contains(&v) { "*" } else { " " };
                let there = match c.runtime.found(v) {
                    Ok(f) => format!("{} ({})", f.version, f.executable.display()),
                    Err(why) => format!("not there: {why}"),
                };
                writeln!(
                    out,
                    "  {:<8} {star}{:<12} {}: {there}",
                    c.runtime.name,
                    v.name(),
                    c.runtime.about(v).unwrap_or("")
                )?;
            }
        }
        writeln!(out)?;
    }
    writeln!(out, "fixtures (seed {seed}):")?;
    for f in fixtures::FIXTURES {
        let size = match f.document(seed, corpora) {
            Ok(doc) => format!("{} B", doc.len()),
            Err(_) => "corpus, no folder".to_string(),
        };
        writeln!(out, "  {:<18} {:>18}  {}", f.name, size, f.about)?;
    }
    Ok(())
}

/// The builds of the Rust children: the two targets, and every build described in
/// `cold/variants/` (and `$THAW_VARIANTS`) with what it changes.
fn rust_builds(out: &mut String) -> Result<()> {
    writeln!(
        out,
        "builds of the Rust children (--variant; * the default):"
    )?;
    writeln!(out, "  {:<24} the default target", "*portable")?;
    writeln!(out, "  {:<24} -C target-cpu=native", " native")?;
    for name in variants::names() {
        let described = schema::Variant::parse(&name)
            .map_err(anyhow::Error::msg)
            .and_then(variants::find);
        let line = match described {
            Ok(Some(d)) => format!("{}{}", d.description.about, changes(&d.description)),
            Ok(None) => "not a Rust build".to_string(),
            Err(e) => format!("cannot be read: {e:#}"),
        };
        writeln!(out, "  {:<24} {line}", format!(" {name}"))?;
    }
    Ok(())
}

/// What a described build changes, after its own words: ` (allocator jemalloc; sonic-rs =
/// 0.5.0; RUSTFLAGS +…)`.
fn changes(d: &variants::Description) -> String {
    let mut parts = Vec::new();
    if d.allocator != schema::Allocator::System {
        parts.push(format!("allocator {}", d.allocator));
    }
    parts.extend(d.update.iter().map(|(p, v)| format!("{p} = {v}")));
    parts.extend(d.patch.iter().map(|(p, from)| {
        let source = from
            .path
            .clone()
            .or_else(|| from.git.clone())
            .unwrap_or_default();
        format!("{p} from {source}")
    }));
    if let Some(flags) = &d.rustflags {
        parts.push(format!("RUSTFLAGS +{flags}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_codec_and_fixture() {
        let mut out = Vec::new();
        list(fixtures::DEFAULT_SEED, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for id in ["noop", "serde_json", "simd-json-value", "jiter"] {
            assert!(text.contains(id), "{id}");
        }
        assert!(text.contains("users-2kb") && text.contains("canada"));
    }

    #[test]
    fn lists_every_rust_build_with_what_it_changes() {
        let mut out = Vec::new();
        list(fixtures::DEFAULT_SEED, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // every description in cold/variants/ that is not a JVM build, by name
        for name in variants::names() {
            assert!(
                text.contains(&format!(" {name} ")),
                "{name} missing:\n{text}"
            );
        }
        for (name, change) in [
            ("jemalloc", "allocator jemalloc"),
            ("mimalloc", "allocator mimalloc"),
            ("sonic-rs-0.5.0", "sonic-rs = 0.5.0"),
            ("serde_json-planted", "serde_json from "),
        ] {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap();
            assert!(line.contains(change), "{line}");
        }
        assert!(text.contains("*portable") && text.contains("native"));
        // the JVM's trained builds are listed with their runtime
        assert!(text.contains("jdk25-aot"), "{text}");
    }
}
