//! The cold child of codec `nanoserde` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::NanoserdeTyped>()
}
