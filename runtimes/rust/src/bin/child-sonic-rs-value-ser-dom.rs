//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs-value`, op `ser`, target `dom`.
fn main() {
    children::run::ser::<codecs::SonicRsDom, codecs::inputs::Dom>()
}
