//! Running one child process: spawn it (`posix_spawn`) without a shell, with exactly the environment given, in
//! a process group of its own; stamp `spawn` just before the spawn and `reaped` just after
//! `wait4` returns; take its rusage from `wait4`; kill its whole group if it runs past the
//! timeout, and kill whatever is left of the group once it has been reaped, so that nothing a
//! child started outlives its sample. What the child prints goes to the [`Capture`] files.
//!
//! The timeout waits on a pidfd with `poll`; where pidfds are unavailable (old kernels, strict
//! seccomp), a watchdog thread does it instead. Either way the child is not reaped before the
//! kill, so its pid (which is its group's id) cannot have been recycled.

use crate::capture::Capture;
use crate::contain::SampleMemory;
use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// The child's resource use, from `wait4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResourceUsage {
    pub user_us: u64,
    pub sys_us: u64,
    pub maxrss_kib: u64,
    pub minflt: u64,
    pub majflt: u64,
    pub inblock: u64,
    pub nvcsw: u64,
    pub nivcsw: u64,
}

/// One reaped child.
#[derive(Debug, Clone)]
pub struct Reaped {
    pub spawn_ns: u64,
    pub reaped_ns: u64,
    pub exit: Exit,
    /// The runner killed it at the timeout.
    pub timed_out: bool,
    pub usage: ResourceUsage,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// What the sample's containment saw (its cgroup's peak and OOM kills, or the rise of the
    /// system's Shmem); filled by the spawner's loop, zero from [`run`].
    pub memory: SampleMemory,
}

/// How the runner waits for a child with a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// `poll` on a pidfd, falling back to the watchdog where pidfds are unavailable.
    Auto,
    /// Always a watchdog thread (tests of the fallback).
    Watchdog,
}

/// Runs `program args…` to its end (or its timeout), with the environment `env` and nothing
/// else. `started` is told the child's pid (its group's id) as soon as it runs. `Err` only when
/// it could not be spawned or waited for.
pub fn run(
    program: &Path,
    args: &[OsString],
    env: &[(OsString, OsString)],
    timeout: Duration,
    capture: &mut Capture,
    watch: Watch,
    started: &mut dyn FnMut(u32),
) -> io::Result<Reaped> {
    let stdout = capture.stdout_for_child()?;
    let stderr = capture.stderr_for_child()?;
    let prepared = Prepared::new(program, args, env)?;

    let spawn_ns = monotonic_ns();
    let pid = prepared.spawn(stdout.as_raw_fd(), stderr.as_raw_fd())?;
    // The child has its own copies of the capture files.
    drop((stdout, stderr));
    started(pid as u32);

    let pidfd = match watch {
        Watch::Auto => pidfd_open(pid),
        Watch::Watchdog => None,
    };
    let (status, usage, timed_out, reaped_ns) = match pidfd {
        Some(pidfd) => wait_with_pidfd(pid, &pidfd, timeout)?,
        None => wait_with_watchdog(pid, timeout)?,
    };
    // Whatever the child started and left behind in its group goes now: it must not write into
    // the next sample's capture files or compete with it for the machine.
    kill_group(pid);

    Ok(Reaped {
        spawn_ns,
        reaped_ns,
        exit: decode_status(status),
        timed_out,
        usage: decode_usage(&usage),
        stdout: capture.take_stdout()?,
        stderr: capture.take_stderr()?,
        memory: SampleMemory::default(),
    })
}

/// A child's program, argv and environment as C strings, ready for `posix_spawn`.
struct Prepared {
    program: CString,
    _strings: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
}

fn c_string(bytes: Vec<u8>) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a NUL byte in the program, an argument or the environment",
        )
    })
}

impl Prepared {
    fn new(
        program: &Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
    ) -> io::Result<Prepared> {
        let program = c_string(program.as_os_str().as_bytes().to_vec())?;
        let mut strings = vec![program.clone()];
        for a in args {
            strings.push(c_string(a.as_bytes().to_vec())?);
        }
        let argc = strings.len();
        for (k, v) in env {
            let mut pair = k.as_bytes().to_vec();
            pair.push(b'=');
            pair.extend_from_slice(v.as_bytes());
            strings.push(c_string(pair)?);
        }
        let pointers = |range: std::ops::Range<usize>| {
            strings[range]
                .iter()
                .map(|s| s.as_ptr())
                .chain(std::iter::once(std::ptr::null()))
                .collect::<Vec<_>>()
        };
        let argv = pointers(0..argc);
        let envp = pointers(argc..strings.len());
        Ok(Prepared {
            program,
            _strings: strings,
            argv,
            envp,
        })
    }

    /// `posix_spawn`s the program in a process group of its own, with stdin `/dev/null`, the
    /// given stdout and stderr, every signal at its default and none blocked, and its real ids
    /// as its effective ones (`POSIX_SPAWN_RESETIDS`: a spawner that gave up its real ids runs
    /// its children as that user, [`crate::isolate`]). Returns its pid.
    fn spawn(&self, stdout: RawFd, stderr: RawFd) -> io::Result<libc::pid_t> {
        let check = |r: libc::c_int| {
            if r == 0 {
                Ok(())
            } else {
                Err(io::Error::from_raw_os_error(r))
            }
        };
        // SAFETY: the attribute and file-action objects are initialised before use and
        // destroyed after; every pointer given is valid for the call (the C strings live in
        // `self`); posix_spawn returns an error number, 0 on success.
        unsafe {
            let mut actions: libc::posix_spawn_file_actions_t = std::mem::zeroed();
            let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
            check(libc::posix_spawn_file_actions_init(&mut actions))?;
            if let Err(e) = check(libc::posix_spawnattr_init(&mut attr)) {
                libc::posix_spawn_file_actions_destroy(&mut actions);
                return Err(e);
            }
            let mut defaults: libc::sigset_t = std::mem::zeroed();
            let mut empty: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut defaults);
            libc::sigemptyset(&mut empty);
            let flags = libc::POSIX_SPAWN_SETPGROUP
                | libc::POSIX_SPAWN_SETSIGMASK
                | libc::POSIX_SPAWN_SETSIGDEF
                | libc::POSIX_SPAWN_RESETIDS;
            let result = check(libc::posix_spawn_file_actions_addopen(
                &mut actions,
                0,
                c"/dev/null".as_ptr(),
                libc::O_RDONLY,
                0,
            ))
            .and_then(|()| {
                check(libc::posix_spawn_file_actions_adddup2(
                    &mut actions,
                    stdout,
                    1,
                ))
            })
            .and_then(|()| {
                check(libc::posix_spawn_file_actions_adddup2(
                    &mut actions,
                    stderr,
                    2,
                ))
            })
            .and_then(|()| check(libc::posix_spawnattr_setflags(&mut attr, flags as _)))
            .and_then(|()| check(libc::posix_spawnattr_setpgroup(&mut attr, 0)))
            .and_then(|()| check(libc::posix_spawnattr_setsigmask(&mut attr, &empty)))
            .and_then(|()| check(libc::posix_spawnattr_setsigdefault(&mut attr, &defaults)))
            .and_then(|()| {
                let mut pid: libc::pid_t = 0;
                check(libc::posix_spawn(
                    &mut pid,
                    self.program.as_ptr(),
                    &actions,
                    &attr,
                    self.argv.as_ptr() as *const *mut libc::c_char,
                    self.envp.as_ptr() as *const *mut libc::c_char,
                ))
                .map(|()| pid)
            });
            libc::posix_spawn_file_actions_destroy(&mut actions);
            libc::posix_spawnattr_destroy(&mut attr);
            result
        }
    }
}

type Waited = (libc::c_int, libc::rusage, bool, u64);

/// Nanoseconds of CLOCK_MONOTONIC: the cold protocol's clock (`schema::protocol`'s, read here
/// with the same call because this crate links nothing but libc), so the spawner's `spawn` and
/// `reaped` stamps and a child's stamps subtract.
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a new fd that we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Blocks in `wait4` until `pid` ends; returns its status, rusage and the `reaped` stamp.
fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage, u64)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to a status and a rusage; `pid` is our unreaped child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let reaped_ns = monotonic_ns();
        if r == pid {
            return Ok((status, usage, reaped_ns));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn wait_with_pidfd(pid: libc::pid_t, pidfd: &OwnedFd, timeout: Duration) -> io::Result<Waited> {
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ms = left.as_millis().min(i32::MAX as u128) as libc::c_int;
        let mut fds = [libc::pollfd {
            fd: pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 1, ms) };
        if r > 0 {
            break;
        }
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if Instant::now() >= deadline {
            // The child is unreaped, so its pid, the id of its group, is still its own.
            kill_group(pid);
            timed_out = true;
            break;
        }
    }
    let (status, usage, reaped_ns) = wait4(pid)?;
    Ok((status, usage, timed_out, reaped_ns))
}

/// The fallback: a thread that kills `pid` at the deadline unless told it has ended. The main
/// thread learns of the end with `waitid(WNOWAIT)` (which leaves the child unreaped, so its pid
/// cannot be recycled), disarms the watchdog, and only then reaps with `wait4`.
fn wait_with_watchdog(pid: libc::pid_t, timeout: Duration) -> io::Result<Waited> {
    let state = Arc::new((Mutex::new((false, false)), Condvar::new())); // (ended, killed)
    let watchdog = {
        let state = Arc::clone(&state);
        std::thread::spawn(move || {
            let (lock, cvar) = &*state;
            let guard = lock.lock().unwrap_or_else(|p| p.into_inner());
            let (mut guard, _) = cvar
                .wait_timeout_while(guard, timeout, |(ended, _)| !*ended)
                .unwrap_or_else(|p| p.into_inner());
            if !guard.0 {
                // The child is not reaped while `ended` is false (see above).
                kill_group(pid);
                guard.1 = true;
            }
        })
    };
    loop {
        // SAFETY: siginfo_t is plain old data; zero is valid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child; WNOWAIT leaves it unreaped.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let killed = {
        let (lock, cvar) = &*state;
        let mut guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        guard.0 = true;
        cvar.notify_one();
        guard.1
    };
    let (status, usage, reaped_ns) = wait4(pid)?;
    let _ = watchdog.join();
    Ok((status, usage, killed, reaped_ns))
}

/// The processes directly below `pid` (its children, of every thread), from
/// `/proc/<pid>/task/<tid>/children`; none when it is gone.
pub(crate) fn children_of(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<libc::pid_t>().ok()),
            );
        }
    }
    out
}

/// The most processes [`kill_below`] stops: far beyond anything but a fork bomb.
const MAX_BELOW: usize = 100_000;

/// Kills every process below `pid` in the process tree, whatever session or group it made for
/// itself (a child's `setsid` daemon escapes a group kill, not this): each is stopped first
/// (SIGSTOP, so none forks while the others are found), the tree read again until no new one
/// appears, then all are killed (SIGKILL). The caller, a subreaper, reaps those it adopts.
/// Returns how many it killed.
pub fn kill_below(pid: libc::pid_t) -> usize {
    let mut stopped: Vec<libc::pid_t> = Vec::new();
    loop {
        let mut found = false;
        let mut frontier = vec![pid];
        while let Some(p) = frontier.pop() {
            for c in children_of(p) {
                if !stopped.contains(&c) && stopped.len() < MAX_BELOW {
                    // SAFETY: kill with a positive pid signals that one process.
                    unsafe { libc::kill(c, libc::SIGSTOP) };
                    stopped.push(c);
                    found = true;
                }
                frontier.push(c);
            }
        }
        if !found || stopped.len() >= MAX_BELOW {
            break;
        }
    }
    for &p in &stopped {
        // SAFETY: as above; SIGKILL ends a stopped process too.
        unsafe { libc::kill(p, libc::SIGKILL) };
    }
    stopped.len()
}

/// SIGKILL to every process of the group `pgid` (a child's pid: it leads its own group). A group
/// already gone is not an error.
pub fn kill_group(pgid: libc::pid_t) {
    // SAFETY: killpg takes a group id and a signal; a positive id never means "every process".
    if pgid > 0 {
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

fn decode_status(status: libc::c_int) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

fn micros(t: libc::timeval) -> u64 {
    t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64
}

fn decode_usage(u: &libc::rusage) -> ResourceUsage {
    ResourceUsage {
        user_us: micros(u.ru_utime),
        sys_us: micros(u.ru_stime),
        maxrss_kib: u.ru_maxrss as u64,
        minflt: u.ru_minflt as u64,
        majflt: u.ru_majflt as u64,
        inblock: u.ru_inblock as u64,
        nvcsw: u.ru_nvcsw as u64,
        nivcsw: u.ru_nivcsw as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<OsString> {
        vec!["-c".into(), script.into()]
    }

    fn env() -> Vec<(OsString, OsString)> {
        vec![("PATH".into(), "/usr/bin:/bin".into())]
    }

    fn run_sh(script: &str, timeout: Duration, watch: Watch) -> Reaped {
        let mut capture = Capture::new().unwrap();
        run(
            Path::new("/bin/sh"),
            &sh(script),
            &env(),
            timeout,
            &mut capture,
            watch,
            &mut |_| {},
        )
        .unwrap()
    }

    #[test]
    fn captures_output_status_and_usage() {
        for watch in [Watch::Auto, Watch::Watchdog] {
            let r = run_sh(
                "echo out; echo err >&2; exit 4",
                Duration::from_secs(10),
                watch,
            );
            assert_eq!(r.exit, Exit::Code(4));
            assert!(!r.timed_out);
            assert_eq!(r.stdout, b"out\n");
            assert_eq!(r.stderr, b"err\n");
            assert!(r.reaped_ns > r.spawn_ns);
            assert!(r.usage.maxrss_kib > 0);
        }
    }

    #[test]
    fn the_child_gets_exactly_the_environment_given_and_its_own_group() {
        let mut capture = Capture::new().unwrap();
        let mut pid = 0;
        let given = vec![("THAW_ONLY".into(), "1".into())];
        let r = run(
            Path::new("/usr/bin/env"),
            &[],
            &given,
            Duration::from_secs(10),
            &mut capture,
            Watch::Auto,
            &mut |p| pid = p,
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&r.stdout), "THAW_ONLY=1\n");
        assert!(pid > 0);
        let r = run_sh(
            "ps -o pgid= -p $$; echo $$",
            Duration::from_secs(10),
            Watch::Auto,
        );
        let text = String::from_utf8_lossy(&r.stdout);
        let ids: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(ids.len(), 2, "{text}");
        assert_eq!(ids[0], ids[1], "the child leads its own process group");
    }

    /// Whether process `pid` has ended (gone, or a zombie waiting for whoever adopted it).
    fn ended(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[test]
    fn nothing_the_child_started_outlives_its_sample() {
        for watch in [Watch::Auto, Watch::Watchdog] {
            // A child that leaves a sleeper behind and exits; and one that hangs with one.
            let left = run_sh("sleep 300 & echo $!", Duration::from_secs(10), watch);
            // a hung child, timed out once it has said its sleeper's pid (the timeout is long
            // enough for a shell to echo on any machine; a missing pid fails, never passes)
            let hung = run_sh("sleep 300 & echo $!; wait", Duration::from_secs(3), watch);
            assert!(hung.timed_out);
            for r in [left, hung] {
                let pid = String::from_utf8_lossy(&r.stdout).trim().to_string();
                assert!(
                    pid.parse::<u32>().is_ok(),
                    "the child said no pid: `{pid}` ({watch:?})"
                );
                // SIGKILL is final; only its delivery is waited for, with a generous bound.
                let deadline = Instant::now() + Duration::from_secs(30);
                while !ended(&pid) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(20));
                }
                assert!(
                    ended(&pid),
                    "grandchild {pid} outlived its sample ({watch:?})"
                );
            }
        }
    }

    #[test]
    fn capture_files_are_emptied_between_children() {
        let mut capture = Capture::new().unwrap();
        let long = Duration::from_secs(10);
        let mut run_one = |script: &str| {
            run(
                Path::new("/bin/sh"),
                &sh(script),
                &env(),
                long,
                &mut capture,
                Watch::Auto,
                &mut |_| {},
            )
            .unwrap()
        };
        let a = run_one("echo first-long-line");
        let b = run_one("echo b");
        assert_eq!(a.stdout, b"first-long-line\n");
        assert_eq!(b.stdout, b"b\n");
    }

    #[test]
    fn kills_at_the_timeout() {
        for watch in [Watch::Auto, Watch::Watchdog] {
            let r = run_sh("exec sleep 30", Duration::from_millis(200), watch);
            assert!(r.timed_out, "{watch:?}");
            assert_eq!(r.exit, Exit::Signal(libc::SIGKILL));
        }
    }

    #[test]
    fn reports_a_signal() {
        let r = run_sh("kill -SEGV $$", Duration::from_secs(10), Watch::Auto);
        assert_eq!(r.exit, Exit::Signal(libc::SIGSEGV));
        assert!(!r.timed_out);
    }

    #[test]
    fn spawn_failure_is_an_error() {
        let mut capture = Capture::new().unwrap();
        let e = run(
            Path::new("/nonexistent/child"),
            &[],
            &env(),
            Duration::from_secs(1),
            &mut capture,
            Watch::Auto,
            &mut |_| {},
        );
        assert!(e.is_err());
    }
}
