//! The cold child, generic over a codec: every `src/bin/child-<codec>.rs` is one call to
//! [`main`]. It follows the child protocol (docs/child-protocol.md): read the arguments, stamp
//! `main`, make the input (`fixture`), make the library state (`init`), do the batch (`first`,
//! `done`), compute the checksum (`checked`), print the one line.
//!
//! It must stay tiny and link only its own library: no clap, no runner code. On any error it
//! prints the message on stderr and exits with [`FAILURE_EXIT`].

use crate::clock::monotonic_ns;
use crate::protocol::{Args, Line, FAILURE_EXIT};
use fixtures::catalog::{self, Fixture};
use fixtures::codecs::{output_checksum, Codec, Op, Style};
use schema::Drops;
use std::hint::black_box;
use std::io::Write;

/// The whole child for codec `C`. Call it as the only line of a binary's `main`.
pub fn main<C: Codec>() {
    let main_ns = monotonic_ns();
    let outcome =
        Args::parse(std::env::args_os().skip(1)).and_then(|args| run::<C>(main_ns, &args));
    match outcome {
        Ok(line) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout
                .write_all(line.text().as_bytes())
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
pub fn run<C: Codec>(main_ns: u64, args: &Args) -> Result<Line, String> {
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

fn de<C: Codec>(main_ns: u64, args: &Args, fixture: &Fixture) -> Result<Line, String> {
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
    Ok(Line {
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

fn ser<C: Codec>(main_ns: u64, args: &Args, fixture: &Fixture) -> Result<Line, String> {
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
    Ok(Line {
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
    use std::ffi::OsString;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn in_process<C: Codec>(op: Op, batch: usize) -> (Line, u64) {
        in_process_dropping::<C>(op, batch, Drops::AfterOps)
    }

    fn in_process_dropping<C: Codec>(op: Op, batch: usize, drops: Drops) -> (Line, u64) {
        let fixture = catalog::find("small").unwrap();
        let seed = fixtures::DEFAULT_SEED;
        let document = fixture.document(seed, None).unwrap();
        // One file per call: the tests run in parallel in one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "thaw-cold-child-{}-{}-{op}-{call}.json",
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
        let a = os(&[
            "--op",
            "de",
            "--batch",
            "2",
            "--fixture-file",
            "f",
            "--fixture",
            "small",
        ]);
        assert_eq!(Args::parse(a).unwrap().drops, Drops::AfterOps);
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
