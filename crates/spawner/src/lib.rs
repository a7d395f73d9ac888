//! The spawner: a small helper process (`cold-spawner`) that spawns and reaps every child on the
//! runner's behalf, so that a child's max RSS is its own; and the runner's side of it
//! ([`Spawner`]). It links nothing but std and libc.
//!
//! Why: a child started with vfork/posix_spawn shares its parent's memory until `exec`, and
//! Linux carries the old memory's high-water mark into the child's `ru_maxrss`. Spawned by the
//! runner (several MB, more with large fixtures), every child would report at least the
//! runner's RSS. The spawner links nothing but std and stays near the floor of any process
//! (about 2 MB), so max RSS above that floor is the child's. Timing is unchanged: the spawner
//! stamps `spawn` and `reaped` itself, around the same spawn and `wait4` (see `process`).
//!
//! The runner talks to it over its stdin and stdout with length-prefixed binary frames: a
//! request (program, arguments, environment, timeout, how to watch) and a reply (the reaped
//! child, or why it could not be spawned). Nothing passes between them while a child runs, so
//! the runner sleeps and costs the child nothing.
//!
//! A sample's whole process tree is contained ([`contain`], docs/containment.md): where the
//! kernel allows, the spawner serves as the init of a pid namespace of its own (out of every
//! child's reach; every process of a sample killed at its end; all of them with the spawner)
//! and every child is born in the spawner's memory cgroup (its limit, peak and OOM kills count
//! every process of the sample and its shared memory). What follows holds without them.
//!
//! Nothing outlives the runner: the spawner runs in a process group of its own (a Ctrl-C at the
//! terminal reaches the runner only, which decides), asks the kernel for SIGTERM when the runner
//! dies, however it dies (SIGKILL included), and then kills the child in flight with its group,
//! reaps it, kills everything left below the spawner (a daemon in a session of its own too) and
//! exits; if the spawner itself dies, the runner (a child subreaper) adopts the child in flight,
//! finds it among its own children, and kills its group. The spawner is a subreaper too:
//! whatever a child leaves behind is adopted by it, killed with the child's group at the end of
//! the sample, and reaped. A runner a child stopped (SIGSTOP) is continued once the sample's
//! processes are gone. It also caps, for itself and so for every child, the size of any file a
//! process may write (the capture files included) and core dumps, and sets the memory limit as
//! a hard limit, which a child cannot raise without privilege.

pub mod capture;
pub mod contain;
pub mod isolate;
pub mod process;

use capture::Capture;
pub use contain::{Containment, SampleMemory};
pub use process::{Exit, Reaped, ResourceUsage, Watch};
use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

/// The spawner binary's name, next to the runner's executable.
pub const BINARY: &str = "cold-spawner";

/// The environment variable that tells the spawner its runner's pid.
const RUNNER_PID_VAR: &str = "THAW_RUNNER_PID";

/// The environment variable that, set to `none`, turns the containment off (docs/containment.md).
pub const CONTAINMENT_VAR: &str = "THAW_CONTAINMENT";

/// How long past a child's timeout the runner waits for the spawner's answer before it takes
/// the spawner for stuck: the spawner kills the child at its timeout and answers at once.
pub const GRACE: Duration = Duration::from_secs(10);

/// The largest file a child may write, the capture of its stdout and stderr included: beyond it
/// the kernel stops the child with SIGXFSZ (recorded as `signal:25`).
pub const FILE_SIZE_LIMIT: u64 = 256 * 1024 * 1024;

/// One child to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The child's whole environment.
    pub env: Vec<(OsString, OsString)>,
    pub timeout: Duration,
    /// The most memory the child may take (its data segment, `RLIMIT_DATA`), bytes; 0: no limit
    /// beyond the spawner's own.
    pub memory_limit: u64,
    pub watch: Watch,
}

/// The spawner's answer: the reaped child, or why it could not be run.
pub type Reply = Result<Reaped, String>;

// ---- frames ----

fn put_u64(w: &mut impl Write, v: u64) -> io::Result<()> {
    w.write_all(&v.to_le_bytes())
}

fn get_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn put_bytes(w: &mut impl Write, b: &[u8]) -> io::Result<()> {
    put_u64(w, b.len() as u64)?;
    w.write_all(b)
}

fn get_bytes(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let len = get_u64(r)?;
    if len > 1 << 30 {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "frame too long"));
    }
    let mut b = vec![0u8; len as usize];
    r.read_exact(&mut b)?;
    Ok(b)
}

pub fn write_request(w: &mut impl Write, q: &Request) -> io::Result<()> {
    put_bytes(w, q.program.as_os_str().as_bytes())?;
    put_u64(w, q.args.len() as u64)?;
    for a in &q.args {
        put_bytes(w, a.as_bytes())?;
    }
    put_u64(w, q.env.len() as u64)?;
    for (k, v) in &q.env {
        put_bytes(w, k.as_bytes())?;
        put_bytes(w, v.as_bytes())?;
    }
    put_u64(w, q.timeout.as_nanos().min(u64::MAX as u128) as u64)?;
    put_u64(w, q.memory_limit)?;
    put_u64(w, matches!(q.watch, Watch::Watchdog) as u64)?;
    w.flush()
}

/// `Ok(None)` at a clean end of input (the runner closed the pipe).
pub fn read_request(r: &mut impl Read) -> io::Result<Option<Request>> {
    let program = match get_bytes(r) {
        Ok(b) => PathBuf::from(OsString::from_vec(b)),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    };
    let n = get_u64(r)?;
    let args = (0..n)
        .map(|_| get_bytes(r).map(OsString::from_vec))
        .collect::<io::Result<_>>()?;
    let n = get_u64(r)?;
    let env = (0..n)
        .map(|_| {
            let k = get_bytes(r).map(OsString::from_vec)?;
            let v = get_bytes(r).map(OsString::from_vec)?;
            Ok((k, v))
        })
        .collect::<io::Result<_>>()?;
    let timeout = Duration::from_nanos(get_u64(r)?);
    let memory_limit = get_u64(r)?;
    let watch = if get_u64(r)? == 1 {
        Watch::Watchdog
    } else {
        Watch::Auto
    };
    Ok(Some(Request {
        program,
        args,
        env,
        timeout,
        memory_limit,
        watch,
    }))
}

pub fn write_reply(w: &mut impl Write, reply: &Reply) -> io::Result<()> {
    match reply {
        Err(message) => {
            put_u64(w, 0)?;
            put_bytes(w, message.as_bytes())?;
        }
        Ok(r) => {
            put_u64(w, 1)?;
            let (kind, value) = match r.exit {
                Exit::Code(c) => (0, c),
                Exit::Signal(s) => (1, s),
            };
            let u = &r.usage;
            for v in [
                r.spawn_ns,
                r.reaped_ns,
                kind,
                value as u32 as u64,
                r.timed_out as u64,
                u.user_us,
                u.sys_us,
                u.maxrss_kib,
                u.minflt,
                u.majflt,
                u.inblock,
                u.nvcsw,
                u.nivcsw,
                r.memory.peak_bytes,
                r.memory.oom_kills,
                r.memory.shmem_rise_bytes,
            ] {
                put_u64(w, v)?;
            }
            put_bytes(w, &r.stdout)?;
            put_bytes(w, &r.stderr)?;
        }
    }
    w.flush()
}

pub fn read_reply(r: &mut impl Read) -> io::Result<Reply> {
    if get_u64(r)? == 0 {
        return Ok(Err(String::from_utf8_lossy(&get_bytes(r)?).into_owned()));
    }
    let mut v = [0u64; 16];
    for slot in &mut v {
        *slot = get_u64(r)?;
    }
    let value = v[3] as u32 as i32;
    Ok(Ok(Reaped {
        spawn_ns: v[0],
        reaped_ns: v[1],
        exit: if v[2] == 0 {
            Exit::Code(value)
        } else {
            Exit::Signal(value)
        },
        timed_out: v[4] != 0,
        usage: ResourceUsage {
            user_us: v[5],
            sys_us: v[6],
            maxrss_kib: v[7],
            minflt: v[8],
            majflt: v[9],
            inblock: v[10],
            nvcsw: v[11],
            nivcsw: v[12],
        },
        stdout: get_bytes(r)?,
        stderr: get_bytes(r)?,
        memory: SampleMemory {
            peak_bytes: v[13],
            oom_kills: v[14],
            shmem_rise_bytes: v[15],
        },
    }))
}

/// The spawner's first frame, once it has set up its containment: what contains the samples
/// ([`Containment::describe`]), the cgroup folders the runner removes when it is gone, and the
/// user the children run as, when it is not the runner's.
pub fn write_hello(w: &mut impl Write, c: &Containment) -> io::Result<()> {
    put_bytes(w, c.describe().as_bytes())?;
    let folders = c.folders();
    put_u64(w, folders.len() as u64)?;
    for f in &folders {
        put_bytes(w, f.as_os_str().as_bytes())?;
    }
    put_u64(w, c.isolation.child_uid.map_or(0, |u| u as u64 + 1))?;
    w.flush()
}

/// What a spawner says when it starts ([`write_hello`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    pub containment: String,
    pub cgroups: Vec<PathBuf>,
    /// The user its children run as (`None`: the runner's own).
    pub child_uid: Option<u32>,
}

/// The runner's side of [`write_hello`].
pub fn read_hello(r: &mut impl Read) -> io::Result<Hello> {
    let describe = String::from_utf8_lossy(&get_bytes(r)?).into_owned();
    let n = get_u64(r)?;
    if n > 16 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "too many cgroups",
        ));
    }
    let cgroups = (0..n)
        .map(|_| get_bytes(r).map(|b| PathBuf::from(OsString::from_vec(b))))
        .collect::<io::Result<_>>()?;
    let child_uid =
        match get_u64(r)? {
            0 => None,
            n => Some(u32::try_from(n - 1).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidData, "a child uid out of range")
            })?),
        };
    Ok(Hello {
        containment: describe,
        cgroups,
        child_uid,
    })
}

// ---- the spawner's side ----

/// The child in flight (its pid, which is its group's id), for the signal handler; 0 when none.
static IN_FLIGHT: AtomicI32 = AtomicI32::new(0);

/// Set by the signal handler: the runner is gone (or the spawner was told to stop). The main
/// loop then clears what is left below the spawner and exits, instead of serving on.
static GONE: AtomicBool = AtomicBool::new(false);

/// SIGTERM (the runner's death), SIGHUP or SIGINT: the child in flight is killed with its group
/// at once; the main loop, which reaps it, then kills whatever else is left below the spawner
/// (that walk reads /proc and allocates, so it is not done here) and exits.
extern "C" fn runner_gone(_signal: libc::c_int) {
    GONE.store(true, Ordering::SeqCst);
    let pid = IN_FLIGHT.load(Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: killpg is async-signal-safe.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
    }
}

/// Whether the runner has been told to go (see [`runner_gone`]).
pub fn gone() -> bool {
    GONE.load(Ordering::SeqCst)
}

/// The state letter of process `pid` (`T`: stopped), from /proc.
fn state_of(pid: libc::pid_t) -> Option<u8> {
    let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    let close = stat.iter().rposition(|&b| b == b')')?;
    stat.get(close + 2).copied()
}

/// After a sample, with its processes gone: the runner (this process's parent) continued if it
/// is stopped, since only a child of the sample, or the user, could have stopped it, and a
/// stopped runner would wait for ever. Returns whether it was stopped.
pub fn continue_runner() -> bool {
    // SAFETY: getppid has no preconditions.
    let runner = unsafe { libc::getppid() };
    if runner > 1 && matches!(state_of(runner), Some(b'T') | Some(b't')) {
        // SAFETY: kill with a positive pid signals that one process.
        unsafe { libc::kill(runner, libc::SIGCONT) };
        return true;
    }
    false
}

/// The signals the runner takes with `sigwait` (and so blocks), unblocked in the spawner: it
/// must die of them (std's spawn resets the mask for a process it starts; this makes sure).
fn unblock_signals() {
    // SAFETY: sigset_t is plain old data, initialised by sigemptyset; this unblocks the signals
    // in the calling thread only.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}

/// What the spawner sets up for itself before serving: the descriptors it inherited closed, the
/// file-size and core-dump limits its children inherit, its death with the runner, and its
/// containment ([`contain`]). With a pid namespace, the outer process dies of the runner's
/// death (SIGTERM, not handled) and the inner one, which serves, of the outer one's; without
/// one, SIGTERM is handled by killing the child in flight, and the spawner is a subreaper.
/// Refuses to serve if the runner is gone already.
pub fn bind_to_runner() -> io::Result<Containment> {
    contain::close_inherited();
    unblock_signals();
    let limit = |resource, value: u64| {
        let r = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: a valid rlimit; lowering a limit needs no privilege.
        unsafe { libc::setrlimit(resource, &r) }
    };
    limit(libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT);
    limit(libc::RLIMIT_CORE, 0);
    // SAFETY: prctl on this process's own parent-death signal.
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGTERM as libc::c_ulong,
            0,
            0,
            0,
        );
    }
    let runner: Option<i32> = std::env::var(RUNNER_PID_VAR)
        .ok()
        .and_then(|p| p.parse().ok());
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    if runner.is_some_and(|r| r != parent) {
        return Err(io::Error::other(
            "the runner that started this spawner is gone",
        ));
    }
    // `THAW_CONTAINMENT=none` (in the runner's environment, which the spawner inherits and no
    // child does): neither a pid namespace nor a cgroup, for a measurement of what they cost.
    let wanted = std::env::var_os(CONTAINMENT_VAR).is_none_or(|v| v != "none");
    let pid_namespace = wanted && contain::enter_pid_namespace();
    if !pid_namespace {
        // SAFETY: sigaction with a handler that only calls async-signal-safe functions.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = runner_gone as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGINT] {
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    }
    let mut cgroup = if wanted {
        contain::Cgroup::make()
    } else {
        None
    };
    // In the pid namespace, as its init (which no child can signal): the child's mount and IPC
    // namespaces, and its identity given up. The cgroup is found through the host's /proc and
    // held open first.
    let mut isolation = isolate::Isolation::default();
    if pid_namespace {
        if let Some(c) = &mut cgroup {
            c.hold();
        }
        isolation = isolate::enter();
        isolate::drop_privileges(&mut isolation);
    } else if wanted {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            isolation
                .missing
                .push("no pid namespace, so no namespaces of the child's own".into());
        }
    }
    Ok(Containment {
        pid_namespace,
        cgroup,
        isolation,
    })
}

/// After each sample in the spawner process: kills every process left below it (a child's
/// leftovers, in its group or in a session of their own: see [`process::kill_below`]) and reaps
/// those that have died, those still dying reaped after a later sample; then continues the
/// runner if a child stopped it ([`continue_runner`]).
pub fn clear_leftovers() {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    if me == 1 {
        // a namespace's init: /proc/1 would be the machine's (see `contain::kill_namespace`)
        return;
    }
    process::kill_below(me);
    reap_orphans();
    continue_runner();
}

/// Sets the spawner's `RLIMIT_DATA`, soft and hard, which every child it starts inherits (set
/// here, not between fork and exec in the child, so that children are still started by
/// `posix_spawn`, as fast as without a limit); 0 leaves it alone. The hard limit is what a child
/// cannot raise (only a privileged one can: as root, what holds is the runner's check of the
/// child's peak against the limit after the fact). Lowering a hard limit cannot be undone
/// without privilege, so a later request for more keeps the lower one (stricter, never looser).
/// `RLIMIT_AS` is not set: the JVM and V8 reserve far more address space than they use.
fn limit_memory(bytes: u64) {
    if bytes == 0 {
        return;
    }
    // SAFETY: rlimit is plain old data; getrlimit fills it, setrlimit reads it.
    unsafe {
        let mut r: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_DATA, &mut r) == 0
            && (r.rlim_cur != bytes || r.rlim_max != bytes)
        {
            let capped = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &capped) != 0 {
                // raising a hard limit needs privilege: keep the lower one, hard
                let lower = bytes.min(r.rlim_max);
                let capped = libc::rlimit {
                    rlim_cur: lower,
                    rlim_max: lower,
                };
                libc::setrlimit(libc::RLIMIT_DATA, &capped);
            }
        }
    }
}

/// Reaps whatever has died among the processes this subreaper adopted.
fn reap_orphans() {
    loop {
        // SAFETY: waitpid with WNOHANG on any child; this process's only other child, the one in
        // flight, has been reaped already.
        let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        if r <= 0 {
            break;
        }
    }
}

/// The spawner's loop: its hello ([`write_hello`]), then one request in, one child run, one
/// reply out, until the runner closes its stdin. Each sample is contained by `containment`
/// (its limit set and peak reset before the spawn stamp, every other process of it killed
/// after the child is reaped, its peak read then); `after_each` runs next, before the reply,
/// where there is no pid namespace: the spawner process clears what the child left
/// ([`clear_leftovers`]).
pub fn serve(
    input: impl Read,
    output: impl Write,
    containment: &mut Containment,
    after_each: &mut dyn FnMut(),
) -> io::Result<()> {
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    let mut capture = Capture::new()?;
    write_hello(&mut output, containment)?;
    while let Some(q) = read_request(&mut input)? {
        if gone() {
            break;
        }
        limit_memory(q.memory_limit);
        let before = containment.before(q.memory_limit);
        let mut started = |pid: u32| {
            IN_FLIGHT.store(pid as i32, Ordering::SeqCst);
            // a signal that came between the spawn and the store found no child to kill
            if gone() {
                process::kill_group(pid as libc::pid_t);
            }
        };
        let reply = process::run(
            &q.program,
            &q.args,
            &q.env,
            q.timeout,
            &mut capture,
            q.watch,
            &mut started,
        )
        .map_err(|e| {
            let why = match containment.isolation.child_uid {
                Some(uid) if e.kind() == io::ErrorKind::PermissionDenied => format!(
                    " (children run as uid {uid}, without privileges: the program and every \
                     folder above it must be readable and searchable by others)"
                ),
                _ => String::new(),
            };
            format!("cannot run {}: {e}{why}", q.program.display())
        });
        IN_FLIGHT.store(0, Ordering::SeqCst);
        let shmem_rise = containment.reaped(&before);
        containment.kill_rest();
        if !containment.pid_namespace {
            after_each();
        }
        let memory = containment.after(&before, shmem_rise);
        let reply = reply.map(|r| Reaped { memory, ..r });
        if gone() {
            break;
        }
        write_reply(&mut output, &reply)?;
        // off every clock: the runner has its reply, the next child is not started yet
        containment.isolation.clear_after_sample();
    }
    Ok(())
}

// ---- the runner's side ----

/// The pids of the processes whose parent is `parent`, from /proc.
fn adopted_children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    // `pid (comm) state ppid …`: the comm may hold spaces and parentheses.
                    let rest = &stat[stat.rfind(')')? + 1..];
                    rest.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(parent)
        })
        .collect()
}

/// Thaws `pid` and every process below it that a freezer holds ([`contain::thaw`]).
fn thaw_tree(pid: libc::pid_t) {
    let mut frontier = vec![pid];
    let mut seen = 0;
    while let Some(p) = frontier.pop() {
        contain::thaw(p as u32);
        seen += 1;
        if seen < 10_000 {
            frontier.extend(process::children_of(p));
        }
    }
}

/// Reaps this process's child `pid` if it ends within `limit` (polled every millisecond).
/// Whether it was reaped (or was gone already).
fn reap_within(pid: libc::pid_t, limit: Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    loop {
        // SAFETY: waitpid on our own child, without blocking.
        let r = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
        if r == pid || (r < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD)) {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The pids of this process's running spawners: the children it did not adopt.
static SPAWNERS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

fn spawners() -> std::sync::MutexGuard<'static, Vec<u32>> {
    SPAWNERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running spawner.
pub struct Spawner {
    child: Child,
    input: Option<BufWriter<ChildStdin>>,
    output: BufReader<ChildStdout>,
    path: PathBuf,
    /// What contains its samples, as it said when it started.
    containment: String,
    /// Its cgroups, removed (and killed in) when it is gone.
    cgroups: Vec<PathBuf>,
    /// The user its children run as, when not the runner's.
    child_uid: Option<u32>,
}

impl Spawner {
    /// Starts the spawner binary at `path`, in a process group of its own, and makes this
    /// process the subreaper of whatever the spawner starts. While a spawner runs, this
    /// process's only children are its spawners: when one dies, every other child is taken for
    /// one it adopted, and killed (the runner holds to this; a test starts its spawner in a
    /// process of its own).
    pub fn start(path: &Path) -> io::Result<Spawner> {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only changes this process's own flag.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        let mut child = Command::new(path)
            .env(RUNNER_PID_VAR, std::process::id().to_string())
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                io::Error::new(e.kind(), format!("cannot start {}: {e}", path.display()))
            })?;
        spawners().push(child.id());
        let input = child.stdin.take().map(BufWriter::new);
        let mut output = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let hello = match read_hello(&mut output) {
            Ok(hello) => hello,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                spawners().retain(|&p| p != child.id());
                return Err(io::Error::new(
                    e.kind(),
                    format!("{} did not start: {e}", path.display()),
                ));
            }
        };
        Ok(Spawner {
            child,
            input,
            output,
            path: path.to_path_buf(),
            containment: hello.containment,
            cgroups: hello.cgroups,
            child_uid: hello.child_uid,
        })
    }

    /// What contains this spawner's samples ([`Containment::describe`]).
    pub fn containment(&self) -> &str {
        &self.containment
    }

    /// The user its children run as, when it is not the runner's ([`isolate::CHILD_UID`]).
    pub fn child_uid(&self) -> Option<u32> {
        self.child_uid
    }

    /// The spawner next to the runner's own executable.
    /// (From a test binary in `target/<profile>/deps`, the one in `target/<profile>`.)
    pub fn default_path() -> io::Result<PathBuf> {
        let exe = std::env::current_exe()?;
        let mut dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
        if dir.ends_with("deps") && !dir.join(BINARY).is_file() {
            dir.pop();
        }
        Ok(dir.join(BINARY))
    }

    /// Runs one child. The outer error means the spawner itself failed: it died, or it did not
    /// answer within the child's timeout and [`GRACE`] (a child can stop the process that
    /// started it), or `stop` said to give up (a signal to the runner); the spawner is then
    /// killed, and the child it had started, and whatever is below it, are killed and reaped
    /// (this process adopted them).
    pub fn run(&mut self, q: &Request, stop: &dyn Fn() -> bool) -> io::Result<Reply> {
        let path = self.path.display().to_string();
        let lost = |e: io::Error| io::Error::new(e.kind(), format!("lost the spawner {path}: {e}"));
        let input = self
            .input
            .as_mut()
            .ok_or_else(|| io::Error::other("spawner closed"))?;
        write_request(input, q).map_err(lost)?;
        if let Err(e) = self.await_reply(q.timeout + GRACE, stop) {
            self.kill_adopted();
            return Err(lost(e));
        }
        let reply = read_reply(&mut self.output);
        if reply.is_err() {
            self.kill_adopted();
        }
        reply.map_err(lost)
    }

    /// Waits until the spawner's reply can be read, `limit` at most, asking `stop` between
    /// slices of a tenth of a second.
    fn await_reply(&mut self, limit: Duration, stop: &dyn Fn() -> bool) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let deadline = std::time::Instant::now() + limit;
        loop {
            if !self.output.buffer().is_empty() {
                return Ok(());
            }
            let mut fds = [libc::pollfd {
                fd: self.output.get_ref().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            }];
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), 1, 100) };
            if r > 0 {
                return Ok(());
            }
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            if stop() {
                return Err(io::Error::new(
                    io::ErrorKind::Interrupted,
                    "stopped by a signal",
                ));
            }
            if std::time::Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "it did not answer within {} s of starting a child (the child may have \
                         stopped or hung it)",
                        limit.as_secs()
                    ),
                ));
            }
        }
    }

    /// Kills, with their groups, and reaps the processes this runner adopted as a subreaper
    /// when its spawner died: its children other than its spawners.
    fn kill_adopted(&mut self) {
        // The spawner's pipe closes before the kernel hands its children to this process, and
        // a spawner that sent a broken reply (or none) is of no more use: once it is killed
        // (SIGKILL ends a stopped process too; a frozen one is thawed first, or the kill would
        // wait for the thaw) and reaped, every process it left is ours.
        self.input = None;
        self.end_spawner();
        let me = std::process::id();
        let live = spawners().clone();
        for pid in adopted_children(me)
            .into_iter()
            .filter(|p| !live.contains(p))
        {
            thaw_tree(pid as libc::pid_t);
            process::kill_group(pid as libc::pid_t);
            process::kill_below(pid as libc::pid_t);
            reap_within(pid as libc::pid_t, GRACE);
        }
        contain::remove(&self.cgroups);
    }

    /// Kills the spawner (thawed first, with every process below it) and reaps it, waiting
    /// [`GRACE`] at most: a process stuck in the kernel is left, never waited for for ever.
    fn end_spawner(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        thaw_tree(pid);
        let _ = self.child.kill();
        if reap_within(pid, GRACE) {
            // reaped by pid: std's handle must not wait again
            let _ = self.child.try_wait();
        }
    }

    /// The spawner's pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the spawner now (and with it the child in flight): for a runner interrupted
    /// mid-sample.
    pub fn kill(&mut self) {
        // SAFETY: the spawner's pid is our unreaped child; SIGTERM runs its handler, which kills
        // the child in flight.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
    }
}

impl Drop for Spawner {
    fn drop(&mut self) {
        // End of input ends the spawner's loop; one that does not end within GRACE (stopped,
        // frozen) is killed.
        drop(self.input.take());
        if !reap_within(self.child.id() as libc::pid_t, GRACE) {
            self.end_spawner();
        }
        let pid = self.child.id();
        spawners().retain(|&p| p != pid);
        contain::remove(&self.cgroups);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> Request {
        Request {
            program: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                OsString::from_vec(b"echo \xffhi; echo err >&2; exit 3".to_vec()),
            ],
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            timeout: Duration::from_millis(2500),
            memory_limit: 1 << 33,
            watch: Watch::Watchdog,
        }
    }

    #[test]
    fn requests_round_trip() {
        let mut buf = Vec::new();
        write_request(&mut buf, &request()).unwrap();
        write_request(&mut buf, &request()).unwrap();
        let mut r = &buf[..];
        assert_eq!(read_request(&mut r).unwrap(), Some(request()));
        assert_eq!(read_request(&mut r).unwrap(), Some(request()));
        assert_eq!(read_request(&mut r).unwrap(), None);
    }

    #[test]
    fn replies_round_trip() {
        let reaped = Reaped {
            spawn_ns: 1,
            reaped_ns: 2,
            exit: Exit::Signal(9),
            timed_out: true,
            usage: ResourceUsage {
                maxrss_kib: 3,
                nivcsw: 4,
                ..ResourceUsage::default()
            },
            stdout: b"out".to_vec(),
            stderr: vec![],
            memory: SampleMemory {
                peak_bytes: 5,
                oom_kills: 6,
                shmem_rise_bytes: 7,
            },
        };
        for reply in [
            Ok(reaped.clone()),
            Ok(Reaped {
                exit: Exit::Code(-1),
                ..reaped
            }),
            Err("no".to_string()),
        ] {
            let mut buf = Vec::new();
            write_reply(&mut buf, &reply).unwrap();
            let back = read_reply(&mut &buf[..]).unwrap();
            match (&reply, &back) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        (a.spawn_ns, a.reaped_ns, a.exit, a.timed_out),
                        (b.spawn_ns, b.reaped_ns, b.exit, b.timed_out)
                    );
                    assert_eq!(
                        (a.usage, &a.stdout, &a.stderr, a.memory),
                        (b.usage, &b.stdout, &b.stderr, b.memory)
                    );
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{reply:?} came back as {back:?}"),
            }
        }
    }

    #[test]
    fn serves_in_process() {
        let mut input = Vec::new();
        write_request(&mut input, &request()).unwrap();
        let missing = Request {
            program: "/nonexistent".into(),
            ..request()
        };
        write_request(&mut input, &missing).unwrap();
        let mut output = Vec::new();
        serve(
            &input[..],
            &mut output,
            &mut Containment::none(),
            &mut || {},
        )
        .unwrap();
        let mut r = &output[..];
        let hello = read_hello(&mut r).unwrap();
        assert!(
            hello.containment.contains("subreaper") && hello.cgroups.is_empty(),
            "{hello:?}"
        );
        assert_eq!(hello.child_uid, None);
        let first = read_reply(&mut r).unwrap().unwrap();
        assert_eq!(first.exit, Exit::Code(3));
        assert_eq!(first.stdout, b"\xffhi\n");
        assert_eq!(first.stderr, b"err\n");
        assert!(read_reply(&mut r)
            .unwrap()
            .unwrap_err()
            .contains("/nonexistent"));
    }
}
