//! The document as one self-contained HTML file: inline CSS, charts inline as SVG, no scripts,
//! no fonts or anything else fetched from a network.

use super::doc::{Block, Table, Tone};
use super::svg::esc as escape;

/// A text on its way into the page: cut and made inert as report.md's are (one clip and one
/// escape for every reader: `text::for_terminal`, every line at most 2,000 characters,
/// control characters shown, URLs broken), then HTML-escaped. A 5 MB name from a folder is a
/// line of 2,000 characters here too, never the whole of it.
fn esc(text: &str) -> String {
    escape(&text::for_terminal(text, false))
}

const CSS: &str = r#"
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1d1d1f; margin: 0; background: #fafafa; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 32px 64px; background: #fff; }
h1 { font-size: 28px; margin: 8px 0 4px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-top: 12px; border-top: 1px solid #e3e3e3; }
h3 { font-size: 17px; margin: 24px 0 6px; }
h4 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0 10px; max-width: 980px; }
nav { font-size: 13px; margin: 10px 0 0; }
nav a { margin-right: 14px; color: #2f5f8f; text-decoration: none; white-space: nowrap; }
ul { max-width: 980px; padding-left: 22px; }
li { margin: 3px 0; }
.warnings { background: #fff6dd; border: 1px solid #f0d58a; border-radius: 6px; padding: 8px 16px 8px 34px; }
.warnings li { margin: 6px 0; }
.scroll { overflow-x: auto; margin: 6px 0 14px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid #ececec; text-align: left; white-space: nowrap; }
th { background: #f3f4f6; font-weight: 600; position: sticky; top: 0; }
tr:nth-child(even) td { background: #fbfbfc; }
td.num, th.num { text-align: right; }
td.wrap { white-space: normal; min-width: 22em; }
.good { color: #1a7f37; font-weight: 600; }
.bad { color: #c62828; font-weight: 600; }
.muted { color: #8a8a8a; }
figure { margin: 8px 0 18px; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 12px; color: #666; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f1f1f3; padding: 0 3px; border-radius: 3px; }
"#;

/// Escaped text with `code` spans, the whole text cut and made inert first.
fn inline(text: &str) -> String {
    let text = text::for_terminal(text, false);
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", escape(part)));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

fn table(t: &Table, out: &mut String) {
    out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for (h, num) in t.header.iter().zip(&t.numeric) {
        let class = if *num { " class=\"num\"" } else { "" };
        out.push_str(&format!("<th{class}>{}</th>", esc(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        out.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            let mut classes = Vec::new();
            if t.numeric.get(i).copied().unwrap_or(false) {
                classes.push("num");
            }
            if t.wrap.get(i).copied().unwrap_or(false) {
                classes.push("wrap");
            }
            match c.tone {
                Tone::Good => classes.push("good"),
                Tone::Bad => classes.push("bad"),
                Tone::Muted => classes.push("muted"),
                Tone::Plain => {}
            }
            let class = if classes.is_empty() {
                String::new()
            } else {
                format!(" class=\"{}\"", classes.join(" "))
            };
            out.push_str(&format!("<td{class}>{}</td>", esc(&c.text)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

fn anchor(text: &str) -> String {
    let mut a: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while a.contains("--") {
        a = a.replace("--", "-");
    }
    a.trim_matches('-').to_string()
}

/// Render `blocks` as a complete HTML page titled `title`, with a contents line of the
/// level-2 headings under the first heading.
pub(crate) fn render(title: &str, blocks: &[Block]) -> String {
    let mut body = String::new();
    let toc: Vec<String> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading(2, t) => Some(format!("<a href=\"#{}\">{}</a>", anchor(t), esc(t))),
            _ => None,
        })
        .collect();
    let mut toc_done = false;
    let mut used = std::collections::BTreeMap::<String, usize>::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                if *level > 1 && !toc_done {
                    body.push_str(&format!("<nav>{}</nav>\n", toc.join("")));
                    toc_done = true;
                }
                // repeated headings (one per scenario in several sections) get -2, -3…
                let a = anchor(text);
                let n = used.entry(a.clone()).or_insert(0);
                *n += 1;
                let id = if *n == 1 { a } else { format!("{a}-{n}") };
                body.push_str(&format!("<h{level} id=\"{id}\">{}</h{level}>\n", esc(text)));
            }
            Block::Para(text) => body.push_str(&format!("<p>{}</p>\n", inline(text))),
            Block::List(items) => {
                body.push_str("<ul>\n");
                for i in items {
                    body.push_str(&format!("<li>{}</li>\n", inline(i)));
                }
                body.push_str("</ul>\n");
            }
            Block::Warnings(items) => {
                body.push_str("<ul class=\"warnings\">\n");
                for i in items {
                    body.push_str(&format!("<li>{}</li>\n", inline(i)));
                }
                body.push_str("</ul>\n");
            }
            Block::Table(t) => table(t, &mut body),
            Block::Chart { title, svg, .. } => {
                body.push_str(&format!(
                    "<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>\n",
                    esc(title)
                ));
            }
        }
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n",
        esc(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::doc::Cell;

    #[test]
    fn a_huge_name_is_cut_as_report_md_cuts_it() {
        let huge = "x".repeat(5_000_000);
        let blocks = vec![
            Block::Heading(1, "t".into()),
            Block::Para(format!("`{huge}`")),
            Block::List(vec![huge.clone()]),
            Block::Warnings(vec![format!("a name: {huge}")]),
        ];
        let page = render("t", &blocks);
        assert!(page.len() < 20_000, "{} bytes", page.len());
        assert!(page.contains(&format!("{}…", "x".repeat(1999))));
        // a control character and a URL are made inert as in report.md
        let page = render(
            "t",
            &[Block::Para("a\u{1b}[31mred https://example.org".into())],
        );
        assert!(
            page.contains("\\u{1b}[31mred https[:]//example.org"),
            "{page}"
        );
    }

    #[test]
    fn self_contained_page() {
        let mut t = Table::new(&["codec", ">ratio"]);
        t.row(vec![Cell::new("<x>"), Cell::toned("slower", Tone::Bad)]);
        let html = render(
            "T",
            &[
                Block::Heading(1, "Title".into()),
                Block::Heading(2, "Cold against warm".into()),
                Block::Table(t),
                Block::Chart {
                    file: "c.svg".into(),
                    title: "c".into(),
                    svg: "<svg></svg>".into(),
                },
            ],
        );
        assert!(html.contains("<td>&lt;x&gt;</td><td class=\"num bad\">slower</td>"));
        assert!(html.contains("<a href=\"#cold-against-warm\">"));
        assert!(html.contains("<figure>\n<svg></svg>"));
        assert!(
            !html.contains("<script") && !html.contains("http://") && !html.contains("https://")
        );
    }
}
