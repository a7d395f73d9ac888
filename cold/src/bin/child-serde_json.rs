//! The cold child of codec `serde_json` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SerdeJsonTyped>()
}
