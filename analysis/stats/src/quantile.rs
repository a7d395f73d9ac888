//! Order statistics of one sample (sorting, type 7 quantiles, the median, the MAD): defined once
//! in `schema::figures`, so the cold runner's closing table and the reports agree.

pub use schema::figures::{mad, median, quantile, sorted};
