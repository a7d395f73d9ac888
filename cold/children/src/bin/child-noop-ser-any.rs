//! Generated from the codec registry (children::catalog): the cold child of codec
//! `noop`, op `ser`, target `any`.
fn main() {
    children::run::ser::<fixtures::codecs::Noop, fixtures::inputs::AnyInput>()
}
