//! The document as Markdown (GitHub flavour): charts become image links to SVG files written
//! beside it, under `charts/`.

use super::doc::{Block, Table, Tone};

fn cell_text(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
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
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                out.push_str(&format!("{} {}\n\n", "#".repeat(usize::from(*level)), text));
            }
            Block::Para(text) => out.push_str(&format!("{text}\n\n")),
            Block::List(items) => {
                for i in items {
                    out.push_str(&format!("- {i}\n"));
                }
                out.push('\n');
            }
            Block::Warnings(items) => {
                for i in items {
                    out.push_str(&format!("> **Warning:** {i}\n>\n"));
                }
                out.push('\n');
            }
            Block::Table(t) => table(t, &mut out),
            Block::Chart { file, title, .. } => {
                out.push_str(&format!("![{title}](charts/{file})\n\n"));
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
}
