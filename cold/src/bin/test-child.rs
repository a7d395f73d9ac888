//! A child that misbehaves on purpose, for the runner's tests; never a codec, never planned by
//! `cold run`. It takes the protocol's arguments and picks its behaviour from the file name of
//! `--input` (which need not exist): `ok` (a valid line, checksum 0, 0 bytes), `panic`, `hang`,
//! `garbage`, `exit3`, `abort` (SIGABRT), `wrong` (checksum 1), `loud` (a valid line after 1 MiB
//! on stderr), `orphan` (leaves a process behind that keeps writing to stdout, then prints a
//! valid line), `daemon-TOKEN` (the same from a session of its own, `setsid`, so that no group
//! kill reaches it; its command line holds `stray-TOKEN`), `flood` (writes to stdout without
//! end).

use std::io::Write;

fn valid_line(checksum: u64) -> String {
    let t = schema::protocol::monotonic_ns();
    schema::protocol::Line {
        main: t,
        fixture: t,
        init: t,
        first: t,
        done: t,
        checked: t,
        checksum,
        bytes: 0,
        hwm_kib: 1,
        rss_kib: 1,
    }
    .text()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let behaviour = args
        .windows(2)
        .find(|w| w[0] == "--input")
        .and_then(|w| {
            std::path::Path::new(&w[1])
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    match behaviour.as_str() {
        "ok" => print!("{}", valid_line(0)),
        "wrong" => print!("{}", valid_line(1)),
        "panic" => panic!("test-child was told to panic"),
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        "garbage" => println!("this is not the protocol's line"),
        "exit3" => std::process::exit(3),
        "abort" => std::process::abort(),
        "loud" => {
            let noise = vec![b'x'; 1 << 20];
            let _ = std::io::stderr().write_all(&noise);
            print!("{}", valid_line(0));
        }
        "orphan" => {
            // A process of its own that outlives this one and writes into its stdout (the
            // runner's capture file) for a while.
            let _ = std::process::Command::new("/bin/sh")
                .args([
                    "-c",
                    "sleep 0.2; while true; do echo stray; sleep 0.05; done",
                ])
                .spawn();
            print!("{}", valid_line(0));
        }
        daemon if daemon.starts_with("daemon-") => {
            let token = &daemon["daemon-".len()..];
            let script = format!("sleep 0.2; while true; do echo stray-{token}; sleep 0.05; done");
            let _ = std::process::Command::new("setsid")
                .args(["/bin/sh", "-c", &script])
                .spawn();
            print!("{}", valid_line(0));
        }
        "flood" => {
            let block = vec![b'y'; 1 << 16];
            let mut out = std::io::stdout().lock();
            while out.write_all(&block).is_ok() {}
        }
        other => {
            eprintln!("test-child: unknown behaviour `{other}`");
            std::process::exit(2);
        }
    }
}
