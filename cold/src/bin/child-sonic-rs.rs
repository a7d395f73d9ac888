//! The cold child of codec `sonic-rs` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SonicRsTyped>()
}
