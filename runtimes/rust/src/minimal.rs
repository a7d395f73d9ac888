//! The reference programs' life (`src/bin/minimal-<codec>.rs`): the least a user's program does to
//! decode one Users document, built with the children's profile and timed the same way (the
//! protocol's line, checksum 0), so that scripts/first-call-vs-minimal.py can set a child's first
//! call beside it. The program's one argument is the document's path.

use schema::protocol::{monotonic_ns, Line};
use std::hint::black_box;

/// Reads the document, then times `decode` on it (given the document and a fresh copy, for a
/// library that parses in place) and prints the protocol's line.
pub fn decode_once<V>(decode: impl FnOnce(&[u8], &mut [u8]) -> V) {
    let main = monotonic_ns();
    let path = std::env::args_os().nth(1).expect("the document's path");
    let document = std::fs::read(path).expect("a readable document");
    let mut copy = document.clone();
    let fixture = monotonic_ns();
    let value = decode(black_box(&document), black_box(&mut copy));
    let first = monotonic_ns();
    black_box(&value);
    print!(
        "{}",
        Line::one_call(main, fixture, first, document.len() as u64).text()
    );
    black_box(copy);
}
