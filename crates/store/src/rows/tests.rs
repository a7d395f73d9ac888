//! The readers' tests: rows written as the runner writes them, read back, and every bad field
//! refused with its file, line and column.

use super::*;
use crate::cell::{CellSamples, Samples};
use files::csv_rows::write_rows;
use schema::phases::{Quantity, FIGURES};
use schema::rows::*;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("thaw-rows-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn plan_row(i: u64) -> PlanRow {
    PlanRow {
        plan_index: i,
        block: (i / 2) as u32,
        codec: if i.is_multiple_of(2) { "a" } else { "b" }.into(),
        op: Op::De,
        batch: 10,
        fixture: "users-2kb".into(),
        variant: Variant::PORTABLE,
    }
}

fn sample(i: u64) -> SampleRow {
    let mut row = SampleRow::planned(&plan_row(i));
    for (k, p) in Phase::ALL.iter().enumerate() {
        row.set(Figure::time(*p), Some(100 * (k as u64 + 1) + i));
    }
    let ipo = row.figures.library(Quantity::Ns);
    row.set(Figure::INIT_PLUS_OPS, ipo);
    row.set(Figure::WALL, Some(10_000 + i));
    row.evicted = i.is_multiple_of(3).then_some(true);
    if i == 3 {
        row.status = Status::Signal(6);
        row.figures = Figures::default();
        row.signal = Some(6);
        row.set_error("a, b \"c\"");
    }
    row.checksum = Some(format!("{:016x}", i));
    row
}

#[test]
fn plan_rows_are_written_as_before() {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(plan_row(3)).unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(
        text,
        "plan_index,block,codec,op,batch,fixture,variant\n\
             3,1,b,de,10,users-2kb,portable\n"
    );
}

#[test]
fn a_whole_number_is_read_to_the_last_of_64_bits() {
    let read = |raw: &str| parse_u64(raw.as_bytes(), "n").ok();
    assert_eq!(read("0"), Some(0));
    assert_eq!(read("+7"), Some(7));
    assert_eq!(read("0x1f"), Some(31));
    assert_eq!(read("9999999999999999999"), Some(9_999_999_999_999_999_999));
    assert_eq!(read("18446744073709551615"), Some(u64::MAX));
    assert_eq!(read("000000000000000000000042"), Some(42));
    for bad in [
        "",
        "+",
        "-1",
        "1a",
        " 1",
        "1.0",
        "18446744073709551616",
        "99999999999999999999",
    ] {
        assert_eq!(read(bad), None, "{bad:?}");
    }
}

#[test]
fn a_figure_set_is_read_back_and_an_unset_one_is_absent() {
    let mut figures = Figures::default();
    let all = Figure::all();
    figures.set(all[0], Some(5));
    figures.set(all[FIGURES - 1], Some(u64::MAX));
    figures.set(Figure::WALL, Some(0));
    assert_eq!(figures.get(all[0]), Some(5));
    assert_eq!(figures.get(all[FIGURES - 1]), Some(u64::MAX));
    assert_eq!(figures.get(Figure::WALL), Some(0));
    assert_eq!(figures.get(all[1]), None);
    let wall = Figure::WALL.index();
    assert_eq!(
        figures.present().collect::<Vec<_>>(),
        vec![(0, 5), (wall, 0), (FIGURES - 1, u64::MAX)]
    );
    // a figure above 10^15 is refused wherever it is
    assert!(figures.check().is_err());
    figures.set(all[FIGURES - 1], None);
    assert!(figures.check().is_ok());
    figures.set(all[0], None);
    figures.set(Figure::WALL, None);
    assert_eq!(figures, Figures::default());
}

#[test]
fn a_hinted_cell_number_is_the_looked_up_one() {
    let rec =
        |codec: &str, batch: &str| Record::from(vec![codec, "de", batch, "users-2kb", "portable"]);
    let key = [0, 1, 2, 3, 4];
    let mut cells = Cells::default();
    // a hint met with the cell it held last, with another cell, and a spelling of the
    // same cell in other bytes (`+10`): always the number a look-up gives
    let rows = [
        (rec("a", "10"), 0, 0),
        (rec("a", "10"), 0, 0),
        (rec("b", "10"), 0, 1),
        (rec("a", "10"), 1, 0),
        (rec("b", "10"), 0, 1),
        (rec("a", "+10"), 0, 0),
        (rec("a", "10"), 0, 0),
    ];
    for (r, hint, want) in rows {
        assert_eq!(cells.number_hinted(&r, key, hint).unwrap(), want);
    }
    assert_eq!(cells.keys.len(), 2);
    assert!(cells.number_hinted(&rec("a b", "10"), key, 0).is_err());
    assert!(cells.number_hinted(&rec("a", "0"), key, 1).is_err());
}

#[test]
fn a_columns_values_are_those_sample_by_sample() {
    let mut cell = CellSamples::default();
    for (i, v) in [Some(3), None, Some(300), Some(2), None, Some(70_000)]
        .into_iter()
        .enumerate()
    {
        let mut figures = Figures::default();
        figures.set(Figure::WALL, v);
        let status = if i == 2 { Status::Timeout } else { Status::Ok };
        cell.push(i as u32, status, &figures);
    }
    let by_sample: Vec<u64> = cell
        .ok()
        .filter_map(|i| cell.get(Figure::WALL, i))
        .collect();
    assert_eq!(cell.values(Figure::WALL), by_sample);
    assert_eq!(by_sample, vec![3, 2, 70_000]);
    assert!(cell.values(Figure::INIT_PLUS_OPS).is_empty());
}

#[test]
fn a_compact_plan_finds_each_index_and_counts_each_cell() {
    let rows: Vec<PlanRow> = (4..10).map(plan_row).collect();
    let plan = Plan::of(&rows);
    assert_eq!(plan.len(), 6);
    assert_eq!(plan.get(3), None);
    assert_eq!(plan.get(10), None);
    let (position, block, cell) = plan.get(7).unwrap();
    assert_eq!((position, block, cell), (3, rows[3].block, &rows[3].cell()));
    assert_eq!(plan.count(), PlanCount::of(&rows));
}

#[test]
fn sample_rows_round_trip_and_store_by_cell() {
    let dir = tmp("round");
    let path = dir.join("samples.csv");
    let rows: Vec<SampleRow> = (0..6).map(sample).collect();
    write_rows(&path, &rows).unwrap();
    let header = std::fs::read_to_string(&path).unwrap();
    let header = header.lines().next().unwrap();
    assert_eq!(header, sample_columns().join(","));
    assert!(header
        .starts_with("plan_index,block,codec,op,batch,fixture,variant,status,spawn_to_main_ns,"));
    let plan: Vec<PlanRow> = (0..6).map(plan_row).collect();
    let (back, note) = read_samples(&path, Some(&plan)).unwrap();
    assert_eq!((back, note), (rows.clone(), None));
    let (store, _) = Samples::read(&path, Some(&Plan::of(&plan)), &[Figure::WALL]).unwrap();
    assert_eq!(store, Samples::from_rows(&rows));
    let a = &store.cells[&rows[0].cell()];
    assert_eq!(a.blocks, [0, 1, 2]);
    assert_eq!(a.values(Figure::WALL), [10_000, 10_002, 10_004]);
    let b = &store.cells[&rows[1].cell()];
    assert_eq!(b.ok_count(), 2, "the signal:6 sample is not ok");
    assert_eq!(b.get(Figure::WALL, 1), None);
    assert_eq!(b.by_block(Figure::WALL), [(0, 10_001), (2, 10_005)]);
    assert_eq!(store.first_seen, [rows[0].cell(), rows[1].cell()]);
}

#[test]
fn rows_that_contradict_the_plan_or_repeat_are_refused() {
    let dir = tmp("plan");
    let path = dir.join("samples.csv");
    let plan: Vec<PlanRow> = (0..6).map(plan_row).collect();
    let mut relabelled = sample(2);
    relabelled.codec = "b".into();
    for (rows, said) in [
        (
            vec![sample(0), sample(1), sample(1)],
            "plan index 1 has a row already",
        ),
        (
            vec![sample(0), relabelled],
            "plan index 2 is users-2kb de ×10 a (portable)",
        ),
        (
            vec![
                sample(0),
                SampleRow {
                    plan_index: 9,
                    ..sample(1)
                },
            ],
            "plan_index 9 is not in plan.csv",
        ),
    ] {
        write_rows(&path, &rows).unwrap();
        let e = format!("{:#}", read_samples(&path, Some(&plan)).unwrap_err());
        assert!(e.contains(said), "{e}");
        assert!(e.contains("samples.csv: line "), "{e}");
    }
    // Without a plan, a repeated index is still refused.
    write_rows(&path, &[sample(0), sample(0)]).unwrap();
    let e = format!("{:#}", read_samples(&path, None).unwrap_err());
    assert!(e.contains("has a row already"), "{e}");
}

#[test]
fn a_bad_field_is_an_error_naming_file_line_and_column() {
    let dir = tmp("bad");
    let path = dir.join("samples.csv");
    let rows: Vec<SampleRow> = (0..3).map(sample).collect();
    write_rows(&path, &rows).unwrap();
    let good = std::fs::read_to_string(&path).unwrap();
    let third = good.lines().nth(2).unwrap().to_string();
    let fields: Vec<&str> = third.split(',').collect();
    let header: Vec<&str> = good.lines().next().unwrap().split(',').collect();
    let long = "x".repeat(65);
    for (column, value, said) in [
        ("batch", "ten", "batch: `ten` is not a whole number"),
        ("batch", "0", "batch 0: a child performs 1 to 1000000"),
        (
            "batch",
            "4294967296",
            "batch: `4294967296` is larger than 32 bits",
        ),
        ("op", "parse", "op: unknown op `parse`"),
        ("variant", "Fast", "variant: unknown variant `Fast`"),
        ("codec", "a\u{1b}[2J", "codec `a"),
        ("codec", &long, "a name is 1 to 64 characters"),
        ("status", "fine", "status: unknown status `fine`"),
        ("wall_ns", "-5", "wall_ns: `-5` is not a whole number"),
        (
            "wall_ns",
            "1000000000000001",
            "wall_ns = 1000000000000001 is above 10^15",
        ),
        ("wall_ns", "1", "is less than init_plus_ops_ns"),
        ("user_us", "1.5", "user_us: `1.5` is not a whole number"),
        ("exit_code", "x", "exit_code: `x` is not a valid value"),
        ("evicted", "yes", "evicted: `yes` is not a valid value"),
        ("checksum", "zz", "checksum `zz`: 16 hex digits"),
    ] {
        let i = header.iter().position(|h| *h == column).unwrap();
        let mut spoiled = fields.clone();
        spoiled[i] = value;
        let text = good.replacen(&third, &spoiled.join(","), 1);
        std::fs::write(&path, text).unwrap();
        let e = format!("{:#}", read_samples(&path, None).unwrap_err());
        assert!(e.contains("samples.csv: line 3: "), "{e}");
        assert!(e.contains(said), "{column}: {e}");
        assert!(!e.contains('\u{1b}'), "{e}");
    }
    // A required figure's column missing: named.
    let without: String = good
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(header.iter().position(|h| *h == "wall_ns").unwrap());
            f.join(",") + "\n"
        })
        .collect();
    std::fs::write(&path, without).unwrap();
    let e = format!(
        "{:#}",
        Samples::read(&path, None, &[Figure::WALL]).unwrap_err()
    );
    assert!(
        e.contains("the header line lacks the column wall_ns"),
        "{e}"
    );
}

/// A samples.csv written before the `model` phase existed reads, with a model phase of 0
/// (its `fixture` ran from `main`), even where the model's figures are required.
#[test]
fn a_file_from_before_the_model_phase_reads_with_its_model_at_zero() {
    let dir = tmp("before-model");
    let path = dir.join("samples.csv");
    let mut row = sample(0);
    row.set(Figure::time(Phase::Model), Some(0));
    write_rows(&path, &[row.clone()]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "model_ns").unwrap();
    let older: String = text
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(at);
            f.join(",") + "\n"
        })
        .collect();
    std::fs::write(&path, older).unwrap();
    let model = Figure::time(Phase::Model);
    let (read, _) = read_samples(&path, None).unwrap();
    assert_eq!(read[0].get(model), Some(0));
    assert_eq!(read[0].get(Figure::WALL), row.get(Figure::WALL));
    assert!(Samples::read(&path, None, &[model]).is_ok());
}

#[test]
fn errors_are_cut_and_plans_are_checked() {
    let mut row = sample(0);
    row.set_error("e".repeat(5000));
    assert!(row.error.as_ref().unwrap().chars().count() <= MAX_ERROR);
    let dir = tmp("plan-read");
    let path = dir.join("plan.csv");
    write_rows(&path, &[plan_row(0), plan_row(2)]).unwrap();
    let e = format!("{:#}", read_plan(&path).unwrap_err());
    assert!(e.contains("plan_index 2 where 1 comes next"), "{e}");
    write_rows(
        &path,
        &[PlanRow {
            batch: 0,
            ..plan_row(0)
        }],
    )
    .unwrap();
    assert!(format!("{:#}", read_plan(&path).unwrap_err()).contains("batch 0"));
}
