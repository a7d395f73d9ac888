//! The cold child of codec `noop` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::Noop>()
}
