//! `cold list`: the codecs (id, library, version, style) and the fixtures (name, size, what it
//! is), so a user can see the valid values of `--codecs` and `--fixture`.

use anyhow::Result;
use fixtures::codecs::registry;
use std::io::Write;
use std::path::Path;

pub fn list(seed: u64, corpora: Option<&Path>, out: &mut impl Write) -> Result<()> {
    writeln!(out, "codecs:")?;
    writeln!(
        out,
        "  {:<18} {:<12} {:<10} style",
        "id", "library", "version"
    )?;
    for c in registry() {
        writeln!(
            out,
            "  {:<18} {:<12} {:<10} {}",
            c.id(),
            c.library(),
            c.version(),
            c.style().name()
        )?;
    }
    writeln!(out)?;
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
