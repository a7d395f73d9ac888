//! The cold child of codec `nanoserde` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::NanoserdeTyped>()
}
