//! The cold child protocol, both sides of it (docs/child-protocol.md): the arguments the runner
//! gives a child, and the one line the child prints. The Rust children write with
//! [`Args::parse`] and [`Line::text`]; the runner writes with [`Args::to_argv`] and reads with
//! [`Line::parse`], so the two cannot drift apart.
//!
//! The line is read strictly: one JSON object of exactly the protocol's keys, each once, whole
//! numbers without sign or fraction that fit in 64 bits, a checksum of 16 lowercase hex digits,
//! and one `\n` at the end. Anything else is refused with a message saying what was wrong.

use fixtures::codecs::Op;
use schema::Drops;
use std::ffi::OsString;
use std::path::PathBuf;

/// The exit code of a child that could not do its job (it says why on stderr).
pub const FAILURE_EXIT: i32 = 2;

/// What the runner asks of a child.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub op: Op,
    /// Operations in this process, at least 1.
    pub batch: usize,
    /// The input file: the document, or a prepared model or tree (see `fixtures::inputs`).
    pub input: PathBuf,
    pub drops: Drops,
    /// Where to write what the operations produced, for the preflight's check by meaning
    /// (children whose checksum the runner cannot compute itself).
    pub check_file: Option<PathBuf>,
}

/// How a child is called, for its error messages.
pub const USAGE: &str = "--op ser|de --batch N --input PATH [--drops end|each] [--check-file PATH]";

/// The largest batch a child accepts.
pub const MAX_BATCH: usize = 1_000_000;

impl Args {
    /// The arguments after the program, in any order; `--drops` defaults to `end`.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
        let mut op = None;
        let mut batch = None;
        let mut input = None;
        let mut drops = Drops::default();
        let mut check_file = None;
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let flag = flag.to_string_lossy().into_owned();
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            let text = value.to_string_lossy().into_owned();
            match flag.as_str() {
                "--op" => op = Some(Op::parse(&text)?),
                "--batch" => {
                    let n: usize = text
                        .parse()
                        .map_err(|_| format!("--batch `{text}` is not a whole number"))?;
                    if !(1..=MAX_BATCH).contains(&n) {
                        return Err(format!("--batch {n}: give 1 to {MAX_BATCH}"));
                    }
                    batch = Some(n);
                }
                "--input" => input = Some(PathBuf::from(&value)),
                "--drops" => drops = Drops::parse(&text)?,
                "--check-file" => check_file = Some(PathBuf::from(&value)),
                other => return Err(format!("unknown argument `{other}`; usage: {USAGE}")),
            }
        }
        Ok(Args {
            op: op.ok_or("missing --op")?,
            batch: batch.ok_or("missing --batch")?,
            input: input.ok_or("missing --input")?,
            drops,
            check_file,
        })
    }

    /// The arguments, as the runner passes them.
    pub fn to_argv(&self) -> Vec<OsString> {
        let mut argv: Vec<OsString> = vec![
            "--op".into(),
            self.op.name().into(),
            "--batch".into(),
            self.batch.to_string().into(),
            "--input".into(),
            self.input.clone().into(),
            "--drops".into(),
            self.drops.name().into(),
        ];
        if let Some(path) = &self.check_file {
            argv.extend(["--check-file".into(), path.clone().into()]);
        }
        argv
    }
}

/// The one line a child prints: its CLOCK_MONOTONIC stamps (ns), the checksum of what its
/// operations produced, the byte count (input length for `de`, output length for `ser`), and
/// its own memory as the kernel counts it (`VmHWM` and `VmRSS` of /proc/self/status, KiB, read
/// after `checked`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// First thing in `main`.
    pub main: u64,
    /// The input is ready.
    pub fixture: u64,
    /// The library's state is ready.
    pub init: u64,
    /// The first operation is done.
    pub first: u64,
    /// Every operation is done.
    pub done: u64,
    /// The checksum is computed.
    pub checked: u64,
    pub checksum: u64,
    pub bytes: u64,
    /// The peak resident set size of this process (`VmHWM`), KiB.
    pub hwm_kib: u64,
    /// The resident set size at the end (`VmRSS`), KiB.
    pub rss_kib: u64,
}

impl Line {
    /// The line of a program that makes one call and checks nothing (the reference programs
    /// `minimal-*`): no library state (`init` = `fixture`), no check (`done` = `checked` =
    /// `first`), checksum 0, memory not read.
    pub fn one_call(main: u64, fixture: u64, first: u64, bytes: u64) -> Line {
        Line {
            main,
            fixture,
            init: fixture,
            first,
            done: first,
            checked: first,
            checksum: 0,
            bytes,
            hwm_kib: 0,
            rss_kib: 0,
        }
    }
}

/// The keys of the line, in the order children print them.
const KEYS: [&str; 10] = [
    "main", "fixture", "init", "first", "done", "checked", "checksum", "bytes", "hwm_kib",
    "rss_kib",
];

impl Line {
    /// The line as a child prints it, `\n` included.
    pub fn text(&self) -> String {
        format!(
            "{{\"main\":{},\"fixture\":{},\"init\":{},\"first\":{},\"done\":{},\"checked\":{},\
             \"checksum\":\"{:016x}\",\"bytes\":{},\"hwm_kib\":{},\"rss_kib\":{}}}\n",
            self.main,
            self.fixture,
            self.init,
            self.first,
            self.done,
            self.checked,
            self.checksum,
            self.bytes,
            self.hwm_kib,
            self.rss_kib
        )
    }

    /// Reads a child's whole stdout: exactly one line, ended by `\n`.
    pub fn parse(stdout: &[u8]) -> Result<Line, String> {
        let text = std::str::from_utf8(stdout).map_err(|_| "stdout is not UTF-8".to_string())?;
        if text.is_empty() {
            return Err("no line on stdout".to_string());
        }
        let Some(body) = text.strip_suffix('\n') else {
            return Err(format!(
                "the line does not end with a newline: {}",
                clip(text)
            ));
        };
        if body.contains('\n') {
            return Err(format!(
                "more than one line on stdout; first: {}",
                clip(body.lines().next().unwrap_or(""))
            ));
        }
        if body.contains('\r') {
            return Err(format!("the line holds a carriage return: {}", clip(body)));
        }
        let fields = object_fields(body).map_err(|e| format!("{e}: {}", clip(body)))?;
        let mut values: [Option<u64>; KEYS.len()] = [None; KEYS.len()];
        for (key, value) in fields {
            let slot = KEYS.iter().position(|k| *k == key).ok_or_else(|| {
                format!(
                    "unknown key `{key}`; the line has exactly: {}",
                    KEYS.join(", ")
                )
            })?;
            if values[slot].is_some() {
                return Err(format!("key `{key}` appears twice"));
            }
            values[slot] = Some(if key == "checksum" {
                checksum(value)?
            } else {
                whole_number(key, value)?
            });
        }
        let get = |i: usize| values[i].ok_or_else(|| format!("missing key `{}`", KEYS[i]));
        Ok(Line {
            main: get(0)?,
            fixture: get(1)?,
            init: get(2)?,
            first: get(3)?,
            done: get(4)?,
            checked: get(5)?,
            checksum: get(6)?,
            bytes: get(7)?,
            hwm_kib: get(8)?,
            rss_kib: get(9)?,
        })
    }
}

/// A value as it appeared on the line: a JSON string's content, or a bare token.
enum Value<'a> {
    Text(&'a str),
    Token(&'a str),
}

/// The `"key": value` pairs of a flat JSON object whose values are strings without escapes or
/// bare tokens (numbers); JSON's insignificant spaces are allowed.
fn object_fields(body: &str) -> Result<Vec<(&str, Value<'_>)>, String> {
    let mut rest = body.trim_matches([' ', '\t']);
    rest = rest
        .strip_prefix('{')
        .ok_or("not a JSON object")?
        .strip_suffix('}')
        .ok_or("the object is not closed, or text follows it")?;
    let mut fields = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() && fields.is_empty() {
            return Ok(fields);
        }
        let (key, after) = quoted(rest).ok_or("expected a quoted key")?;
        rest = after.trim_start_matches([' ', '\t']);
        rest = rest.strip_prefix(':').ok_or("expected `:` after a key")?;
        rest = rest.trim_start_matches([' ', '\t']);
        let value = if rest.starts_with('"') {
            let (text, after) = quoted(rest).ok_or("a string is not closed")?;
            rest = after;
            Value::Text(text)
        } else {
            let end = rest.find([',', ' ', '\t']).unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            Value::Token(token)
        };
        fields.push((key, value));
        rest = rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() {
            return Ok(fields);
        }
        rest = rest
            .strip_prefix(',')
            .ok_or("expected `,` between fields")?;
    }
}

/// The content of the string `text` starts with, and what follows it; no escapes allowed.
fn quoted(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('"')?;
    let end = inner.find('"')?;
    let content = &inner[..end];
    (!content.contains('\\')).then(|| (content, &inner[end + 1..]))
}

fn whole_number(key: &str, value: Value<'_>) -> Result<u64, String> {
    let Value::Token(token) = value else {
        return Err(format!("`{key}` must be a whole number, not a string"));
    };
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{key}` must be a whole number of digits only, not `{}`",
            clip(token)
        ));
    }
    if token.len() > 1 && token.starts_with('0') {
        return Err(format!("`{key}` has a leading zero: `{token}`"));
    }
    token
        .parse()
        .map_err(|_| format!("`{key}` = {} does not fit in 64 bits", clip(token)))
}

fn checksum(value: Value<'_>) -> Result<u64, String> {
    let Value::Text(hex) = value else {
        return Err("`checksum` must be a string of 16 hex digits".to_string());
    };
    if hex.len() != 16
        || !hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!(
            "`checksum` must be 16 lowercase hex digits, not `{}`",
            clip(hex)
        ));
    }
    u64::from_str_radix(hex, 16).map_err(|e| format!("`checksum` `{hex}`: {e}"))
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

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn line() -> Line {
        Line {
            main: 10,
            fixture: 20,
            init: 30,
            first: 40,
            done: 50,
            checked: 55,
            checksum: 0xff,
            bytes: 2100,
            hwm_kib: 2048,
            rss_kib: 1900,
        }
    }

    const GOOD: &str = "{\"main\":10,\"fixture\":20,\"init\":30,\"first\":40,\"done\":50,\"checked\":55,\"checksum\":\"00000000000000ff\",\"bytes\":2100,\"hwm_kib\":2048,\"rss_kib\":1900}\n";

    #[test]
    fn arguments_round_trip_in_any_order() {
        let args = Args {
            op: Op::De,
            batch: 10,
            input: "/tmp/x.json".into(),
            drops: Drops::EachCall,
            check_file: Some("/tmp/out".into()),
        };
        assert_eq!(Args::parse(args.to_argv()).unwrap(), args);
        let shuffled = os(&[
            "--drops",
            "each",
            "--batch",
            "10",
            "--check-file",
            "/tmp/out",
            "--op",
            "de",
            "--input",
            "/tmp/x.json",
        ]);
        assert_eq!(Args::parse(shuffled).unwrap(), args);
        let plain = os(&["--op", "ser", "--batch", "1", "--input", "f"]);
        let parsed = Args::parse(plain).unwrap();
        assert_eq!((parsed.drops, parsed.check_file), (Drops::AfterOps, None));
    }

    #[test]
    fn bad_arguments_say_why() {
        let base = ["--op", "de", "--input", "f"];
        let with = |extra: &[&str]| {
            let mut a = os(&base);
            a.extend(os(extra));
            Args::parse(a).unwrap_err()
        };
        assert!(with(&["--batch", "0"]).contains("1 to 1000000"));
        assert!(with(&["--batch", "1000001"]).contains("1 to 1000000"));
        assert!(with(&["--batch", "-1"]).contains("whole number"));
        assert!(Args::parse(os(&base)).unwrap_err().contains("--batch"));
        assert!(Args::parse(os(&["--op", "zip"]))
            .unwrap_err()
            .contains("zip"));
        assert!(with(&["--what", "1"]).contains("--what"));
        assert!(Args::parse(os(&["--op"]))
            .unwrap_err()
            .contains("needs a value"));
        assert!(with(&["--batch", "1", "--drops", "sometimes"]).contains("end, each"));
    }

    #[test]
    fn the_line_reads_back_what_a_child_writes() {
        assert_eq!(line().text(), GOOD);
        assert_eq!(Line::parse(GOOD.as_bytes()).unwrap(), line());
        // Spaces between tokens are JSON too (other runtimes' writers put them in).
        let spaced = GOOD.replace(',', ", ").replace(':', ": ");
        assert_eq!(Line::parse(spaced.as_bytes()).unwrap(), line());
        // Keys in another order.
        let moved = "{\"rss_kib\":1900,\"hwm_kib\":2048,\"bytes\":2100,\"checksum\":\"00000000000000ff\",\"checked\":55,\"done\":50,\"first\":40,\"init\":30,\"fixture\":20,\"main\":10}\n";
        assert_eq!(Line::parse(moved.as_bytes()).unwrap(), line());
    }

    #[test]
    fn anything_else_is_refused_with_what_was_wrong() {
        let cases: &[(String, &str)] = &[
            (String::new(), "no line"),
            ("hello\n".into(), "not a JSON object"),
            (GOOD.trim_end().to_string(), "newline"),
            (GOOD.replace('\n', "\r\n"), "carriage return"),
            (format!("{GOOD}{GOOD}"), "more than one line"),
            (
                GOOD.replace("}\n", "} trailing\n"),
                "not closed, or text follows",
            ),
            (
                GOOD.replace("\"bytes\"", "\"extra\":1,\"bytes\""),
                "unknown key `extra`",
            ),
            (
                GOOD.replace("\"main\":10", "\"main\":10,\"main\":11"),
                "twice",
            ),
            (GOOD.replace("\"main\":10,", ""), "missing key `main`"),
            (GOOD.replace("00000000000000ff", "+ff"), "16 lowercase hex"),
            (
                GOOD.replace("00000000000000ff", "000000000000000ff"),
                "16 lowercase hex",
            ),
            (
                GOOD.replace("00000000000000ff", "00000000000000FF"),
                "16 lowercase hex",
            ),
            (
                GOOD.replace("\"00000000000000ff\"", "255"),
                "string of 16 hex",
            ),
            (GOOD.replace("\"main\":10", "\"main\":-10"), "digits only"),
            (GOOD.replace("\"main\":10", "\"main\":1.5"), "digits only"),
            (GOOD.replace("\"main\":10", "\"main\":1e3"), "digits only"),
            (GOOD.replace("\"main\":10", "\"main\":010"), "leading zero"),
            (
                GOOD.replace("\"main\":10", "\"main\":18446744073709551616"),
                "64 bits",
            ),
            (
                GOOD.replace("\"main\":10", "\"main\":\"10\""),
                "not a string",
            ),
            (GOOD.replace("\"main\"", "\"ma\\\"in\""), "quoted key"),
        ];
        for (text, want) in cases {
            let e = Line::parse(text.as_bytes()).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        assert!(Line::parse(&[0xff, 0xfe]).unwrap_err().contains("UTF-8"));
        let max = GOOD.replace("\"main\":10", "\"main\":18446744073709551615");
        assert_eq!(Line::parse(max.as_bytes()).unwrap().main, u64::MAX);
    }

    #[test]
    fn clip_cuts_long_text_on_a_char_boundary() {
        let long = "가".repeat(300);
        assert_eq!(clip(&long).chars().count(), 201);
    }
}
