//! A sample's row: what one reaped child (or a failed spawn) means. Pure: it decides the status
//! (`ok`, `timeout`, `signal:N`, `crash`, `bad-output`, `wrong-checksum`, `spawn-failed`), and
//! fills the phases and the child's own memory only for an `ok` sample, rusage for every child
//! that ran. A child is `ok` only when its line is valid, its stamps are in order, and both its
//! checksum and its byte count are the ones the runner computed for its cell.

use crate::phases::{phases, Stamps};
use schema::protocol::{clip, Line};
use schema::run_folder::{PlanRow, SampleRow};
use schema::Status;
use spawner::process::{Exit, Reaped};

/// What a child of a cell must print: the checksum and the byte count (input length for `de`,
/// output length for `ser`) the runner computed in-process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    pub checksum: u64,
    pub bytes: u64,
}

/// The row of a child that could not be spawned.
pub fn spawn_failed(plan: &PlanRow, error: &str) -> SampleRow {
    SampleRow {
        status: Status::SpawnFailed,
        error: Some(error.to_string()),
        ..SampleRow::planned(plan)
    }
}

/// The row of a reaped child. `expected` is what it must print (`None`: a preflight that learns
/// it, for a child in another language); `timeout_secs` is only quoted in the error of a
/// timed-out child.
pub fn reaped(
    plan: &PlanRow,
    r: &Reaped,
    expected: Option<&Expected>,
    timeout_secs: f64,
) -> SampleRow {
    let u = &r.usage;
    let mut row = SampleRow {
        user_us: Some(u.user_us),
        sys_us: Some(u.sys_us),
        maxrss_kib: Some(u.maxrss_kib),
        minflt: Some(u.minflt),
        majflt: Some(u.majflt),
        inblock: Some(u.inblock),
        nvcsw: Some(u.nvcsw),
        nivcsw: Some(u.nivcsw),
        ..SampleRow::planned(plan)
    };
    match r.exit {
        Exit::Code(c) => row.exit_code = Some(c),
        Exit::Signal(s) => row.signal = Some(s),
    }
    let stderr = String::from_utf8_lossy(&r.stderr);
    let stderr = clip(&first_lines(stderr.trim(), 3));

    if r.timed_out {
        return failed(
            row,
            Status::Timeout,
            format!("killed after {timeout_secs} s"),
        );
    }
    match r.exit {
        Exit::Signal(libc::SIGXFSZ) => {
            let limit = spawner::FILE_SIZE_LIMIT >> 20;
            let why =
                format!("SIGXFSZ: it wrote more than {limit} MiB to stdout, stderr or a file");
            return failed(row, Status::Signal(libc::SIGXFSZ), why);
        }
        Exit::Signal(s) => return failed(row, Status::Signal(s), stderr),
        Exit::Code(0) => {}
        Exit::Code(c) => return failed(row, Status::Crash, format!("exit code {c}: {stderr}")),
    }
    let line = match Line::parse(&r.stdout) {
        Ok(line) => line,
        Err(e) => return failed(row, Status::BadOutput, e),
    };
    let printed = format!("{:016x}", line.checksum);
    row.checksum = Some(printed.clone());
    let stamps = Stamps {
        spawn: r.spawn_ns,
        main: line.main,
        fixture: line.fixture,
        init: line.init,
        first: line.first,
        done: line.done,
        checked: line.checked,
        reaped: r.reaped_ns,
    };
    let p = match phases(&stamps) {
        Ok(p) => p,
        Err(e) => return failed(row, Status::BadOutput, e),
    };
    let Some(expected) = expected else {
        return ok_row(row, &line, &p);
    };
    if line.checksum != expected.checksum {
        return failed(
            row,
            Status::WrongChecksum,
            format!(
                "expected {:016x}, the child printed {printed}",
                expected.checksum
            ),
        );
    }
    if line.bytes != expected.bytes {
        return failed(
            row,
            Status::BadOutput,
            format!(
                "the child says it handled {} bytes; the cell's are {}",
                line.bytes, expected.bytes
            ),
        );
    }
    ok_row(row, &line, &p)
}

fn ok_row(row: SampleRow, line: &Line, p: &crate::phases::Phases) -> SampleRow {
    SampleRow {
        status: Status::Ok,
        hwm_kib: Some(line.hwm_kib),
        rss_kib: Some(line.rss_kib),
        spawn_to_main_ns: Some(p.spawn_to_main),
        fixture_ns: Some(p.fixture),
        init_ns: Some(p.init),
        first_op_ns: Some(p.first_op),
        remaining_ops_ns: Some(p.remaining_ops),
        check_ns: Some(p.check),
        exit_ns: Some(p.exit),
        init_plus_ops_ns: Some(p.init_plus_ops),
        wall_ns: Some(p.wall),
        ..row
    }
}

fn failed(row: SampleRow, status: Status, error: String) -> SampleRow {
    SampleRow {
        status,
        error: (!error.is_empty()).then_some(error),
        ..row
    }
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
            variant: schema::Variant::Portable,
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
        }
    }

    const GOOD: &str = "{\"main\":200,\"fixture\":300,\"init\":310,\"first\":400,\"done\":600,\"checked\":650,\"checksum\":\"000000000000002a\",\"bytes\":5,\"hwm_kib\":900,\"rss_kib\":800}\n";

    fn want(checksum: u64) -> Expected {
        Expected { checksum, bytes: 5 }
    }

    #[test]
    fn ok_row_has_every_phase() {
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Code(0), GOOD),
            Some(&want(42)),
            60.0,
        );
        assert_eq!(row.status, Status::Ok);
        assert_eq!(row.plan_index, 7);
        assert_eq!(row.spawn_to_main_ns, Some(100));
        assert_eq!(row.init_ns, Some(10));
        assert_eq!(row.first_op_ns, Some(90));
        assert_eq!(row.remaining_ops_ns, Some(200));
        assert_eq!(row.check_ns, Some(50));
        assert_eq!(row.exit_ns, Some(350));
        assert_eq!(row.init_plus_ops_ns, Some(300));
        assert_eq!(row.wall_ns, Some(900));
        assert_eq!(row.maxrss_kib, Some(1234));
        assert_eq!(row.exit_code, Some(0));
        assert_eq!(row.checksum.as_deref(), Some("000000000000002a"));
        assert_eq!((row.hwm_kib, row.rss_kib), (Some(900), Some(800)));
        assert_eq!(row.error, None);
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
            let row = reaped(&plan(), &r, Some(&want(expected)), 60.0);
            assert_eq!(row.status, status);
            assert_eq!(row.wall_ns, None, "{status}");
            assert_eq!(row.init_plus_ops_ns, None, "{status}");
            assert_eq!(row.maxrss_kib, Some(1234), "{status}");
            assert!(row.error.is_some(), "{status}");
        }
        let crash = reaped(
            &plan(),
            &reaped_with(Exit::Code(101), ""),
            Some(&want(42)),
            60.0,
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
            60.0,
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
            60.0,
        );
        assert_eq!(row.status, Status::BadOutput);
        assert!(row.error.unwrap().contains("5 bytes; the cell's are 6"));
        let row = reaped(
            &plan(),
            &reaped_with(Exit::Signal(25), ""),
            Some(&want(42)),
            60.0,
        );
        assert!(row.error.unwrap().contains("more than 256 MiB"));
    }

    #[test]
    fn spawn_failure_row() {
        let row = spawn_failed(&plan(), "No such file");
        assert_eq!(row.status, Status::SpawnFailed);
        assert_eq!(row.codec, "noop");
        assert_eq!(row.maxrss_kib, None);
    }

    #[test]
    fn a_preflight_that_learns_takes_any_checksum_but_not_a_bad_line() {
        let row = reaped(&plan(), &reaped_with(Exit::Code(0), GOOD), None, 60.0);
        assert!(row.is_ok(), "{row:?}");
        let row = reaped(&plan(), &reaped_with(Exit::Code(0), "{}\n"), None, 60.0);
        assert_eq!(row.status, Status::BadOutput);
    }
}
