//! The check by meaning of an external child's output (its preflight): what it wrote to its
//! check file (`de`: the decoded value written back by the same library; `ser`: its output) must
//! read, as JSON, to the fixture's value: object members in any order, numbers equal (doubles
//! within the correctness gate's 3 ULP). The error names the first path that differs.

use codecs::verify::diff::first_difference;

/// `Ok` when `written` means the same as `document`; the error says where it does not.
pub(crate) fn same_meaning(document: &[u8], written: &[u8]) -> Result<(), String> {
    let expected: serde_json::Value = serde_json::from_slice(document)
        .map_err(|e| format!("the fixture does not read as JSON: {e}"))?;
    let actual: serde_json::Value = serde_json::from_slice(written).map_err(|e| {
        format!(
            "what the child wrote ({} bytes) is not JSON: {e}",
            written.len()
        )
    })?;
    match first_difference(&expected, &actual) {
        None => Ok(()),
        Some(d) => Err(d.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_spacing_do_not_matter_values_do() {
        let doc = br#"{"users":[{"id":"a","isActive":true,"latitude":45.5,"age":3}]}"#;
        let python = br#"{"users": [{"age": 3, "latitude": 45.5, "isActive": true, "id": "a"}]}"#;
        assert_eq!(same_meaning(doc, python), Ok(()));
        let wrong = br#"{"users":[{"id":"a","isActive":false,"latitude":45.5,"age":3}]}"#;
        let e = same_meaning(doc, wrong).unwrap_err();
        assert!(
            e.contains("users[0].isActive") && e.contains("expected true"),
            "{e}"
        );
        assert!(same_meaning(doc, b"{oops")
            .unwrap_err()
            .contains("not JSON"));
    }
}
