//! The reference for `child-miniserde-de-users`: one Users document decoded
//! with miniserde and nothing else, timed as a child is (`children::minimal`).
use codecs::models::Users;

fn main() {
    children::minimal::decode_once(|document, _copy| {
        miniserde::json::from_str::<Users>(std::str::from_utf8(document).expect("UTF-8"))
            .expect("a Users document")
    });
}
