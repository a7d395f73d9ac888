//! `cold list`: the Rust codecs (id, library, version, style, ser output), the codecs of other
//! runtimes (with whether each runtime is there), and the fixtures (name, size, what it is), so a
//! user can see the valid values of `--codecs` and `--fixture`. The descriptions of other
//! runtimes are the user's files (`$THAW_EXTERNAL`): the whole listing goes through the one
//! escape for a terminal, so no name in them reaches it raw.

use anyhow::Result;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

pub(crate) fn list(seed: u64, corpora: Option<&Path>, out: &mut impl Write) -> Result<()> {
    let mut text = String::new();
    listing(seed, corpora, &mut text)?;
    write!(out, "{}", schema::text::for_terminal(&text, true))?;
    Ok(())
}

fn listing(seed: u64, corpora: Option<&Path>, out: &mut String) -> Result<()> {
    write!(out, "{}", codecs::codec_table())?;
    writeln!(out)?;
    let external = crate::runtimes::all()?;
    if !external.is_empty() {
        writeln!(
            out,
            "codecs of other runtimes (--codecs {} or their ids; described in runtimes/):",
            crate::runtimes::groups().join(", ")
        )?;
        writeln!(
            out,
            "{:<20} {:<28} {:<12} {:<9} there",
            "codec", "library", "group", "style"
        )?;
        for c in external {
            let there = match c.available() {
                Ok(_) => "yes".to_string(),
                Err(why) => format!("no: {why}"),
            };
            writeln!(
                out,
                "{:<20} {:<28} {:<12} {:<9} {there}",
                c.id,
                codecs::AnyCodec::library(c),
                c.group,
                codecs::AnyCodec::style(c).name()
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
    for f in documents::FIXTURES {
        let size = match f.document(seed, corpora) {
            Ok(doc) => format!("{} B", doc.len()),
            Err(_) => "corpus, no folder".to_string(),
        };
        writeln!(out, "  {:<18} {:>18}  {}", f.name, size, f.about)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_codec_and_fixture() {
        let mut out = Vec::new();
        list(documents::DEFAULT_SEED, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for id in ["noop", "serde_json", "simd-json-value", "jiter"] {
            assert!(text.contains(id), "{id}");
        }
        assert!(text.contains("users-2kb") && text.contains("canada"));
    }
}
