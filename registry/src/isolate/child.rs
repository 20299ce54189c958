//! The child's side: [`serve`] loads one plugin, builds its strategy, and
//! answers render requests from stdin until stdin closes.
//!
//! The child's own stdin and stdout carry the protocol; before any plugin
//! code runs they are moved to new descriptors, and descriptors 0 and 1
//! become `/dev/null` and stderr, so a plugin that prints (or reads) cannot
//! garble the conversation.

use super::wire::{self, ToChild};
use crate::caps::{self, Caps};
use crate::child_limits::ChildLimits;
use ptc_plugin_api::{ErrorKind, RenderRequest, StrategyError};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Duration;

/// Serves renders of the strategy of `plugin` built with `params` (JSON)
/// under `limits` ([`ChildLimits`]: the render stack and the CPU time per
/// render; the memory cap is set by ptc before the child starts); returns
/// the process exit code: 0 when stdin closed or the strategy could not be
/// built (the answer says why), 2 on bad arguments.
pub fn serve(plugin: &Path, params: &str, limits: &str) -> i32 {
    let caps = match ChildLimits::parse(limits) {
        Ok(limits) => limits.apply_to(Caps::default()),
        Err(e) => {
            eprintln!("ptc render child: {e}");
            return 2;
        }
    };
    let (input, output) = match protocol_streams() {
        Ok(streams) => streams,
        Err(e) => {
            eprintln!("ptc render child: cannot set up the protocol streams: {e}");
            return 2;
        }
    };
    // Everything, building the strategy included, runs on the render thread
    // with the known stack; the renderer never leaves it.
    caps.on_stack(move || session(plugin, params, caps.cpu, input, output)).unwrap_or_else(|e| {
        eprintln!("ptc render child: the render thread {e}");
        1
    })
}

fn session(plugin: &Path, params: &str, cpu: Duration, input: File, mut output: File) -> i32 {
    let mut answer = |bytes: Vec<u8>| output.write_all(&bytes).and_then(|()| output.flush()).is_ok();
    let loaded = match crate::load_plugin(plugin) {
        Ok(loaded) => loaded,
        Err(reason) => {
            answer(wire::error_line(&StrategyError::new(
                ErrorKind::Other,
                format!("cannot load the plugin: {reason}"),
            )));
            return 0;
        }
    };
    let renderer = match loaded.instantiate(params) {
        Ok(renderer) => renderer,
        Err(e) => {
            answer(wire::error_line(&e));
            return 0;
        }
    };
    if !answer(wire::ready_line(&loaded.description.name, &loaded.description.version)) {
        return 0;
    }
    let mut kept: Option<RenderRequest> = None;
    for line in BufReader::new(input).lines() {
        let Ok(line) = line else { return 1 };
        let request = match wire::read_to_child(&line) {
            Ok(ToChild::Request(request)) => kept.insert(request),
            Ok(ToChild::Append { after, turns }) => match kept.as_mut() {
                Some(request) if request.turns().len() >= after => {
                    request.truncate_turns(after);
                    for turn in turns {
                        request.push_turn(turn);
                    }
                    request
                }
                _ => {
                    let have = kept.as_ref().map_or(0, |r| r.turns().len());
                    let e = format!("protocol: an append after turn {after}, but this process holds {have} turns");
                    if !answer(wire::error_line(&StrategyError::new(ErrorKind::Other, e))) {
                        return 0;
                    }
                    continue;
                }
            },
            Err(e) => {
                if !answer(wire::error_line(&StrategyError::new(ErrorKind::Other, format!("protocol: {e}")))) {
                    return 0;
                }
                continue;
            }
        };
        if let Err(e) = caps::renew_cpu(cpu) {
            eprintln!("ptc render child: cannot renew the CPU limit: {e}");
        }
        let reply = match renderer.render(request) {
            Ok(prompt) => wire::prompt_line(&prompt),
            Err(e) => wire::error_line(&e),
        };
        if !answer(reply) {
            return 0;
        }
    }
    0
}

/// The protocol's input and output, moved off descriptors 0 and 1.
#[cfg(unix)]
fn protocol_streams() -> std::io::Result<(File, File)> {
    use std::os::fd::FromRawFd;
    let check = |fd: libc::c_int| if fd < 0 { Err(std::io::Error::last_os_error()) } else { Ok(fd) };
    // SAFETY: plain descriptor calls on the process's own standard
    // descriptors; each new descriptor is owned by exactly one File.
    unsafe {
        let input = check(libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3))?;
        let output = check(libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3))?;
        let null = check(libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY))?;
        check(libc::dup2(null, 0))?;
        libc::close(null);
        check(libc::dup2(2, 1))?;
        Ok((File::from_raw_fd(input), File::from_raw_fd(output)))
    }
}

/// The protocol's input and output (not moved: elsewhere than on Unix a
/// plugin that prints to stdout breaks the conversation, and its render
/// fails).
#[cfg(not(unix))]
fn protocol_streams() -> std::io::Result<(File, File)> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "process isolation needs a Unix system"))
}
