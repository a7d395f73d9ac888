//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `ser`, target `places`.
fn main() {
    children::run::ser::<codecs::NanoserdeTyped, Vec<codecs::models::Place>>()
}
