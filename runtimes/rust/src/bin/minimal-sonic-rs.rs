//! The reference for `child-sonic-rs-de-users`: one Users document decoded
//! with sonic-rs and nothing else, timed as a child is (`children::minimal`).
use codecs::models::Users;

fn main() {
    children::minimal::decode_once(|document, _copy| {
        sonic_rs::from_slice::<Users>(document).expect("a Users document")
    });
}
