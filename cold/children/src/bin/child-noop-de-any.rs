//! Generated from the codec registry (children::catalog): the cold child of codec
//! `noop`, op `de`, target `any`.
fn main() {
    children::run::de::<fixtures::codecs::Noop, fixtures::inputs::AnyInput>()
}
