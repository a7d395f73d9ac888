//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs-value`, op `de`, target `dom`.
fn main() {
    children::run::de::<codecs::SonicRsDom, codecs::inputs::Dom>()
}
