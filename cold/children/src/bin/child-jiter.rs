//! The cold child of codec `jiter` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::JiterDom>()
}
