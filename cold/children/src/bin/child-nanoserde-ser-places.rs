//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `ser`, target `places`.
fn main() {
    children::run::ser::<fixtures::codecs::NanoserdeTyped, Vec<fixtures::models::Place>>()
}
