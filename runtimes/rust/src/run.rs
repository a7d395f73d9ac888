//! The cold child, generic over a codec and a target: every `src/bin/child-<codec>-<op>-<target>`
//! is one call to [`de`] or [`ser`], so a child links one codec's code for one op and one model
//! and nothing else. It follows the child protocol (docs/child-protocol.md): read the arguments,
//! stamp `main`, make the input (`fixture`), make the library state (`init`), do the batch
//! (`first`, `done`), compute the checksum (`checked`), read its own memory, print the one line.
//!
//! What it does before the clock is the same for every codec of an op: `de` reads the document
//! and makes one fresh copy per call; `ser` loads its prepared input (postcard: no JSON code, no
//! CPU-feature detection) and builds the value with the library's constructors. On any error it
//! prints the message on stderr and exits with [`FAILURE_EXIT`].

use crate::memory::peak_and_current_kib;
use codecs::inputs::Target;
use codecs::{ser_checksum, Codec, Op};
use schema::curve::CurveLine;
use schema::phases::Stamp;
use schema::protocol::{monotonic_ns, Faults};
use schema::protocol::{Args, Line, FAILURE_EXIT};
use schema::Drops;
use std::hint::black_box;
use std::io::Write;

/// The `de` child of codec `C` on documents of target `T`. The only line of a child's `main`.
pub fn de<C: Codec, T: Target>() {
    child::<C>(Op::De, run_de::<C, T>)
}

/// The `ser` child of codec `C` on inputs of target `T`. The only line of a child's `main`.
pub fn ser<C: Codec, T: Target>() {
    child::<C>(Op::Ser, run_ser::<C, T>)
}

/// What a child prints: its line, after its curve line in a curve run.
pub type Printed = (Line, Option<CurveLine>);

fn child<C: Codec>(op: Op, run: fn(u64, &Args) -> Result<Printed, String>) {
    let main_ns = monotonic_ns();
    let outcome = Args::parse(std::env::args_os().skip(1)).and_then(|args| {
        if args.op != op {
            return Err(format!("this child does {op}, not --op {}", args.op));
        }
        run(main_ns, &args)
    });
    match outcome {
        Ok((line, curve)) => {
            let mut text = curve.map(|c| c.text()).unwrap_or_default();
            text.push_str(&line.text());
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout
                .write_all(text.as_bytes())
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

fn read_input(args: &Args) -> Result<Vec<u8>, String> {
    std::fs::read(&args.input).map_err(|e| format!("cannot read {}: {e}", args.input.display()))
}

/// What a child has read of its clock and its page faults so far.
struct Clock {
    line: Line,
    /// At [`schema::phases::Stamp::FAULTS`]: read after `main`, before `fixture`, after `done` and before
    /// `checked`, so never inside the library's timed phases.
    faults: [Faults; 4],
}

impl Clock {
    /// `main`, the faults after it, and `model`: a Rust child's model is compiled in, with no
    /// class to load or static to initialise, so its model phase is one more read of the clock
    /// (docs/child-protocol.md).
    fn start(main: u64) -> Clock {
        let mut clock = Clock {
            line: Line {
                stamps: [0; Stamp::CHILD.len()],
                faults: None,
                checksum: 0,
                bytes: 0,
                hwm_kib: 0,
                rss_kib: 0,
            },
            faults: [Faults::default(); 4],
        };
        clock.line.set(Stamp::Main, main);
        clock.faults[0] = Faults::now();
        clock.line.set(Stamp::Model, monotonic_ns());
        clock
    }

    /// The faults, then `fixture`.
    fn fixture(&mut self) {
        self.faults[1] = Faults::now();
        self.line.set(Stamp::Fixture, monotonic_ns());
    }

    fn init(&mut self) {
        self.line.set(Stamp::Init, monotonic_ns());
    }

    fn first(&mut self) {
        self.first_at(monotonic_ns());
    }

    fn first_at(&mut self, t: u64) {
        self.line.set(Stamp::First, t);
    }

    /// `done`, then the faults.
    fn done(&mut self) {
        self.done_at(monotonic_ns());
    }

    /// `done` read as `t` (a curve's last read), then the faults.
    fn done_at(&mut self, t: u64) {
        self.line.set(Stamp::Done, t);
        self.faults[2] = Faults::now();
    }

    /// After the checksum: the faults, `checked`, then the process's own memory.
    fn finish(mut self, checksum: u64, bytes: u64) -> Line {
        self.faults[3] = Faults::now();
        self.line.set(Stamp::Checked, monotonic_ns());
        let (hwm_kib, rss_kib) = peak_and_current_kib();
        Line {
            faults: Some(self.faults),
            checksum,
            bytes,
            hwm_kib,
            rss_kib,
            ..self.line
        }
    }
}

/// A curve child's clock reads (`--window`): after every operation the schedule names
/// (`schema::curve::schedule`), found by one comparison per operation with the next read's
/// operation count, so that nothing but the reads themselves is added to the timed loop.
struct Reads {
    schedule: Vec<u64>,
    next: usize,
    ns: Vec<u64>,
}

impl Reads {
    fn new(batch: u64, window: u64) -> Reads {
        let schedule = schema::curve::schedule(batch, window);
        let ns = Vec::with_capacity(schedule.len());
        Reads {
            schedule,
            next: 0,
            ns,
        }
    }

    /// Reads the clock after operation `n` when the schedule reads it there; the read after
    /// the first operation is also `clock`'s `first` stamp.
    #[inline(always)]
    fn after(&mut self, n: u64, clock: &mut Clock) {
        if self.schedule.get(self.next) != Some(&n) {
            return;
        }
        let t = monotonic_ns();
        self.ns.push(t);
        self.next += 1;
        if n == 1 {
            clock.first_at(t);
        }
    }

    /// The curve line, with the price of a read taken now (after the check, outside every
    /// phase the figures count but the exit).
    fn line(self) -> CurveLine {
        let start = monotonic_ns();
        let mut last = start;
        for _ in 0..schema::curve::CLOCK_READS_TIMED {
            last = black_box(monotonic_ns());
        }
        CurveLine {
            ops: self.schedule,
            ns: self.ns,
            clock_1000_ns: last - start,
        }
    }
}

/// A curve run's `de`: N calls in one process (docs/child-protocol.md, "A curve"). It cannot
/// hold N copies of the document nor N values: before each call it refreshes one working copy
/// from the document (a copy of the same length, inside the timed loop, for every codec alike:
/// `noop` shows what it costs), and drops each value after its call but the last, which the
/// check hashes.
fn curve_de<C: Codec, T: Target>(
    main_ns: u64,
    args: &Args,
    window: u64,
) -> Result<Printed, String> {
    let mut clock = Clock::start(main_ns);
    let document = read_input(args)?;
    let bytes = document.len() as u64;
    let mut work = document.clone();
    let batch = args.batch as u64;
    let mut reads = Reads::new(batch, window);
    clock.fixture();

    let mut codec = C::new();
    clock.init();

    for n in 1..=batch {
        work.copy_from_slice(&document);
        let value = codec
            .de::<T>(black_box(&mut work))
            .map_err(|e| format!("de failed on call {n}: {e}"))?;
        if n < batch {
            drop(black_box(value));
            reads.after(n, &mut clock);
            continue;
        }
        // The last call: its value (which may borrow `work`) is hashed after the clock.
        reads.after(n, &mut clock);
        clock.done_at(reads.ns.last().copied().unwrap_or_else(monotonic_ns));
        let checksum = C::digest::<T>(&value);
        let line = clock.finish(checksum, bytes);
        return Ok((line, Some(reads.line())));
    }
    Err("a batch has at least one call".to_string())
}

/// A curve run's `ser`: N calls in one process, each clearing and reusing one output buffer as
/// a batch does.
fn curve_ser<C: Codec, T: Target>(
    main_ns: u64,
    args: &Args,
    window: u64,
) -> Result<Printed, String> {
    let mut clock = Clock::start(main_ns);
    let input = T::load_ser(read_input(args)?)?;
    let value = C::ser_value(input).map_err(|e| format!("cannot build the value to write: {e}"))?;
    let mut out: Vec<u8> = Vec::new();
    let batch = args.batch as u64;
    let mut reads = Reads::new(batch, window);
    clock.fixture();

    let mut codec = C::new();
    clock.init();

    for n in 1..=batch {
        out.clear();
        codec
            .ser::<T>(black_box(&value), &mut out)
            .map_err(|e| format!("ser failed on call {n}: {e}"))?;
        black_box(&mut out);
        reads.after(n, &mut clock);
    }
    clock.done_at(reads.ns.last().copied().unwrap_or_else(monotonic_ns));

    let checksum = ser_checksum::<C>(&out);
    let line = clock.finish(checksum, out.len() as u64);
    Ok((line, Some(reads.line())))
}

/// `de`: every call decodes its own fresh copy of the document, made before the clock, for every
/// codec alike. Every value is kept until all calls are done (so no drop falls inside the timed
/// ops), unless the runner asked for each to be dropped after its call (`--drops each`); the
/// last is kept for the checksum either way.
pub fn run_de<C: Codec, T: Target>(main_ns: u64, args: &Args) -> Result<Printed, String> {
    if let Some(window) = args.window {
        return curve_de::<C, T>(main_ns, args, window);
    }
    let mut clock = Clock::start(main_ns);
    let document = read_input(args)?;
    let bytes = document.len() as u64;
    let mut copies: Vec<Vec<u8>> = vec![document; args.batch];
    let keep_all = args.drops == Drops::End;
    let mut values: Vec<C::Value<'_>> = Vec::with_capacity(if keep_all { args.batch } else { 1 });
    clock.fixture();

    let mut codec = C::new();
    clock.init();

    for (i, copy) in copies.iter_mut().enumerate() {
        let value = codec
            .de::<T>(black_box(copy))
            .map_err(|e| format!("de failed on call {}: {e}", i + 1))?;
        if keep_all || i + 1 == args.batch {
            values.push(black_box(value));
        } else {
            drop(black_box(value));
        }
        if i == 0 {
            clock.first();
        }
    }
    clock.done();

    let last = values.last().ok_or("a batch has at least one call")?;
    let checksum = C::digest::<T>(last);
    Ok((clock.finish(checksum, bytes), None))
}

/// `ser`: the value is built from the prepared input before the clock; every call clears and
/// reuses one output buffer (a library that returns a new `String` hands it over, and it is
/// dropped at the next call: its natural API).
pub fn run_ser<C: Codec, T: Target>(main_ns: u64, args: &Args) -> Result<Printed, String> {
    if let Some(window) = args.window {
        return curve_ser::<C, T>(main_ns, args, window);
    }
    let mut clock = Clock::start(main_ns);
    let input = T::load_ser(read_input(args)?)?;
    let value = C::ser_value(input).map_err(|e| format!("cannot build the value to write: {e}"))?;
    let mut out: Vec<u8> = Vec::new();
    clock.fixture();

    let mut codec = C::new();
    clock.init();

    for i in 0..args.batch {
        out.clear();
        codec
            .ser::<T>(black_box(&value), &mut out)
            .map_err(|e| format!("ser failed on call {}: {e}", i + 1))?;
        black_box(&mut out);
        if i == 0 {
            clock.first();
        }
    }
    clock.done();

    let checksum = ser_checksum::<C>(&out);
    Ok((clock.finish(checksum, out.len() as u64), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use codecs::inputs::{prepare, AnyInput, Dom, InputKind};
    use codecs::models::Users;
    use codecs::{Noop, SerdeJsonDom, SerdeJsonTyped};
    use std::path::PathBuf;

    fn input_file(bytes: &[u8]) -> PathBuf {
        // One file per call: the tests run in parallel in one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("thaw-child-{}-{call}.input", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn args(op: Op, batch: usize, input: &[u8], drops: Drops) -> Args {
        Args {
            op,
            batch,
            input: input_file(input),
            drops,
            check_file: None,
            window: None,
        }
    }

    /// The checksum the runner computes in-process for this input.
    fn expected<C: Codec>(op: Op, input: &[u8]) -> u64 {
        codecs::run_once::<C>(op, Some(codecs::models::ModelKind::Users), input)
            .unwrap()
            .checksum
    }

    fn users() -> (codecs::models::Model, Vec<u8>) {
        let fixture = fixtures::find("users-1kb").unwrap();
        let document = fixture.document(fixtures::DEFAULT_SEED, None).unwrap();
        (fixture.model(fixtures::DEFAULT_SEED).unwrap(), document)
    }

    /// users-1kb's document, and its model as a typed `ser` child's prepared input.
    fn users_inputs() -> (Vec<u8>, Vec<u8>) {
        let (users_model, document) = users();
        let model = prepare(
            InputKind::Model(codecs::models::ModelKind::Users),
            Some(&users_model),
            &document,
        )
        .unwrap();
        (document, model)
    }

    #[test]
    fn children_print_the_checksum_the_runner_expects() {
        let (document, model) = users_inputs();
        let tree = prepare(InputKind::Tree, None, &document).unwrap();
        for batch in [1, 3] {
            for drops in Drops::ALL {
                let a = args(Op::De, batch, &document, drops);
                let line = run_de::<SerdeJsonTyped, Users>(monotonic_ns(), &a)
                    .unwrap()
                    .0;
                assert_eq!(line.checksum, expected::<SerdeJsonTyped>(Op::De, &document));
                assert_eq!(line.bytes, document.len() as u64);
            }
            let a = args(Op::Ser, batch, &model, Drops::End);
            let line = run_ser::<SerdeJsonTyped, Users>(monotonic_ns(), &a)
                .unwrap()
                .0;
            assert_eq!(line.checksum, expected::<SerdeJsonTyped>(Op::Ser, &model));
            assert_eq!(
                line.bytes,
                document.len() as u64,
                "writes the document back"
            );
            let a = args(Op::Ser, batch, &tree, Drops::End);
            let line = run_ser::<SerdeJsonDom, Dom>(monotonic_ns(), &a).unwrap().0;
            let dom = codecs::run_once::<SerdeJsonDom>(Op::Ser, None, &tree)
                .unwrap()
                .checksum;
            assert_eq!(line.checksum, dom);
            let a = args(Op::De, batch, &document, Drops::End);
            let line = run_de::<Noop, AnyInput>(monotonic_ns(), &a).unwrap().0;
            let stamps = line.stamps;
            assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");
            let faults = line.faults.unwrap();
            assert!(
                faults.windows(2).all(|w| w[0].minor <= w[1].minor),
                "{faults:?}"
            );
            assert!(line.hwm_kib >= line.rss_kib && line.rss_kib > 0);
        }
    }

    #[test]
    fn a_curve_child_reads_its_clock_on_the_schedule_and_checks_the_same_value() {
        let (document, model) = users_inputs();
        for (op, input) in [(Op::De, &document), (Op::Ser, &model)] {
            let a = Args {
                window: Some(7),
                ..args(op, 120, input, Drops::Each)
            };
            let (line, curve) = match op {
                Op::De => run_de::<SerdeJsonTyped, Users>(monotonic_ns(), &a),
                Op::Ser => run_ser::<SerdeJsonTyped, Users>(monotonic_ns(), &a),
            }
            .unwrap();
            let curve = curve.expect("a curve child prints its curve");
            curve.check(120, 7, line.at(Stamp::Init)).unwrap();
            assert_eq!(curve.ops, schema::curve::schedule(120, 7));
            assert_eq!(
                curve.ns.first(),
                Some(&line.at(Stamp::First)),
                "the first read is `first`"
            );
            assert_eq!(
                curve.ns.last(),
                Some(&line.at(Stamp::Done)),
                "the last read is `done`"
            );
            assert_eq!(line.checksum, expected::<SerdeJsonTyped>(op, input));
            let text = curve.text();
            assert_eq!(CurveLine::parse(text.trim_end()).unwrap(), curve);
        }
    }

    #[test]
    fn a_dom_child_prints_the_runners_checksum_for_an_object_its_library_hashes() {
        // simd-json's trees keep an object of more than 32 members in a hash map seeded at
        // random for every map: the checksum must not depend on the order it iterates in, or
        // the preflight refuses the child (as it did simd-json's DOMs on twitter and
        // citm_catalog, curve or not).
        let members: Vec<String> = (0..40).map(|i| format!("\"m{i}\":{{\"k\":{i}}}")).collect();
        let document = format!("{{\"wide\":{{{}}}}}", members.join(",")).into_bytes();
        fn check<C: Codec>(document: &[u8]) {
            let want = codecs::run_once::<C>(Op::De, None, document).unwrap();
            for window in [None, Some(2)] {
                for batch in [1, 5] {
                    let a = Args {
                        window,
                        ..args(Op::De, batch, document, Drops::Each)
                    };
                    let line = run_de::<C, Dom>(monotonic_ns(), &a).unwrap().0;
                    assert_eq!(
                        (line.checksum, line.bytes),
                        (want.checksum, want.bytes),
                        "{} batch {batch} window {window:?}",
                        C::ID
                    );
                }
            }
        }
        check::<codecs::SimdJsonDom>(&document);
        check::<codecs::SimdJsonBorrowedDom>(&document);
        check::<SerdeJsonDom>(&document);
    }

    #[test]
    fn a_wrong_input_is_an_error_not_a_misreading() {
        let (_, document) = users();
        let a = args(Op::Ser, 1, &document, Drops::End);
        let e = run_ser::<SerdeJsonTyped, Users>(monotonic_ns(), &a).unwrap_err();
        assert!(e.contains("Users"), "{e}");
        let missing = Args {
            input: "/nonexistent/input".into(),
            ..a
        };
        let e = run_ser::<SerdeJsonTyped, Users>(monotonic_ns(), &missing).unwrap_err();
        assert!(e.contains("/nonexistent/input"), "{e}");
    }
}
