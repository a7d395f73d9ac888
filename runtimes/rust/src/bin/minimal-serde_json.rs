//! The reference for `child-serde_json-de-users`: one Users document decoded
//! with serde_json and nothing else, timed as a child is (`children::minimal`).
use codecs::models::Users;

fn main() {
    children::minimal::decode_once(|document, _copy| {
        serde_json::from_slice::<Users>(document).expect("a Users document")
    });
}
