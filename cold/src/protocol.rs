//! The runner's reading of a child's stdout: exactly one JSON line with the protocol's stamps,
//! checksum and byte count (see DESIGN.md, "The cold child protocol"). Anything else is
//! `bad-output`, and the error says what was wrong.

use serde::Deserialize;

/// What a child printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildLine {
    pub main: u64,
    pub fixture: u64,
    pub init: u64,
    pub first: u64,
    pub done: u64,
    /// When the child had its checksum; children that do not print it (other languages may
    /// not) are read as checking in no time (`checked` = `done`).
    pub checked: u64,
    /// As printed (hex).
    pub checksum_text: String,
    pub checksum: u64,
    pub bytes: u64,
}

#[derive(Deserialize)]
struct Raw {
    main: u64,
    fixture: u64,
    init: u64,
    first: u64,
    done: u64,
    checked: Option<u64>,
    checksum: String,
    bytes: u64,
}

/// Parses a child's whole stdout.
pub fn parse_stdout(stdout: &[u8]) -> Result<ChildLine, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "stdout is not UTF-8".to_string())?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let line = lines.next().ok_or("no line on stdout")?;
    if lines.next().is_some() {
        return Err(format!(
            "more than one line on stdout; first: {}",
            clip(line)
        ));
    }
    let raw: Raw = serde_json::from_str(line)
        .map_err(|e| format!("not the protocol's JSON line ({e}): {}", clip(line)))?;
    let digits = raw.checksum.trim_start_matches("0x");
    let checksum = u64::from_str_radix(digits, 16)
        .map_err(|_| format!("checksum `{}` is not hex", raw.checksum))?;
    Ok(ChildLine {
        main: raw.main,
        fixture: raw.fixture,
        init: raw.init,
        first: raw.first,
        done: raw.done,
        checked: raw.checked.unwrap_or(raw.done),
        checksum_text: raw.checksum,
        checksum,
        bytes: raw.bytes,
    })
}

/// At most 200 characters of `text`, for an error message.
pub fn clip(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_child_line() {
        let out = b"{\"main\":10,\"fixture\":20,\"init\":30,\"first\":40,\"done\":50,\"checked\":55,\"checksum\":\"00000000000000ff\",\"bytes\":2100}\n";
        let line = parse_stdout(out).unwrap();
        assert_eq!(line.main, 10);
        assert_eq!(line.checked, 55);
        assert_eq!(line.checksum, 255);
        assert_eq!(line.checksum_text, "00000000000000ff");
        assert_eq!(line.bytes, 2100);
    }

    #[test]
    fn checked_defaults_to_done() {
        let out = br#"{"main":1,"fixture":2,"init":3,"first":4,"done":5,"checksum":"a","bytes":0}"#;
        assert_eq!(parse_stdout(out).unwrap().checked, 5);
    }

    #[test]
    fn rejects_what_is_not_the_line() {
        assert!(parse_stdout(b"").unwrap_err().contains("no line"));
        assert!(parse_stdout(b"hello\n").unwrap_err().contains("hello"));
        assert!(parse_stdout(b"{}\n{}\n")
            .unwrap_err()
            .contains("more than one"));
        let bad_sum =
            br#"{"main":1,"fixture":2,"init":3,"first":4,"done":5,"checksum":"xyz","bytes":0}"#;
        assert!(parse_stdout(bad_sum).unwrap_err().contains("not hex"));
        let missing = br#"{"main":1,"fixture":2,"init":3,"first":4,"checksum":"1","bytes":0}"#;
        assert!(parse_stdout(missing).unwrap_err().contains("done"));
        assert!(parse_stdout(&[0xff, 0xfe]).unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn clip_cuts_long_text_on_a_char_boundary() {
        let long = "가".repeat(300);
        let c = clip(&long);
        assert_eq!(c.chars().count(), 201);
    }
}
