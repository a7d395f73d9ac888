//! Containing a sample's whole process tree, with what the machine allows (see
//! docs/containment.md):
//!
//! - **A pid namespace** (needs `CAP_SYS_ADMIN`, so root): the spawner forks itself into a new pid
//!   namespace, whose first process (the one that serves) is its init. A child can then neither
//!   see the runner nor kill or stop the spawner (the kernel drops SIGKILL and SIGSTOP sent to a
//!   namespace's init from inside it), every orphan is the spawner's, `kill(-1)` ends every
//!   process of the sample at its end, and if the spawner dies, however it dies, the kernel kills
//!   every process of the namespace. The outer process only waits: it dies with the runner
//!   (parent-death signal), and the inner one dies with it (its own parent-death signal).
//! - **A memory cgroup** (v1: a sub-cgroup of the process's own memory cgroup, and one of its pids
//!   cgroup; v2: one sub-cgroup with `memory` and `pids`): the spawner joins it once, when it
//!   starts (a migration costs a grace period of RCU, several ms: never per sample, never on the
//!   child's clock), and every child is born in it. Its limit is `--memory-limit` (swap
//!   included), its peak and its OOM kills are read per sample: they count memfd, tmpfs and
//!   shared memory, and every process of the sample, which a child's own `wait4` does not. Its
//!   pids limit stops a fork bomb.
//! - **Neither**: the spawner is a subreaper (as before), and the system's `Shmem` is read before
//!   and after each sample: a rise beyond the limit voids it.
//!
//! Which ran is [`Containment::describe`]d to the runner when the spawner starts, and recorded in
//! the manifest.

use std::fs;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::isolate::Isolation;

/// The most tasks (processes and threads) one sample may have at once, with a pids cgroup: far
/// beyond a JVM's threads, far below what a fork bomb would take from the machine.
pub const PIDS_LIMIT: u64 = 4096;

/// The prefix of every cgroup a spawner makes (`thaw-<pid>`).
const PREFIX: &str = "thaw-";

/// Which cgroup version holds the memory controller the spawner uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// The cgroups one spawner made and joined.
#[derive(Debug)]
pub struct Cgroup {
    pub version: Version,
    /// The memory cgroup's folder (v2: the one cgroup), as the host names it.
    pub folder: PathBuf,
    /// The path the spawner reaches it by: through a descriptor opened before `/sys` was made
    /// read-only in its mount namespace ([`crate::isolate`]), so its files stay writable to the
    /// spawner alone.
    memory: PathBuf,
    /// That descriptor (`O_PATH`), held for as long as the spawner serves.
    _held: Option<fs::File>,
    /// v1's pids cgroup, when the pids controller could be used.
    pub pids: Option<PathBuf>,
    /// The limit last written, bytes.
    limit: u64,
    /// v2: `memory.peak`, held open, reset per sample through this handle.
    peak: Option<fs::File>,
}

/// What the spawner contains its samples with.
#[derive(Debug)]
pub struct Containment {
    /// The spawner serves as the init of its own pid namespace.
    pub pid_namespace: bool,
    pub cgroup: Option<Cgroup>,
    /// The child's identity and its mount and IPC namespaces ([`crate::isolate`]).
    pub isolation: Isolation,
}

/// What one sample's containment saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SampleMemory {
    /// The cgroup's peak during the sample, bytes (0: no cgroup).
    pub peak_bytes: u64,
    /// How many processes the kernel's OOM killer ended in the cgroup during the sample.
    pub oom_kills: u64,
    /// Without a cgroup: how far the system's `Shmem` rose during the sample, bytes.
    pub shmem_rise_bytes: u64,
}

/// The state kept from before a sample to after it.
#[derive(Debug, Default)]
pub struct Before {
    oom_kills: u64,
    shmem_kib: Option<u64>,
}

impl Containment {
    /// No containment beyond the process group (tests that serve inside their own process).
    pub fn none() -> Containment {
        Containment {
            pid_namespace: false,
            cgroup: None,
            isolation: Isolation::default(),
        }
    }

    /// One line for the manifest and the report.
    pub fn describe(&self) -> String {
        let tree = if self.pid_namespace {
            "a pid namespace per spawner (every process of a sample killed at its end; the \
             runner and the spawner out of a child's reach)"
        } else {
            "the spawner as subreaper (every process below it killed at a sample's end)"
        };
        let memory = match &self.cgroup {
            Some(c) => format!(
                "a memory cgroup {} (limit --memory-limit with swap, peak and OOM kills of \
                 every process, memfd and shared memory included){}",
                match c.version {
                    Version::V1 => "v1",
                    Version::V2 => "v2",
                },
                if c.pids.is_some() || c.version == Version::V2 {
                    format!(", at most {PIDS_LIMIT} tasks")
                } else {
                    String::new()
                }
            ),
            None => "no memory cgroup (RLIMIT_DATA, the peak from wait4, and a rise of the \
                     system's Shmem beyond the limit voids a sample; pipe buffers are not \
                     bounded)"
                .to_string(),
        };
        format!("{tree}; {memory}; {}", self.isolation.describe())
    }

    /// The cgroup folders, for the runner to kill in and remove when the spawner is gone.
    pub fn folders(&self) -> Vec<PathBuf> {
        match &self.cgroup {
            Some(c) => std::iter::once(c.folder.clone())
                .chain(c.pids.clone())
                .collect(),
            None => Vec::new(),
        }
    }

    /// Before a sample, off the child's clock: the limit (`bytes`, 0: none), the peak reset, the
    /// OOM kills so far; without a cgroup, the system's Shmem.
    pub fn before(&mut self, bytes: u64) -> Before {
        match &mut self.cgroup {
            Some(c) => {
                c.set_limit(bytes);
                c.reset_peak();
                Before {
                    oom_kills: c.oom_kills(),
                    shmem_kib: None,
                }
            }
            None => Before {
                oom_kills: 0,
                shmem_kib: shmem_kib(),
            },
        }
    }

    /// Right after the child is reaped, before its leftovers are killed: the rise of Shmem
    /// (without a cgroup).
    pub fn reaped(&self, before: &Before) -> u64 {
        match (self.cgroup.is_none(), before.shmem_kib, shmem_kib()) {
            (true, Some(a), Some(b)) => b.saturating_sub(a) * 1024,
            _ => 0,
        }
    }

    /// After the sample's processes are gone: its peak and OOM kills.
    pub fn after(&mut self, before: &Before, shmem_rise_bytes: u64) -> SampleMemory {
        match &mut self.cgroup {
            Some(c) => SampleMemory {
                peak_bytes: c.peak(),
                oom_kills: c.oom_kills().saturating_sub(before.oom_kills),
                shmem_rise_bytes,
            },
            None => SampleMemory {
                shmem_rise_bytes,
                ..SampleMemory::default()
            },
        }
    }

    /// Kills every process of the sample but the spawner itself, and reaps those that are its
    /// own: in a pid namespace, `kill(-1)` and a wait for every one; otherwise every process of
    /// the cgroup, then every process below the spawner (the caller reaps those).
    pub fn kill_rest(&self) {
        // SAFETY: getpid has no preconditions.
        if self.pid_namespace && unsafe { libc::getpid() } == 1 {
            kill_namespace();
            return;
        }
        if let Some(c) = &self.cgroup {
            // SAFETY: getpid has no preconditions.
            let me = unsafe { libc::getpid() } as u32;
            kill_in(&c.memory, me);
        }
    }
}

/// In a pid namespace whose init this process is: SIGKILL to every other process of the
/// namespace (`kill(-1)` reaches nothing outside it), again until every one is reaped (each is
/// this process's child or orphan); a process forked meanwhile is killed on the next pass.
/// Gives up after about 10 s (a process stuck in the kernel), leaving the rest to the next
/// sample's pass.
fn kill_namespace() {
    for _ in 0..10_000 {
        // SAFETY: see above; the caller checked that this process is the namespace's init.
        unsafe { libc::kill(-1, libc::SIGKILL) };
        loop {
            // SAFETY: waitpid on any child, without blocking.
            let r =
                unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL) };
            if r > 0 {
                continue;
            }
            if r < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
                return;
            }
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// SIGKILL to every process of the cgroup folder `dir` but `except`, until none is left (a
/// fork bomb is bounded by the pids limit; 1,000 passes at most).
pub fn kill_in(dir: &Path, except: u32) {
    for _ in 0..1000 {
        let pids: Vec<u32> = fs::read_to_string(dir.join("cgroup.procs"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .filter(|&p| p != except && p > 1)
            .collect();
        if pids.is_empty() {
            return;
        }
        for p in pids {
            // SAFETY: kill with a positive pid signals that one process.
            unsafe { libc::kill(p as libc::pid_t, libc::SIGKILL) };
        }
        std::thread::yield_now();
    }
}

/// For the runner once its spawner is gone: kills whatever is left in the spawner's cgroups
/// and removes them (a populated one stays, and is removed by the next spawner's sweep).
pub fn remove(folders: &[PathBuf]) {
    for dir in folders {
        kill_in(dir, 0);
    }
    for dir in folders {
        // the killed may take a moment to leave the cgroup
        for _ in 0..200 {
            if fs::remove_dir(dir).is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// Thaws process `pid` wherever a freezer holds it: its v1 `freezer` cgroup set `THAWED`, its v2
/// cgroup's `cgroup.freeze` set to 0 (a frozen process takes no signal, SIGKILL included, until
/// thawed). For the runner, before it kills a spawner that stopped answering. Returns whether a
/// frozen cgroup was found (and written).
pub fn thaw(pid: u32) -> bool {
    let Ok(text) = fs::read_to_string(format!("/proc/{pid}/cgroup")) else {
        return false;
    };
    let mut thawed = false;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (id, list, path) = match (parts.next(), parts.next(), parts.next()) {
            (Some(i), Some(l), Some(p)) => (i, l, p),
            _ => continue,
        };
        let (controller, file, value) = if list.split(',').any(|c| c == "freezer") {
            ("freezer", "freezer.state", "THAWED")
        } else if id == "0" && list.is_empty() {
            ("", "cgroup.freeze", "0")
        } else {
            continue;
        };
        let Some((_, point, root)) = mounts_of(controller).into_iter().next() else {
            continue;
        };
        let Some(rel) = path.strip_prefix(root.trim_end_matches('/')) else {
            continue;
        };
        let target = point.join(rel.trim_start_matches('/')).join(file);
        let frozen = fs::read_to_string(&target)
            .map(|s| matches!(s.trim(), "FROZEN" | "FREEZING" | "1"))
            .unwrap_or(false);
        if frozen && write(&target, value).is_ok() {
            thawed = true;
        }
    }
    thawed
}

/// The system's `Shmem` (KiB), from /proc/meminfo.
fn shmem_kib() -> Option<u64> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("Shmem:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

// ---- the pid namespace ----

/// Forks this process into a new pid namespace, if the kernel lets it: returns `true` in the
/// inner process (the namespace's init), which goes on to serve; the outer process never
/// returns: it waits for the inner one and exits as it did. `false` (nothing changed) where
/// the namespace cannot be made (no `CAP_SYS_ADMIN`). Call it before any thread is started,
/// with the outer process's parent-death signal set already.
pub fn enter_pid_namespace() -> bool {
    // SAFETY: unshare(CLONE_NEWPID) changes only where this process's later children are born.
    if unsafe { libc::unshare(libc::CLONE_NEWPID) } != 0 {
        return false;
    }
    // A pipe the inner process watches: its end closes when the outer one dies.
    let mut fds = [0; 2];
    // SAFETY: a valid array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        eprintln!("cold-spawner: pipe: {}", io::Error::last_os_error());
        std::process::exit(1);
    }
    // SAFETY: single-threaded here (the caller's contract); the child only continues this code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        eprintln!("cold-spawner: fork: {}", io::Error::last_os_error());
        std::process::exit(1);
    }
    if pid > 0 {
        // The outer process: it holds the pipe's write end until it dies.
        // SAFETY: closing our copy of the read end.
        unsafe { libc::close(fds[0]) };
        // Its stdin and stdout are the inner process's now: nothing of the runner's pipes stays
        // open here, so the runner sees their end when the inner process ends.
        // SAFETY: /dev/null replaces fds 0 and 1 of this process only.
        unsafe {
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            if null >= 0 {
                libc::dup2(null, 0);
                libc::dup2(null, 1);
                libc::close(null);
            }
        }
        let mut status = 0;
        loop {
            // SAFETY: waits for our own child.
            let r = unsafe { libc::waitpid(pid, &mut status, 0) };
            if r == pid {
                break;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                std::process::exit(1);
            }
        }
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            128 + libc::WTERMSIG(status)
        };
        std::process::exit(code);
    }
    // The inner process: it dies when the outer one does, and checks the outer one was still
    // there once that was armed.
    // SAFETY: prctl on this process's own parent-death signal; close our copy of the write end.
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        );
        libc::close(fds[1]);
    }
    let mut pfd = libc::pollfd {
        fd: fds[0],
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd; a zero timeout only asks.
    let r = unsafe { libc::poll(&mut pfd, 1, 0) };
    if r != 0 {
        std::process::exit(1); // the outer process is gone already
    }
    // The read end stays open (close-on-exec): no child sees it.
    true
}

// ---- cgroups ----

/// The host's pid of this process (in a pid namespace `getpid` says 1; /proc is the host's).
fn host_pid() -> u32 {
    fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str()?.parse().ok())
        // SAFETY: getpid has no preconditions.
        .unwrap_or_else(|| unsafe { libc::getpid() } as u32)
}

/// Where the hierarchy of `controller` (v1; "" for v2) is mounted: (controller, point, root).
fn mounts_of(controller: &str) -> Vec<(String, PathBuf, String)> {
    mounts_with(&["memory", "pids", "freezer"])
        .into_iter()
        .filter(|(c, _, _)| c == controller)
        .collect()
}

/// Where cgroup hierarchies are mounted: (v1 controller or "" for v2, mount point, mount root).
fn mounts() -> Vec<(String, PathBuf, String)> {
    mounts_with(&["memory", "pids"])
}

/// Where cgroup v2 and the v1 hierarchies of `controllers` are mounted.
fn mounts_with(controllers: &[&str]) -> Vec<(String, PathBuf, String)> {
    let text = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let l: Vec<&str> = left.split(' ').collect();
        let r: Vec<&str> = right.split(' ').collect();
        if l.len() < 5 || r.len() < 3 {
            continue;
        }
        let (root, point) = (l[3].to_string(), PathBuf::from(l[4]));
        match r[0] {
            "cgroup2" => out.push((String::new(), point, root)),
            "cgroup" => {
                for opt in r[2].split(',') {
                    if controllers.contains(&opt) {
                        out.push((opt.to_string(), point.clone(), root.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// This process's cgroup path in the hierarchy of `controller` (v1), or in v2's ("").
fn own_path(controller: &str) -> Option<String> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (id, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if controller.is_empty() {
            id == "0" && list.is_empty()
        } else {
            list.split(',').any(|c| c == controller)
        };
        hit.then(|| path.to_string())
    })
}

/// The folder of this process's cgroup of `controller` ("" for v2).
fn own_folder(controller: &str) -> Option<PathBuf> {
    let path = own_path(controller)?;
    let (_, point, root) = mounts().into_iter().find(|(c, _, _)| c == controller)?;
    let rel = path.strip_prefix(root.trim_end_matches('/'))?;
    let folder = point.join(rel.trim_start_matches('/'));
    folder.is_dir().then_some(folder)
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut f = fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(value.as_bytes())
}

fn read_u64(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a flat keyed file (`memory.oom_control`, `memory.events`).
fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// Removes the empty cgroups other spawners left in `parent` (killed before they could).
fn sweep(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(PREFIX) {
            // a cgroup still holding a process (a live spawner's) refuses; that is fine
            let _ = fs::remove_dir(e.path());
        }
    }
}

/// Makes a cgroup `thaw-<pid>` below `parent` and moves this process into it.
fn make_and_join(parent: &Path, name: &str, set: &[(&str, String)]) -> io::Result<PathBuf> {
    sweep(parent);
    let dir = parent.join(name);
    fs::create_dir(&dir)?;
    let joined = set
        .iter()
        .try_for_each(|(file, value)| write(&dir.join(file), value))
        .and_then(|()| write(&dir.join("cgroup.procs"), "0"));
    if let Err(e) = joined {
        let _ = fs::remove_dir(&dir);
        return Err(e);
    }
    Ok(dir)
}

impl Cgroup {
    /// A cgroup of this process's own, where the machine allows one: v1's memory (and pids)
    /// controller mounted writable, or v2 with `memory` and `pids` delegated.
    pub fn make() -> Option<Cgroup> {
        let name = format!("{PREFIX}{}", host_pid());
        if let Some(parent) = own_folder("memory") {
            if let Ok(memory) = make_and_join(&parent, &name, &[]) {
                let pids = own_folder("pids").and_then(|p| {
                    make_and_join(&p, &name, &[("pids.max", PIDS_LIMIT.to_string())]).ok()
                });
                return Some(Cgroup {
                    version: Version::V1,
                    folder: memory.clone(),
                    memory,
                    _held: None,
                    pids,
                    limit: u64::MAX,
                    peak: None,
                });
            }
        }
        let parent = own_folder("")?;
        let controllers = fs::read_to_string(parent.join("cgroup.controllers")).ok()?;
        let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
        if !has("memory") || !has("pids") {
            return None;
        }
        let enabled = fs::read_to_string(parent.join("cgroup.subtree_control")).ok()?;
        if !(enabled.contains("memory") && enabled.contains("pids")) {
            write(&parent.join("cgroup.subtree_control"), "+memory +pids").ok()?;
        }
        let memory = make_and_join(
            &parent,
            &name,
            &[
                ("pids.max", PIDS_LIMIT.to_string()),
                ("memory.swap.max", "0".to_string()),
                ("memory.oom.group", "1".to_string()),
            ],
        )
        .ok()?;
        let peak = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(memory.join("memory.peak"))
            .ok();
        Some(Cgroup {
            version: Version::V2,
            folder: memory.clone(),
            memory,
            _held: None,
            pids: None,
            limit: u64::MAX,
            peak,
        })
    }

    /// Holds the cgroup's folder open and reaches it through that descriptor from now on, so
    /// that a `/sys` made read-only afterwards ([`crate::isolate`]) leaves it writable to this
    /// process (the descriptor is close-on-exec: no child has it).
    pub fn hold(&mut self) {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        if let Ok(dir) = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_DIRECTORY)
            .open(&self.folder)
        {
            self.memory = PathBuf::from(format!("/proc/self/fd/{}", dir.as_raw_fd()));
            self._held = Some(dir);
        }
    }

    /// Sets the memory limit (swap included), bytes; 0: none.
    fn set_limit(&mut self, bytes: u64) {
        let bytes = if bytes == 0 { u64::MAX } else { bytes };
        if bytes == self.limit {
            return;
        }
        let value = if bytes == u64::MAX {
            "max".to_string()
        } else {
            bytes.to_string()
        };
        match self.version {
            Version::V1 => {
                let value = if bytes == u64::MAX {
                    "-1".into()
                } else {
                    value
                };
                let mem = self.memory.join("memory.limit_in_bytes");
                let sw = self.memory.join("memory.memsw.limit_in_bytes");
                // memsw must stay at least the limit: raise it first, lower it last
                if bytes > self.limit {
                    let _ = write(&sw, &value);
                    let _ = write(&mem, &value);
                } else {
                    let _ = write(&mem, &value);
                    let _ = write(&sw, &value);
                }
            }
            Version::V2 => {
                let _ = write(&self.memory.join("memory.max"), &value);
            }
        }
        self.limit = bytes;
    }

    fn reset_peak(&mut self) {
        match self.version {
            Version::V1 => {
                let _ = write(&self.memory.join("memory.max_usage_in_bytes"), "0");
            }
            Version::V2 => {
                if let Some(f) = &mut self.peak {
                    let _ = f.write_all(b"reset\n");
                }
            }
        }
    }

    fn peak(&mut self) -> u64 {
        match self.version {
            Version::V1 => read_u64(&self.memory.join("memory.max_usage_in_bytes")).unwrap_or(0),
            Version::V2 => {
                let Some(f) = &mut self.peak else {
                    return 0;
                };
                let mut text = String::new();
                let _ = f.rewind().and_then(|()| f.read_to_string(&mut text));
                text.trim().parse().unwrap_or(0)
            }
        }
    }

    fn oom_kills(&self) -> u64 {
        let file = match self.version {
            Version::V1 => "memory.oom_control",
            Version::V2 => "memory.events",
        };
        keyed(&self.memory.join(file), "oom_kill").unwrap_or(0)
    }
}

/// Closes every descriptor above 2 this process inherited (the runner's shell may have left
/// some open), so no child can read them.
pub fn close_inherited() {
    // SAFETY: close_range on descriptors this process does not use (it has opened none yet).
    let r = unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) };
    if r != 0 {
        for fd in 3..4096 {
            // SAFETY: as above.
            unsafe { libc::close(fd) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keyed_files() {
        let dir = std::env::temp_dir().join(format!("thaw-contain-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let f = dir.join("memory.oom_control");
        fs::write(&f, "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n").unwrap();
        assert_eq!(keyed(&f, "oom_kill"), Some(3));
        assert_eq!(keyed(&f, "oom"), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn describes_what_ran() {
        let none = Containment::none();
        assert!(none.describe().contains("subreaper"));
        assert!(none.describe().contains("no memory cgroup"));
        assert!(none.folders().is_empty());
    }
}
