//! The cold child of codec `sonic-rs-value` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SonicRsDom>()
}
