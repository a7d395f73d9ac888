//! `cold list`: the codecs (id, library, version, style, ser output) and the fixtures (name, size, what it
//! is), so a user can see the valid values of `--codecs` and `--fixture`.

use anyhow::Result;
use std::io::Write;
use std::path::Path;

pub fn list(seed: u64, corpora: Option<&Path>, out: &mut impl Write) -> Result<()> {
    write!(out, "{}", fixtures::codecs::codec_table())?;
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
