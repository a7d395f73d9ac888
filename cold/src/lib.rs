//! cold
