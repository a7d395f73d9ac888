//! The reference for `child-nanoserde-de-users`: one Users document decoded
//! with nanoserde and nothing else, timed as a child is (`children::minimal`).
use codecs::models::Users;

fn main() {
    children::minimal::decode_once(|document, _copy| {
        <Users as nanoserde::DeJson>::deserialize_json(
            std::str::from_utf8(document).expect("UTF-8"),
        )
        .expect("a Users document")
    });
}
