//! Ctrl-C, SIGTERM and SIGHUP while a run takes samples: the sample in flight is abandoned (its
//! child killed with its group, through the spawner), nothing finished is lost, and the runner
//! says how to finish the run. The signals are taken by one thread with `sigwait` (they are
//! blocked everywhere else), so no code runs in a signal handler.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

/// The signal that interrupted the run (0: none yet).
static CAUGHT: AtomicI32 = AtomicI32::new(0);
/// The spawner to stop when a signal comes (0: none running).
static SPAWNER: AtomicI32 = AtomicI32::new(0);

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

fn signal_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain old data, initialised by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Starts taking the signals (once per process). Call it before starting other threads, so
/// they inherit the blocked set.
pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let set = signal_set();
        // SAFETY: blocks the signals in this thread; threads started later inherit the mask.
        unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
        std::thread::spawn(move || loop {
            let mut signal: libc::c_int = 0;
            // SAFETY: waits for one of the blocked signals.
            if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
                continue;
            }
            CAUGHT.store(signal, Ordering::SeqCst);
            let spawner = SPAWNER.load(Ordering::SeqCst);
            if spawner > 0 {
                // SAFETY: SIGTERM to our spawner, which kills its child in flight and exits.
                unsafe { libc::kill(spawner, libc::SIGTERM) };
            }
        });
    });
}

/// Tells the signal thread which spawner to stop (0: none).
pub(crate) fn watch_spawner(pid: u32) {
    SPAWNER.store(pid as i32, Ordering::SeqCst);
}

/// The signal that interrupted the run, if one did.
pub(crate) fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The name of a signal, for messages.
pub(crate) fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT (Ctrl-C)",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// The error a run returns when a signal stopped it: its message says how to finish the run.
#[derive(Debug)]
pub struct Interrupted {
    pub(crate) signal: i32,
    pub(crate) dir: std::path::PathBuf,
    pub(crate) done: usize,
    pub(crate) planned: usize,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "stopped by {} after {} of {} planned samples; every finished sample is in {}; \
             finish the run with: cargo run --release -p cold -- resume {}",
            name(self.signal),
            self.done,
            self.planned,
            self.dir.display(),
            text::for_shell(&self.dir.display().to_string())
        )
    }
}

impl std::error::Error for Interrupted {}
