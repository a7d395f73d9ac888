//! The cold child of codec `miniserde` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::MiniserdeTyped>()
}
