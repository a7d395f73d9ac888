//! Tukey's fences: how many samples lie beyond Q1 − 1.5·IQR / Q3 + 1.5·IQR (mild) and beyond
//! 3·IQR (severe), on each side. Quartiles are type 7, like every quantile here.

use super::quantile::quantile;
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TukeyCounts {
    pub low_severe: usize,
    pub low_mild: usize,
    pub high_mild: usize,
    pub high_severe: usize,
}

impl TukeyCounts {
    pub fn total(&self) -> usize {
        self.low_severe + self.low_mild + self.high_mild + self.high_severe
    }
}

/// Counts of an ascending slice; mild excludes severe.
pub fn tukey(sorted: &[f64]) -> TukeyCounts {
    let (Some(q1), Some(q3)) = (quantile(sorted, 0.25), quantile(sorted, 0.75)) else {
        return TukeyCounts::default();
    };
    let iqr = q3 - q1;
    let (ls, lm, hm, hs) = (
        q1 - 3.0 * iqr,
        q1 - 1.5 * iqr,
        q3 + 1.5 * iqr,
        q3 + 3.0 * iqr,
    );
    let mut c = TukeyCounts::default();
    for &x in sorted {
        if x < ls {
            c.low_severe += 1;
        } else if x < lm {
            c.low_mild += 1;
        } else if x > hs {
            c.high_severe += 1;
        } else if x > hm {
            c.high_mild += 1;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences() {
        // Each sample below has Q1 = 3.25 and Q3 = 7.75 (IQR 4.5): mild beyond −3.5 / 14.5,
        // severe beyond −10.25 / 21.25.
        let c = tukey(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 100.0]);
        assert_eq!(
            c,
            TukeyCounts {
                high_severe: 1,
                ..Default::default()
            }
        );
        let c = tukey(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 16.0]);
        assert_eq!(
            c,
            TukeyCounts {
                high_mild: 1,
                ..Default::default()
            }
        );
        let c = tukey(&[-12.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(
            c,
            TukeyCounts {
                low_severe: 1,
                ..Default::default()
            }
        );
        let c = tukey(&[-5.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(
            c,
            TukeyCounts {
                low_mild: 1,
                ..Default::default()
            }
        );
        assert_eq!(c.total(), 1);
        assert_eq!(tukey(&[]).total(), 0);
    }
}
