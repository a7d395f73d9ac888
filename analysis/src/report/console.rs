//! Plain-text tables for the terminal: the headline `report` prints, and `compare`'s table.

use super::doc::Table;

/// Columns padded to their widest cell (in characters), numeric columns right-aligned.
pub(crate) fn render(t: &Table) -> String {
    let ncol = t.header.len();
    let mut width: Vec<usize> = t.header.iter().map(|h| h.chars().count()).collect();
    for row in &t.rows {
        for (i, c) in row.iter().enumerate().take(ncol) {
            width[i] = width[i].max(c.text.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let pad = width[i].saturating_sub(s.chars().count());
                if t.numeric.get(i).copied().unwrap_or(false) {
                    format!("{}{s}", " ".repeat(pad))
                } else {
                    format!("{s}{}", " ".repeat(pad))
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(t.header.iter().map(String::as_str).collect());
    out.push_str(&line(
        width
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
    ));
    for row in &t.rows {
        out.push_str(&line(row.iter().map(|c| c.text.as_str()).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::doc::Cell;

    #[test]
    fn aligns() {
        let mut t = Table::new(&["codec", ">µs"]);
        t.row(vec![Cell::new("serde_json"), Cell::new("1.5")]);
        t.row(vec![Cell::new("a"), Cell::new("10.25")]);
        assert_eq!(
            render(&t),
            "codec          µs\n----------  -----\nserde_json    1.5\na           10.25\n"
        );
    }
}
