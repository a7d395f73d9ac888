//! The cold child of codec `sonic-rs` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SonicRsTyped>()
}
