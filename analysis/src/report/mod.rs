//! The `report` command's output: [`model`] computes everything a report says (pure, from what
//! `inputs` read) and [`chart_data`] what its charts show; [`sections`] lays it out as a document of headings, paragraphs, tables and
//! charts; the renderers turn that document into Markdown, self-contained HTML and console text;
//! [`summary_csv`] and summary.json carry the same numbers for machines (and [`machines_csv`],
//! in a run merged from several machines, each ratio per machine); [`mod@write`] puts the files
//! on disk.

pub(crate) mod chart_data;
pub(crate) mod charts;
pub(crate) mod console;
pub(crate) mod curve_charts;
pub(crate) mod doc;
pub(crate) mod format;
pub(crate) mod html;
pub(crate) mod machines_csv;
pub(crate) mod markdown;
pub(crate) mod model;
pub(crate) mod sections;
pub(crate) mod summary_csv;
pub(crate) mod svg;
pub(crate) mod write;
