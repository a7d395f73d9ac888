//! What the runner says while it works: one line at a time, on stdout, or on stderr when stdout
//! carries the plan (`--dry-run`); every character a terminal would act on is shown, not sent.

/// A line of what the runner is doing; a closed stdout does not stop a run.
macro_rules! say {
    () => {
        say!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        // what a child or a folder said reaches the terminal with its control characters shown
        let line = text::for_terminal(&format!($($arg)*), true);
        if $crate::run::status::status_on_stderr() {
            let _ = writeln!(std::io::stderr(), "{line}");
        } else {
            let _ = writeln!(std::io::stdout(), "{line}");
        }
    }};
}
pub(crate) use say;

static STATUS_ON_STDERR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sends the runner's status lines to stderr from now on (a dry run's stdout is the plan).
pub(crate) fn status_to_stderr() {
    STATUS_ON_STDERR.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether status lines go to stderr.
pub(crate) fn status_on_stderr() -> bool {
    STATUS_ON_STDERR.load(std::sync::atomic::Ordering::Relaxed)
}
