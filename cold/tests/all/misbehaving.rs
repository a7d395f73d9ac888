//! A child that panics, hangs, prints garbage, exits non-zero, dies by a signal, prints a wrong
//! checksum, cannot be spawned, leaves a process behind or floods its output is recorded with its
//! status, and the run goes on to the end; nothing it left behind spoils a later sample. Each
//! test starts a spawner, so each runs in a process of its own (`common::in_own_process`).

use cold::folder::{self, SamplesWriter};
use cold::run::classify::Expected;
use cold::run::progress::Progress;
use cold::run::sampler::{execute, Job, Sampler};
use schema::phases::{Figure, Whole};
use schema::rows::PlanRow;
use schema::{Drops, Op, Variant};
use spawner::process::Watch;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-cold-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    folder::create(&d).unwrap();
    // the test children run as an unprivileged user (docs/containment.md, "The child") and
    // write their counts, logs and pids here
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
    d
}

fn job(i: u64, behaviour: &str, child: &Path) -> Job {
    Job {
        plan: PlanRow {
            plan_index: i,
            block: 0,
            codec: "test-child".into(),
            op: Op::De,
            batch: 1,
            fixture: "small".into(),
            variant: Variant::PORTABLE,
        },
        child: child.to_path_buf(),
        prefix: Vec::new(),
        input: PathBuf::from("/behaviour").join(behaviour),
        loads: Default::default(),
        drops: Drops::End,
        expected: Some(Expected {
            checksum: 0,
            bytes: 0,
        }),
        check_file: None,
        window: None,
    }
}

fn plan_of(jobs: &[Job]) -> Vec<PlanRow> {
    jobs.iter().map(|j| j.plan.clone()).collect()
}

/// A sampler whose children may run `timeout`.
fn sampler_with(watch: Watch, timeout: Duration) -> Sampler {
    let spawner = &common::spawner();
    let env = vec![("PATH".into(), "/usr/bin:/bin".into())];
    Sampler::new(spawner, timeout, false, env)
        .unwrap()
        .with_watch(watch)
}

/// A sampler whose timeout no child that ends can reach, however busy the machine: a debug
/// build printing a panic's backtrace takes well under a second, and this allows a minute.
fn sampler(watch: Watch) -> Sampler {
    sampler_with(watch, Duration::from_secs(60))
}

fn run_all(name: &str, watch: Watch) {
    let dir = tmp(name);
    let child = common::test_child();
    // (the hang is timed out by a sampler of its own, below: a child that never ends meets any
    // timeout, so a short one decides nothing that noise could)
    let behaviours = [
        ("ok", "ok"),
        ("panic", "crash"),
        ("hang", "timeout"),
        ("garbage", "bad-output"),
        ("exit3", "crash"),
        ("abort", "signal:6"),
        ("wrong", "wrong-checksum"),
        ("loud", "ok"),
    ];
    let mut jobs: Vec<Job> = behaviours
        .iter()
        .enumerate()
        .map(|(i, (b, _))| job(i as u64, b, &child))
        .collect();
    jobs.push(job(8, "ok", Path::new("/nonexistent/child-x")));
    jobs.push(job(9, "ok", &child));

    let mut writer = SamplesWriter::open(&dir, 0).unwrap();
    let never = |_: usize| None;
    let (hang, others): (Vec<Job>, Vec<Job>) = jobs
        .iter()
        .cloned()
        .partition(|j| j.input.ends_with("hang"));
    let mut failed = execute(
        &others,
        &mut sampler(watch),
        &mut writer,
        &mut Progress::hidden(9),
        &never,
    )
    .unwrap();
    failed += execute(
        &hang,
        &mut sampler_with(watch, Duration::from_millis(500)),
        &mut writer,
        &mut Progress::hidden(1),
        &never,
    )
    .unwrap();

    let mut rows = folder::read_samples(&dir, &plan_of(&jobs)).unwrap();
    rows.sort_by_key(|r| r.plan_index);
    assert_eq!(rows.len(), 10, "one row per sample, the run went on");
    let statuses: Vec<String> = rows.iter().map(|r| r.status.name()).collect();
    let mut want: Vec<&str> = behaviours.iter().map(|(_, s)| *s).collect();
    want.extend(["spawn-failed", "ok"]);
    assert_eq!(statuses, want);
    assert_eq!(failed, 7);

    let panic = &rows[1];
    assert_eq!(panic.exit_code, Some(101));
    assert!(panic.error.as_deref().unwrap().contains("told to panic"));
    assert_eq!(rows[2].signal, Some(9));
    assert_eq!(rows[4].exit_code, Some(3));
    assert!(rows[8]
        .error
        .as_deref()
        .unwrap()
        .contains("/nonexistent/child-x"));
    for ok in [&rows[0], &rows[7], &rows[9]] {
        assert!(ok.get(Figure::WALL).unwrap() > 0);
        assert!(ok.get(Figure::Whole(Whole::MaxrssKib)).unwrap() > 0);
        assert_eq!(ok.get(Figure::INIT_PLUS_OPS), Some(0));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_misbehaviour_is_a_row_with_its_status() {
    if common::in_own_process("misbehaving::every_misbehaviour_is_a_row_with_its_status") {
        return;
    }
    run_all("misbehaving", Watch::Auto);
}

#[test]
fn the_watchdog_fallback_does_the_same() {
    if common::in_own_process("misbehaving::the_watchdog_fallback_does_the_same") {
        return;
    }
    run_all("misbehaving-watchdog", Watch::Watchdog);
}

/// The processes whose command line holds `marker`.
fn processes_holding(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_process_left_behind_spoils_no_later_sample() {
    if common::in_own_process("misbehaving::a_process_left_behind_spoils_no_later_sample") {
        return;
    }
    left_behind("orphan", "orphan");
}

/// A child's `setsid` daemon (a session and group of its own) is killed after its sample too,
/// and outlives neither the sample nor the run.
#[test]
fn a_daemon_in_a_session_of_its_own_spoils_no_later_sample_and_dies() {
    if common::in_own_process(
        "misbehaving::a_daemon_in_a_session_of_its_own_spoils_no_later_sample_and_dies",
    ) {
        return;
    }
    let token = format!("{}x", std::process::id());
    left_behind("daemon", &format!("daemon-{token}"));
    assert_eq!(
        processes_holding(&format!("stray-{token}")),
        Vec::<String>::new()
    );
}

fn left_behind(name: &str, behaviour: &str) {
    let dir = tmp(name);
    let child = common::test_child();
    let mut jobs = vec![job(0, behaviour, &child)];
    // Later samples that run while the stray would still be writing, had it survived.
    jobs.extend((1..30).map(|i| job(i, "ok", &child)));
    let mut sampler = sampler(Watch::Auto);
    let mut writer = SamplesWriter::open(&dir, 0).unwrap();
    let never = |_: usize| None;
    let total = jobs.len() as u64;
    execute(
        &jobs,
        &mut sampler,
        &mut writer,
        &mut Progress::hidden(total),
        &never,
    )
    .unwrap();
    let rows = folder::read_samples(&dir, &plan_of(&jobs)).unwrap();
    let bad: Vec<_> = rows.iter().filter(|r| !r.is_ok()).collect();
    assert!(bad.is_empty(), "{bad:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_flood_of_output_is_cut_while_written() {
    if common::in_own_process("misbehaving::a_flood_of_output_is_cut_while_written") {
        return;
    }
    let dir = tmp("flood");
    let child = common::test_child();
    let jobs = vec![job(0, "flood", &child), job(1, "ok", &child)];
    let mut sampler = sampler(Watch::Auto);
    let mut writer = SamplesWriter::open(&dir, 0).unwrap();
    let never = |_: usize| None;
    execute(
        &jobs,
        &mut sampler,
        &mut writer,
        &mut Progress::hidden(2),
        &never,
    )
    .unwrap();
    let rows = folder::read_samples(&dir, &plan_of(&jobs)).unwrap();
    assert_eq!(rows[0].status.name(), "signal:25", "{:?}", rows[0]);
    assert!(rows[0].error.as_deref().unwrap().contains("256 MiB"));
    assert!(rows[1].is_ok(), "{:?}", rows[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// If the spawner dies while its child runs (it has no timeout of its own then), the runner
/// kills and reaps that child at once, rather than letting it run on unwatched.
#[test]
fn a_child_does_not_outlive_its_dead_spawner() {
    if common::in_own_process("misbehaving::a_child_does_not_outlive_its_dead_spawner") {
        return;
    }
    use spawner::{Request, Spawner};
    let dir = tmp("spawner-death");
    // The child says it runs into a FIFO, so the killer wakes on that write: no polling. Its
    // /proc is its pid namespace's (it cannot name itself as the machine does), so the killer
    // finds it as the process at the bottom of the spawner's tree.
    let fifo = dir.join("child.pid");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path this test owns.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
    // the child runs as an unprivileged user
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fifo, std::fs::Permissions::from_mode(0o666)).unwrap();
    let mut spawner = Spawner::start(&common::spawner()).unwrap();
    let script = format!("echo started > {}; exec sleep 120", fifo.display());
    let request = Request {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        timeout: Duration::from_secs(300),
        memory_limit: 0,
        watch: Watch::Auto,
    };
    let spawner_pid = spawner.pid() as libc::pid_t;
    let watched = fifo.clone();
    let killer = std::thread::spawn(move || {
        // Blocks until the child has opened the FIFO, written and closed it.
        let said = std::fs::read_to_string(&watched).unwrap();
        // the child: the process at the bottom of the spawner's tree, as the machine numbers it
        let mut pid = spawner_pid.to_string();
        while let Some(below) = std::fs::read_dir(format!("/proc/{pid}/task"))
            .ok()
            .and_then(|tasks| {
                tasks.flatten().find_map(|t| {
                    let text = std::fs::read_to_string(t.path().join("children")).ok()?;
                    text.split_whitespace().next().map(str::to_string)
                })
            })
        {
            pid = below;
        }
        // SAFETY: kill(2) on the spawner, which the test's `Spawner` has not reaped.
        unsafe { libc::kill(spawner_pid, libc::SIGKILL) };
        if said.trim() == "started" {
            pid
        } else {
            String::new()
        }
    });
    let reply = spawner.run(&request, &|| false);
    if !killer.is_finished() {
        // The child never wrote (it did not start): a writer's open and close wakes the killer,
        // whose empty pid fails below, rather than the test waiting for ever.
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
    }
    let written = killer.join().unwrap();
    let err = reply.expect_err("the spawner was killed mid-sample");
    assert!(err.to_string().contains("lost the spawner"), "{err}");
    let child: u32 = written
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("the child wrote no pid: {written:?}"));
    assert!(
        !Path::new(&format!("/proc/{child}")).exists(),
        "the child {child} outlived its spawner"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
