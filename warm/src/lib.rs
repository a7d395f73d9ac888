//! warm
