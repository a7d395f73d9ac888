//! The spawner helper of `cold run` (see the `spawner` crate): it spawns and reaps every child for the
//! runner, so that a child's max RSS is not inflated by the runner's.
fn main() {
    let served = spawner::bind_to_runner().and_then(|mut containment| {
        spawner::serve(
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            &mut containment,
            &mut spawner::clear_leftovers,
        )
    });
    match served {
        Ok(()) => {}
        // The runner went away (killed or interrupted): nothing is waiting for a reply.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            eprintln!("cold-spawner: {e}");
            std::process::exit(1);
        }
    }
}
