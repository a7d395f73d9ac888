//! A sample's row: what one reaped child (or a failed spawn) means. Pure: it decides the status
//! (`ok`, `timeout`, `memory`, `signal:N`, `crash`, `bad-output`, `wrong-checksum`,
//! `spawn-failed`; `memory` too for any child whose peak passed the memory limit), and
//! fills the phases and the child's own memory only for an `ok` sample, rusage for every child
//! that ran. A child is `ok` only when its line is valid, its stamps are in order, and both its
//! checksum and its byte count are the ones the runner computed for its cell.

use schema::curve::{CurveLine, CurveRow};
use schema::phases::{phases, Figure, Phase, Quantity, Stamp, Whole};
use schema::protocol::{clip, Line};
use schema::rows::{PlanRow, SampleRow};
use schema::Status;
use spawner::process::{Exit, Reaped};

/// What a child of a cell must print: the checksum and the byte count (input length for `de`,
/// output length for `ser`) the runner computed in-process, or learned in the preflight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    pub checksum: u64,
    pub bytes: u64,
}

/// How a sample was run, for what its row says: the timeout and the memory limit it had.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Limits {
    pub(crate) timeout_secs: f64,
    pub(crate) memory_limit_mib: u64,
}

/// The row of a child that could not be spawned.
pub(crate) fn spawn_failed(plan: &PlanRow, error: &str) -> SampleRow {
    let mut row = SampleRow::planned(plan);
    row.status = Status::SpawnFailed;
    row.set_error(error);
    row
}

/// The row of a sample whose spawner stopped answering or died while its child ran (a child can
/// stop or kill the process that started it): the child was killed with everything below the
/// spawner, and the sample is void.
pub(crate) fn spawner_lost(plan: &PlanRow, why: &str) -> SampleRow {
    let mut row = SampleRow::planned(plan);
    row.status = Status::SpawnerLost;
    row.set_error(why);
    row
}

/// What the messages of the runtimes say when an allocation failed (Rust, the JVM, Python,
/// Node, C's strerror).
const OUT_OF_MEMORY: [&str; 6] = [
    "memory allocation of",
    "OutOfMemoryError",
    "MemoryError",
    "heap out of memory",
    "Cannot allocate memory",
    "Could not reserve enough space",
];

/// The row of a reaped child. `expected` is what it must print (`None`: a preflight that learns
/// it, for a child in another language); `limits` are quoted in the error of a child that ran
/// into one.
pub(crate) fn reaped(
    plan: &PlanRow,
    r: &Reaped,
    expected: Option<&Expected>,
    limits: Limits,
) -> SampleRow {
    let u = &r.usage;
    let mut row = SampleRow::planned(plan);
    for (w, v) in [
        (Whole::UserUs, u.user_us),
        (Whole::SysUs, u.sys_us),
        (Whole::MaxrssKib, u.maxrss_kib),
        (Whole::Minflt, u.minflt),
        (Whole::Majflt, u.majflt),
        (Whole::Inblock, u.inblock),
        (Whole::Nvcsw, u.nvcsw),
        (Whole::Nivcsw, u.nivcsw),
    ] {
        row.set(Figure::Whole(w), Some(v));
    }
    match r.exit {
        Exit::Code(c) => row.exit_code = Some(c),
        Exit::Signal(s) => row.signal = Some(s),
    }
    if let Some((status, why)) = failure(r, limits) {
        return failed(row, status, why);
    }
    let line = match Line::parse(&r.stdout) {
        Ok(line) => line,
        Err(e) => return failed(row, Status::BadOutput, e),
    };
    row.checksum = Some(format!("{:016x}", line.checksum));
    let mut stamps = [0; Stamp::ALL.len()];
    stamps[0] = r.spawn_ns;
    stamps[1..=Stamp::CHILD.len()].copy_from_slice(&line.stamps);
    stamps[Stamp::CHILD.len() + 1] = r.reaped_ns;
    let times = match phases(&stamps) {
        Ok(times) => times,
        Err(e) => return failed(row, Status::BadOutput, e),
    };
    if let Some((status, why)) = expected.and_then(|e| mismatch(&line, e)) {
        return failed(row, status, why);
    }
    for (p, t) in Phase::ALL.iter().zip(times) {
        row.set(Figure::time(*p), Some(t));
    }
    row.set(Figure::INIT_PLUS_OPS, row.figures.library(Quantity::Ns));
    row.set(Figure::WALL, Some(r.reaped_ns - r.spawn_ns));
    row.set(Figure::Whole(Whole::HwmKib), Some(line.hwm_kib));
    row.set(Figure::Whole(Whole::RssKib), Some(line.rss_kib));
    if let Some(faults) = &line.faults {
        set_faults(&mut row, faults, (u.minflt, u.majflt));
    }
    row
}

/// How a reaped child failed before its line is read, if it did: it timed out, went past its
/// memory, wrote past the file size limit, was killed by a signal or exited with an error (with
/// the first lines of what it wrote to stderr, and a child that says it ran out of memory
/// named as such).
fn failure(r: &Reaped, limits: Limits) -> Option<(Status, String)> {
    let stderr = String::from_utf8_lossy(&r.stderr);
    let stderr = clip(&first_lines(stderr.trim(), 3));

    if r.timed_out {
        let why = format!("killed after {} s", limits.timeout_secs);
        return Some((Status::Timeout, why));
    }
    if let Some(why) = contained_memory(r, limits) {
        return Some((Status::Memory, why));
    }
    // The limit is a hard one, but a privileged child can raise it and a shared mapping is not
    // counted in it: whatever held, a child whose peak went past the limit is never `ok`.
    let limit_kib = limits.memory_limit_mib.saturating_mul(1024);
    if limits.memory_limit_mib > 0 && r.usage.maxrss_kib > limit_kib {
        let why = format!(
            "it ran out of its {} MiB (--memory-limit): its peak resident memory was {} MiB",
            limits.memory_limit_mib,
            r.usage.maxrss_kib / 1024
        );
        return Some((Status::Memory, why));
    }
    let (status, why) = match r.exit {
        Exit::Signal(libc::SIGXFSZ) => {
            let limit = spawner::FILE_SIZE_LIMIT >> 20;
            let why =
                format!("SIGXFSZ: it wrote more than {limit} MiB to stdout, stderr or a file");
            return Some((Status::Signal(libc::SIGXFSZ), why));
        }
        Exit::Signal(s) => (Status::Signal(s), stderr),
        Exit::Code(0) => return None,
        Exit::Code(c) => (Status::Crash, format!("exit code {c}: {stderr}")),
    };
    if OUT_OF_MEMORY
        .iter()
        .any(|m| r.stderr.windows(m.len()).any(|w| w == m.as_bytes()))
    {
        let why = format!(
            "it ran out of its {} MiB (--memory-limit): {why}",
            limits.memory_limit_mib
        );
        return Some((Status::Memory, why));
    }
    Some((status, why))
}

/// Why the sample's containment says it went past its memory, if it does: the kernel's OOM
/// killer ended a process of its cgroup, or the cgroup's peak (every process of the sample,
/// memfd and shared memory counted) passed the limit; without a cgroup, the system's shared
/// memory rose by more than the limit while it ran.
fn contained_memory(r: &Reaped, limits: Limits) -> Option<String> {
    let limit = limits.memory_limit_mib.saturating_mul(1 << 20);
    let m = &r.memory;
    if limits.memory_limit_mib == 0 {
        return None;
    }
    let mib = |b: u64| b >> 20;
    if m.oom_kills > 0 || m.peak_bytes > limit {
        return Some(format!(
            "it ran out of its {} MiB (--memory-limit): its cgroup's peak was {} MiB (every \
             process of the sample, memfd and shared memory counted), and the kernel ended {} \
             of its processes",
            limits.memory_limit_mib,
            mib(m.peak_bytes),
            m.oom_kills
        ));
    }
    if m.shmem_rise_bytes > limit {
        return Some(format!(
            "it went past its {} MiB (--memory-limit): the system's shared memory rose by {} \
             MiB while it ran (memfd, tmpfs or shared mappings, which its own peak does not \
             count)",
            limits.memory_limit_mib,
            mib(m.shmem_rise_bytes)
        ));
    }
    None
}

/// How a child's line disagrees with what its cell must print, if it does.
fn mismatch(line: &Line, expected: &Expected) -> Option<(Status, String)> {
    if line.checksum != expected.checksum {
        let why = format!(
            "expected {:016x}, the child printed {:016x}",
            expected.checksum, line.checksum
        );
        return Some((Status::WrongChecksum, why));
    }
    if line.bytes != expected.bytes {
        let why = format!(
            "the child says it handled {} bytes; the cell's are {}",
            line.bytes, expected.bytes
        );
        return Some((Status::BadOutput, why));
    }
    None
}

/// The row of a reaped curve child (`--window`), and its curve: its stdout is its curve line,
/// then its line (`schema::curve`). The line is held to everything [`reaped`] holds it to; a
/// curve line that is missing, malformed or off the schedule makes the sample `bad-output`,
/// with no curve.
pub(crate) fn reaped_curve(
    plan: &PlanRow,
    mut r: Reaped,
    expected: Option<&Expected>,
    limits: Limits,
    window: u64,
) -> (SampleRow, Option<CurveRow>) {
    let stdout = std::mem::take(&mut r.stdout);
    let (curve_text, rest) = match stdout.iter().position(|&b| b == b'\n') {
        Some(i) => (&stdout[..i], &stdout[i + 1..]),
        None => (&stdout[..], &[][..]),
    };
    r.stdout = rest.to_vec();
    let row = reaped(plan, &r, expected, limits);
    if row.status == Status::BadOutput && rest.is_empty() && !curve_text.is_empty() {
        let why = "one line only: a curve child (--window) prints its curve line, then its line";
        return (failed(row, Status::BadOutput, why.to_string()), None);
    }
    if !row.is_ok() {
        return (row, None);
    }
    let curve = std::str::from_utf8(curve_text)
        .map_err(|_| "it is not UTF-8".to_string())
        .and_then(CurveLine::parse)
        .and_then(|curve| {
            let line = Line::parse(&r.stdout)?;
            let (fixture, init) = (line.at(Stamp::Fixture), line.at(Stamp::Init));
            curve.check(u64::from(plan.batch), window, init)?;
            Ok(CurveRow::of(plan.plan_index, &curve, fixture))
        });
    match curve {
        Ok(curve) => (row, Some(curve)),
        Err(e) => (
            failed(row, Status::BadOutput, format!("the curve line: {e}")),
            None,
        ),
    }
}

/// The page faults of each phase from the child's readings at [`Stamp::FAULTS`] and its whole
/// life's (`wait4`): the process's start to `main`, the input, the library's three phases
/// together, the check, and the rest to the end.
fn set_faults(row: &mut SampleRow, at: &[schema::protocol::Faults; 4], total: (u64, u64)) {
    debug_assert_eq!(Stamp::FAULTS.len(), at.len());
    for (q, pick, whole, total) in [
        (Quantity::MinorFaults, 0, Whole::LibraryMinflt, total.0),
        (Quantity::MajorFaults, 1, Whole::LibraryMajflt, total.1),
    ] {
        let v = |i: usize| if pick == 0 { at[i].minor } else { at[i].major };
        let spans = [
            (Phase::SpawnToMain, v(0)),
            (Phase::Fixture, v(1).saturating_sub(v(0))),
            (Phase::Check, v(3).saturating_sub(v(2))),
            (Phase::Exit, total.saturating_sub(v(3))),
        ];
        for (phase, n) in spans {
            row.set(Figure::Of(q, phase), Some(n));
        }
        row.set(Figure::Whole(whole), Some(v(2).saturating_sub(v(1))));
    }
}

fn failed(mut row: SampleRow, status: Status, error: String) -> SampleRow {
    row.status = status;
    if !error.is_empty() {
        row.set_error(error);
    }
    row
}

/// The first `n` non-empty lines, joined with ` / ` (a panic's location and message come first;
/// a backtrace, when RUST_BACKTRACE is set, comes after).
fn first_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(n)
        .collect();
    lines.join(" / ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use spawner::process::ResourceUsage;

    fn plan() -> PlanRow {
        PlanRow {
            plan_index: 7,
            block: 1,
            codec: "noop".into(),
            op: schema::Op::De,
            batch: 10,
            fixture: "users-2kb".into(),
            variant: schema::Variant::PORTABLE,
        }
    }

    fn reaped_with(exit: Exit, stdout: &str) -> Reaped {
        Reaped {
            spawn_ns: 100,
            reaped_ns: 1_000,
            exit,
            timed_out: false,
            usage: ResourceUsage {
                maxrss_kib: 1234,
                ..ResourceUsage::default()
            },
            stdout: stdout.as_bytes().to_vec(),
            stderr: b"thread 'main' panicked at boom:\nthe message\nstack backtrace:\n  0: frame\n"
                .to_vec(),
            memory: spawner::SampleMemory::default(),
        }
    }

    const LIMITS: Limits = Limits {
        timeout_secs: 60.0,
        memory_limit_mib: 8192,
    };

    const GOOD: &str = "{\"main\":200,\"model\":250,\"fixture\":300,\"init\":310,\"first\":400,\"done\":600,\"checked\":650,\"checksum\":\"000000000000002a\",\"bytes\":5,\"hwm_kib\":900,\"rss_kib\":800}\n";

    fn want(checksum: u64) -> Expected {
        Expected { checksum, bytes: 5 }
    }

    /// A curve child of `plan()` (10 operations, window 4: reads after 1, 2, 3, 4, 5, 7, 8, 10).
    #[test]
    fn a_curve_child_gives_its_curve_or_a_bad_output_that_says_why() {
        let ops = "[1,2,3,4,5,7,8,10]";
        let good = format!(
            "{{\"ops\":{ops},\"ns\":[400,410,420,430,440,460,470,600],\"clock_1000_ns\":9}}\n{GOOD}"
        );
        let (row, curve) = reaped_curve(
            &plan(),
            reaped_with(Exit::Code(0), &good),
            Some(&want(42)),
            LIMITS,
            4,
        );
        assert_eq!(row.status, Status::Ok, "{:?}", row.error);
        let curve = curve.unwrap();
        assert_eq!(curve.plan_index, 7);
        assert_eq!(
            curve.cost_ns,
            [100, 110, 120, 130, 140, 160, 170, 300],
            "from `fixture`"
        );
        for (stdout, says) in [
            (GOOD.to_string(), "one line only"),
            (
                format!("{{\"ops\":[1,2],\"ns\":[400,410],\"clock_1000_ns\":9}}\n{GOOD}"),
                "schedule",
            ),
            (
                format!("{{\"ops\":{ops},\"ns\":[300,410,420,430,440,460,470,600],\"clock_1000_ns\":9}}\n{GOOD}"),
                "before init",
            ),
            (format!("not a curve\n{GOOD}"), "curve line"),
        ] {
            let (row, curve) =
                reaped_curve(&plan(), reaped_with(Exit::Code(0), &stdout), Some(&want(42)), LIMITS, 4);
            assert_eq!(row.status, Status::BadOutput, "{stdout}");
            assert!(curve.is_none());
            let error = row.error.unwrap_or_default();
            assert!(error.contains(says), "{error}");
        }
        // a curve child that failed is that failure, not a curve's
        let (row, curve) = reaped_curve(
            &plan(),
            reaped_with(Exit::Code(101), &good),
            Some(&want(42)),
            LIMITS,
            4,
        );
        assert_eq!(row.status, Status::Crash);
        assert!(curve.is_none());
    }

    #[test]
    fn ok_row_has_every_phase() {
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Code(0), GOOD),
            Some(&want(42)),
            LIMITS,
        );
        assert_eq!(row.status, Status::Ok);
        assert_eq!(row.plan_index, 7);
        let time = |p| row.get(Figure::time(p));
        assert_eq!(time(Phase::SpawnToMain), Some(100));
        assert_eq!(time(Phase::Model), Some(50));
        assert_eq!(time(Phase::Fixture), Some(50));
        assert_eq!(time(Phase::Init), Some(10));
        assert_eq!(time(Phase::FirstOp), Some(90));
        assert_eq!(time(Phase::RemainingOps), Some(200));
        assert_eq!(time(Phase::Check), Some(50));
        assert_eq!(time(Phase::Exit), Some(350));
        assert_eq!(row.get(Figure::INIT_PLUS_OPS), Some(300));
        assert_eq!(row.get(Figure::WALL), Some(900));
        assert_eq!(row.get(Figure::Whole(Whole::MaxrssKib)), Some(1234));
        assert_eq!(row.exit_code, Some(0));
        assert_eq!(row.checksum.as_deref(), Some("000000000000002a"));
        assert_eq!(row.get(Figure::Whole(Whole::HwmKib)), Some(900));
        assert_eq!(row.get(Figure::Whole(Whole::RssKib)), Some(800));
        assert_eq!(row.error, None);
        assert_eq!(
            row.get(Figure::Of(Quantity::MinorFaults, Phase::Fixture)),
            None
        );
    }

    #[test]
    fn failures_are_named_and_keep_no_timing() {
        let cases = [
            (reaped_with(Exit::Code(0), GOOD), 41, Status::WrongChecksum),
            (reaped_with(Exit::Code(0), "garbage"), 42, Status::BadOutput),
            (reaped_with(Exit::Code(101), ""), 42, Status::Crash),
            (reaped_with(Exit::Signal(6), ""), 42, Status::Signal(6)),
            (reaped_with(Exit::Signal(25), ""), 42, Status::Signal(25)),
            (
                Reaped {
                    timed_out: true,
                    ..reaped_with(Exit::Signal(9), "")
                },
                42,
                Status::Timeout,
            ),
        ];
        for (r, expected, status) in cases {
            let row = reaped(&plan(), &r, Some(&want(expected)), LIMITS);
            assert_eq!(row.status, status);
            assert_eq!(row.get(Figure::WALL), None, "{status}");
            assert_eq!(row.get(Figure::INIT_PLUS_OPS), None, "{status}");
            assert_eq!(
                row.get(Figure::Whole(Whole::MaxrssKib)),
                Some(1234),
                "{status}"
            );
            assert!(row.error.is_some(), "{status}");
        }
        let crash = reaped(
            &plan(),
            &reaped_with(Exit::Code(101), ""),
            Some(&want(42)),
            LIMITS,
        );
        let error = crash.error.unwrap();
        assert!(
            error.contains("panicked at boom") && !error.contains("line 1"),
            "{error}"
        );
    }

    #[test]
    fn stamps_out_of_order_are_bad_output() {
        let backwards = GOOD.replace("\"first\":400", "\"first\":305");
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Code(0), &backwards),
            Some(&want(42)),
            LIMITS,
        );
        assert_eq!(row.status, Status::BadOutput);
        assert!(row.error.unwrap().contains("first"));
    }

    #[test]
    fn a_wrong_byte_count_is_bad_output_and_a_huge_output_says_so() {
        let wrong = Expected {
            checksum: 42,
            bytes: 6,
        };
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Code(0), GOOD),
            Some(&wrong),
            LIMITS,
        );
        assert_eq!(row.status, Status::BadOutput);
        assert!(row.error.unwrap().contains("5 bytes; the cell's are 6"));
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Signal(25), ""),
            Some(&want(42)),
            LIMITS,
        );
        assert!(row.error.unwrap().contains("more than 256 MiB"));
    }

    #[test]
    fn spawn_failure_row() {
        let row = spawn_failed(&plan(), "No such file");
        assert_eq!(row.status, Status::SpawnFailed);
        assert_eq!(row.codec, "noop");
        assert_eq!(row.get(Figure::Whole(Whole::MaxrssKib)), None);
    }

    #[test]
    fn faults_are_cut_at_the_stamps_and_the_library_counted_whole() {
        let faulted = GOOD.replace(
            "\"checksum\"",
            "\"main_minflt\":80,\"main_majflt\":1,\"fixture_minflt\":95,\"fixture_majflt\":1,\
             \"done_minflt\":140,\"done_majflt\":3,\"checked_minflt\":141,\"checked_majflt\":3,\
             \"checksum\"",
        );
        let mut r = reaped_with(Exit::Code(0), &faulted);
        r.usage.minflt = 150;
        r.usage.majflt = 3;
        let row = reaped(&plan(), &r, Some(&want(42)), LIMITS);
        assert!(row.is_ok(), "{row:?}");
        let minor = |p| row.get(Figure::Of(Quantity::MinorFaults, p));
        assert_eq!(minor(Phase::SpawnToMain), Some(80));
        assert_eq!(minor(Phase::Fixture), Some(15));
        assert_eq!(minor(Phase::Check), Some(1));
        assert_eq!(minor(Phase::Exit), Some(9));
        assert_eq!(row.get(Figure::Whole(Whole::LibraryMinflt)), Some(45));
        assert_eq!(row.get(Figure::Whole(Whole::LibraryMajflt)), Some(2));
        assert_eq!(
            minor(Phase::FirstOp),
            None,
            "no read inside the library's phases"
        );
    }

    #[test]
    fn a_child_that_ran_out_of_memory_says_so() {
        let mut r = reaped_with(Exit::Signal(6), "");
        r.stderr = b"memory allocation of 1073741824 bytes failed\n".to_vec();
        let row = reaped(&plan(), &r, Some(&want(42)), LIMITS);
        assert_eq!(row.status, Status::Memory);
        assert!(row.error.unwrap().contains("8192 MiB"));
        // a child that lifted its limit (or mapped shared memory) and exited cleanly
        let mut r = reaped_with(Exit::Code(0), GOOD);
        r.usage.maxrss_kib = 8192 * 1024 + 1;
        let row = reaped(&plan(), &r, Some(&want(42)), LIMITS);
        assert_eq!(row.status, Status::Memory, "{row:?}");
        assert!(row
            .error
            .unwrap()
            .contains("peak resident memory was 8192 MiB"));
        r.usage.maxrss_kib = 8192 * 1024;
        assert!(reaped(&plan(), &r, Some(&want(42)), LIMITS).is_ok());
        // what only the containment sees: an OOM kill in the cgroup (a grandchild's, say), a
        // cgroup peak past the limit, a rise of the system's Shmem past it; and just under
        let limit = 8192u64 << 20;
        for (memory, why) in [
            (
                spawner::SampleMemory {
                    peak_bytes: limit,
                    oom_kills: 1,
                    ..Default::default()
                },
                "cgroup's peak was 8192 MiB",
            ),
            (
                spawner::SampleMemory {
                    peak_bytes: limit + 1,
                    ..Default::default()
                },
                "the kernel ended 0",
            ),
            (
                spawner::SampleMemory {
                    shmem_rise_bytes: limit + (1 << 20),
                    ..Default::default()
                },
                "shared memory rose by 8193 MiB",
            ),
        ] {
            let r = Reaped {
                memory,
                ..reaped_with(Exit::Code(0), GOOD)
            };
            let row = reaped(&plan(), &r, Some(&want(42)), LIMITS);
            assert_eq!(row.status, Status::Memory, "{memory:?}");
            assert!(row.error.as_deref().unwrap_or("").contains(why), "{row:?}");
        }
        let r = Reaped {
            memory: spawner::SampleMemory {
                peak_bytes: limit,
                shmem_rise_bytes: limit,
                oom_kills: 0,
            },
            ..reaped_with(Exit::Code(0), GOOD)
        };
        assert!(reaped(&plan(), &r, Some(&want(42)), LIMITS).is_ok());
        let lost = spawner_lost(&plan(), "the spawner stopped answering");
        assert_eq!(lost.status, Status::SpawnerLost);
    }

    #[test]
    fn a_preflight_that_learns_takes_any_checksum_but_not_a_bad_line() {
        let row = reaped(&plan(), &reaped_with(Exit::Code(0), GOOD), None, LIMITS);
        assert!(row.is_ok(), "{row:?}");
        let row = reaped(&plan(), &reaped_with(Exit::Code(0), "{}\n"), None, LIMITS);
        assert_eq!(row.status, Status::BadOutput);
    }
}
