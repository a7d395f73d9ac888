//! The neutral tree as text, for children in other languages (docs/child-protocol.md): one value
//! per line, in pre-order, so that a child reads it with a dozen lines of its own and no JSON
//! library. `{ N` an object of N members, each a line `k HEX` (its key) and its value; `[ N` an
//! array of N values; `s HEX` a string (its UTF-8 bytes in hexadecimal); `i N` a whole number;
//! `f X` a double, written so that it reads back exactly; `t`, `F`, `n` true, false, null.

use codecs::inputs::Tree;
use std::fmt::Write;

/// The text of `tree`, ending with a newline.
pub(crate) fn encode(tree: &Tree) -> String {
    let mut out = String::new();
    write_value(tree, &mut out);
    out
}

fn hex(text: &str, out: &mut String) {
    for b in text.as_bytes() {
        let _ = write!(out, "{b:02x}");
    }
}

fn write_value(tree: &Tree, out: &mut String) {
    match tree {
        Tree::Null => out.push_str("n\n"),
        Tree::Bool(true) => out.push_str("t\n"),
        Tree::Bool(false) => out.push_str("F\n"),
        Tree::I64(i) => {
            let _ = writeln!(out, "i {i}");
        }
        Tree::U64(u) => {
            let _ = writeln!(out, "i {u}");
        }
        // `{:?}` is Rust's shortest text that reads back as the same double (`45.0`, `1e300`).
        Tree::F64(f) => {
            let _ = writeln!(out, "f {f:?}");
        }
        Tree::Str(s) => {
            out.push_str("s ");
            hex(s, out);
            out.push('\n');
        }
        Tree::Array(items) => {
            let _ = writeln!(out, "[ {}", items.len());
            for item in items {
                write_value(item, out);
            }
        }
        Tree::Object(members) => {
            let _ = writeln!(out, "{{ {}", members.len());
            for (key, item) in members {
                out.push_str("k ");
                hex(key, out);
                out.push('\n');
                write_value(item, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value() {
        let tree = Tree::Object(vec![
            (
                "a".into(),
                Tree::Array(vec![Tree::I64(-1), Tree::U64(2), Tree::F64(0.5)]),
            ),
            ("é".into(), Tree::Str("hi\n".into())),
            (
                "z".into(),
                Tree::Array(vec![Tree::Bool(true), Tree::Bool(false), Tree::Null]),
            ),
        ]);
        assert_eq!(
            encode(&tree),
            "{ 3\nk 61\n[ 3\ni -1\ni 2\nf 0.5\nk c3a9\ns 68690a\nk 7a\n[ 3\nt\nF\nn\n"
        );
        assert_eq!(encode(&Tree::F64(45.0)), "f 45.0\n");
    }
}
