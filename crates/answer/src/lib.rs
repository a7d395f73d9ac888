//! The answer a run gives first: for each fixture and op (and build), among codecs of one style
//! (typed against typed, DOM against DOM), which codec is cheapest from which number of
//! operations, each switch with a bootstrap interval over blocks, the codecs that cannot be told
//! apart from the cheapest named together, and whether a switch's curves part at all. From a
//! cold run's samples (a fresh process per sample at each batch, on two bases: init + operations,
//! and the whole process) or a curve run's curves (C(n) at each clock read of one process). The
//! numbers are `stats`', the form and the words [`form`]'s; the runner's closing lines and every
//! report call this one crate, so they say the same.

use form::{Answer, Basis, Cheapest, Source, Stretch, Tie};
use schema::curve::CurveRow;
use schema::phases::Figure;
use schema::rows::SampleRow;
use schema::run_folder::CodecEntry;
use schema::{CellKey, Op, Style, Variant};
use stats::cheapest::{cheapest, Bootstrap, Costs};
use stats::paired::log_ratio_contrast;
use stats::quantile::median_unsorted;
use std::collections::{BTreeMap, BTreeSet};
use store::cell::{CellSamples, Samples};

pub mod form;

/// The intervals' level.
pub const LEVEL: f64 = 0.95;

/// The bootstrap resamples of a switch's interval (the report's default, `--resamples`).
pub const RESAMPLES: usize = 2000;

/// How the switches' intervals are drawn: `resamples` over blocks, from `seed` (a report's, so
/// the same run gives the same intervals in every output).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draws {
    pub resamples: usize,
    pub seed: u64,
}

/// What the answer needs to know of each codec: its style (the floors and probes are
/// `baseline`, never compared) and the floor its whole process is read against.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lineup {
    roles: BTreeMap<String, (Style, Option<String>)>,
}

impl Lineup {
    /// From a manifest's codecs: each one's style, and its floor (the one the manifest names,
    /// else its runtime's first baseline, as the report reads it).
    pub fn of(codecs: &[CodecEntry]) -> Lineup {
        let first_baseline = |runtime: &Option<String>| {
            codecs
                .iter()
                .find(|c| c.style == Style::Baseline && &c.runtime == runtime)
                .map(|c| c.id.clone())
        };
        Lineup {
            roles: codecs
                .iter()
                .map(|c| {
                    let floor = c.floor.clone().or_else(|| first_baseline(&c.runtime));
                    (c.id.clone(), (c.style, floor))
                })
                .collect(),
        }
    }

    /// Codecs given by id, style and floor (a test's, or a run without a manifest).
    pub fn from_roles<'a>(
        roles: impl IntoIterator<Item = (&'a str, Style, Option<&'a str>)>,
    ) -> Lineup {
        Lineup {
            roles: roles
                .into_iter()
                .map(|(id, s, f)| (id.to_string(), (s, f.map(String::from))))
                .collect(),
        }
    }

    /// The style `codec` is compared in; `None` for a floor or probe. A codec the lineup does
    /// not know (a run folder without a manifest) is taken as typed.
    fn style(&self, codec: &str) -> Option<Style> {
        match self.roles.get(codec) {
            Some((Style::Baseline, _)) => None,
            Some((s, _)) => Some(*s),
            None => Some(Style::Typed),
        }
    }

    fn floor(&self, codec: &str) -> Option<&str> {
        self.roles.get(codec)?.1.as_deref()
    }
}

/// One cell's curve: each process's cost at each of `ops` (its block and its costs, in order).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub key: CellKey,
    pub ops: Vec<u64>,
    pub processes: Vec<(u32, Vec<f64>)>,
}

/// The curves of a curve run: each ok sample of `rows` joined by plan index with its row of
/// curves.csv (a curve without an ok sample, or an ok sample without a curve, is left out), one
/// [`Curve`] per cell, its processes in block order.
pub fn curves_of(rows: &[SampleRow], curves: &BTreeMap<u64, CurveRow>) -> Vec<Curve> {
    group(rows.iter().filter(|r| r.is_ok()).filter_map(|r| {
        let c = curves.get(&r.plan_index)?;
        Some((r.cell(), r.block, c.ops.as_slice(), c.cost_ns.as_slice()))
    }))
}

/// One [`Curve`] per cell of processes given as (cell, block, reads, cost at each read): a
/// process whose reads are not its cell's first is left out; processes in block order.
pub fn group<'a>(
    processes: impl Iterator<Item = (CellKey, u32, &'a [u64], &'a [u64])>,
) -> Vec<Curve> {
    let mut by: BTreeMap<CellKey, Curve> = BTreeMap::new();
    for (key, block, ops, costs) in processes {
        let curve = by.entry(key.clone()).or_insert_with(|| Curve {
            key,
            ops: ops.to_vec(),
            processes: Vec::new(),
        });
        if curve.ops == ops {
            curve
                .processes
                .push((block, costs.iter().map(|&v| v as f64).collect()));
        }
    }
    let mut out: Vec<Curve> = by.into_values().collect();
    for c in &mut out {
        c.processes.sort_by_key(|p| p.0);
    }
    out
}

/// A fixture × op × build × style: the codecs compared in one answer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Scenario {
    fixture: String,
    op: Op,
    variant: Variant,
    /// The style's place in `Style::ALL` (typed before DOM).
    style: usize,
}

impl Scenario {
    fn of(k: &CellKey, style: Style) -> Scenario {
        Scenario {
            fixture: k.fixture.clone(),
            op: k.op,
            variant: k.variant,
            style: Style::ALL.iter().position(|s| *s == style).unwrap_or(0),
        }
    }

    fn style(&self) -> Style {
        Style::ALL[self.style]
    }
}

/// A basis's cost of each ok sample of `cell`, by block: init + operations, or the whole process
/// less its input (`store::cell::process`).
fn costs_of(basis: Basis, cell: &CellSamples) -> Vec<(u32, f64)> {
    let by = match basis {
        Basis::Running => cell.by_block(Figure::INIT_PLUS_OPS),
        Basis::Process => cell.by_block_of(|i| store::cell::process(cell, i)),
    };
    by.into_iter().map(|(b, v)| (b, v as f64)).collect()
}

/// The answers of a cold run's samples: per fixture × op × build × style, the library codecs of
/// `lineup` (the floors and probes left out), at each batch, on each basis: init + operations
/// (what a running program pays) and the whole process (what a short-lived one pays, its floor
/// named). A counted run's samples hold no time, and give none.
pub fn from_batches(samples: &Samples, lineup: &Lineup, draws: Draws) -> Vec<Answer> {
    // the cells of each scenario, by codec and batch; each scenario's costs are read, answered
    // and dropped in turn, so no more than one scenario's are held at once
    type ByCodec<'a> = BTreeMap<&'a str, BTreeMap<u64, &'a CellSamples>>;
    let mut by: BTreeMap<Scenario, ByCodec> = BTreeMap::new();
    for (key, cell) in &samples.cells {
        if let Some(style) = lineup.style(&key.codec) {
            by.entry(Scenario::of(key, style))
                .or_default()
                .entry(&key.codec)
                .or_default()
                .insert(u64::from(key.batch), cell);
        }
    }
    let shape = Shape::of(by.keys());
    let mut out = Vec::new();
    for basis in Basis::ALL {
        for (s, codecs) in &by {
            let ops: Vec<u64> = codecs
                .values()
                .flat_map(|b| b.keys().copied())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let named: Vec<(String, Costs)> = codecs
                .iter()
                .map(|(codec, batches)| {
                    let at = ops
                        .iter()
                        .map(|n| {
                            batches
                                .get(n)
                                .map(|c| costs_of(basis, c))
                                .unwrap_or_default()
                        })
                        .collect();
                    (codec.to_string(), Costs { at })
                })
                .filter(|(_, c)| c.at.iter().any(|v| !v.is_empty()))
                .collect();
            // each codec's floor's median at each batch, for the whole process
            let floors: BTreeMap<String, Vec<Option<f64>>> = match basis {
                Basis::Running => BTreeMap::new(),
                Basis::Process => named
                    .iter()
                    .filter_map(|(c, _)| Some((c.clone(), lineup.floor(c)?)))
                    .map(|(c, floor)| {
                        let at = ops
                            .iter()
                            .map(|&n| floor_median(samples, s, floor, n))
                            .collect();
                        (c, at)
                    })
                    .collect(),
            };
            let how = How {
                source: Source::Batches,
                basis,
                floors: &floors,
                floor_names: floors
                    .keys()
                    .filter_map(|c| Some((c.clone(), lineup.floor(c)?.to_string())))
                    .collect(),
            };
            out.extend(answer(s.clone(), &shape, how, &ops, named, draws));
        }
    }
    sorted(out)
}

/// The median whole process (less its input) of `floor` in scenario `s` at batch `n`.
fn floor_median(samples: &Samples, s: &Scenario, floor: &str, n: u64) -> Option<f64> {
    let key = CellKey {
        fixture: s.fixture.clone(),
        op: s.op,
        variant: s.variant,
        batch: u32::try_from(n).ok()?,
        codec: floor.to_string(),
    };
    let cell = samples.cells.get(&key)?;
    median_unsorted(
        costs_of(Basis::Process, cell)
            .into_iter()
            .map(|(_, v)| v)
            .collect(),
    )
}

/// The answers of a curve run's curves: per fixture × op × build × style, the library codecs of
/// `lineup`, C(n) at every read they share (in a running program: a curve measures its exit
/// once, after all its operations).
pub fn from_curves(curves: &[Curve], lineup: &Lineup, draws: Draws) -> Vec<Answer> {
    let mut by: BTreeMap<Scenario, Vec<&Curve>> = BTreeMap::new();
    for c in curves {
        if let Some(style) = lineup.style(&c.key.codec) {
            by.entry(Scenario::of(&c.key, style)).or_default().push(c);
        }
    }
    let shape = Shape::of(by.keys());
    let mut out = Vec::new();
    for (s, cs) in by {
        // the reads every codec's curve has (every process of a run reads on one schedule)
        let Some(first) = cs.first() else { continue };
        let mut ops: Vec<u64> = first.ops.clone();
        ops.retain(|n| cs.iter().all(|c| c.ops.binary_search(n).is_ok()));
        let named: Vec<(String, Costs)> = cs
            .iter()
            .map(|c| {
                let at = ops
                    .iter()
                    .map(|n| {
                        let i = c.ops.binary_search(n).unwrap_or_default();
                        c.processes
                            .iter()
                            .filter_map(|(b, costs)| Some((*b, *costs.get(i)?)))
                            .collect()
                    })
                    .collect();
                (c.key.codec.clone(), Costs { at })
            })
            .collect();
        let how = How {
            source: Source::Curve,
            basis: Basis::Running,
            floors: &BTreeMap::new(),
            floor_names: BTreeMap::new(),
        };
        out.extend(answer(s, &shape, how, &ops, named, draws));
    }
    sorted(out)
}

/// The answers in reading order: by fixture, op and build, typed before DOM, a running program
/// before a whole process.
fn sorted(mut answers: Vec<Answer>) -> Vec<Answer> {
    let style = |s: Style| Style::ALL.iter().position(|x| *x == s);
    answers.sort_by(|a, b| {
        (&a.fixture, a.op, &a.variant, style(a.style), a.basis as u8).cmp(&(
            &b.fixture,
            b.op,
            &b.variant,
            style(b.style),
            b.basis as u8,
        ))
    });
    answers
}

/// What the scenarios of one run span: how many builds, and per fixture × op × build the styles
/// with a library.
struct Shape {
    variants: usize,
    styles: BTreeMap<(String, Op, Variant), usize>,
}

impl Shape {
    fn of<'a>(scenarios: impl Iterator<Item = &'a Scenario>) -> Shape {
        let scenarios: Vec<&Scenario> = scenarios.collect();
        let mut styles = BTreeMap::new();
        for s in &scenarios {
            *styles
                .entry((s.fixture.clone(), s.op, s.variant))
                .or_insert(0) += 1;
        }
        Shape {
            variants: scenarios
                .iter()
                .map(|s| s.variant)
                .collect::<BTreeSet<_>>()
                .len(),
            styles,
        }
    }
}

/// How one answer's costs were measured.
struct How<'a> {
    source: Source,
    basis: Basis,
    /// Per codec, its floor's median at each read, and its floor's name (the whole process only).
    floors: &'a BTreeMap<String, Vec<Option<f64>>>,
    floor_names: BTreeMap<String, String>,
}

/// One scenario's answer; `None` without a codec to compare.
fn answer(
    s: Scenario,
    shape: &Shape,
    how: How,
    ops: &[u64],
    named: Vec<(String, Costs)>,
    draws: Draws,
) -> Option<Answer> {
    let style = s.style();
    let (names, costs): (Vec<String>, Vec<Costs>) = named.into_iter().unzip();
    let boot = Bootstrap {
        resamples: draws.resamples,
        level: LEVEL,
        seed: draws.seed ^ seed_of(&s, how.basis),
    };
    let found = cheapest(ops, &costs, boot);
    let stretches: Vec<Stretch> = found
        .iter()
        .enumerate()
        .map(|(k, st)| {
            let until = found.get(k + 1).map_or(u64::MAX, |next| next.from);
            let parted = match k.checked_sub(1) {
                None => true,
                Some(p) => parts(
                    ops,
                    &costs[found[p].codec],
                    &costs[st.codec],
                    st.from,
                    until,
                ),
            };
            Stretch {
                codec: names[st.codec].clone(),
                from: st.from,
                interval: st.interval,
                parted,
            }
        })
        .collect();
    let last = *ops.last()?;
    let at = ops
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n == last || is_power_of_ten(n))
        .filter_map(|(i, &n)| cheapest_at((&names, &costs), i, n, how.floors))
        .collect();
    // the floors the whole process is read against
    let floors: Vec<String> = names
        .iter()
        .filter(|c| how.floors.contains_key(*c))
        .filter_map(|c| Some(how.floor_names.get(c)?.clone()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let only_style = shape
        .styles
        .get(&(s.fixture.clone(), s.op, s.variant))
        .is_some_and(|&n| n == 1);
    (!stretches.is_empty()).then(|| Answer {
        fixture: s.fixture,
        op: s.op,
        variant: (shape.variants > 1).then(|| s.variant.name().to_string()),
        style,
        only_style,
        basis: how.basis,
        floors,
        source: how.source,
        last,
        level: LEVEL,
        stretches,
        at,
    })
}

/// The pairs (block by block) of two codecs' costs at one read: (a's, b's).
fn pairs(a: &[(u32, f64)], b: &[(u32, f64)]) -> Vec<(f64, f64)> {
    let of_b: BTreeMap<u32, f64> = b.iter().copied().collect();
    a.iter()
        .filter_map(|&(k, va)| Some((va, *of_b.get(&k)?)))
        .collect()
}

/// b's cost over a's at read `i`, paired within blocks: its Hodges–Lehmann ratio and interval.
fn paired_ratio(a: &Costs, b: &Costs, i: usize) -> Option<(f64, Option<(f64, f64)>)> {
    let p = pairs(a.at.get(i)?, b.at.get(i)?);
    let c = log_ratio_contrast(&p, LEVEL)?;
    Some((c.ratio, c.interval))
}

/// Whether the switch from `a` to `b` at `from` is one the curves make: at some read before it
/// `b` is the dearer and at some read from it (before `until`) the cheaper, each by a paired
/// interval that excludes 1. A switch between curves that never part is noise, and is not
/// stated as a switch.
fn parts(ops: &[u64], a: &Costs, b: &Costs, from: u64, until: u64) -> bool {
    let (mut dearer, mut cheaper) = (false, false);
    for (i, &n) in ops.iter().enumerate().take_while(|&(_, &n)| n < until) {
        let Some((_, Some((lo, hi)))) = paired_ratio(a, b, i) else {
            continue;
        };
        dearer |= n < from && lo > 1.0;
        cheaper |= n >= from && hi < 1.0;
    }
    dearer && cheaper
}

fn is_power_of_ten(mut n: u64) -> bool {
    while n >= 10 && n.is_multiple_of(10) {
        n /= 10;
    }
    n == 1
}

/// The codec with the lowest median at read `i` (count `n`), the first of equals, and every
/// codec it cannot be told from: the paired interval of that codec's cost over the cheapest's
/// reaches 1 (or there are too few pairs for one). With `floors`, each median also less its
/// codec's floor's.
fn cheapest_at(
    (names, costs): (&[String], &[Costs]),
    i: usize,
    n: u64,
    floors: &BTreeMap<String, Vec<Option<f64>>>,
) -> Option<Cheapest> {
    let medians: Vec<Option<f64>> = costs
        .iter()
        .map(|c| median_unsorted(c.at.get(i)?.iter().map(|&(_, v)| v).collect()))
        .collect();
    let (best, median_ns) = medians
        .iter()
        .enumerate()
        .filter_map(|(k, m)| Some((k, (*m)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let over = |k: usize, m: f64| {
        let floor = floors.get(&names[k])?.get(i).copied().flatten()?;
        Some(m - floor)
    };
    let tied = names
        .iter()
        .zip(costs)
        .enumerate()
        .filter(|&(k, _)| k != best)
        .filter_map(|(k, (codec, c))| {
            let m = medians[k]?;
            let (ratio, interval) =
                paired_ratio(&costs[best], c, i).unwrap_or((m / median_ns, None));
            let tied = interval.is_none_or(|(lo, _)| lo <= 1.0);
            tied.then(|| Tie {
                codec: codec.clone(),
                median_ns: m,
                over_floor_ns: over(k, m),
                ratio,
                interval,
            })
        })
        .collect();
    Some(Cheapest {
        n,
        codec: names[best].clone(),
        median_ns,
        over_floor_ns: over(best, median_ns),
        tied,
    })
}

/// A scenario's own stream of draws (FNV-1a of its names), so adding a fixture to a run moves no
/// other answer's interval.
fn seed_of(s: &Scenario, basis: Basis) -> u64 {
    let text = format!(
        "{}/{}/{}/{}/{}",
        s.fixture,
        s.op,
        s.variant.name(),
        s.style(),
        basis.name()
    );
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests;
