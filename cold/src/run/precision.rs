//! `cold run --precision 3%`: enough samples and no more. The rule itself (which intervals,
//! when to stop, its defaults) is `store::stopping`, shared with `analysis synth --precision`;
//! here are what the runner adds: `--max-time`'s durations, the standing of a run folder's rows,
//! and the progress display's line.
//!
//! Stopping when the data look precise enough is a data-dependent rule, which can make the
//! intervals cover less often than their level says. It is bounded by never deciding before
//! `min_blocks` (10 by default), by looking only every `check_every` (5) blocks, and by asking for
//! width, not for an effect: the rule never looks at where an interval lies, only at how wide it
//! is. `analysis synth --precision` measures the coverage this gives (docs/findings.md).

use schema::run_folder::Stopping;
use stats::precision::{standing, Reach, Standing};
use std::time::Duration;
use store::cell::Samples;
pub(crate) use store::stopping::{next, reaches, Next, CHECK_EVERY, LEVEL, MAX_BLOCKS, MIN_BLOCKS};

/// `90s`, `10m`, `2h` or a number of seconds; at most a week.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("`{text}`: give a duration like 90s, 10m or 2h")),
    };
    let secs = number
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("`{text}`: give a duration like 90s, 10m or 2h"))?
        * scale;
    if secs.is_finite() && secs > 0.0 && secs <= 7.0 * 86_400.0 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!(
            "`{text}`: give a duration above 0 and at most a week"
        ))
    }
}

/// The standing of the samples so far against the rule.
pub(crate) fn stand(samples: &Samples, rule: &Stopping, floors: &[&str]) -> Standing {
    standing(
        &reaches(samples, rule.reference.as_deref(), floors),
        rule.precision,
    )
}

/// `±4.1% users-2kb de ×1 simd-json (portable) / serde_json`, for the progress display.
pub(crate) fn describe_widest(s: &Standing) -> String {
    match &s.widest {
        None => "no interval yet".into(),
        Some(Reach {
            label,
            half_width: Some(hw),
        }) => format!("widest ±{:.1}% {label}", hw * 100.0),
        Some(Reach { label, .. }) => format!("widest: {label} has too few samples yet"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("10 parsecs").is_err() && parse_duration("-1m").is_err());
    }
}
