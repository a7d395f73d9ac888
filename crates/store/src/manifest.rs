//! manifest.json read back: JSON whose every text and list is within its bound (the error names
//! the field), then a thaw manifest (`schema::run_folder::Manifest`) whose every name is a name,
//! so that a manifest no run wrote (a codec id `../../x`, a child's binary outside its folder)
//! is refused before a value of it reaches a report or is joined to a folder.

use schema::rows::{check_name, MAX_NAME};
use schema::run_folder::{Manifest, MAX_LIST, MAX_TEXT};

/// Why bytes are not a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestError {
    /// A text or a list beyond its bound, or a name no run writes (a codec id `../../x`, a
    /// child's binary outside its folder): refused.
    Beyond(String),
    /// Not JSON, or not a thaw manifest (an older thaw's, another tool's).
    Other(String),
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ManifestError::Beyond(e) | ManifestError::Other(e) => f.write_str(e),
        }
    }
}

/// A manifest read from `bytes`: JSON whose every text is at most [`MAX_TEXT`] characters and
/// every list at most [`MAX_LIST`] entries (the error names the field), then a thaw manifest (the
/// error names what is missing or wrong).
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| ManifestError::Other(format!("not JSON: {e}")))?;
    fn check(v: &serde_json::Value, at: &str) -> Result<(), String> {
        match v {
            serde_json::Value::String(s) if s.chars().count() > MAX_TEXT => Err(format!(
                "{at} is {} characters; a manifest's text is at most {MAX_TEXT}",
                s.chars().count()
            )),
            serde_json::Value::Array(a) if a.len() > MAX_LIST => Err(format!(
                "{at} has {} entries; a manifest's list has at most {MAX_LIST}",
                a.len()
            )),
            serde_json::Value::Array(a) => a
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| check(x, &format!("{at}[{i}]"))),
            serde_json::Value::Object(o) => o.iter().try_for_each(|(k, x)| {
                let key = text::for_terminal(&text::clip(k, 64), false);
                check(
                    x,
                    &if at.is_empty() {
                        key
                    } else {
                        format!("{at}.{key}")
                    },
                )
            }),
            _ => Ok(()),
        }
    }
    check(&value, "").map_err(ManifestError::Beyond)?;
    let manifest: Manifest = serde_json::from_value(value)
        .map_err(|e| ManifestError::Other(format!("not a thaw manifest: {e}")))?;
    check_names(&manifest).map_err(|e| ManifestError::Beyond(format!("{e:#}")))?;
    Ok(manifest)
}

/// Every codec id and fixture name is a name ([`check_name`]), and every
/// child's binary a path of such names below its children's folder (`jvm/gson`): a manifest
/// that says otherwise was not written by a run, and a name like `../../x` would otherwise
/// reach a report or be joined to a folder.
fn check_names(manifest: &Manifest) -> anyhow::Result<()> {
    for (i, c) in manifest.codecs.iter().enumerate() {
        check_name(&format!("codecs[{i}].id"), &c.id)?;
    }
    for (i, id) in manifest.settings.codecs.iter().enumerate() {
        check_name(&format!("settings.codecs[{i}]"), id)?;
    }
    for (i, f) in manifest.settings.fixtures.iter().enumerate() {
        check_name(&format!("settings.fixtures[{i}]"), f)?;
    }
    for (i, c) in manifest.children.iter().enumerate() {
        check_name(&format!("children[{i}].codec"), &c.codec)?;
        check_name(&format!("children[{i}].fixture"), &c.fixture)?;
        // the value as given is echoed (clipped and escaped), not the part that failed
        for part in c.binary.split('/') {
            if check_name("", part).is_err() {
                let which = if part.is_empty() {
                    "an empty part (a `/` first, last or doubled)".to_string()
                } else {
                    format!("`{}`", text::echo(part))
                };
                anyhow::bail!(
                    "children[{i}].binary `{}`: a child's binary is a path of names below its \
                     children's folder (each 1 to {} characters of letters, digits, `.`, `_`, \
                     `+` and `-`, starting with a letter or a digit), and {which} is not one",
                    text::echo(&c.binary),
                    MAX_NAME,
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_text_or_list_beyond_its_bound_is_refused_naming_the_field() {
        let long = "x".repeat(MAX_TEXT + 1);
        let json = format!(r#"{{"codecs": [{{"id": "a", "library": "{long}"}}]}}"#);
        let e = parse_manifest(json.as_bytes()).unwrap_err();
        assert!(matches!(e, ManifestError::Beyond(_)));
        assert!(
            e.to_string()
                .starts_with("codecs[0].library is 16385 characters"),
            "{e}"
        );
        let mut m: serde_json::Value = serde_json::from_str(testkit::examples::MANIFEST).unwrap();
        assert!(parse_manifest(m.to_string().as_bytes()).is_ok());
        m["codecs"][0]["id"] = "../../x".into();
        let e = parse_manifest(m.to_string().as_bytes()).unwrap_err();
        assert!(matches!(e, ManifestError::Beyond(_)));
        assert!(e.to_string().contains("codecs[0].id `../../x`"), "{e}");
        let mut m: serde_json::Value = serde_json::from_str(testkit::examples::MANIFEST).unwrap();
        m["children"][0]["binary"] = "../../x".into();
        let e = parse_manifest(m.to_string().as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("children[0].binary `../../x`") && e.contains("`..` is not one"),
            "{e}"
        );
        m["children"][0]["binary"] = "/bin/true".into();
        let e = parse_manifest(m.to_string().as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("children[0].binary `/bin/true`") && e.contains("an empty part"),
            "{e}"
        );
        let e = parse_manifest(b"{").unwrap_err().to_string();
        assert!(e.starts_with("not JSON"), "{e}");
        let e = parse_manifest(br#"{"thaw_version": "x"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("not a thaw manifest") && e.contains("missing field"),
            "{e}"
        );
    }
}
