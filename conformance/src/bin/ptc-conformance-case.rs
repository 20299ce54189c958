//! Runs one conformance case in its own process (spawned by the suite).

fn main() {
    std::process::exit(ptc_conformance::runner::main_with_args(std::env::args().skip(1)));
}
