//! What a library said when it failed: the error every codec returns.

use std::fmt;

/// What a library said when it failed, with which library it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

impl CodecError {
    pub fn from_library(error: impl fmt::Display) -> CodecError {
        CodecError(error.to_string())
    }
}
