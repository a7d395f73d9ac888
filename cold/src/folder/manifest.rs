//! manifest.json on disk, and the facts of the machine it records (commit, CPU, kernel, time).
//! The manifest's fields are `schema::run_folder::Manifest`; a run writes it when it starts
//! (`finished: false`) and again, with `finished: true`, at its end.

use anyhow::{Context, Result};
use files::Folder;
use schema::run_folder::{Machine, Manifest, MANIFEST};
use std::path::Path;
use std::process::Command;

/// `git rev-parse HEAD` in the current folder, if git and a repository are there.
pub(crate) fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The first value of `key` in /proc/cpuinfo.
fn cpuinfo(key: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim().to_string())
}

/// The machine this run is on: its CPU's model and flags, cores, kernel, and whether it is a
/// virtual machine (the CPU's `hypervisor` flag; the hypervisor's name where the firmware says
/// it).
pub(crate) fn machine() -> Machine {
    let cpu_flags = cpuinfo("flags").unwrap_or_default();
    let virtualization = cpu_flags
        .split_whitespace()
        .any(|f| f == "hypervisor")
        .then(|| {
            let vendor = std::fs::read_to_string("/sys/class/dmi/id/sys_vendor")
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty());
            match vendor {
                Some(v) => format!("virtual ({v})"),
                None => "virtual".to_string(),
            }
        });
    Machine {
        cpu_model: cpuinfo("model name"),
        cpu_flags,
        cores: crate::system::pin::online_cpus(),
        kernel: kernel(),
        virtualization,
        // the spawner says, once it runs (`run::session::take_samples`)
        containment: None,
    }
}

/// `uname -sr`.
pub(crate) fn kernel() -> Option<String> {
    // SAFETY: utsname is plain old data; uname fills it.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: a valid, writable utsname.
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    let field = |chars: &[libc::c_char]| {
        let bytes: Vec<u8> = chars
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Some(format!("{} {}", field(&u.sysname), field(&u.release)))
}

/// The version of the rustc that built the children (baked in by build.rs).
pub(crate) const RUSTC: &str = env!("THAW_RUSTC_VERSION");

/// The UTC time now, as the manifest writes it.
pub(crate) fn utc_now() -> (chrono::DateTime<chrono::Utc>, String) {
    let now = std::time::SystemTime::now();
    (now.into(), schema::run_folder::utc_text(now))
}

/// Writes `manifest` into the run folder `dir`, atomically.
pub(crate) fn write(dir: &Path, manifest: &Manifest) -> Result<()> {
    let text = serde_json::to_string_pretty(manifest)? + "\n";
    Ok(Folder::new(dir).write_atomically(MANIFEST, text.as_bytes())?)
}

/// The most a manifest may weigh.
const MANIFEST_LIMIT: u64 = 64 * 1024 * 1024;

/// Reads the run folder's manifest, bounded, every text and list within its bound.
pub(crate) fn read(dir: &Path) -> Result<Manifest> {
    let path = dir.join(MANIFEST);
    let bytes = Folder::new(dir)
        .read_bounded(MANIFEST, MANIFEST_LIMIT)
        .with_context(|| format!("cannot read {}", path.display()))?;
    store::manifest::parse_manifest(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_facts() {
        assert!(kernel().unwrap().starts_with("Linux"));
        assert!(RUSTC.starts_with("rustc "), "{RUSTC}");
    }

    #[test]
    fn an_unreadable_manifest_says_so() {
        let dir = std::env::temp_dir().join(format!("thaw-cold-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MANIFEST), "{").unwrap();
        let e = format!("{:#}", read(&dir).unwrap_err());
        assert!(e.contains("manifest.json: not JSON"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        let m = machine();
        assert!(m.cores >= 1 && m.kernel.unwrap().starts_with("Linux"));
    }
}
