//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `de`, target `small`.
fn main() {
    children::run::de::<codecs::NanoserdeTyped, codecs::models::Small>()
}
