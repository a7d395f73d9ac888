//! A child that panics, hangs, prints garbage, exits non-zero, dies by a signal, prints a wrong
//! checksum or cannot be spawned is recorded with its status, and the run goes on to the end.

use cold::folder::{self, SamplesWriter};
use cold::process::Watch;
use cold::progress::Progress;
use cold::sampler::{execute, Job, Sampler};
use schema::run_folder::PlanRow;
use schema::{Drops, Op, Variant};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-cold-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    folder::create(&d).unwrap();
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
            fixture: behaviour.into(),
            variant: Variant::Portable,
        },
        child: child.to_path_buf(),
        fixture_file: "/dev/null".into(),
        seed: 1,
        drops: Drops::AfterOps,
        expected: 0,
    }
}

fn run_all(name: &str, watch: Watch) {
    let dir = tmp(name);
    let child = PathBuf::from(env!("CARGO_BIN_EXE_test-child"));
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

    let spawner = Path::new(env!("CARGO_BIN_EXE_cold-spawner"));
    // Long enough for a debug build to print a panic with its backtrace on a busy machine.
    let mut sampler = Sampler::new(spawner, Duration::from_secs(3), false)
        .unwrap()
        .with_watch(watch);
    let mut writer = SamplesWriter::open(&dir).unwrap();
    let started = Instant::now();
    let failed = execute(&jobs, &mut sampler, &mut writer, &mut Progress::hidden(10)).unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));

    let rows = folder::read_samples(&dir).unwrap();
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
        assert!(ok.wall_ns.unwrap() > 0 && ok.maxrss_kib.unwrap() > 0);
        assert_eq!(ok.init_plus_ops_ns, Some(0));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_misbehaviour_is_a_row_with_its_status() {
    run_all("misbehaving", Watch::Auto);
}

#[test]
fn the_watchdog_fallback_does_the_same() {
    run_all("misbehaving-watchdog", Watch::Watchdog);
}
