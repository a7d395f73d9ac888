//! The cold child, generic over a codec: every `src/bin/child-<codec>.rs` is one call to
//! [`main`]. It follows the protocol of DESIGN.md: read argv by hand, stamp `main`, make the
//! input (`fixture`), make the library state (`init`), do the batch (`first`, `done`), compute
//! the checksum (`checked`), print one JSON line written by hand.
//!
//! It must stay tiny and link only its own library: no clap, no serde_json, no runner code. On
//! any error it prints the message on stderr and exits with code 2.

use crate::clock::monotonic_ns;
use fixtures::catalog::{self, Fixture};
use fixtures::codecs::{output_checksum, Codec, Op, Style};
use std::ffi::OsString;
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;

/// The exit code of a child that could not do its job.
pub const FAILURE_EXIT: i32 = 2;

/// When a `de` child drops the values its calls produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Drops {
    /// Every value is kept until all calls are done, so no drop falls inside the timed ops
    /// (DESIGN.md's rule, the default). The heap grows with the batch.
    #[default]
    AfterOps,
    /// Each value is dropped right after its call, inside the timed ops, as a program that parses
    /// and discards would; the heap is recycled from call to call, as in a warm loop.
    EachCall,
}

impl Drops {
    /// The value of the child's `--drops` argument.
    pub fn name(self) -> &'static str {
        match self {
            Drops::AfterOps => "end",
            Drops::EachCall => "each",
        }
    }

    pub fn parse(text: &str) -> Result<Drops, String> {
        match text {
            "end" => Ok(Drops::AfterOps),
            "each" => Ok(Drops::EachCall),
            other => Err(format!("--drops `{other}`: valid values are end, each")),
        }
    }
}

/// What the runner asked for on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub op: Op,
    pub batch: usize,
    pub fixture_file: PathBuf,
    pub fixture: String,
    pub seed: u64,
    pub drops: Drops,
}

/// `--op OP --batch N --fixture-file PATH --fixture NAME [--seed S] [--drops end|each]`, in any
/// order.
pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut op = None;
    let mut batch = None;
    let mut fixture_file = None;
    let mut fixture = None;
    let mut seed = fixtures::DEFAULT_SEED;
    let mut drops = Drops::default();
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let flag = flag.to_string_lossy().into_owned();
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let text = || value.to_string_lossy().into_owned();
        match flag.as_str() {
            "--op" => op = Some(Op::parse(&text())?),
            "--batch" => {
                let n: usize = text()
                    .parse()
                    .map_err(|_| format!("--batch `{}` is not a number", text()))?;
                if n == 0 {
                    return Err("--batch must be at least 1".to_string());
                }
                batch = Some(n);
            }
            "--fixture-file" => fixture_file = Some(PathBuf::from(&value)),
            "--fixture" => fixture = Some(text()),
            "--drops" => drops = Drops::parse(&text())?,
            "--seed" => {
                seed = text()
                    .parse()
                    .map_err(|_| format!("--seed `{}` is not a number", text()))?
            }
            other => {
                return Err(format!(
                    "unknown argument `{other}`; usage: --op ser|de --batch N \
                     --fixture-file PATH --fixture NAME [--seed S] [--drops end|each]"
                ))
            }
        }
    }
    Ok(Args {
        op: op.ok_or("missing --op")?,
        batch: batch.ok_or("missing --batch")?,
        fixture_file: fixture_file.ok_or("missing --fixture-file")?,
        fixture: fixture.ok_or("missing --fixture")?,
        seed,
        drops,
    })
}

/// The stamps and results a child prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub main: u64,
    pub fixture: u64,
    pub init: u64,
    pub first: u64,
    pub done: u64,
    pub checked: u64,
    pub checksum: u64,
    pub bytes: u64,
}

impl Report {
    /// The protocol's one JSON line, newline included.
    pub fn line(&self) -> String {
        format!(
            "{{\"main\":{},\"fixture\":{},\"init\":{},\"first\":{},\"done\":{},\"checked\":{},\
             \"checksum\":\"{:016x}\",\"bytes\":{}}}\n",
            self.main,
            self.fixture,
            self.init,
            self.first,
            self.done,
            self.checked,
            self.checksum,
            self.bytes
        )
    }
}

/// The whole child for codec `C`. Call it as the only line of a binary's `main`.
pub fn main<C: Codec>() {
    let main_ns = monotonic_ns();
    let outcome = parse_args(std::env::args_os().skip(1)).and_then(|args| run::<C>(main_ns, &args));
    match outcome {
        Ok(report) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout
                .write_all(report.line().as_bytes())
                .and_then(|()| stdout.flush())
            {
                fail::<C>(&format!("cannot write to stdout: {e}"));
            }
        }
        Err(message) => fail::<C>(&message),
    }
}

fn fail<C: Codec>(message: &str) -> ! {
    eprintln!("child-{}: {message}", C::ID);
    std::process::exit(FAILURE_EXIT)
}

/// Everything after `main`: the phases of one sample.
pub fn run<C: Codec>(main_ns: u64, args: &Args) -> Result<Report, String> {
    let fixture = catalog::find(&args.fixture).map_err(|e| e.to_string())?;
    match args.op {
        Op::De => de::<C>(main_ns, args, fixture),
        Op::Ser => ser::<C>(main_ns, args, fixture),
    }
}

fn read_document(args: &Args) -> Result<Vec<u8>, String> {
    std::fs::read(&args.fixture_file)
        .map_err(|e| format!("cannot read {}: {e}", args.fixture_file.display()))
}

fn de<C: Codec>(main_ns: u64, args: &Args, fixture: &Fixture) -> Result<Report, String> {
    let model = fixture.model_kind();
    let mut document = read_document(args)?;
    let bytes = document.len() as u64;
    // A codec that parses in place gets a fresh copy per call, made here, outside the ops.
    let mut copies: Vec<Vec<u8>> = if C::MUTATES_INPUT {
        vec![std::mem::take(&mut document); args.batch]
    } else {
        Vec::new()
    };
    // Every result is kept until the end, so no drop falls inside the timed ops, unless the
    // runner asked for each to be dropped after its call (`--drops each`); the last is kept for
    // the checksum either way.
    let keep_all = args.drops == Drops::AfterOps;
    let mut values: Vec<C::Value> = Vec::with_capacity(if keep_all { args.batch } else { 1 });
    let fixture_ns = monotonic_ns();

    let mut codec = C::new();
    let init_ns = monotonic_ns();

    let mut first_ns = 0;
    for i in 0..args.batch {
        // `copies` is empty unless the codec parses in place.
        let input: &mut [u8] = match copies.get_mut(i) {
            Some(copy) => copy,
            None => &mut document,
        };
        let value = codec
            .de(model, black_box(input))
            .map_err(|e| format!("de failed on call {}: {e}", i + 1))?;
        if keep_all || i + 1 == args.batch {
            values.push(black_box(value));
        } else {
            drop(black_box(value));
        }
        if i == 0 {
            first_ns = monotonic_ns();
        }
    }
    let done_ns = monotonic_ns();

    let last = values.last().ok_or("a batch has at least one call")?;
    let checksum = codec.digest(last);
    let checked_ns = monotonic_ns();
    Ok(Report {
        main: main_ns,
        fixture: fixture_ns,
        init: init_ns,
        first: first_ns,
        done: done_ns,
        checked: checked_ns,
        checksum,
        bytes,
    })
}

fn ser<C: Codec>(main_ns: u64, args: &Args, fixture: &Fixture) -> Result<Report, String> {
    // A typed codec's value comes from the seeded generator: the document is not even read.
    let document = if C::STYLE == Style::Typed {
        Vec::new()
    } else {
        read_document(args)?
    };
    let value = C::ser_input(fixture, args.seed, &document)
        .map_err(|e| format!("cannot build the value to write: {e}"))?;
    let mut out: Vec<u8> = Vec::new();
    let fixture_ns = monotonic_ns();

    let mut codec = C::new();
    let init_ns = monotonic_ns();

    let mut first_ns = 0;
    for i in 0..args.batch {
        out.clear();
        codec
            .ser(black_box(&value), &mut out)
            .map_err(|e| format!("ser failed on call {}: {e}", i + 1))?;
        black_box(&mut out);
        if i == 0 {
            first_ns = monotonic_ns();
        }
    }
    let done_ns = monotonic_ns();

    let checksum = output_checksum(&out);
    let checked_ns = monotonic_ns();
    Ok(Report {
        main: main_ns,
        fixture: fixture_ns,
        init: init_ns,
        first: first_ns,
        done: done_ns,
        checked: checked_ns,
        checksum,
        bytes: out.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::codecs::{registry, Noop, SerdeJsonTyped};

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_the_protocol_in_any_order() {
        let args = parse_args(os(&[
            "--fixture",
            "users-2kb",
            "--batch",
            "10",
            "--op",
            "de",
            "--fixture-file",
            "/tmp/x.json",
            "--seed",
            "7",
        ]))
        .unwrap();
        assert_eq!(args.op, Op::De);
        assert_eq!(args.batch, 10);
        assert_eq!(args.fixture, "users-2kb");
        assert_eq!(args.seed, 7);
    }

    #[test]
    fn rejects_bad_arguments_with_a_reason() {
        let base = ["--op", "de", "--fixture-file", "f", "--fixture", "small"];
        let mut a = os(&base);
        a.extend(os(&["--batch", "0"]));
        assert!(parse_args(a).unwrap_err().contains("at least 1"));
        assert!(parse_args(os(&base)).unwrap_err().contains("--batch"));
        assert!(parse_args(os(&["--op", "zip"]))
            .unwrap_err()
            .contains("zip"));
        assert!(parse_args(os(&["--what", "1"]))
            .unwrap_err()
            .contains("--what"));
        assert!(parse_args(os(&["--op"]))
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn line_is_one_json_object() {
        let r = Report {
            main: 1,
            fixture: 2,
            init: 3,
            first: 4,
            done: 5,
            checked: 6,
            checksum: 0xab,
            bytes: 9,
        };
        let line = r.line();
        assert!(line.ends_with('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["checksum"], "00000000000000ab");
        assert_eq!(v["checked"], 6);
    }

    fn in_process<C: Codec>(op: Op, batch: usize) -> (Report, u64) {
        in_process_dropping::<C>(op, batch, Drops::AfterOps)
    }

    fn in_process_dropping<C: Codec>(op: Op, batch: usize, drops: Drops) -> (Report, u64) {
        let fixture = catalog::find("small").unwrap();
        let seed = fixtures::DEFAULT_SEED;
        let document = fixture.document(seed, None).unwrap();
        let path = std::env::temp_dir().join(format!(
            "thaw-cold-child-{}-{}-{op}.json",
            std::process::id(),
            C::ID
        ));
        std::fs::write(&path, &document).unwrap();
        let args = Args {
            op,
            batch,
            fixture_file: path.clone(),
            fixture: "small".into(),
            seed,
            drops,
        };
        let report = run::<C>(monotonic_ns(), &args).unwrap();
        std::fs::remove_file(&path).unwrap();
        let codec = registry().into_iter().find(|c| c.id() == C::ID).unwrap();
        let expected = codec
            .expected_checksum(fixture, op, seed, &document)
            .unwrap();
        (report, expected)
    }

    #[test]
    fn dropping_each_value_keeps_the_checksum_and_the_protocol() {
        for batch in [1, 3] {
            let (r, expected) =
                in_process_dropping::<SerdeJsonTyped>(Op::De, batch, Drops::EachCall);
            assert_eq!(r.checksum, expected, "batch {batch}");
        }
        let mut a = os(&[
            "--op",
            "de",
            "--batch",
            "2",
            "--fixture-file",
            "f",
            "--fixture",
            "small",
        ]);
        assert_eq!(parse_args(a.clone()).unwrap().drops, Drops::AfterOps);
        a.extend(os(&["--drops", "each"]));
        assert_eq!(parse_args(a.clone()).unwrap().drops, Drops::EachCall);
        a.extend(os(&["--drops", "sometimes"]));
        assert!(parse_args(a).unwrap_err().contains("end, each"));
    }

    #[test]
    fn checksums_match_what_the_runner_expects() {
        for op in Op::ALL {
            for batch in [1, 3] {
                let (r, expected) = in_process::<SerdeJsonTyped>(op, batch);
                assert_eq!(r.checksum, expected, "serde_json {op} batch {batch}");
                let (r, expected) = in_process::<Noop>(op, batch);
                assert_eq!(r.checksum, expected, "noop {op} batch {batch}");
                let stamps = [r.main, r.fixture, r.init, r.first, r.done, r.checked];
                assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");
            }
        }
    }
}
