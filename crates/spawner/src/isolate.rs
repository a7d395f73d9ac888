//! A child without privileges in namespaces of its own (docs/containment.md, "The child"): where
//! the spawner runs as root in a pid namespace, its init also makes, once, a mount namespace and
//! an IPC namespace for every child it will start, and gives up the identity its children
//! inherit:
//!
//! - the mount namespace is private (nothing mounted in it is seen outside), with a `/proc` of
//!   the pid namespace (the runner and every host process out of sight), `/sys` read-only (every
//!   mount below it, the cgroup hierarchies included), and a fresh tmpfs on `/dev/shm`, emptied
//!   after each sample; in the other folders any user may write (`/tmp`, `/var/tmp`,
//!   `/run/lock`: a run's inputs may live there, so they are neither hidden nor read-only),
//!   whatever the children's user made at their top is removed after each sample;
//! - the IPC namespace's System V segments, semaphores and queues are removed after each sample;
//! - the spawner's real ids become [`CHILD_UID`] and [`CHILD_GID`] (its effective ids stay root,
//!   so it keeps writing its cgroup), with no supplementary groups and `no_new_privs`; each
//!   child is spawned with `POSIX_SPAWN_RESETIDS`, so it runs as that user alone, and `execve`
//!   clears every capability. It cannot write a cgroup file, mount, freeze or trace anything,
//!   and it cannot write the run folder.
//!
//! Nothing a sample creates outlives it: its processes are killed ([`crate::contain`]), its files
//! in the scratch folders and its IPC objects removed before the next sample starts.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The user every child runs as when the spawner can drop privileges: `nobody`, which owns no
/// file and runs no process a child could reach (the pid namespace hides the host's).
pub const CHILD_UID: u32 = 65534;
/// The group every child runs as (`nogroup`).
pub const CHILD_GID: u32 = 65534;

/// The folder of shared memory any user may write: it gets a private tmpfs.
const SCRATCH: &str = "/dev/shm";

/// The folders made read-only for the children: the kernel's (cgroup files included).
const READ_ONLY: [&str; 1] = ["/sys"];

/// The other folders any user may write on a Debian system, shared with the host: what the
/// children's user made at their top is removed after each sample.
const SHARED: [&str; 3] = ["/tmp", "/var/tmp", "/run/lock"];

/// What isolates the children, as set up.
#[derive(Debug, Default)]
pub struct Isolation {
    /// A private mount namespace with its own `/proc`, `/sys` read-only, and the scratch tmpfs.
    pub mounts: bool,
    /// An IPC namespace whose objects are removed after each sample.
    pub ipc: bool,
    /// The private tmpfs folders, emptied after each sample.
    pub scratch: Vec<PathBuf>,
    /// The user the children run as (`None`: the spawner's own, unchanged).
    pub child_uid: Option<u32>,
    /// Why a step could not be had, for the manifest and the terminal.
    pub missing: Vec<String>,
}

fn cstring(path: &str) -> CString {
    CString::new(path).expect("no NUL in a constant path")
}

fn mount(
    source: &str,
    target: &str,
    fstype: &str,
    flags: libc::c_ulong,
    data: &str,
) -> io::Result<()> {
    let (source, target, fstype, data) = (
        cstring(source),
        cstring(target),
        cstring(fstype),
        cstring(data),
    );
    // SAFETY: valid C strings; mount only changes this process's mount namespace.
    let r = unsafe {
        libc::mount(
            source.as_ptr(),
            target.as_ptr(),
            fstype.as_ptr(),
            flags,
            data.as_ptr().cast(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The mount flags a `mountinfo` line's per-mount options keep (a bind remount must repeat them).
fn kept_flags(options: &str) -> libc::c_ulong {
    options
        .split(',')
        .map(|o| match o {
            "nosuid" => libc::MS_NOSUID,
            "nodev" => libc::MS_NODEV,
            "noexec" => libc::MS_NOEXEC,
            "noatime" => libc::MS_NOATIME,
            "nodiratime" => libc::MS_NODIRATIME,
            "relatime" => libc::MS_RELATIME,
            _ => 0,
        })
        .fold(0, |a, b| a | b)
}

/// The mount points at or below `top` in a `mountinfo` text, with their per-mount options, in
/// the order mounted (a later mount on the same point covers an earlier one).
fn mounts_below(mountinfo: &str, top: &str) -> Vec<(String, String)> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let (point, options) = (*fields.get(4)?, *fields.get(5)?);
            let below = point == top || point.starts_with(&format!("{top}/"));
            below.then(|| (point.to_string(), options.to_string()))
        })
        .collect()
}

/// `folder` made read-only in this mount namespace: bound recursively onto itself, and each of
/// the new mounts remounted read-only (what was opened before, the spawner's cgroup folders,
/// stays writable through the mounts now covered).
fn read_only(folder: &str) -> io::Result<()> {
    mount(folder, folder, "", libc::MS_BIND | libc::MS_REC, "")?;
    let info = fs::read_to_string("/proc/self/mountinfo")?;
    let mut done = std::collections::BTreeSet::new();
    for (point, options) in mounts_below(&info, folder).into_iter().rev() {
        if !done.insert(point.clone()) {
            continue;
        }
        let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | kept_flags(&options);
        mount("", &point, "", flags, "")
            .map_err(|e| io::Error::new(e.kind(), format!("{point} read-only: {e}")))?;
    }
    Ok(())
}

/// A fresh tmpfs on `folder`, writable by anyone (sticky, as the scratch folders are).
fn scratch_tmpfs(folder: &str) -> io::Result<()> {
    mount(
        "tmpfs",
        folder,
        "tmpfs",
        libc::MS_NOSUID | libc::MS_NODEV,
        "mode=1777",
    )
}

/// In the pid namespace's init, as root, before any child: the mount and IPC namespaces (see
/// the module's comment). `/proc` must still be the host's when the caller reads it (the
/// cgroups are found and opened before).
pub fn enter() -> Isolation {
    let mut isolation = Isolation::default();
    // SAFETY: unshare only changes this process's namespaces.
    if unsafe { libc::unshare(libc::CLONE_NEWIPC) } == 0 {
        isolation.ipc = true;
    } else {
        isolation
            .missing
            .push(format!("no IPC namespace ({})", io::Error::last_os_error()));
    }
    // SAFETY: as above.
    if unsafe { libc::unshare(libc::CLONE_NEWNS) } != 0 {
        isolation.missing.push(format!(
            "no mount namespace ({})",
            io::Error::last_os_error()
        ));
        return isolation;
    }
    let steps = mount("", "/", "", libc::MS_REC | libc::MS_PRIVATE, "")
        .map_err(|e| format!("/ private: {e}"))
        .and_then(|()| {
            mount(
                "proc",
                "/proc",
                "proc",
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                "",
            )
            .map_err(|e| format!("a /proc of the pid namespace: {e}"))
        })
        .and_then(|()| {
            READ_ONLY
                .iter()
                .filter(|f| Path::new(f).is_dir())
                .try_for_each(|f| read_only(f).map_err(|e| format!("{f} read-only: {e}")))
        })
        .and_then(|()| scratch_tmpfs(SCRATCH).map_err(|e| format!("a private {SCRATCH}: {e}")));
    if let Err(e) = steps {
        isolation
            .missing
            .push(format!("mount namespace incomplete ({e})"));
        return isolation;
    }
    isolation.scratch.push(PathBuf::from(SCRATCH));
    isolation.mounts = true;
    isolation
}

/// Gives up the identity children inherit (see the module's comment): real ids [`CHILD_UID`]
/// and [`CHILD_GID`], no supplementary groups, `no_new_privs`, not dumpable (a child cannot
/// read the spawner's memory or descriptors through /proc). Only as root; `None` otherwise, or
/// when a step fails (then nothing the children see changed but `no_new_privs`).
pub fn drop_privileges(isolation: &mut Isolation) {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    // SAFETY: setgroups with an empty list, setresgid and setresuid with the effective and saved
    // ids kept (root), prctl on this process's own flags.
    let ok = unsafe {
        libc::setgroups(0, std::ptr::null()) == 0
            && libc::setresgid(CHILD_GID, 0, 0) == 0
            && libc::setresuid(CHILD_UID, 0, 0) == 0
    };
    if !ok {
        isolation.missing.push(format!(
            "children run as root: cannot set the ids {CHILD_UID}:{CHILD_GID} ({})",
            io::Error::last_os_error()
        ));
    } else {
        isolation.child_uid = Some(CHILD_UID);
    }
    // SAFETY: as above.
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// Removes everything in `folder` (a child's files and folders, however deep); with `owner`,
/// only the entries that user owns.
fn empty(folder: &Path, owner: Option<u32>) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for e in entries.flatten() {
        if let Some(uid) = owner {
            // the entry itself, never what a link names
            if !fs::symlink_metadata(e.path()).is_ok_and(|m| m.uid() == uid) {
                continue;
            }
        }
        let path = e.path();
        let removed = match e.file_type() {
            Ok(t) if t.is_dir() => fs::remove_dir_all(&path),
            _ => fs::remove_file(&path),
        };
        if removed.is_err() {
            // a folder a child made unwritable: make it writable and try once more
            let _ = fs::remove_dir_all(&path);
        }
    }
}

// The `*_INFO` commands of shmctl, semctl and msgctl (linux/shm.h, sem.h, msg.h), which say how
// many objects exist without naming them.
const SHM_INFO: libc::c_int = 14;

/// How many System V objects of the namespace exist: segments, semaphore sets, queues.
fn ipc_in_use() -> (i32, i32, i32) {
    // Each `*_info` structure is a few ints; its first field (shm_info.used_ids), third
    // (seminfo.semusz) and first (msginfo.msgpool) count the objects in use.
    let mut buf = [0i32; 32];
    // SAFETY: buf is larger than shm_info, seminfo and msginfo; each call writes at most those.
    unsafe {
        libc::shmctl(0, SHM_INFO, buf.as_mut_ptr().cast());
        let shm = buf[0];
        buf = [0; 32];
        libc::semctl(0, 0, libc::SEM_INFO, buf.as_mut_ptr());
        let sem = buf[2];
        buf = [0; 32];
        libc::msgctl(0, libc::MSG_INFO, buf.as_mut_ptr().cast());
        (shm, sem, buf[0])
    }
}

/// The ids listed in a `/proc/sysvipc/*` file (its second column).
fn listed_ids(text: &str) -> Vec<libc::c_int> {
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect()
}

/// Removes every System V object of this IPC namespace (each segment is freed once no process
/// holds it: the sample's are gone by then).
fn clear_ipc() {
    let (shm, sem, msg) = ipc_in_use();
    if shm > 0 {
        for id in listed_ids(&fs::read_to_string("/proc/sysvipc/shm").unwrap_or_default()) {
            // SAFETY: IPC_RMID takes no buffer.
            unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
        }
    }
    if sem > 0 {
        for id in listed_ids(&fs::read_to_string("/proc/sysvipc/sem").unwrap_or_default()) {
            // SAFETY: as above.
            unsafe { libc::semctl(id, 0, libc::IPC_RMID) };
        }
    }
    if msg > 0 {
        for id in listed_ids(&fs::read_to_string("/proc/sysvipc/msg").unwrap_or_default()) {
            // SAFETY: as above.
            unsafe { libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
        }
    }
}

impl Isolation {
    /// After each sample, once its processes are gone: the scratch folders emptied and the IPC
    /// objects removed, so that nothing of it outlives it or is charged to the next.
    pub fn clear_after_sample(&self) {
        for folder in &self.scratch {
            empty(folder, None);
        }
        if let Some(uid) = self.child_uid {
            for folder in SHARED {
                empty(Path::new(folder), Some(uid));
            }
        }
        if self.ipc {
            clear_ipc();
        }
    }

    /// One clause for [`crate::Containment::describe`].
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.child_uid {
            Some(uid) => parts.push(format!(
                "children run as uid {uid} without capabilities (no_new_privs)"
            )),
            None => {
                // SAFETY: geteuid has no preconditions.
                let root = unsafe { libc::geteuid() } == 0;
                parts.push(if root {
                    "children run as root, with the runner's privileges (nothing stops one \
                     writing cgroup files or the run folder)"
                        .to_string()
                } else {
                    "children run as the runner's own (unprivileged) user".to_string()
                })
            }
        }
        if self.mounts {
            parts.push(format!(
                "a private mount namespace (its own /proc; {} read-only; a tmpfs on {} emptied \
                 after each sample; what the children's user made in {} removed after each \
                 sample)",
                READ_ONLY.join(", "),
                self.scratch
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                SHARED.join(", ")
            ));
        }
        if self.ipc {
            parts.push("an IPC namespace (System V objects removed after each sample)".into());
        }
        if !self.missing.is_empty() {
            parts.push(format!("not had: {}", self.missing.join("; ")));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_mounts_below_a_folder_with_their_flags() {
        let info = "22 1 0:20 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw\n\
                    30 22 0:25 / /sys/fs/cgroup rw,nosuid - tmpfs tmpfs rw\n\
                    31 1 0:26 / /system rw - ext4 /dev/sda rw\n\
                    32 1 0:27 / /proc rw - proc proc rw\n";
        let below = mounts_below(info, "/sys");
        assert_eq!(
            below.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
            ["/sys", "/sys/fs/cgroup"]
        );
        assert_eq!(
            kept_flags(&below[0].1),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RELATIME
        );
        assert_eq!(kept_flags("rw"), 0);
    }

    #[test]
    fn reads_the_ids_of_a_sysvipc_listing() {
        let text = "       key      shmid perms       size  cpid  lpid\n\
                    0 32769 600 157286400 12 12\n\
                    1234 5 666 4096 13 13\n";
        assert_eq!(listed_ids(text), [32769, 5]);
        assert!(listed_ids("key shmid\n").is_empty());
    }

    #[test]
    fn empties_a_folder_of_files_and_trees() {
        let dir = std::env::temp_dir().join(format!("thaw-isolate-{}", std::process::id()));
        fs::create_dir_all(dir.join("a/b")).unwrap();
        fs::write(dir.join("a/b/f"), b"x").unwrap();
        fs::write(dir.join("g"), b"y").unwrap();
        // only the given owner's: nobody else's here
        empty(&dir, Some(u32::MAX - 1));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        empty(&dir, None);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir(&dir).unwrap();
    }
}
