//! The cold child of codec `noop` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::Noop>()
}
