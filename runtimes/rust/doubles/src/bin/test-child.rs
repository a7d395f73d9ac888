//! A child that misbehaves on purpose, for the runner's tests; never a codec, never planned by
//! `cold run`. It takes the protocol's arguments and picks its behaviour from the file name of
//! `--input` (which need not exist): `ok` (a valid line, checksum 0, 0 bytes), `panic`, `hang`,
//! `garbage`, `exit3`, `abort` (SIGABRT), `wrong` (checksum 1), `loud` (a valid line after 1 MiB
//! on stderr), `orphan` (leaves a process behind that keeps writing to stdout, then prints a
//! valid line), `daemon-TOKEN` (the same from a session of its own, `setsid`, so that no group
//! kill reaches it; its command line holds `stray-TOKEN`), `flood` (writes to stdout without
//! end).
//!
//! As a stand-in for a real child (a file named like it, linked to this program, in a children
//! folder that `--children-dir` names), it is steered by the environment the runner passes on
//! (`--env`), so that a test of a whole `cold run` does not depend on the machine's noise:
//! - `THAW_TEST_REAL_DIR=DIR`: run the real child of the same name in DIR with the same
//!   arguments, and print its line with the library's stamps (init, first, done) set to fixed
//!   figures: `THAW_TEST_STAMPS=steady` (each codec's own constant first call) or `alternate`
//!   (100 ns and 300 ns in turn, by `THAW_TEST_COUNT`), so the runner's statistics see known
//!   figures while the checksum and the rest stay the real child's;
//! - `THAW_TEST_LOG=FILE`: append how it was started (its arguments, then every variable of
//!   its environment) to FILE;
//! - `THAW_TEST_COUNT=FILE`: a counter of the stand-ins started, kept in FILE;
//!   `THAW_TEST_KILL_RUNNER_AT=N`: the Nth stand-in (from 1) makes the file `FILE.kill` and
//!   waits (60 s at most) before it prints, for the test to kill the runner (a child cannot
//!   reach its runner from the spawner's pid namespace), so a test kills a run at a known
//!   sample;
//! - `THAW_TEST_CURVE=CODEC:PLAN,…`: in a curve run (`--window`), the curve of each CODEC's
//!   stand-in is replaced by a planted one, exact to the nanosecond, and its `init` stamp set
//!   to its `fixture` stamp (init 0), so C(n) is the plan's: `flat` (5,000 ns per operation),
//!   `drop` (20,000 ns per operation to operation 5,000, then 2,000) or `slowdown` (2,000 ns to
//!   operation 1,000, then 20,000); the other stamps stay the real child's.

use schema::phases::Stamp;
use std::io::Write;
use std::path::Path;

/// The next value of the counter in `THAW_TEST_COUNT`'s file (1 for the first), or 0 without
/// one.
fn count() -> u64 {
    let Some(path) = std::env::var_os("THAW_TEST_COUNT") else {
        return 0;
    };
    let n = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok())
        .unwrap_or(0)
        + 1;
    std::fs::write(&path, n.to_string()).expect("test-child: cannot write THAW_TEST_COUNT");
    n
}

/// Runs the real child beside `dir` named as this one, prints its line with fixed library
/// stamps, and exits as it did.
fn stand_in(dir: &Path, args: &[String]) -> ! {
    let n = count();
    if let Some(log) = std::env::var_os("THAW_TEST_LOG") {
        let mut record = args.join(" ");
        for (k, v) in std::env::vars_os() {
            record.push_str(&format!(
                "\n  {}={}",
                k.to_string_lossy(),
                v.to_string_lossy()
            ));
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("test-child: cannot open THAW_TEST_LOG");
        writeln!(f, "{record}").expect("test-child: cannot write THAW_TEST_LOG");
    }
    let name = Path::new(&args[0]).file_name().expect("a program name");
    let out = std::process::Command::new(dir.join(name))
        .args(&args[1..])
        .output()
        .expect("test-child: cannot run the real child");
    let _ = std::io::stderr().write_all(&out.stderr);
    let kill_at = std::env::var("THAW_TEST_KILL_RUNNER_AT").ok();
    if kill_at.and_then(|k| k.parse::<u64>().ok()) == Some(n) {
        if let Some(count) = std::env::var_os("THAW_TEST_COUNT") {
            let mut mark = count;
            mark.push(".kill");
            let _ = std::fs::write(&mark, b"");
            // the test kills the runner, and so this process, meanwhile
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
    }
    if args.iter().any(|a| a == "--window") {
        if let Some(plans) = std::env::var_os("THAW_TEST_CURVE") {
            planted_curve(&name.to_string_lossy(), &plans.to_string_lossy(), &out);
        }
    }
    let Ok(mut line) = schema::protocol::Line::parse(&out.stdout) else {
        let _ = std::io::stdout().write_all(&out.stdout);
        std::process::exit(out.status.code().unwrap_or(1));
    };
    // the library's stamps set back from the real `done`, so every stamp stays in order and
    // the figures are known: init 0, first_op fixed, remaining_ops 0 (the input's phase takes
    // the rest of the real library's time)
    let first_op: u64 = match std::env::var("THAW_TEST_STAMPS").as_deref() {
        Ok("alternate") => 100 + 200 * (n % 2),
        _ => 100 + 40 * (name.len() as u64 % 10),
    };
    let done = line.at(Stamp::Done);
    let init = done
        .checked_sub(first_op)
        .filter(|&t| t >= line.at(Stamp::Model))
        .expect("test-child: the real child's model → done is shorter than the fixed first_op");
    line.set(Stamp::Fixture, init);
    line.set(Stamp::Init, init);
    line.set(Stamp::First, done);
    print!("{}", line.text());
    std::process::exit(out.status.code().unwrap_or(1));
}

/// The cumulative cost of `n` operations under `plan` (see `THAW_TEST_CURVE`).
fn planted(plan: &str, n: u64) -> u64 {
    match plan {
        "flat" => 5_000 * n,
        "drop" if n <= 5_000 => 20_000 * n,
        "drop" => 100_000_000 + 2_000 * (n - 5_000),
        "slowdown" if n <= 1_000 => 2_000 * n,
        "slowdown" => 2_000_000 + 20_000 * (n - 1_000),
        other => panic!("test-child: no planted curve `{other}`"),
    }
}

/// Prints the real curve child's two lines with the curve of its codec's plan (if `plans`
/// names its codec: the child is `child-<codec>-<op>-<target>`), and exits as it did.
fn planted_curve(name: &str, plans: &str, out: &std::process::Output) {
    let plan = plans.split(',').find_map(|entry| {
        let (codec, plan) = entry.split_once(':')?;
        ["de", "ser"]
            .iter()
            .any(|op| name.starts_with(&format!("child-{codec}-{op}-")))
            .then_some(plan)
    });
    let Some(plan) = plan else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let (Some(curve), Some(line)) = (lines.next(), lines.next()) else {
        return;
    };
    let (Ok(mut curve), Ok(mut line)) = (
        schema::curve::CurveLine::parse(curve),
        schema::protocol::Line::parse(format!("{line}\n").as_bytes()),
    ) else {
        return;
    };
    let fixture = line.at(Stamp::Fixture);
    line.set(Stamp::Init, fixture);
    curve.ns = curve
        .ops
        .iter()
        .map(|&n| fixture + planted(plan, n))
        .collect();
    print!("{}{}", curve.text(), line.text());
    std::process::exit(out.status.code().unwrap_or(1));
}

fn valid_line(checksum: u64) -> String {
    let t = schema::protocol::monotonic_ns();
    schema::protocol::Line {
        stamps: [t; Stamp::CHILD.len()],
        faults: None,
        checksum,
        bytes: 0,
        hwm_kib: 1,
        rss_kib: 1,
    }
    .text()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(dir) = std::env::var_os("THAW_TEST_REAL_DIR") {
        stand_in(Path::new(&dir), &args);
    }
    let behaviour = args
        .windows(2)
        .find(|w| w[0] == "--input")
        .and_then(|w| {
            std::path::Path::new(&w[1])
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    match behaviour.as_str() {
        "ok" => print!("{}", valid_line(0)),
        "wrong" => print!("{}", valid_line(1)),
        "panic" => panic!("test-child was told to panic"),
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        "garbage" => println!("this is not the protocol's line"),
        "exit3" => std::process::exit(3),
        "abort" => std::process::abort(),
        "loud" => {
            let noise = vec![b'x'; 1 << 20];
            let _ = std::io::stderr().write_all(&noise);
            print!("{}", valid_line(0));
        }
        "orphan" => {
            // A process of its own that outlives this one and writes into its stdout (the
            // runner's capture file) for a while.
            let _ = std::process::Command::new("/bin/sh")
                .args([
                    "-c",
                    "sleep 0.2; while true; do echo stray; sleep 0.05; done",
                ])
                .spawn();
            print!("{}", valid_line(0));
        }
        daemon if daemon.starts_with("daemon-") => {
            let token = &daemon["daemon-".len()..];
            let script = format!("sleep 0.2; while true; do echo stray-{token}; sleep 0.05; done");
            let _ = std::process::Command::new("setsid")
                .args(["/bin/sh", "-c", &script])
                .spawn();
            print!("{}", valid_line(0));
        }
        "flood" => {
            let block = vec![b'y'; 1 << 16];
            let mut out = std::io::stdout().lock();
            while out.write_all(&block).is_ok() {}
        }
        other => {
            eprintln!("test-child: unknown behaviour `{other}`");
            std::process::exit(2);
        }
    }
}
