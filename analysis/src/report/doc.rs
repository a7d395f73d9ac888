//! A report as a document: headings, paragraphs, lists, tables and charts, independent of the
//! output format, so Markdown, HTML and the console render one layout.

/// How a table cell should stand out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Plain,
    /// Better than the reference (faster, improved).
    Good,
    /// Worse (slower, regressed, failed).
    Bad,
    /// Not much to see (no difference, absent).
    Muted,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    pub(crate) text: String,
    pub(crate) tone: Tone,
}

impl Cell {
    pub(crate) fn new(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            tone: Tone::Plain,
        }
    }

    pub(crate) fn toned(text: impl Into<String>, tone: Tone) -> Self {
        Cell {
            text: text.into(),
            tone,
        }
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::new(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::new(s)
    }
}

impl From<schema::Op> for Cell {
    fn from(op: schema::Op) -> Self {
        Cell::new(op.name())
    }
}

impl From<schema::Variant> for Cell {
    fn from(variant: schema::Variant) -> Self {
        Cell::new(variant.name())
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Table {
    pub(crate) header: Vec<String>,
    /// Right-aligned columns (numbers).
    pub(crate) numeric: Vec<bool>,
    /// Columns of running text, which may wrap in HTML (others stay on one line).
    pub(crate) wrap: Vec<bool>,
    pub(crate) rows: Vec<Vec<Cell>>,
}

impl Table {
    /// Columns named in `header`; a name starting with `>` is right-aligned, one starting with
    /// `~` may wrap (the mark dropped).
    pub(crate) fn new(header: &[&str]) -> Self {
        Table {
            header: header
                .iter()
                .map(|h| h.trim_start_matches(['>', '~']).to_string())
                .collect(),
            numeric: header.iter().map(|h| h.starts_with('>')).collect(),
            wrap: header.iter().map(|h| h.starts_with('~')).collect(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(cells);
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    /// Level 1–4.
    Heading(u8, String),
    Para(String),
    List(Vec<String>),
    /// Highlighted list of things to worry about.
    Warnings(Vec<String>),
    Table(Table),
    /// An SVG chart; `file` is its name when written beside the Markdown.
    Chart {
        file: String,
        title: String,
        svg: String,
    },
}
