//! The cold child of codec `serde_json-value` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SerdeJsonDom>()
}
