//! The forked warm figures: walks `<warm>/forks/<variant>/fork-<k>/` (criterion's output of one
//! process per cell and fork, read by the criterion reader) and makes each cell's figure across
//! its processes: the median of the processes' medians, with the distribution-free interval
//! across processes ([`stats::median_interval::interval_or_range`]), and the same of the
//! processes' fastest samples. Each process's own criterion estimate is kept as a detail, with its
//! fork round, from which [`paired_ratio`] pairs two cells within rounds. The variant's
//! `manifest.json` names the allocator.

use super::criterion::{load_criterion, Fastest, Forks, WarmEstimate};
use anyhow::{Context, Result};
use schema::warm_files::{ForksManifest, FORKS_MANIFEST};
use schema::{Op, Variant};
use std::collections::BTreeMap;
use std::path::Path;

/// The interval's level across processes (reached from 6 processes; below, the whole range).
pub(crate) const LEVEL: f64 = 0.95;

/// The most thaw reads of a forks manifest.
const MANIFEST_LIMIT: u64 = 16 * 1024 * 1024;

/// One figure per cell and variant under `root` (`<warm>/forks`), sorted, and notes about what
/// was skipped. `None` when `root` does not exist.
pub(crate) fn load_forks(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    if !root.is_dir() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (variant, dir) in subfolders(root, |name| Variant::parse(name).ok())? {
        let manifest = read_manifest(&dir);
        let allocator = match &manifest {
            Ok(m) => Some(m.allocator),
            Err(e) => {
                notes.push(format!(
                    "{e:#}: the allocator of {variant}'s forks is not known"
                ));
                None
            }
        };
        // per cell: the fork round of each process, and its estimate
        type Processes = (Vec<u32>, Vec<WarmEstimate>);
        let mut processes: BTreeMap<(String, Op, String), Processes> = BTreeMap::new();
        for (round, fork_dir) in subfolders(&dir, warm_fork)? {
            let Some((estimates, more)) = load_criterion(&fork_dir)? else {
                continue;
            };
            notes.extend(more);
            for e in estimates {
                let key = (e.fixture.clone(), e.op, e.codec.clone());
                let (rounds, ests) = processes.entry(key).or_default();
                rounds.push(round);
                ests.push(e);
            }
        }
        for (rounds, ests) in processes.values() {
            if let Some(mut figure) = across(ests, rounds) {
                figure.variant = Some(variant);
                figure.allocator = allocator;
                out.push(figure);
            }
        }
    }
    Ok(Some((out, notes)))
}

fn warm_fork(name: &str) -> Option<u32> {
    name.strip_prefix("fork-")?.parse().ok()
}

/// The folders below `dir` whose names `parse` accepts, in name order.
fn subfolders<T>(
    dir: &Path,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<(T, std::path::PathBuf)>> {
    let folders = files::entries(dir)?
        .into_iter()
        .filter(|e| e.kind == files::Kind::Folder);
    Ok(folders
        .filter_map(|e| Some((parse(e.name_str()?)?, e.path)))
        .collect())
}

fn read_manifest(dir: &Path) -> Result<ForksManifest> {
    let bytes = files::Folder::new(dir)
        .read_bounded(FORKS_MANIFEST, MANIFEST_LIMIT)
        .with_context(|| format!("cannot read {}", dir.join(FORKS_MANIFEST).display()))?;
    serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{}: not a forks manifest",
            dir.join(FORKS_MANIFEST).display()
        )
    })
}

/// One cell's figure across its processes (of fork rounds `rounds`, in the same order): the
/// median of their medians with the interval across them, criterion's samples the fewest any
/// process took (a quick process makes the figure a first look). `None` for no process.
pub(crate) fn across(processes: &[WarmEstimate], rounds: &[u32]) -> Option<WarmEstimate> {
    let first = processes.first()?;
    let medians: Vec<f64> = processes.iter().map(|p| p.median_ns).collect();
    let Middle {
        median, interval, ..
    } = middle(&medians)?;
    Some(WarmEstimate {
        median_ns: median,
        lo_ns: interval.map_or(median, |i| i.lo),
        hi_ns: interval.map_or(median, |i| i.hi),
        criterion_samples: processes.iter().filter_map(|p| p.criterion_samples).min(),
        fastest: fastest_across(processes),
        forks: Some(Forks {
            processes: processes.len(),
            coverage: interval.map_or(0.0, |i| i.coverage),
            within: processes
                .iter()
                .map(|p| (p.median_ns, p.lo_ns, p.hi_ns))
                .collect(),
            rounds: rounds.to_vec(),
        }),
        size_effects: processes
            .iter()
            .flat_map(|p| p.size_effects.iter().copied())
            .collect(),
        ..first.clone()
    })
}

/// The median of the processes' fastest samples with the interval across them, as [`across`]'s
/// for their medians; `None` unless every process has one.
fn fastest_across(processes: &[WarmEstimate]) -> Option<Fastest> {
    let each: Option<Vec<f64>> = processes.iter().map(|p| Some(p.fastest?.ns)).collect();
    let Middle {
        median, interval, ..
    } = middle(&each?)?;
    Some(Fastest {
        ns: median,
        lo_ns: interval.map_or(median, |i| i.lo),
        hi_ns: interval.map_or(median, |i| i.hi),
    })
}

/// The median of some processes' (or rounds') figures, with the distribution-free interval
/// across them at [`LEVEL`] (`None` below 2), and how many figures there were (NaNs left out).
struct Middle {
    median: f64,
    interval: Option<stats::median_interval::OrderStatInterval>,
    n: usize,
}

/// The one rule of every figure across processes or rounds; `None` for no figure.
fn middle(values: &[f64]) -> Option<Middle> {
    let sorted = stats::quantile::sorted(values);
    Some(Middle {
        median: stats::quantile::median(&sorted)?,
        interval: stats::median_interval::interval_or_range(&sorted, LEVEL),
        n: sorted.len(),
    })
}

/// A warm ratio paired within fork rounds: a codec's time over the reference's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PairedRatio {
    /// The median over rounds of (the codec's process median / the reference's, same round).
    pub(crate) ratio: f64,
    /// The distribution-free interval across rounds (as [`across`]'s).
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) coverage: f64,
    /// How many rounds had both.
    pub(crate) rounds: usize,
}

/// `cell` over `reference`, paired within fork rounds: in each round both measured, the ratio of
/// the two processes' medians; then their median and interval across rounds. A slow stretch of
/// a shared machine slows both processes of a round much alike, so the ratio moves less between
/// sittings than the time per operation does. `None` below 2 common rounds.
pub(crate) fn paired_ratio(cell: &Forks, reference: &Forks) -> Option<PairedRatio> {
    let ratios: Vec<f64> = cell
        .rounds
        .iter()
        .zip(&cell.within)
        .filter_map(|(round, (median, _, _))| {
            let k = reference.rounds.iter().position(|r| r == round)?;
            let base = reference.within[k].0;
            (base > 0.0).then(|| median / base)
        })
        .collect();
    let Middle {
        median,
        interval,
        n,
    } = middle(&ratios)?;
    let interval = interval?;
    Some(PairedRatio {
        ratio: median,
        lo: interval.lo,
        hi: interval.hi,
        coverage: interval.coverage,
        rounds: n,
    })
}

/// The warm figures of a run: every forked figure, and each one-process figure (criterion's or
/// JMH's) of a cell and variant no forked figure covers.
pub(crate) fn prefer_forks(
    forked: Vec<WarmEstimate>,
    single: Vec<WarmEstimate>,
) -> Vec<WarmEstimate> {
    let key = |w: &WarmEstimate| (w.variant, w.fixture.clone(), w.op, w.codec.clone());
    let covered: std::collections::BTreeSet<_> = forked.iter().map(key).collect();
    let mut out = forked;
    out.extend(single.into_iter().filter(|w| !covered.contains(&key(w))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::criterion::write_fake_bench;

    fn est(median: f64, samples: usize) -> WarmEstimate {
        WarmEstimate {
            fixture: "twitter".into(),
            op: Op::De,
            codec: "simd-json-value".into(),
            variant: None,
            median_ns: median,
            lo_ns: median * 0.98,
            hi_ns: median * 1.02,
            criterion_samples: Some(samples),
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        }
    }

    #[test]
    fn the_fastest_is_the_median_of_the_processes_fastest_with_their_range() {
        let with = |median: f64, fastest: f64| WarmEstimate {
            fastest: Some(Fastest {
                ns: fastest,
                lo_ns: fastest,
                hi_ns: fastest,
            }),
            ..est(median, 100)
        };
        let ps = [
            with(1300.0, 820.0),
            with(900.0, 800.0),
            with(1000.0, 790.0),
            with(1100.0, 805.0),
            with(950.0, 830.0),
        ];
        let f = across(&ps, &[0, 1, 2, 3, 4]).unwrap().fastest.unwrap();
        assert_eq!((f.ns, f.lo_ns, f.hi_ns), (805.0, 790.0, 830.0));
        // a process without criterion's samples leaves the figure without a fastest
        let mut partial = ps.to_vec();
        partial.push(est(1000.0, 100));
        assert_eq!(across(&partial, &[0, 1, 2, 3, 4, 5]).unwrap().fastest, None);
    }

    #[test]
    fn the_figure_is_the_median_across_processes_and_its_interval_covers_it() {
        // five processes whose true median is 1000 ns: the middle one
        let ps: Vec<WarmEstimate> = [1300.0, 900.0, 1000.0, 1100.0, 950.0]
            .iter()
            .map(|&m| est(m, 100))
            .collect();
        let w = across(&ps, &[0, 1, 2, 3, 4]).unwrap();
        assert_eq!(w.median_ns, 1000.0);
        assert_eq!(
            (w.lo_ns, w.hi_ns),
            (900.0, 1300.0),
            "the range, below 6 processes"
        );
        let f = w.forks.unwrap();
        assert_eq!(f.processes, 5);
        assert!((f.coverage - 0.9375).abs() < 1e-12);
        assert_eq!(f.within[0], (1300.0, 1300.0 * 0.98, 1300.0 * 1.02));
        // an even count: the mean of the middle two
        assert_eq!(
            across(&[est(2.0, 10), est(4.0, 100)], &[0, 1])
                .unwrap()
                .median_ns,
            3.0
        );
        assert_eq!(
            across(&[est(2.0, 10), est(4.0, 100)], &[0, 1])
                .unwrap()
                .criterion_samples,
            Some(10)
        );
        assert!(across(&[], &[]).is_none());
    }

    /// A cell's processes with these medians, one per round.
    fn forks(medians: &[f64], rounds: &[u32]) -> Forks {
        let ps: Vec<WarmEstimate> = medians.iter().map(|&m| est(m, 100)).collect();
        across(&ps, rounds).unwrap().forks.unwrap()
    }

    #[test]
    fn a_paired_ratio_keeps_what_a_shift_of_the_whole_machine_moves() {
        // Two runs of the same two cells; in the second the whole machine is 1.3x slower, and
        // within each run the rounds drift. The codec is 0.6x the reference in every round.
        let drift = [1.00, 1.10, 0.95, 1.20, 1.05];
        let run = |shift: f64| {
            let reference: Vec<f64> = drift.iter().map(|d| 1000.0 * d * shift).collect();
            let codec: Vec<f64> = reference.iter().map(|r| 0.6 * r).collect();
            (
                forks(&codec, &[0, 1, 2, 3, 4]),
                forks(&reference, &[0, 1, 2, 3, 4]),
            )
        };
        let (codec1, ref1) = run(1.0);
        let (codec2, _) = run(1.3);
        // the time per operation: run 2's median lies outside run 1's range across processes
        let sorted1 =
            stats::quantile::sorted(&codec1.within.iter().map(|w| w.0).collect::<Vec<_>>());
        let median2 = stats::quantile::median(&stats::quantile::sorted(
            &codec2.within.iter().map(|w| w.0).collect::<Vec<_>>(),
        ))
        .unwrap();
        assert!(
            median2 > *sorted1.last().unwrap(),
            "{median2} within {sorted1:?}"
        );
        // the ratio paired within rounds: 0.6 exactly, in both runs
        let r1 = paired_ratio(&codec1, &ref1).unwrap();
        assert!(
            (r1.ratio - 0.6).abs() < 1e-12
                && (r1.lo - 0.6).abs() < 1e-12
                && (r1.hi - 0.6).abs() < 1e-12
        );
        assert_eq!(r1.rounds, 5);
        assert!((r1.coverage - 0.9375).abs() < 1e-12);
    }

    #[test]
    fn a_paired_ratio_pairs_by_round_not_by_position() {
        // the codec's round 2 is missing: rounds 0, 1, 3 pair with the reference's own
        let codec = forks(&[500.0, 1000.0, 2000.0], &[0, 1, 3]);
        let reference = forks(&[1000.0, 2000.0, 9999.0, 4000.0], &[0, 1, 2, 3]);
        let r = paired_ratio(&codec, &reference).unwrap();
        assert_eq!((r.ratio, r.lo, r.hi, r.rounds), (0.5, 0.5, 0.5, 3));
        // one common round is no interval
        let lone = forks(&[500.0], &[7]);
        assert!(paired_ratio(&lone, &reference).is_none());
    }

    #[test]
    fn forks_on_disk_become_one_figure_per_cell_with_the_allocator() {
        let root = std::env::temp_dir().join(format!("thaw-forks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let variant = Variant::PORTABLE;
        for (k, m) in [(0, 500.0), (1, 700.0), (2, 600.0)] {
            // each fork's criterion root holds the variant folder's contents directly
            let fork_root = root.join("portable").join(format!("fork-{k}"));
            write_fake_bench(&files::Folder::new(&fork_root), variant, &est(m, 100)).unwrap();
            // write_fake_bench files under <root>/<variant>/: lift it to the fork's root
            let from = fork_root.join("portable");
            for e in files::entries(&from).unwrap() {
                std::fs::rename(&e.path, fork_root.join(&e.name)).unwrap();
            }
            std::fs::remove_dir(&from).unwrap();
        }
        let manifest = r#"{"variant":"portable","allocator":"jemalloc","mode":"full","forks":3,"seed":1,"cells":["twitter/de/simd-json-value"],"failed":[],"finished":true}"#;
        std::fs::write(root.join("portable").join(FORKS_MANIFEST), manifest).unwrap();
        let (got, notes) = load_forks(&root).unwrap().unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].median_ns, 600.0);
        assert_eq!(got[0].variant, Some(variant));
        assert_eq!(got[0].allocator, Some(schema::Allocator::Jemalloc));
        assert_eq!(got[0].forks.as_ref().unwrap().processes, 3);
        assert_eq!(got[0].forks.as_ref().unwrap().rounds, vec![0, 1, 2]);
        // the forked figure replaces a one-process figure of the same cell and variant
        let mut single = est(999.0, 100);
        single.variant = Some(variant);
        let mut other = est(5.0, 100);
        other.codec = "serde_json-value".into();
        let merged = prefer_forks(got, vec![single, other]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].median_ns, 600.0);
        assert!(load_forks(&root.join("absent")).unwrap().is_none());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
