//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs-value`, op `ser`, target `dom`.
fn main() {
    children::run::ser::<fixtures::codecs::SonicRsDom, fixtures::inputs::Dom>()
}
