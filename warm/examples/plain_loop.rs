//! A plain loop, no criterion: one codec's `de` of one fixture, each call timed alone (its fresh
//! copy of the document made before the clock, its value dropped after it, or kept with the last
//! KEEP − 1 and dropped with them, as a warm batch keeps its values), in rounds of CALLS calls
//! after a warm-up; prints each round's time per operation, their median and the fastest.
//! The warm track's check against a loop that shares none of criterion's sampling: the same
//! operation (`warm::run::Runner`, as the benches call it), nothing else (docs/statistics.md,
//! "A warm `de` batch").
//!
//! cargo run --release -p warm --example plain_loop -- users-2kb serde_json [ROUNDS] [CALLS] [KEEP]

use codecs::{visit_codecs, Codec, CodecVisitor, Op};
use fixtures::catalog::find;
use fixtures::gate::Document;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use warm::run::Workload;

/// Each round's time per operation, in ns.
fn rounds<C: Codec>(
    document: &Document,
    rounds: usize,
    calls: u32,
    keep: usize,
) -> Result<Vec<f64>, String> {
    let mut w = Workload::<C>::new(document, Op::De).map_err(|e| e.to_string())?;
    for _ in 0..calls.min(1000) {
        w.step(Op::De);
    }
    let (inputs, runner) = w.parts();
    let mut out = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let mut total = Duration::ZERO;
        let mut done = 0;
        while done < calls {
            let size = keep.min((calls - done) as usize);
            let mut fresh: Vec<_> = (0..size).map(|_| inputs.fresh()).collect();
            let mut values = Vec::with_capacity(size);
            for input in fresh.iter_mut() {
                let start = Instant::now();
                let value = runner.de(input);
                total += start.elapsed();
                values.push(black_box(value));
            }
            drop(values);
            done += size as u32;
        }
        out.push(total.as_nanos() as f64 / f64::from(calls));
    }
    Ok(out)
}

struct Run<'a> {
    codec: &'a str,
    document: &'a Document,
    rounds: usize,
    calls: u32,
    keep: usize,
    result: Option<Result<Vec<f64>, String>>,
}

impl CodecVisitor for Run<'_> {
    fn visit<C: Codec + 'static>(&mut self) {
        if C::ID == self.codec {
            self.result = Some(rounds::<C>(
                self.document,
                self.rounds,
                self.calls,
                self.keep,
            ));
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: plain_loop FIXTURE CODEC [ROUNDS (20)] [CALLS (2000)] [KEEP (1)]";
    let (Some(fixture), Some(codec)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: u32| match args.get(i) {
        Some(s) => s.parse::<u32>().ok().filter(|&n| n > 0),
        None => Some(default),
    };
    let (Some(n_rounds), Some(calls), Some(keep)) = (number(2, 20), number(3, 2000), number(4, 1))
    else {
        eprintln!("ROUNDS, CALLS and KEEP are whole numbers from 1; {usage}");
        return ExitCode::from(2);
    };
    let f = match find(fixture) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}", text::for_terminal(&e.to_string(), false));
            return ExitCode::from(2);
        }
    };
    let corpora = std::env::var_os("THAW_CORPORA").map(std::path::PathBuf::from);
    let document = match Document::make(f, fixtures::DEFAULT_SEED, corpora.as_deref()) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{fixture}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut run = Run {
        codec,
        document: &document,
        rounds: n_rounds as usize,
        calls,
        keep: keep as usize,
        result: None,
    };
    visit_codecs(&mut run);
    match run.result {
        None => {
            eprintln!(
                "no codec {:?} (cargo run --release -p cold -- list)",
                text::echo(codec)
            );
            ExitCode::from(2)
        }
        Some(Err(e)) => {
            eprintln!("{fixture}/de/{codec}: {e}");
            ExitCode::FAILURE
        }
        Some(Ok(per_op)) => {
            let mut sorted = per_op.clone();
            sorted.sort_by(f64::total_cmp);
            let median = sorted[sorted.len() / 2];
            let rounds: Vec<String> = per_op.iter().map(|v| format!("{v:.0}")).collect();
            println!("{fixture}/de/{codec}: rounds {}", rounds.join(" "));
            println!(
                "{fixture}/de/{codec}: median {median:.1} ns per op, fastest round {:.1} ns ({} rounds of {calls}, values kept {keep} at a time)",
                sorted[0],
                per_op.len()
            );
            ExitCode::SUCCESS
        }
    }
}
