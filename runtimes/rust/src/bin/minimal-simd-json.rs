//! The reference for `child-simd-json-de-users`: one Users document decoded
//! with simd-json and nothing else, timed as a child is (`children::minimal`).
use codecs::models::Users;

fn main() {
    children::minimal::decode_once(|_document, copy| {
        simd_json::serde::from_slice::<Users>(copy).expect("a Users document")
    });
}
