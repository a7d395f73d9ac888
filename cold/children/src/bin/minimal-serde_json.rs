//! The reference for `child-serde_json-de-users`: the least a user's program does to decode one
//! Users document with serde_json, built with the same profile and timed the same way (the
//! protocol's line, checksum 0), so that scripts/first-call-vs-minimal.py can set a child's first
//! call beside it. Takes the document's path as its only argument.
use codecs::models::Users;
use schema::protocol::monotonic_ns;
use std::hint::black_box;

fn main() {
    let main = monotonic_ns();
    let path = std::env::args_os().nth(1).expect("the document's path");
    let document = std::fs::read(path).expect("a readable document");
    #[allow(unused_mut)]
    let mut copy = document.clone();
    let fixture = monotonic_ns();
    let value: Users = serde_json::from_slice(black_box(&document)).expect("a Users document");
    let first = monotonic_ns();
    black_box(&value);
    let line = schema::protocol::Line::one_call(main, fixture, first, document.len() as u64);
    print!("{}", line.text());
    black_box(copy);
}
