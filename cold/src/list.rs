//! `cold list`: the Rust codecs (id, library, version, style, ser output), the codecs of other
//! runtimes (with whether each runtime is there), and the fixtures (name, size, what it is), so a
//! user can see the valid values of `--codecs` and `--fixture`.

use anyhow::Result;
use std::io::Write;
use std::path::Path;

pub fn list(seed: u64, corpora: Option<&Path>, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", codecs::codec_table())?;
    writeln!(out)?;
    let external = crate::runtimes::all()?;
    if !external.is_empty() {
        writeln!(
            out,
            "codecs of other runtimes (--codecs {} or their ids; described in cold/external/):",
            crate::runtimes::runtimes().join(", ")
        )?;
        writeln!(
            out,
            "{:<20} {:<20} {:<8} {:<9} runtime",
            "codec", "library", "runtime", "style"
        )?;
        for c in external {
            let there = match c.available() {
                Ok(found) => found.version.clone(),
                Err(why) => format!("unavailable: {why}"),
            };
            writeln!(
                out,
                "{:<20} {:<20} {:<8} {:<9} {there}",
                c.id,
                codecs::AnyCodec::library(c),
                c.runtime.name,
                codecs::AnyCodec::style(c).name()
            )?;
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
}
