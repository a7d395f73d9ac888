//! The cold child of codec `jiter` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::JiterDom>()
}
