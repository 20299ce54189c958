//! From turn `from_turn` (default 1) on, takes its whole process down in
//! the way `failure` names, where the SDK's `catch_unwind` cannot help:
//! `abort` (the default: `std::process::abort`), `segfault` (`SIGSEGV`),
//! `exit` (`exit(3)` in the middle of a render), `leak` (allocates without
//! bound), `hang` (sleeps an hour), `spin` (a busy loop). `stdout` renders
//! fine but first writes to stdout, which must not garble an isolated
//! process's answers. Earlier turns render as the coalesced single USER
//! message. `burn_ms` (default 0) spends that much CPU time in every
//! render first, so many renders add up to more than a per-render cap.
//!
//! In-process this plugin kills `ptc`; with `isolation = "process"` the
//! agent's fallback serves instead.

use ptc_plugin_api::render::{single_user_message, SummaryOptions};
use ptc_plugin_api::{Message, Params, RenderRequest, Rendered, Stats, Strategy, StrategyError};
use std::time::Duration;

/// Coalesced rendering, until turn `from_turn`.
pub struct Abort {
    failure: Failure,
    from_turn: u32,
    burn: Duration,
}

#[derive(Clone, Copy)]
enum Failure {
    Abort,
    Segfault,
    Exit,
    Leak,
    Hang,
    Spin,
    Stdout,
    Flood,
    FloodWire,
}

impl Strategy for Abort {
    const NAME: &'static str = "broken-abort";
    const DESCRIPTION: &'static str = "Test plugin: takes its process down from a given turn";

    fn new(mut params: Params) -> Result<Self, StrategyError> {
        let choices = ["abort", "segfault", "exit", "leak", "hang", "spin", "stdout", "flood", "flood-wire"];
        let failure = match params.choice("failure", &choices)? {
            "abort" => Failure::Abort,
            "segfault" => Failure::Segfault,
            "exit" => Failure::Exit,
            "leak" => Failure::Leak,
            "hang" => Failure::Hang,
            "spin" => Failure::Spin,
            "flood" => Failure::Flood,
            "flood-wire" => Failure::FloodWire,
            _ => Failure::Stdout,
        };
        let from_turn = params.positive("from_turn", 1)?;
        let burn = match params.optional_positive("burn_ms")? {
            Some(ms) => Duration::from_millis(ms as u64),
            None => Duration::ZERO,
        };
        params.finish()?;
        Ok(Abort { failure, from_turn: u32::try_from(from_turn).unwrap_or(u32::MAX), burn })
    }

    fn render(&self, req: &RenderRequest) -> Result<Rendered, StrategyError> {
        burn_cpu(self.burn);
        if req.turn() >= self.from_turn {
            match self.failure {
                Failure::Abort => std::process::abort(),
                // SAFETY: plain signal calls. The Rust runtime's own SIGSEGV
                // handler (for stack overflows) would return from a raised
                // signal; with the default action back, it ends the process.
                Failure::Segfault => unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                },
                Failure::Exit => std::process::exit(3),
                Failure::Leak => {
                    let mut kept: Vec<Vec<u8>> = Vec::new();
                    loop {
                        kept.push(vec![1u8; 64 << 20]);
                        std::hint::black_box(&kept);
                    }
                }
                Failure::Hang => std::thread::sleep(Duration::from_secs(3600)),
                Failure::Spin => loop {
                    std::hint::black_box(0u64);
                },
                Failure::Flood => {
                    use std::io::Write;
                    let chunk = [b'x'; 64 << 10];
                    let mut out = std::io::stdout().lock();
                    while out.write_all(&chunk).is_ok() {}
                    loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    }
                }
                Failure::FloodWire => {
                    let chunk = [b'x'; 64 << 10];
                    // SAFETY: descriptor queries, and writes of a buffer this
                    // function owns, to the write-only pipe the child answers on.
                    unsafe {
                        let wire = (3..64).find(|&fd| {
                            let mut stat: libc::stat = std::mem::zeroed();
                            let flags = libc::fcntl(fd, libc::F_GETFL);
                            // The child opened it close-on-exec; pipes it inherited are not.
                            flags >= 0
                                && libc::fcntl(fd, libc::F_GETFD) & libc::FD_CLOEXEC != 0
                                && flags & libc::O_ACCMODE == libc::O_WRONLY
                                && libc::fstat(fd, &mut stat) == 0
                                && stat.st_mode & libc::S_IFMT == libc::S_IFIFO
                        });
                        if let Some(fd) = wire {
                            while libc::write(fd, chunk.as_ptr().cast(), chunk.len()) > 0 {}
                        }
                    }
                    loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    }
                }
                Failure::Stdout => {
                    println!("{{\"prompt\": \"not from the strategy\"}}");
                    print!("half a line");
                    use std::io::Write;
                    let _ = std::io::stdout().flush();
                }
            }
        }
        let mut stats = Stats::new(Self::NAME);
        let user = single_user_message(req, &SummaryOptions::default(), &mut stats);
        Ok(Rendered::new(vec![Message::system(req.system_prompt()), Message::user(user)], stats))
    }
}

/// Spends about `time` of CPU (of this thread) in a busy loop.
fn burn_cpu(time: Duration) {
    let start = std::time::Instant::now();
    let mut n = 0u64;
    while start.elapsed() < time {
        n = std::hint::black_box(n.wrapping_add(1));
    }
}

ptc_plugin_api::export_strategy!(Abort);
