//! The cold child of codec `miniserde` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::MiniserdeTyped>()
}
