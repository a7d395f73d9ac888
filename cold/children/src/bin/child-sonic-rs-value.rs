//! The cold child of codec `sonic-rs-value` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SonicRsDom>()
}
