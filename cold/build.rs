//! Bakes the version of the rustc that builds the children into the runner, for the manifest:
//! the compiler that made the measured code, not whichever one is on PATH when it runs.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("-V")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=THAW_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
}
