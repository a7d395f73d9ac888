//! The cold child of codec `serde_json-value` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SerdeJsonDom>()
}
