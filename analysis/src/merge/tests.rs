//! The merge's rules on synthetic shards, in memory: what it joins, and each refusal's reason.

use super::*;
use crate::synth::{synth, SynthOptions};

/// Blocks of the synthetic runs here: 7, so three shards take 2, 2 and 3.
const BLOCKS: usize = 7;

fn options(seed: u64) -> SynthOptions {
    SynthOptions {
        samples: BLOCKS * crate::synth::cells_per_build(),
        seed,
        fail_rate: 0.01,
        ..SynthOptions::default()
    }
}

fn part_of(opts: SynthOptions, from: &str) -> Part {
    let s = synth(opts);
    Part {
        from: from.into(),
        manifest_bytes: serde_json::to_vec(&s.manifest).unwrap(),
        manifest: s.manifest,
        plan: s.plan,
        samples: s.samples,
        notes: Vec::new(),
        last_change: None,
    }
}

/// Shard `k` of `n` of the run of `seed`, on `machine`.
fn part(k: u32, n: u32, seed: u64, machine: &str) -> Part {
    part_of(
        SynthOptions {
            shard: Some(Shard { index: k, count: n }),
            machine: Some(machine.into()),
            ..options(seed)
        },
        &format!("{machine}/shard-{k}"),
    )
}

fn refused(parts: Vec<Part>) -> String {
    format!("{:#}", merge(parts, vec!["merge".into()]).unwrap_err())
}

#[test]
fn three_shards_make_the_whole_run() {
    let whole = synth(options(3));
    let parts = vec![part(3, 3, 3, "A"), part(1, 3, 3, "A"), part(2, 3, 3, "A")];
    let m = merge(parts, vec!["analysis".into(), "merge".into()]).unwrap();
    assert_eq!(m.plan, whole.plan);
    assert_eq!(m.samples, whole.samples);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let man = &m.manifest;
    assert_eq!(man.settings, whole.manifest.settings);
    assert_eq!(man.samples_planned, whole.plan.len());
    assert_eq!(man.command_line, ["analysis", "merge"]);
    assert!(man.finished);
    // 7 blocks in 3: 0..2, 2..4, 4..7; each shard's plan indices, in shard order
    let cells = crate::synth::cells_per_build() as u64;
    let got: Vec<(String, (u64, u64))> = man
        .shards
        .iter()
        .map(|s| (s.shard.to_string(), s.plan_indexes))
        .collect();
    assert_eq!(
        got,
        [
            ("1/3".to_string(), (0, 2 * cells)),
            ("2/3".to_string(), (2 * cells, 4 * cells)),
            ("3/3".to_string(), (4 * cells, 7 * cells)),
        ]
    );
    // one machine: the merged run says it
    assert_eq!(man.machine.cpu_model.as_deref(), Some("A"));
    assert_eq!(
        m.kept.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["1-of-3.json", "2-of-3.json", "3-of-3.json"]
    );
}

#[test]
fn machines_are_recorded_and_several_leave_the_run_without_one() {
    let m = merge(
        vec![part(1, 2, 3, "A"), part(2, 2, 3, "B")],
        vec!["merge".into()],
    )
    .unwrap();
    let machines: Vec<Option<&str>> = m
        .manifest
        .shards
        .iter()
        .map(|s| s.machine.cpu_model.as_deref())
        .collect();
    assert_eq!(machines, [Some("A"), Some("B")]);
    assert_eq!(m.manifest.machine, Machine::default());
}

#[test]
fn folders_that_are_not_the_parts_of_one_plan_are_refused_with_the_reason() {
    let whole = part_of(options(3), "whole");
    let e = refused(vec![whole, part(1, 2, 3, "A")]);
    assert!(e.starts_with("whole is not a shard"), "{e}");

    let e = refused(vec![part(1, 2, 3, "A"), part(2, 3, 3, "A")]);
    assert!(
        e.contains("is shard 2/3 and A/shard-1 is shard 1/2: parts of different splits"),
        "{e}"
    );

    let e = refused(vec![part(1, 2, 3, "A"), part(1, 2, 3, "B")]);
    assert!(e.contains("are both shard 1/2"), "{e}");

    let e = refused(vec![part(1, 3, 3, "A"), part(3, 3, 3, "A")]);
    assert!(
        e.starts_with("shard 2/3 of the split into 3 not given"),
        "{e}"
    );

    // another seed: another run
    let e = refused(vec![part(1, 2, 3, "A"), part(2, 2, 4, "A")]);
    assert!(
        e.contains("A/shard-2 does not belong with A/shard-1")
            && e.contains("settings.seed: 4 here, 3 in the first shard"),
        "{e}"
    );

    // one machine, two builds
    let mut b = part(2, 2, 3, "A");
    b.manifest.children[3].sha256 = "9".repeat(64);
    let e = refused(vec![part(1, 2, 3, "A"), b]);
    assert!(
        e.contains("ran on one machine with different children"),
        "{e}"
    );
    // …which two machines may have
    let mut b = part(2, 2, 3, "B");
    b.manifest.children[3].sha256 = "9".repeat(64);
    let m = merge(vec![part(1, 2, 3, "A"), b], vec![]).unwrap();
    assert!(
        m.manifest.notes[0].contains("up to 1 of the"),
        "{:?}",
        m.manifest.notes
    );

    // a plan that is not its shard's blocks
    let mut b = part(2, 2, 3, "A");
    b.plan.truncate(b.plan.len() - 1);
    b.manifest.samples_planned -= 1;
    let e = refused(vec![part(1, 2, 3, "A"), b]);
    assert!(e.contains("hold different cells"), "{e}");
    let mut b = part(2, 2, 3, "A");
    b.manifest.samples_planned += 1;
    let e = refused(vec![part(1, 2, 3, "A"), b]);
    assert!(e.contains("its manifest plans"), "{e}");
}

#[test]
fn an_unfinished_shard_is_merged_with_a_warning() {
    let mut b = part(2, 2, 3, "A");
    b.manifest.finished = false;
    b.samples.truncate(5);
    let m = merge(vec![part(1, 2, 3, "A"), b], vec![]).unwrap();
    assert!(!m.manifest.finished && m.manifest.finished_utc.is_none());
    assert_eq!(m.warnings.len(), 1);
    assert!(
        m.warnings[0].starts_with("A/shard-2 (shard 2/2) has not finished: 5 of its"),
        "{}",
        m.warnings[0]
    );
}

#[test]
fn a_merged_folder_is_written_once_and_reads_back_as_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("thaw-merge-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m = merge(vec![part(1, 2, 3, "A"), part(2, 2, 3, "A")], vec![]).unwrap();
    write(&dir, &m).unwrap();
    let run = crate::inputs::run::load_run(&dir).unwrap();
    assert_eq!(run.samples.len(), m.samples.len());
    assert_eq!(run.plan.len(), m.plan.len());
    assert!(dir.join("shards/2-of-2.json").is_file());
    let e = format!("{:#}", write(&dir, &m).unwrap_err());
    assert!(e.contains("is not empty"), "{e}");
    // the shards read back from their folders merge alike
    let shard = dir.join("s1");
    let s = synth(SynthOptions {
        shard: Some(Shard { index: 1, count: 2 }),
        machine: Some("A".into()),
        ..options(3)
    });
    crate::inputs::run::write_run(&shard, &s.manifest, &s.plan, &s.samples).unwrap();
    let p = read_part(&shard).unwrap();
    assert_eq!((p.plan, p.samples), (s.plan, s.samples));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shards_sessions_run_from_each_start_to_its_last_sample() {
    let mut m = part(1, 2, 1, "A").manifest;
    let t = |s: &str| format!("2026-12-04T10:{s}Z");
    let pair = |a: &str, b: &str| (t(a), t(b));
    m.started_utc = t("00:00");
    m.resumed_utc = vec![t("05:00"), t("09:00")];
    m.stopped_utc = vec![t("01:00"), t("06:00")];
    m.finished = true;
    m.finished_utc = Some(t("10:00"));
    let whole = [
        pair("00:00", "01:00"),
        pair("05:00", "06:00"),
        pair("09:00", "10:00"),
    ];
    assert_eq!(sessions(&m, None), whole);
    // unfinished: the last session ends at samples.csv's last change, or at its start
    m.finished = false;
    m.finished_utc = None;
    assert_eq!(sessions(&m, Some(&t("09:30")))[2], pair("09:00", "09:30"));
    assert_eq!(sessions(&m, None)[2], pair("09:00", "09:00"));
    // a manifest without stopped_utc (an older thaw): each session ends where the next starts
    m.stopped_utc.clear();
    assert_eq!(
        sessions(&m, None)[..2],
        [pair("00:00", "05:00"), pair("05:00", "09:00")]
    );
}
