//! The answer's behaviour on runs with a known truth: a cheap first call against a cheap later
//! call, two identical codecs (a tie, never a winner), a planted crossing (its interval covers it),
//! styles apart, and the whole process against init + operations.

use super::*;
use form::Basis;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schema::phases::{Phase, Whole};
use schema::rows::PlanRow;
use schema::Status;

const DRAWS: Draws = Draws {
    resamples: 400,
    seed: 20261130,
};

fn key(codec: &str, batch: u32) -> CellKey {
    CellKey {
        fixture: "users-2kb".into(),
        op: Op::De,
        variant: Variant::PORTABLE,
        batch,
        codec: codec.into(),
    }
}

/// A sample of `codec` at `batch` in `block`: init + operations `lib`, and a whole process of
/// `outside` more (its input built in 1 µs of it).
fn row(codec: &str, batch: u32, block: u32, lib: f64, outside: f64) -> SampleRow {
    let plan = PlanRow {
        plan_index: 0,
        block,
        codec: codec.into(),
        op: Op::De,
        batch,
        fixture: "users-2kb".into(),
        variant: Variant::PORTABLE,
    };
    let mut r = SampleRow::planned(&plan);
    r.status = Status::Ok;
    r.set(Figure::Whole(Whole::InitPlusOps), Some(lib.round() as u64));
    r.set(Figure::time(Phase::Fixture), Some(1_000));
    r.set(Figure::WALL, Some((lib + outside + 1_000.0).round() as u64));
    r
}

/// 20 blocks of `codec` at each batch, costing `cost(batch)` with ±1% by block, and a process
/// 500 µs more.
fn rows(codec: &str, cost: impl Fn(f64) -> f64) -> Vec<SampleRow> {
    let mut out = Vec::new();
    for batch in [1u32, 10, 100] {
        for block in 0..20u32 {
            let noise = 1.0 + 0.001 * (f64::from(block) - 9.5);
            out.push(row(
                codec,
                batch,
                block,
                cost(f64::from(batch)) * noise,
                500_000.0,
            ));
        }
    }
    out
}

fn lineup(typed: &[&str], dom: &[&str], floor: Option<&str>) -> Lineup {
    let roles = typed
        .iter()
        .map(|c| (*c, Style::Typed, floor))
        .chain(dom.iter().map(|c| (*c, Style::Dom, floor)))
        .chain(floor.map(|f| (f, Style::Baseline, None)));
    Lineup::from_roles(roles)
}

fn running(answers: &[Answer]) -> Vec<&Answer> {
    answers
        .iter()
        .filter(|a| a.basis == Basis::Running)
        .collect()
}

#[test]
fn a_cold_run_answers_which_codec_is_cheapest_where_and_leaves_out_the_floor() {
    // serde_json: a cheap first call, 7 µs a call after; simd-json: 50 µs first, 5 µs after
    let mut all = rows("serde_json", |n| 20_000.0 + 7_000.0 * (n - 1.0));
    all.extend(rows("simd-json", |n| 50_000.0 + 5_000.0 * (n - 1.0)));
    // the floor is cheapest everywhere and must not be the answer
    all.extend(rows("noop", |n| 100.0 * n));
    let samples = Samples::from_rows(&all);
    let answers = from_batches(
        &samples,
        &lineup(&["serde_json", "simd-json"], &[], Some("noop")),
        DRAWS,
    );
    assert_eq!(answers.len(), 2, "one per basis: {answers:?}");
    let a = running(&answers)[0];
    assert_eq!(
        (
            a.source,
            a.last,
            a.variant.as_deref(),
            a.style,
            a.only_style
        ),
        (Source::Batches, 100, None, Style::Typed, true)
    );
    let names: Vec<&str> = a.stretches.iter().map(|s| s.codec.as_str()).collect();
    assert_eq!(names, ["serde_json", "simd-json"]);
    // 20,000 + 7,000 (n − 1) = 50,000 + 5,000 (n − 1) at n = 16, between the batches 10 and
    // 100 (read linearly between them: 83,000 and 713,000 against 95,000 and 545,000)
    let s = &a.stretches[1];
    let exact: f64 = 10.0 + 90.0 * 12_000.0 / (12_000.0 + 168_000.0);
    assert_eq!(s.from, exact.ceil() as u64, "{a:?}");
    assert!(
        s.parted,
        "serde_json is the cheaper at 1 and 10, simd-json at 100: {a:?}"
    );
    let (lo, hi) = s.interval.unwrap();
    assert!(lo.unwrap() <= s.from && s.from <= hi.unwrap(), "{a:?}");
    let at: Vec<(u64, &str)> = a.at.iter().map(|c| (c.n, c.codec.as_str())).collect();
    assert_eq!(
        at,
        [(1, "serde_json"), (10, "serde_json"), (100, "simd-json")]
    );
    assert!(a.at.iter().all(|c| c.tied.is_empty()), "{a:?}");
    assert!((a.cheapest_at(100).unwrap().median_ns - 545_000.0).abs() < 1.0);
    assert!(
        a.line().starts_with(
            "de users-2kb, typed (the only style measured), in a running program: serde_json is cheapest from 1 to 15 operations; simd-json from 16 ["
        ),
        "{}",
        a.line()
    );
}

#[test]
fn the_whole_process_counts_what_a_program_pays_outside_the_library() {
    // `heavy` is the cheaper library (20 µs against 25 µs) but loads a model of 2 ms before
    // main: in a running program it wins, as a whole process it loses
    let mut all = Vec::new();
    for block in 0..20u32 {
        let noise = 1.0 + 0.001 * (f64::from(block) - 9.5);
        all.push(row(
            "heavy",
            1,
            block,
            20_000.0 * noise,
            2_500_000.0 * noise,
        ));
        all.push(row("light", 1, block, 25_000.0 * noise, 500_000.0 * noise));
        all.push(row("floor", 1, block, 100.0, 480_000.0 * noise));
    }
    let samples = Samples::from_rows(&all);
    let answers = from_batches(
        &samples,
        &lineup(&["heavy", "light"], &[], Some("floor")),
        DRAWS,
    );
    let pick = |basis: Basis| {
        let a = answers.iter().find(|a| a.basis == basis).unwrap();
        (
            a.at[0].codec.clone(),
            a.at[0].over_floor_ns,
            a.floors.clone(),
        )
    };
    assert_eq!(pick(Basis::Running), ("heavy".into(), None, vec![]));
    let (codec, over, floors) = pick(Basis::Process);
    assert_eq!(
        (codec.as_str(), floors),
        ("light", vec!["floor".to_string()])
    );
    // light's process: 25 µs + 500 µs + 1 µs of input, less its input, less the floor's 480.1 µs
    let over = over.unwrap();
    assert!((over - 44_900.0).abs() < 1_000.0, "{over}");
}

#[test]
fn typed_and_dom_codecs_are_answered_apart() {
    let mut all = rows("serde_json", |n| 20_000.0 + 7_000.0 * n);
    all.extend(rows("miniserde", |n| 30_000.0 + 9_000.0 * n));
    all.extend(rows("sonic-rs-value", |n| 5_000.0 + 1_000.0 * n));
    let samples = Samples::from_rows(&all);
    let answers = from_batches(
        &samples,
        &lineup(&["serde_json", "miniserde"], &["sonic-rs-value"], None),
        DRAWS,
    );
    let running = running(&answers);
    assert_eq!(running.len(), 2);
    assert_eq!(
        (running[0].style, running[0].stretches[0].codec.as_str()),
        (Style::Typed, "serde_json"),
        "the DOM is cheaper, but a typed user never picks it"
    );
    assert_eq!(running[1].style, Style::Dom);
    assert!(!running[0].only_style && !running[1].only_style);
    assert!(running[1]
        .line()
        .contains(", DOM, in a running program: sonic-rs-value"));
}

/// A batch run of two codecs, `a` and `b`, 30 blocks at 1, 10 and 100, each sample's cost times
/// a lognormal noise of 6% and its block's drift of 2%.
fn noisy_run(seed: u64, a: impl Fn(f64) -> f64, b: impl Fn(f64) -> f64) -> Samples {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut normal = move || {
        let u1: f64 = 1.0 - rng.random::<f64>();
        let u2: f64 = rng.random::<f64>();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    };
    let mut all = Vec::new();
    for block in 0..30u32 {
        let drift = (0.02 * normal()).exp();
        for batch in [1u32, 10, 100] {
            let n = f64::from(batch);
            for (codec, cost) in [("a", a(n)), ("b", b(n))] {
                let v = cost * drift * (0.06 * normal()).exp();
                all.push(row(codec, batch, block, v, 500_000.0));
            }
        }
    }
    Samples::from_rows(&all)
}

#[test]
fn two_identical_codecs_are_named_a_tie_and_never_the_cheapest_at_every_count() {
    // the synthetic runs: 30 µs + 5 µs an operation for both, 6% noise, 30 blocks
    let cost = |n: f64| 30_000.0 + 5_000.0 * n;
    let (mut ties, seeds) = (0, 40);
    for seed in 0..seeds {
        let samples = noisy_run(seed, cost, cost);
        let answers = from_batches(&samples, &lineup(&["a", "b"], &[], None), DRAWS);
        let a = running(&answers)[0];
        let line = a.line();
        assert!(!line.contains("at every count"), "seed {seed}: {line}");
        if a.at.iter().any(|c| !c.tied.is_empty()) {
            assert!(line.contains(" tie at "), "seed {seed}: {line}");
            ties += 1;
        }
    }
    eprintln!("a tie named in {ties} of {seeds} seeds");
    assert!(
        ties * 10 >= seeds * 9,
        "a tie named in {ties} of {seeds} seeds"
    );
}

#[test]
fn a_planted_crossing_is_stated_and_its_interval_covers_it_in_nine_seeds_of_ten() {
    // a: 30 µs + 5 µs an operation; b: 125 µs + 0 µs: equal at n = 19 (30 + 5n = 125)…
    // b = 125 + 0.25 n makes the crossing 20: 30 + 5n = 125 + 0.25n → n = 20
    let a = |n: f64| 30_000.0 + 5_000.0 * n;
    let b = |n: f64| 125_000.0 + 250.0 * n;
    let (mut covered, seeds) = (0usize, 40u64);
    for seed in 0..seeds {
        let samples = noisy_run(seed, a, b);
        let answers = from_batches(&samples, &lineup(&["a", "b"], &[], None), DRAWS);
        let ans = running(&answers)[0];
        let s = ans.switches().next();
        let s = s.unwrap_or_else(|| panic!("seed {seed}: no switch stated: {}", ans.line()));
        assert_eq!(s.codec, "b");
        if let Some((Some(lo), Some(hi))) = s.interval {
            covered += usize::from(lo <= 20 && 20 <= hi);
        }
    }
    eprintln!("the planted crossing covered in {covered} of {seeds} seeds");
    assert!(
        covered as u64 * 10 >= seeds * 9,
        "covered in {covered} of {seeds} seeds"
    );
}

#[test]
fn a_curve_run_answers_on_the_reads_every_codec_has() {
    let curve = |codec: &str, first: f64, per: f64| Curve {
        key: key(codec, 1000),
        ops: vec![1, 10, 100, 1000],
        processes: (0..10)
            .map(|b| {
                let costs = [1.0, 10.0, 100.0, 1000.0]
                    .iter()
                    .map(|n| first + per * (n - 1.0) + f64::from(b))
                    .collect();
                (b, costs)
            })
            .collect(),
    };
    let curves = [
        curve("kotlinx", 30e6, 2_000.0),
        curve("fory", 200e6, 1_000.0),
    ];
    let answers = from_curves(&curves, &Lineup::default(), DRAWS);
    assert_eq!(answers.len(), 1);
    let a = &answers[0];
    assert_eq!((a.source, a.basis), (Source::Curve, Basis::Running));
    assert_eq!(
        a.stretches.len(),
        1,
        "kotlinx throughout up to 1,000: {a:?}"
    );
    assert_eq!(a.stretches[0].codec, "kotlinx");
}

#[test]
fn curves_join_their_ok_samples_by_plan_index() {
    let mut rows = rows("serde_json", |n| n);
    rows.truncate(3);
    for (i, r) in rows.iter_mut().enumerate() {
        r.plan_index = i as u64;
        r.batch = 3;
    }
    rows[2].status = Status::Crash;
    let row = |i: u64, cost: Vec<u64>| CurveRow {
        plan_index: i,
        clock_1000_ns: 20,
        ops: vec![1, 2, 3],
        cost_ns: cost,
    };
    let curves = BTreeMap::from([
        (0, row(0, vec![10, 20, 30])),
        (1, row(1, vec![11, 21, 31])),
        (2, row(2, vec![12, 22, 32])),
        (9, row(9, vec![1, 2, 3])),
    ]);
    let got = curves_of(&rows, &curves);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].ops, [1, 2, 3]);
    // samples 0 and 1 (blocks 0 and 1); the crashed sample and the curve without a row out
    assert_eq!(
        got[0].processes,
        [(0, vec![10.0, 20.0, 30.0]), (1, vec![11.0, 21.0, 31.0])]
    );
}

#[test]
fn the_same_run_gives_the_same_answer_and_another_build_is_named() {
    let mut all = rows("serde_json", |n| 20_000.0 + 7_000.0 * (n - 1.0));
    all.extend(rows("simd-json", |n| 50_000.0 + 5_000.0 * (n - 1.0)));
    let mut native = rows("serde_json", |n| 19_000.0 + 7_000.0 * (n - 1.0));
    for r in &mut native {
        r.variant = Variant::parse("native").unwrap();
    }
    all.extend(native);
    let samples = Samples::from_rows(&all);
    let one = from_batches(&samples, &Lineup::default(), DRAWS);
    assert_eq!(one, from_batches(&samples, &Lineup::default(), DRAWS));
    let named: Vec<Option<&str>> = running(&one).iter().map(|a| a.variant.as_deref()).collect();
    assert_eq!(named, [Some("native"), Some("portable")]);
}

#[test]
fn a_lineup_reads_styles_and_floors_from_the_manifest() {
    let entry = |id: &str, style: Style, runtime: Option<&str>, floor: Option<&str>| CodecEntry {
        id: id.into(),
        library: id.into(),
        version: "1".into(),
        style,
        output: schema::OutputMode::ReusedBuffer,
        runtime: runtime.map(String::from),
        runtime_version: None,
        pair: None,
        floor: floor.map(String::from),
    };
    let l = Lineup::of(&[
        entry("noop", Style::Baseline, None, None),
        entry("serde_json", Style::Typed, None, None),
        entry("go-floor", Style::Baseline, Some("go"), None),
        entry("goccy", Style::Typed, Some("go"), None),
        entry(
            "gson-common",
            Style::Typed,
            Some("jvm"),
            Some("jvm-floor-common"),
        ),
        entry("jiter", Style::Dom, None, None),
    ]);
    assert_eq!(l.style("noop"), None);
    assert_eq!(l.style("jiter"), Some(Style::Dom));
    assert_eq!(l.floor("serde_json"), Some("noop"));
    assert_eq!(l.floor("goccy"), Some("go-floor"));
    assert_eq!(l.floor("gson-common"), Some("jvm-floor-common"));
}
