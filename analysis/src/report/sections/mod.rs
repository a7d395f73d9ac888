//! The report's layout: which sections, in which order, with which tables, charts and words,
//! one module per section. Everything here reads the model; nothing computes a statistic.

use super::doc::Block;
use super::model::{sections_of, Report, Section};

mod answer;
mod cold_warm;
mod common;
mod comparisons;
mod conditions;
mod counts;
mod curve;
mod headline;
mod machines;
mod noise;
mod per_cell;
mod precision;
mod reading;
mod runtimes;
mod tables;
mod variants;
mod warm_measures;

pub(crate) use answer::answer_lines;
use cold_warm::cold_warm;
use comparisons::{against_reference, chart_blocks};
use conditions::conditions;
use counts::{counts, timing_skipped};
use curve::curve;
use headline::headline;
pub(crate) use headline::headline_text;
use machines::machines;
use noise::noise;
use per_cell::per_cell;
use precision::precision;
use reading::{how_to_read, intro, notes, warnings};
use runtimes::runtimes;
use tables::{allocations, conformance};
use variants::variants;
use warm_measures::warm_measures;

impl Section {
    pub(crate) fn blocks(self, r: &Report) -> Vec<Block> {
        match self {
            Section::Headline => headline(r),
            Section::Runtimes => runtimes(r),
            Section::HowToRead => how_to_read(r),
            Section::Charts => chart_blocks(r),
            Section::AgainstReference => against_reference(r),
            Section::Variants => variants(r),
            Section::Machines => machines(r),
            Section::Precision => precision(r),
            Section::Noise => noise(r),
            Section::ColdWarm => cold_warm(r),
            Section::WarmMeasures => warm_measures(r),
            Section::Curve => curve(r),
            Section::PerCell => per_cell(r),
            Section::Counts => counts(r),
            Section::TimingSkipped => timing_skipped(r),
            Section::Allocations => allocations(r),
            Section::Conformance => conformance(r),
            Section::Conditions => conditions(r),
            Section::Notes => notes(r),
        }
    }
}

/// The whole report as a document: the introduction, the answer, the warnings, then the
/// sections of the run's measure.
pub(crate) fn document(r: &Report) -> Vec<Block> {
    let mut out = intro(r);
    out.extend(answer::answer(r));
    out.extend(warnings(r));
    for s in sections_of(r.measure) {
        out.extend(s.blocks(r));
    }
    out
}
