//! The document as Markdown (GitHub flavour): charts become image links to SVG files written
//! beside it, under `charts/`. What came from a file reaches the reader as text, never as markup:
//! every text goes through `text::for_markdown` (no raw HTML, image, link, line break,
//! table cell border or control character can come from a value inside it), while thaw's own
//! code spans and emphasis are kept.

use super::doc::{Block, Table, Tone};
use text::for_markdown as inline;

fn cell_text(s: &str) -> String {
    inline(s)
}

fn prose(s: &str) -> String {
    inline(s)
}

fn table(t: &Table, out: &mut String) {
    out.push_str(&format!(
        "| {} |\n",
        t.header
            .iter()
            .map(|h| cell_text(h))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    let align: Vec<&str> = t
        .numeric
        .iter()
        .map(|&n| if n { "---:" } else { "---" })
        .collect();
    out.push_str(&format!("|{}|\n", align.join("|")));
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c.tone {
                Tone::Good | Tone::Bad if !c.text.is_empty() => {
                    format!("**{}**", cell_text(&c.text))
                }
                _ => cell_text(&c.text),
            })
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
}

/// Render `blocks`; chart files are referred to as `charts/<file>`.
pub(crate) fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let text = inline(text);
                out.push_str(&format!("{} {text}\n\n", "#".repeat(usize::from(*level))));
            }
            Block::Para(text) => out.push_str(&format!("{}\n\n", prose(text))),
            Block::List(items) => {
                for i in items {
                    out.push_str(&format!("- {}\n", prose(i)));
                }
                out.push('\n');
            }
            Block::Warnings(items) => {
                for i in items {
                    out.push_str(&format!("> **Warning:** {}\n>\n", prose(i)));
                }
                out.push('\n');
            }
            Block::Table(t) => table(t, &mut out),
            Block::Chart { file, title, .. } => {
                out.push_str(&format!(
                    "![{}](charts/{})\n\n",
                    inline(title),
                    inline(file)
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::doc::Cell;

    #[test]
    fn renders_tables_and_charts() {
        let mut t = Table::new(&["codec", ">ratio"]);
        t.row(vec![Cell::new("a|b"), Cell::toned("faster", Tone::Good)]);
        let md = render(&[
            Block::Heading(2, "X".into()),
            Block::Table(t),
            Block::Chart {
                file: "c.svg".into(),
                title: "t".into(),
                svg: String::new(),
            },
        ]);
        assert!(md.contains("## X\n"));
        assert!(md.contains("| codec | ratio |\n|---|---:|\n| a\\|b | **faster** |"));
        assert!(md.contains("![t](charts/c.svg)"));
    }

    #[test]
    fn nothing_from_a_file_becomes_markup() {
        let hostile = "x\n## heading ![](https://example.com/a.png) <img src=x> [a](b) \u{1b}[2J";
        let mut t = Table::new(&["codec"]);
        t.row(vec![Cell::new(hostile)]);
        let md = render(&[
            Block::Heading(3, hostile.into()),
            Block::Para(format!("a note: {hostile}")),
            Block::Table(t),
        ]);
        for bad in ["\n## heading", "![](", "<img", "](b)", "\u{1b}"] {
            assert!(!md.contains(bad), "{bad:?} in\n{md}");
        }
        assert!(md.contains("&lt;img"), "{md}");
    }
}
