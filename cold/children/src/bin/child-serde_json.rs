//! The cold child of codec `serde_json` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SerdeJsonTyped>()
}
