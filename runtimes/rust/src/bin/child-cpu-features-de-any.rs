//! Generated from the codec registry (children::catalog): the cold child of codec
//! `cpu-features`, op `de`, target `any`.
fn main() {
    children::run::de::<codecs::CpuFeatures, codecs::inputs::AnyInput>()
}
