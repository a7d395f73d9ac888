//! Which of several cost curves is cheapest where, and how sure that is. A cost curve is one
//! codec's cost read after n operations (a cold run's batches, one process each, or a curve run's
//! clock reads, all in one process), one value per block at each read. [`crossing`] finds where
//! two median curves cross, linear between reads; [`cheapest`] cuts the reads into stretches, each
//! the codec whose median is lowest there, and gives every switch from one codec to the next the
//! crossing of the two with a percentile bootstrap interval over blocks (each block's values kept
//! together, as they were measured in one round). Pure numbers: codecs are indices, and the
//! words that say the result are `answer::form`'s.

use super::bootstrap::crossing_interval;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Which of two curves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// Where two median curves cross, read on every read point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cross {
    /// `cheaper` costs at most the other from operation `n` on, and more at some read before.
    From { cheaper: Side, n: u64 },
    /// `cheaper` costs at most the other at every read: no crossing.
    Throughout { cheaper: Side },
    /// Equal at the last read (or no reads): neither stays cheaper.
    Tied,
}

/// A cost as a whole number of half nanoseconds: a median of whole nanoseconds is a whole or a
/// half, so the crossing below is computed exactly.
fn halves(v: f64) -> i128 {
    (2.0 * v).round() as i128
}

/// The crossing of curves `a` and `b` read at `ops`: the codec cheaper at the last read, and the
/// smallest whole n from which its cost, linear between two reads, is at most the other's over
/// every later read.
pub fn crossing(ops: &[u64], a: &[f64], b: &[f64]) -> Cross {
    let len = ops.len().min(a.len()).min(b.len());
    let d: Vec<i128> = (0..len).map(|i| halves(a[i]) - halves(b[i])).collect();
    let Some(&last) = d.last() else {
        return Cross::Tied;
    };
    let cheaper = match last.cmp(&0) {
        std::cmp::Ordering::Less => Side::A,
        std::cmp::Ordering::Greater => Side::B,
        std::cmp::Ordering::Equal => return Cross::Tied,
    };
    // e: the cheaper's cost less the other's; it is < 0 at the last read
    let e = |i: usize| if cheaper == Side::A { d[i] } else { -d[i] };
    match (0..len).rev().find(|&i| e(i) > 0) {
        None => Cross::Throughout { cheaper },
        Some(k) => {
            let (x0, x1) = (i128::from(ops[k]), i128::from(ops[k + 1]));
            let (e0, e1) = (e(k), e(k + 1));
            // e(n) = e0 + (n − x0)(e1 − e0)/(x1 − x0) ≤ 0 ⟺ (n − x0)(e0 − e1) ≥ e0 (x1 − x0)
            let (num, den) = (e0 * (x1 - x0), e0 - e1);
            let steps = (num + den - 1) / den;
            Cross::From {
                cheaper,
                n: u64::try_from(x0 + steps).unwrap_or(u64::MAX),
            }
        }
    }
}

/// One codec's costs: at each read (the same reads for every codec), each block's cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Costs {
    pub at: Vec<Vec<(u32, f64)>>,
}

/// Where one codec is the cheapest: from operation `from` until the next stretch's `from`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stretch {
    /// The codec's index in the costs given.
    pub codec: usize,
    pub from: u64,
    /// For every stretch but the first: the bootstrap interval of the switch into it (a bound of
    /// `None`: in that share of resamples this codec never stays cheaper than the one before).
    pub interval: Option<(Option<u64>, Option<u64>)>,
}

/// How a switch's interval is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bootstrap {
    pub resamples: usize,
    pub level: f64,
    pub seed: u64,
}

/// The codecs' values at every read, by block: the blocks any codec has, in order, and per codec
/// its values and the order its blocks sort in at each read.
struct Table {
    blocks: usize,
    codecs: Vec<Sorted>,
}

/// One codec's values at every read (by block), and, for each run of consecutive reads whose
/// blocks sort in the same order, that order: the blocks with a value, ascending by value (ties
/// by block). A curve's processes keep their ranks over long runs of reads, so a resample's
/// median is found once per run, not once per read.
struct Sorted {
    /// At each read, each block's value; `NaN` where the block has none.
    values: Vec<Vec<f64>>,
    /// (first read of the run, the blocks in ascending order of value there)
    runs: Vec<(usize, Vec<u32>)>,
}

impl Sorted {
    fn of(values: Vec<Vec<f64>>) -> Sorted {
        let mut runs: Vec<(usize, Vec<u32>)> = Vec::new();
        for (i, row) in values.iter().enumerate() {
            let mut order: Vec<u32> = (0..row.len() as u32)
                .filter(|&b| !row[b as usize].is_nan())
                .collect();
            order.sort_by(|&x, &y| {
                let (vx, vy) = (row[x as usize], row[y as usize]);
                vx.total_cmp(&vy).then(x.cmp(&y))
            });
            if runs.last().is_none_or(|(_, o)| *o != order) {
                runs.push((i, order));
            }
        }
        Sorted { values, runs }
    }

    /// The median at each of the first `reads` reads over a resample that drew block `b`
    /// `counts[b]` times (`drawn` draws in all): the median of that multiset of values, as
    /// [`median_unsorted`](super::quantile::median_unsorted) of the drawn values would give it; `NaN` where none has a value.
    fn medians(&self, counts: &[u32], drawn: u64, reads: usize) -> Vec<f64> {
        let mut out = Vec::with_capacity(reads);
        for (k, (first, order)) in self.runs.iter().enumerate() {
            if *first >= reads {
                break;
            }
            let end = self.runs.get(k + 1).map_or(reads, |r| r.0).min(reads);
            // how many drawn values the reads of this run have
            let w: u64 = if order.len() == counts.len() {
                drawn
            } else {
                order.iter().map(|&b| u64::from(counts[b as usize])).sum()
            };
            if w == 0 {
                out.extend((*first..end).map(|_| f64::NAN));
                continue;
            }
            // the blocks holding the drawn values of ranks ⌈w/2⌉ and ⌊w/2⌋ + 1 (1-based)
            let (lower, upper) = (w.div_ceil(2), w / 2 + 1);
            let (mut lo, mut hi, mut seen) = (None, 0usize, 0u64);
            for &b in order {
                seen += u64::from(counts[b as usize]);
                if lo.is_none() && seen >= lower {
                    lo = Some(b as usize);
                }
                if seen >= upper {
                    hi = b as usize;
                    break;
                }
            }
            let lo = lo.unwrap_or(hi);
            for row in &self.values[*first..end] {
                let (x, y) = (row[lo], row[hi]);
                out.push(if w % 2 == 1 { x } else { (x + y) / 2.0 });
            }
        }
        out.resize(reads, f64::NAN);
        out
    }
}

impl Sorted {
    /// The median at each of the first `reads` reads of the values of the blocks `drawn`
    /// (indices, repeats counted); `NaN` where none has a value.
    fn medians_of(&self, drawn: &[usize], reads: usize) -> Vec<f64> {
        let mut v = Vec::with_capacity(drawn.len());
        self.values[..reads]
            .iter()
            .map(|row| {
                v.clear();
                v.extend(drawn.iter().map(|&k| row[k]).filter(|x| !x.is_nan()));
                crate::quantile::median_unsorted(std::mem::take(&mut v)).unwrap_or(f64::NAN)
            })
            .collect()
    }
}

impl Table {
    fn of(costs: &[Costs], reads: usize) -> Table {
        let mut ids: Vec<u32> = costs
            .iter()
            .flat_map(|c| c.at.iter().flatten().map(|&(b, _)| b))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let codecs = costs
            .iter()
            .map(|c| {
                Sorted::of(
                    (0..reads)
                        .map(|i| {
                            let mut row = vec![f64::NAN; ids.len()];
                            for &(b, v) in c.at.get(i).into_iter().flatten() {
                                if let (Ok(k), true) = (ids.binary_search(&b), v.is_finite()) {
                                    row[k] = v;
                                }
                            }
                            row
                        })
                        .collect(),
                )
            })
            .collect();
        Table {
            blocks: ids.len(),
            codecs,
        }
    }

    /// Codec `c`'s median at each of the first `reads` reads, every block counted once.
    fn medians(&self, c: usize, reads: usize) -> Vec<f64> {
        let once = vec![1; self.blocks];
        self.codecs[c].medians(&once, self.blocks as u64, reads)
    }
}

/// The codec with the lowest median at read `i`, the first of equals; `None` where no codec has
/// a value.
fn winner(medians: &[Vec<f64>], i: usize) -> Option<usize> {
    (0..medians.len())
        .filter(|&c| medians[c][i].is_finite())
        .min_by(|&a, &b| medians[a][i].total_cmp(&medians[b][i]))
}

/// From which n `b` stays at most `a` over `ops` (the reads up to the end of `b`'s stretch).
fn switch(ops: &[u64], b: &[f64], a: &[f64]) -> Option<u64> {
    match crossing(ops, b, a) {
        Cross::From {
            cheaper: Side::A,
            n,
        } => Some(n),
        Cross::Throughout { cheaper: Side::A } => ops.first().copied(),
        _ => None,
    }
}

/// The stretches of `ops` (ascending operation counts) in which each codec of `costs` has the
/// lowest median cost, each switch with its interval. Empty when no read has a value.
pub fn cheapest(ops: &[u64], costs: &[Costs], boot: Bootstrap) -> Vec<Stretch> {
    let table = Table::of(costs, ops.len());
    let medians: Vec<Vec<f64>> = (0..costs.len())
        .map(|c| table.medians(c, ops.len()))
        .collect();
    // the winner at every read that has one, and where each run of one winner ends
    let wins: Vec<(usize, usize)> = (0..ops.len())
        .filter_map(|i| Some((i, winner(&medians, i)?)))
        .collect();
    let mut out: Vec<Stretch> = Vec::new();
    for (k, &(i, c)) in wins.iter().enumerate() {
        if out.last().is_some_and(|s| s.codec == c) {
            continue;
        }
        let Some(prev) = out.last().copied() else {
            out.push(Stretch {
                codec: c,
                from: ops[i],
                interval: None,
            });
            continue;
        };
        // this stretch's last read: before the next winner that differs
        let end = wins[k..]
            .iter()
            .take_while(|&&(_, w)| w == c)
            .last()
            .map_or(i, |&(j, _)| j);
        let before = ops[..i].last().copied().unwrap_or(0);
        let n = switch(
            &ops[..=end],
            &medians[c][..=end],
            &medians[prev.codec][..=end],
        )
        .unwrap_or(ops[i])
        .clamp(before.saturating_add(1).max(prev.from + 1), ops[i]);
        let seed = boot.seed ^ (out.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        out.push(Stretch {
            codec: c,
            from: n,
            interval: Some(interval(
                &table,
                (prev.codec, c),
                &ops[..=end],
                (boot, seed),
                n,
            )),
        });
    }
    out
}

/// The most blocks a switch's bootstrap resamples whole. Beyond it (a synthetic run of a million
/// samples has 17,544 blocks), each resample draws this many blocks and the switch's deviation
/// from its estimate is scaled by √(m/n): the m-out-of-n bootstrap (Bickel, Götze & van Zwet
/// 1997), whose cost does not grow with the run. At or below it, every resample is the
/// ordinary one: n blocks drawn, every median that of the values drawn.
pub const WHOLE_RESAMPLE_BLOCKS: usize = 1000;

/// The percentile bootstrap interval of the switch from codec `a` to codec `b` over `ops`,
/// estimated at `estimate`: blocks drawn with replacement, both median curves recomputed, the
/// switch found again (with more than [`WHOLE_RESAMPLE_BLOCKS`] blocks, m out of n, scaled).
fn interval(
    table: &Table,
    (a, b): (usize, usize),
    ops: &[u64],
    (boot, seed): (Bootstrap, u64),
    estimate: u64,
) -> (Option<u64>, Option<u64>) {
    if table.blocks == 0 || boot.resamples == 0 {
        return (None, None);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let reads = ops.len();
    let n = table.blocks;
    let found: Vec<Option<u64>> = if n <= WHOLE_RESAMPLE_BLOCKS {
        let mut counts = vec![0u32; n];
        (0..boot.resamples)
            .map(|_| {
                counts.fill(0);
                for _ in 0..n {
                    counts[rng.random_range(0..n)] += 1;
                }
                let ma = table.codecs[a].medians(&counts, n as u64, reads);
                let mb = table.codecs[b].medians(&counts, n as u64, reads);
                switch(ops, &mb, &ma)
            })
            .collect()
    } else {
        let m = WHOLE_RESAMPLE_BLOCKS;
        let scale = (m as f64 / n as f64).sqrt();
        let mut drawn = vec![0usize; m];
        (0..boot.resamples)
            .map(|_| {
                drawn.iter_mut().for_each(|k| *k = rng.random_range(0..n));
                let ma = table.codecs[a].medians_of(&drawn, reads);
                let mb = table.codecs[b].medians_of(&drawn, reads);
                let e = estimate as f64;
                switch(ops, &mb, &ma).map(|s| (e + (s as f64 - e) * scale).round().max(1.0) as u64)
            })
            .collect()
    };
    crossing_interval(found, boot.level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crossing_between_two_reads_is_interpolated_to_a_whole_n() {
        // a = 10n; b = 100 + 5n: equal at n = 20, read at 10 and 30 only
        let ops = [1, 10, 30, 40];
        let a: Vec<f64> = ops.iter().map(|&n| 10.0 * n as f64).collect();
        let b: Vec<f64> = ops.iter().map(|&n| 100.0 + 5.0 * n as f64).collect();
        assert_eq!(
            crossing(&ops, &a, &b),
            Cross::From {
                cheaper: Side::B,
                n: 20
            }
        );
        // b = 101 + 5n: equal at 20.2, b at most a from 21
        let b: Vec<f64> = ops.iter().map(|&n| 101.0 + 5.0 * n as f64).collect();
        assert_eq!(
            crossing(&ops, &a, &b),
            Cross::From {
                cheaper: Side::B,
                n: 21
            }
        );
    }

    #[test]
    fn curves_that_touch_and_part_again_cross_at_the_last_parting() {
        // a − b: +5, 0, +5, −5: the touch at 10 is not where a stays cheaper; 25 is
        let ops = [1, 10, 20, 30];
        let b = [100.0, 200.0, 300.0, 400.0];
        let a = [105.0, 200.0, 305.0, 395.0];
        assert_eq!(
            crossing(&ops, &a, &b),
            Cross::From {
                cheaper: Side::A,
                n: 25
            }
        );
        // touching at a read and staying at most: b throughout
        let a = [105.0, 200.0, 305.0, 405.0];
        assert_eq!(
            crossing(&ops, &b, &a),
            Cross::Throughout { cheaper: Side::A }
        );
    }

    #[test]
    fn no_crossing_and_a_tie() {
        let ops = [1, 2, 3];
        assert_eq!(
            crossing(&ops, &[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]),
            Cross::Throughout { cheaper: Side::A }
        );
        assert_eq!(
            crossing(&ops, &[1.0, 2.0, 4.0], &[2.0, 3.0, 4.0]),
            Cross::Tied
        );
        assert_eq!(crossing(&[], &[], &[]), Cross::Tied);
        // halves are exact: 2.5 against 2.0 at the end
        assert_eq!(
            crossing(&ops, &[1.0, 2.0, 2.5], &[0.5, 1.0, 2.0]),
            Cross::Throughout { cheaper: Side::B }
        );
    }

    /// Costs of `blocks` blocks at `ops`: `cost(n)` for every block, times (1 + noise·(block − mid)).
    fn costs(ops: &[u64], blocks: u32, noise: f64, cost: impl Fn(f64) -> f64) -> Costs {
        let mid = f64::from(blocks - 1) / 2.0;
        Costs {
            at: ops
                .iter()
                .map(|&n| {
                    (0..blocks)
                        .map(|b| (b, cost(n as f64) * (1.0 + noise * (f64::from(b) - mid))))
                        .collect()
                })
                .collect(),
        }
    }

    const BOOT: Bootstrap = Bootstrap {
        resamples: 500,
        level: 0.95,
        seed: 1,
    };

    #[test]
    fn a_switch_between_batches_is_found_where_the_lines_cross_and_its_interval_covers_it() {
        // a = 10 + 2n (cheap first call), b = 30 + n: equal at n = 20, measured at 1, 10, 100
        let ops = [1, 10, 100];
        let a = costs(&ops, 30, 0.002, |n| 10.0 + 2.0 * n);
        let b = costs(&ops, 30, 0.002, |n| 30.0 + n);
        let s = cheapest(&ops, &[a, b], BOOT);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!((s[0].codec, s[0].from, s[0].interval), (0, 1, None));
        assert_eq!((s[1].codec, s[1].from), (1, 20), "{s:?}");
        let (lo, hi) = s[1].interval.unwrap();
        assert!(lo.unwrap() <= 20 && 20 <= hi.unwrap(), "{s:?}");
    }

    #[test]
    fn a_run_of_many_blocks_draws_m_of_them_and_its_interval_still_covers_the_switch() {
        // as above, over 3,000 blocks: beyond WHOLE_RESAMPLE_BLOCKS, m out of n scaled
        let ops = [1, 10, 100];
        let a = costs(&ops, 3000, 0.00005, |n| 10.0 + 2.0 * n);
        let b = costs(&ops, 3000, 0.00005, |n| 30.0 + n);
        let s = cheapest(&ops, &[a, b], BOOT);
        assert_eq!((s[1].codec, s[1].from), (1, 20), "{s:?}");
        let (lo, hi) = s[1].interval.unwrap();
        let (lo, hi) = (lo.unwrap(), hi.unwrap());
        assert!(lo <= 20 && 20 <= hi && hi - lo <= 4, "{s:?}");
    }

    #[test]
    fn one_codec_cheapest_throughout_is_one_stretch_and_baseless_reads_are_skipped() {
        let ops = [1, 10, 100];
        let a = costs(&ops, 5, 0.0, |n| n);
        let b = costs(&ops, 5, 0.0, |n| 2.0 * n);
        let empty = Costs::default();
        let s = cheapest(&ops, &[b, a, empty], BOOT);
        assert_eq!(
            s,
            vec![Stretch {
                codec: 1,
                from: 1,
                interval: None
            }]
        );
        assert!(cheapest(&ops, &[Costs::default()], BOOT).is_empty());
    }

    #[test]
    fn a_switch_the_noise_cannot_settle_has_an_open_interval() {
        // b's median at 100 is a hair under a's (109 against 110), but 5 of its 11 blocks read
        // 200 there: a third of the resamples draw a majority of those, and in them b never
        // stays cheaper
        let ops = [1, 10, 100];
        let a = costs(&ops, 11, 0.0, |n| 10.0 + n);
        let mut b = costs(&ops, 11, 0.0, |n| 12.0 + n);
        for (k, v) in b.at[2].iter_mut() {
            *v = if *k < 6 { 109.0 } else { 200.0 };
        }
        let s = cheapest(&ops, &[a, b], BOOT);
        assert_eq!(s.len(), 2, "b's median is the lower at 100: {s:?}");
        let (lo, hi) = s[1].interval.unwrap();
        assert!(
            lo.is_some() && hi.is_none(),
            "the switch cannot be pinned: {s:?}"
        );
    }

    #[test]
    fn a_resample_median_is_the_median_of_the_values_it_drew() {
        // 3 codecs, 40 reads, 9 blocks: values with ties, missing values, and runs of reads in
        // one order; every resample's medians against the drawn values' own median
        use crate::quantile::median_unsorted;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let blocks = 9u32;
        let costs: Vec<Costs> = (0..3)
            .map(|_| {
                // each block's level and absence, kept over most reads; every 7th read shuffled
                let level: Vec<u32> = (0..blocks).map(|_| rng.random_range(0..6)).collect();
                let absent: Vec<bool> = (0..blocks).map(|_| rng.random_range(0..6) == 0).collect();
                Costs {
                    at: (0..40u32)
                        .map(|i| {
                            let mut row = Vec::new();
                            for b in 0..blocks {
                                let k = b as usize;
                                let shuffled = i % 7 == 0;
                                if (shuffled && rng.random_range(0..4) == 0)
                                    || (!shuffled && absent[k])
                                {
                                    continue;
                                }
                                let v = if shuffled {
                                    rng.random_range(0..6)
                                } else {
                                    level[k]
                                };
                                row.push((b, f64::from(v + i / 10 * 10)));
                            }
                            row
                        })
                        .collect(),
                }
            })
            .collect();
        let table = Table::of(&costs, 40);
        assert!(table.codecs.iter().all(|c| c.runs.len() < 40));
        for _ in 0..300 {
            let drawn: Vec<usize> = (0..table.blocks)
                .map(|_| rng.random_range(0..table.blocks))
                .collect();
            let mut counts = vec![0u32; table.blocks];
            drawn.iter().for_each(|&b| counts[b] += 1);
            for (c, sorted) in table.codecs.iter().enumerate() {
                let got = sorted.medians(&counts, drawn.len() as u64, 40);
                for (i, row) in sorted.values.iter().enumerate() {
                    let v: Vec<f64> = drawn
                        .iter()
                        .map(|&k| row[k])
                        .filter(|x| !x.is_nan())
                        .collect();
                    let want = median_unsorted(v).unwrap_or(f64::NAN);
                    assert!(
                        got[i] == want || (got[i].is_nan() && want.is_nan()),
                        "codec {c} read {i}: {} against {want}",
                        got[i]
                    );
                }
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_interval() {
        let ops = [1, 10, 100, 1000];
        let a = costs(&ops, 12, 0.01, |n| 5.0 + 3.0 * n);
        let b = costs(&ops, 12, 0.01, |n| 50.0 + 2.0 * n);
        let one = cheapest(&ops, &[a.clone(), b.clone()], BOOT);
        assert_eq!(one, cheapest(&ops, &[a, b], BOOT));
        assert_eq!(
            one[1].from, 45,
            "5 + 3n = 50 + 2n at 45, from where b costs at most a: {one:?}"
        );
    }
}
