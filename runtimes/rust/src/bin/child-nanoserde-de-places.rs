//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `de`, target `places`.
fn main() {
    children::run::de::<codecs::NanoserdeTyped, Vec<codecs::models::Place>>()
}
