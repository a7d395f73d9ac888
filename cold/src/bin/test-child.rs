//! A child that misbehaves on purpose, for the runner's tests; never a codec, never planned by
//! `cold run`. It takes the protocol's arguments and picks its behaviour from `--fixture`:
//! `ok` (a valid line, checksum 0), `panic`, `hang`, `garbage`, `exit3`, `abort` (SIGABRT),
//! `wrong` (a valid line with checksum 1), `loud` (a valid line after 1 MiB on stderr).

use std::io::Write;

fn valid_line(checksum: u64) -> String {
    let t = children::clock::monotonic_ns();
    format!(
        "{{\"main\":{t},\"fixture\":{t},\"init\":{t},\"first\":{t},\"done\":{t},\"checked\":{t},\
         \"checksum\":\"{checksum:016x}\",\"bytes\":0}}\n"
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let behaviour = args
        .windows(2)
        .find(|w| w[0] == "--fixture")
        .map(|w| w[1].clone())
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
        other => {
            eprintln!("test-child: unknown behaviour `{other}`");
            std::process::exit(2);
        }
    }
}
