//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `ser`, target `items`.
fn main() {
    children::run::ser::<codecs::NanoserdeTyped, Vec<codecs::models::Item>>()
}
