//! Pure numerics for thaw's reports and the cold runner's stopping rule: no I/O, no formatting,
//! no knowledge of codecs, rows or files; no dependency inside the workspace.
//!
//! Every function takes plain slices of `f64` and returns plain values, so each one can be checked
//! against published answers and seeded simulations (see the tests in each module). What reads a
//! run's rows to feed them (a cell's figures, the `--precision` rule's intervals) is `store`'s;
//! the reporting layer only formats what these functions computed.
//!
//! Conventions, once for the whole module:
//! - quantiles are Hyndman & Fan type 7 (linear interpolation between order statistics, the default
//!   of R and NumPy): `quantile(sorted, 0.9)` is the p90 the reports show;
//! - the MAD is unscaled: the median of |x − median|, not multiplied by 1.4826;
//! - intervals are two-sided at the level given (0.95 in the reports);
//! - randomness (the bootstrap) takes an explicit seed and uses ChaCha8, so a report is reproducible;
//! - no statistic's cost grows with n × resamples: the median's interval is by order statistics,
//!   and a bootstrap median is drawn from its exact distribution in O(1).

pub mod bootstrap;
pub mod changepoint;
pub mod cheapest;
pub mod describe;
pub mod heterogeneity;
pub mod hodges_lehmann;
pub mod holm;
pub mod median_interval;
pub mod outliers;
pub mod paired;
pub mod precision;
pub mod quantile;
pub mod rank;
pub mod signed_rank;
pub mod size_effect;
pub mod spearman;
pub mod units;
pub mod wilcoxon;

#[cfg(test)]
pub(crate) mod testutil;
