//! The report's first section: the run's answer in words, one line per fixture and op (and
//! build), as `cold run` ended with it, before any table.

use super::common::*;
use schema::Measure;

/// What the answer is read from, and how sure each switch is.
fn how(r: &Report) -> String {
    let compared: Vec<&str> = r
        .codecs
        .iter()
        .map(|c| c.id.as_str())
        .filter(|id| !r.is_baseline(id))
        .collect();
    let source = if r.curve.is_some() {
        "the median of C(n), the cost read after n operations in one process (in a running program: a curve's process measures its exit once, after all its operations)"
    } else {
        "the median cost of a fresh process at each batch, on two bases: init + operations (in a running program) and spawn to exit less building the input (as a whole process: the model's classes, package initialisation before main and exit hooks count; its median over the runtime's floor beside it)"
    };
    format!(
        "Typed codecs are compared with typed codecs and DOMs with DOMs. Cheapest by {source}, read linearly between the counts measured. At each count, the codecs whose cost over the cheapest's, paired within blocks, has a {level}% Hodges–Lehmann interval that reaches 1 are named as tied with it. A switch is stated only where the curves part (the codec is the dearer before it and the cheaper after it, each by such an interval), with its {level}% percentile bootstrap interval over blocks ({} resamples). Codecs compared: {} (the floors and probes are not libraries, and are left out).",
        r.resamples,
        if compared.is_empty() { "none".to_string() } else { compared.join(", ") },
        level = (r.level * 100.0).round(),
    )
}

pub(super) fn answer(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "The answer")];
    if r.measure != Measure::Time {
        out.push(p(
            "A counted run measures instructions, not time: it gives no answer of which codec is cheapest. Run it timed (`cold run` without `--measure instructions`).",
        ));
        return out;
    }
    if r.answers.is_empty() {
        out.push(p(
            "No answer: no fixture and op has a codec with an ok sample (the floors and probes are not compared).",
        ));
        return out;
    }
    out.push(Block::List(r.answers.iter().map(|a| a.line()).collect()));
    out.push(p(how(r)));
    out
}

/// The answer for the terminal: a heading and one line per answer (empty for none).
pub(crate) fn answer_lines(r: &Report) -> String {
    if r.answers.is_empty() {
        return String::new();
    }
    let mut out = String::from("The answer:\n");
    for a in &r.answers {
        out.push_str(&format!("  {}\n", a.line()));
    }
    out.push('\n');
    out
}
