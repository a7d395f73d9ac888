//! Progress while samples run: an indicatif bar with the ETA when stdout is a terminal, and a
//! plain line every few seconds otherwise (CI logs, pipes). It only reports; it never decides.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use schema::rows::SampleRow;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a plain line is printed.
const LINE_EVERY: Duration = Duration::from_secs(10);

enum Display {
    Bar(ProgressBar),
    Lines,
    Hidden,
}

pub struct Progress {
    display: Display,
    total: u64,
    done: u64,
    /// Samples done before this session (a resumed run).
    before: u64,
    failed: u64,
    started: Instant,
    last_line: Instant,
    /// What a `--precision` run says of its widest interval at the last check.
    note: Option<String>,
}

impl Progress {
    /// A bar on a terminal, plain lines otherwise. `before` samples of `total` are already done.
    pub(crate) fn new(total: u64, before: u64) -> Progress {
        let display = if std::io::stdout().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stdout());
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} samples, ETA {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_position(before);
            bar.reset_eta();
            Display::Bar(bar)
        } else {
            Display::Lines
        };
        Progress::with(display, total, before)
    }

    /// No output at all (tests).
    pub fn hidden(total: u64) -> Progress {
        Progress::with(Display::Hidden, total, 0)
    }

    fn with(display: Display, total: u64, before: u64) -> Progress {
        let now = Instant::now();
        Progress {
            display,
            total,
            done: before,
            before,
            failed: 0,
            started: now,
            last_line: now,
            note: None,
        }
    }

    /// `more` samples were added to the plan (a `--precision` run adding blocks).
    pub(crate) fn grow(&mut self, more: u64) {
        self.total += more;
        if let Display::Bar(bar) = &self.display {
            bar.set_length(self.total);
        }
    }

    /// Shows `note` beside the count (the widest interval of a `--precision` run).
    pub(crate) fn note(&mut self, note: String) {
        if let Display::Bar(bar) = &self.display {
            bar.set_message(note.clone());
        }
        if matches!(self.display, Display::Lines) {
            say(&format!("cold: {note}"));
        }
        self.note = Some(note);
    }

    pub(crate) fn sample_done(&mut self, row: &SampleRow) {
        self.done += 1;
        if !row.is_ok() {
            self.failed += 1;
        }
        match &self.display {
            Display::Bar(bar) => {
                if !row.is_ok() {
                    bar.set_message(format!(
                        "({} failed; last: {} {} ×{} {}){}",
                        self.failed,
                        row.codec,
                        row.op,
                        row.batch,
                        row.status,
                        self.note
                            .as_deref()
                            .map(|n| format!("; {n}"))
                            .unwrap_or_default()
                    ));
                }
                bar.inc(1);
            }
            Display::Lines => {
                if self.last_line.elapsed() >= LINE_EVERY {
                    self.last_line = Instant::now();
                    say(&self.line(self.started.elapsed()));
                }
            }
            Display::Hidden => {}
        }
    }

    pub(crate) fn finish(&mut self) {
        match &self.display {
            Display::Bar(bar) => bar.finish(),
            Display::Lines => say(&self.line(self.started.elapsed())),
            Display::Hidden => {}
        }
    }

    /// `cold: 120/570 samples (21%), 0 failed, 0:31 elapsed, ETA 1:58`.
    fn line(&self, elapsed: Duration) -> String {
        let this_session = self.done - self.before;
        let left = self.total.saturating_sub(self.done);
        let eta = (this_session > 0)
            .then(|| elapsed.mul_f64(left as f64 / this_session as f64))
            .map_or("?".to_string(), clock);
        format!(
            "cold: {}/{} samples ({}%), {} failed, {} elapsed, ETA {eta}",
            self.done,
            self.total,
            (self.done * 100).checked_div(self.total).unwrap_or(100),
            self.failed,
            clock(elapsed)
        )
    }
}

/// A line on stdout; a closed stdout (a pipe whose reader left) does not stop the run.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// `m:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_line_counts_and_estimates() {
        let mut p = Progress::with(Display::Hidden, 10, 4);
        let ok = SampleRow::planned(&schema::rows::PlanRow {
            plan_index: 0,
            block: 0,
            codec: "noop".into(),
            op: schema::Op::De,
            batch: 1,
            fixture: "small".into(),
            variant: schema::Variant::PORTABLE,
        });
        let bad = SampleRow {
            status: schema::Status::Crash,
            ..ok.clone()
        };
        p.sample_done(&ok);
        p.sample_done(&bad);
        p.sample_done(&ok);
        let line = p.line(Duration::from_secs(30));
        assert!(
            line.starts_with("cold: 7/10 samples (70%), 1 failed, 0:30 elapsed, ETA 0:30"),
            "{line}"
        );
    }
}
