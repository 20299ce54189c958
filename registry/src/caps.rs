//! Resource caps for a child process that runs untrusted plugin code: its
//! memory (`RLIMIT_AS` and `RLIMIT_DATA`), its CPU time (`RLIMIT_CPU`), and
//! the stack of the thread that renders. A plugin that breaches one dies
//! alone, and [`Caps::breach`] names the cap from how it died.
//!
//! ```no_run
//! use ptc_registry::caps::{self, Caps};
//! use std::process::Command;
//! use std::time::Duration;
//!
//! let caps = Caps::default(); // 1 GiB, 20 s of CPU, 8 MiB of render stack
//! let mut cmd = Command::new("ptc-conformance-case");
//! caps.apply(&mut cmd);
//! let child = cmd.spawn().unwrap();
//! let waited = caps::wait(child, Duration::from_secs(60)).unwrap();
//! if let Some(breach) = waited.status().and_then(|s| caps.breach(s, waited.usage(), "")) {
//!     println!("the plugin {breach}");
//! }
//! ```
//!
//! The memory and CPU caps are set by the parent between `fork` and `exec`,
//! so they hold before the child runs a single instruction of its own, and
//! no core file is written when it dies of one. Elsewhere than on Unix the
//! caps are not enforced (only the stack size and the wall-time limit are).

use std::fmt;
use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

/// Default memory cap: 1 GiB.
pub const DEFAULT_MEMORY: u64 = 1 << 30;
/// Default CPU-time cap: 20 s (a whole conformance case of a sound plugin
/// takes under 2 s, debug build).
pub const DEFAULT_CPU: Duration = Duration::from_secs(20);
/// Default stack of the render thread: 8 MiB, what a main thread gets.
pub const DEFAULT_STACK: usize = 8 << 20;

/// The caps on a child process that runs plugin code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Address space and data segment, in bytes (`RLIMIT_AS`, `RLIMIT_DATA`).
    pub memory: u64,
    /// CPU time (`RLIMIT_CPU`, whole seconds, rounded up); the child gets
    /// `SIGXCPU` at the limit and `SIGKILL` one second later.
    pub cpu: Duration,
    /// Stack of the thread that renders, in bytes ([`Caps::on_stack`]).
    pub stack: usize,
}

impl Default for Caps {
    fn default() -> Self {
        Caps { memory: DEFAULT_MEMORY, cpu: DEFAULT_CPU, stack: DEFAULT_STACK }
    }
}

/// Which cap a child breached, with the limit it had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Breach {
    /// An allocation failed under the memory cap.
    Memory {
        /// The cap, in bytes.
        limit: u64,
        /// The size of the allocation that failed, when the runtime said.
        request: Option<u64>,
    },
    /// The render thread ran out of stack.
    Stack {
        /// Its stack size, in bytes.
        size: usize,
    },
    /// The CPU-time cap was reached.
    Cpu {
        /// The cap.
        limit: Duration,
    },
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::Memory { limit, request } => {
                write!(f, "exceeded the {} memory limit", format_size(*limit))?;
                match request {
                    Some(bytes) => write!(f, " (an allocation of {bytes} bytes failed)"),
                    None => Ok(()),
                }
            }
            Breach::Stack { size } => write!(f, "overflowed its stack ({} render thread)", format_size(*size as u64)),
            Breach::Cpu { limit } => write!(f, "used more than {} s of CPU", cpu_seconds(*limit)),
        }
    }
}

/// What a child used, read when it was reaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Peak resident memory, in bytes.
    pub peak_memory: u64,
    /// User plus system CPU time.
    pub cpu: Duration,
}

/// How waiting for a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// It exited (or died of a signal) by itself.
    Exited {
        /// Its exit status.
        status: ExitStatus,
        /// What it used (`None` where the platform does not say).
        usage: Option<Usage>,
    },
    /// It overran the wall-time limit and was killed.
    TimedOut {
        /// What it used until then.
        usage: Option<Usage>,
    },
}

impl Waited {
    /// The exit status, unless it timed out.
    pub fn status(&self) -> Option<ExitStatus> {
        match self {
            Waited::Exited { status, .. } => Some(*status),
            Waited::TimedOut { .. } => None,
        }
    }

    /// What the child used.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            Waited::Exited { usage, .. } | Waited::TimedOut { usage } => *usage,
        }
    }
}

impl Caps {
    /// Sets the memory and CPU caps (and no core dumps) on the process `cmd`
    /// starts, before it executes anything. A cap above the hard limit the
    /// parent already has is lowered to it.
    pub fn apply(&self, cmd: &mut Command) {
        #[cfg(unix)]
        unix::apply(self, cmd);
        #[cfg(not(unix))]
        let _ = cmd;
    }

    /// Like [`Caps::apply`], for a child that serves many renders: the CPU
    /// cap is a soft limit the child renews before each render
    /// ([`renew_cpu`]), so it bounds every render rather than the child's
    /// whole life. The memory cap and no core dumps are as in `apply`; on
    /// Linux the child is also killed when the thread that started it ends.
    pub fn apply_renewable(&self, cmd: &mut Command) {
        #[cfg(unix)]
        unix::apply_renewable(self, cmd);
        #[cfg(not(unix))]
        let _ = cmd;
    }

    /// Runs `f` on a new thread named `render` with [`Caps::stack`] bytes of
    /// stack and waits for it. `Err` holds the panic message, or why the
    /// thread could not start. A stack overflow is not an error here: the
    /// runtime aborts the process, and [`Caps::breach`] names it.
    pub fn on_stack<T: Send>(&self, f: impl FnOnce() -> T + Send) -> Result<T, RenderThreadError> {
        std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .name("render".into())
                .stack_size(self.stack)
                .spawn_scoped(scope, f)
                .map_err(|error| RenderThreadError::Spawn { stack: self.stack, error: error.to_string() })?;
            handle.join().map_err(|panic| {
                let text = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a non-text panic".to_string());
                RenderThreadError::Panicked(text)
            })
        })
    }

    /// The cap a child breached, from how it ended, what it used and its
    /// stderr; `None` when it ended some other way. The Rust runtime reports
    /// a failed allocation (`memory allocation of N bytes failed`) and a
    /// stack overflow (`has overflowed its stack`) on stderr before it
    /// aborts; the CPU cap ends the child with `SIGXCPU` (or `SIGKILL` past
    /// the hard limit).
    pub fn breach(&self, status: ExitStatus, usage: Option<Usage>, stderr: &str) -> Option<Breach> {
        if status.success() {
            return None;
        }
        if stderr.contains("has overflowed its stack") {
            return Some(Breach::Stack { size: self.stack });
        }
        let failed_allocation = stderr.lines().find_map(|l| {
            l.trim().strip_prefix("memory allocation of ")?.strip_suffix(" bytes failed")?.parse::<u64>().ok()
        });
        if let Some(bytes) = failed_allocation {
            return Some(Breach::Memory { limit: self.memory, request: Some(bytes) });
        }
        let signal = signal_of(status)?;
        // The kernel checks the cap on its clock ticks; the usage it reports
        // can fall a little short of it.
        let cap = Duration::from_secs(cpu_seconds(self.cpu));
        let cpu_spent = usage.is_some_and(|u| u.cpu * 10 >= cap * 9);
        if Some(signal) == SIGXCPU || (Some(signal) == SIGKILL && cpu_spent) {
            return Some(Breach::Cpu { limit: self.cpu });
        }
        // A crash at the cap without the runtime's message (a C allocator,
        // a failed thread stack mapping) is the memory cap all the same.
        let near_cap = usage.is_some_and(|u| u.peak_memory >= self.memory / 10 * 9);
        near_cap.then_some(Breach::Memory { limit: self.memory, request: None })
    }
}

/// In a child started with [`Caps::apply_renewable`]: allows `cpu` more of
/// CPU time from now (the soft `RLIMIT_CPU` set to what the process used so
/// far plus `cpu`, in whole seconds). A no-op elsewhere than on Unix.
pub fn renew_cpu(cpu: Duration) -> std::io::Result<()> {
    #[cfg(unix)]
    return unix::renew_cpu(cpu);
    #[cfg(not(unix))]
    {
        let _ = cpu;
        Ok(())
    }
}

/// How a child that gave no answer ended, in words: `died of signal 6
/// (SIGABRT)`, `exited with code 3`.
pub fn describe_exit(status: ExitStatus) -> String {
    if let Some(signal) = signal_of(status) {
        let name = match signal {
            6 => " (SIGABRT)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            24 => " (SIGXCPU)",
            _ => "",
        };
        return format!("died of signal {signal}{name}");
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "ended".to_string(),
    }
}

/// Waits for `child` until `limit` has passed, then kills it; either way it
/// is reaped and its usage read. Takes the child by value: once reaped, its
/// process ID may belong to another process, so nothing may signal it again.
pub fn wait(child: Child, limit: Duration) -> std::io::Result<Waited> {
    #[cfg(unix)]
    return unix::wait(child, limit);
    #[cfg(not(unix))]
    {
        let mut child = child;
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(status) = child.try_wait()? {
                return Ok(Waited::Exited { status, usage: None });
            }
            if std::time::Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Waited::TimedOut { usage: None });
            }
            std::thread::sleep(POLL);
        }
    }
}

const POLL: Duration = Duration::from_millis(10);

#[cfg(unix)]
const SIGXCPU: Option<i32> = Some(libc::SIGXCPU);
#[cfg(unix)]
const SIGKILL: Option<i32> = Some(libc::SIGKILL);
#[cfg(not(unix))]
const SIGXCPU: Option<i32> = None;
#[cfg(not(unix))]
const SIGKILL: Option<i32> = None;

/// The signal that ended the process, if one did.
pub fn signal_of(status: ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// Whole seconds of a CPU cap, rounded up (at least 1): what `RLIMIT_CPU` holds.
fn cpu_seconds(cpu: Duration) -> u64 {
    (cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0)).max(1)
}

/// `1 GiB`, `512 MiB`, `64 KiB`, or bytes when not a whole unit.
pub fn format_size(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.trailing_zeros() >= shift {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// Why [`Caps::on_stack`] gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderThreadError {
    /// The thread could not be started with that much stack.
    Spawn {
        /// The stack asked for, in bytes.
        stack: usize,
        /// The system's error.
        error: String,
    },
    /// The code on the thread panicked; the panic's message.
    Panicked(String),
}

impl fmt::Display for RenderThreadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderThreadError::Spawn { stack, error } => {
                write!(f, "cannot start the render thread ({} of stack): {error}", format_size(*stack as u64))
            }
            RenderThreadError::Panicked(text) => write!(f, "panicked: {text}"),
        }
    }
}

impl std::error::Error for RenderThreadError {}

/// A size [`parse_size`] cannot read; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeError {
    /// It does not start with digits.
    NotANumber(String),
    /// Its unit is not one of bytes, K, M, G, T.
    UnknownUnit(String),
    /// Zero, or more than 2^64 - 1 bytes.
    OutOfRange(String),
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::NotANumber(text) => write!(f, "size `{text}` does not start with a whole number"),
            SizeError::UnknownUnit(text) => {
                write!(f, "size `{text}` has an unknown unit (use bytes, K, M, G or T, e.g. 1GiB or 512M)")
            }
            SizeError::OutOfRange(text) => write!(f, "size `{text}` is out of range"),
        }
    }
}

impl std::error::Error for SizeError {}

/// Reads a size: a number of bytes, or a number with a unit (`K`/`KiB`,
/// `M`/`MiB`, `G`/`GiB`, `T`/`TiB`, all powers of 1024; case-insensitive,
/// an optional `B` and space): `1GiB`, `512M`, `1073741824`.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| SizeError::NotANumber(text.to_string()))?;
    let unit = unit.trim().to_ascii_lowercase();
    let shift = match unit.trim_end_matches('b').trim_end_matches('i') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(SizeError::UnknownUnit(text.to_string())),
    };
    n.checked_mul(1 << shift).filter(|&b| b > 0).ok_or_else(|| SizeError::OutOfRange(text.to_string()))
}

#[cfg(unix)]
mod unix {
    use super::{Caps, Usage, Waited, POLL};
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Child, Command, ExitStatus};
    use std::time::{Duration, Instant};

    pub(super) fn apply(caps: &Caps, cmd: &mut Command) {
        limit_child(caps, cmd, false);
    }

    pub(super) fn apply_renewable(caps: &Caps, cmd: &mut Command) {
        limit_child(caps, cmd, true);
    }

    /// The limits `cmd`'s child sets on itself before exec: memory, CPU, no
    /// core dumps. A `renewable` child keeps its CPU hard limit open, so it
    /// can move its soft limit on before each render ([`renew_cpu`]), and
    /// (Linux) dies with the thread that started it; otherwise the hard
    /// limit is one second past the soft one.
    fn limit_child(caps: &Caps, cmd: &mut Command, renewable: bool) {
        let memory = caps.memory as libc::rlim_t;
        let cpu = super::cpu_seconds(caps.cpu) as libc::rlim_t;
        let cpu_hard = if renewable { libc::RLIM_INFINITY } else { cpu + 1 };
        // SAFETY: the closure runs in the forked child before exec; it only
        // makes the async-signal-safe getrlimit/setrlimit/prctl calls and
        // allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                set(libc::RLIMIT_AS, memory, memory)?;
                set(libc::RLIMIT_DATA, memory, memory)?;
                set(libc::RLIMIT_CPU, cpu, cpu_hard)?;
                set(libc::RLIMIT_CORE, 0, 0)?;
                // A long-lived child must not outlive a parent killed with
                // SIGKILL while the plugin hangs (it would never read the
                // end of its input). Linux ties this to the thread that
                // started the child, which is the one that talks to it.
                #[cfg(target_os = "linux")]
                if renewable && libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }

    pub(super) fn renew_cpu(cpu: Duration) -> std::io::Result<()> {
        // SAFETY: zeroed `rusage` is a valid value of a plain C struct, and
        // getrusage fills the one we own.
        let used = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            usage_of(&usage).cpu
        };
        let soft = (used.as_secs() + 1 + super::cpu_seconds(cpu)) as libc::rlim_t;
        set(libc::RLIMIT_CPU, soft, libc::RLIM_INFINITY)
    }

    #[cfg(target_os = "linux")]
    type Resource = libc::__rlimit_resource_t;
    #[cfg(not(target_os = "linux"))]
    type Resource = libc::c_int;

    fn set(resource: Resource, soft: libc::rlim_t, hard: libc::rlim_t) -> std::io::Result<()> {
        let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: plain system calls on a valid, owned struct.
        unsafe {
            if libc::getrlimit(resource, &mut current) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let hard = hard.min(current.rlim_max);
            let limit = libc::rlimit { rlim_cur: soft.min(hard), rlim_max: hard };
            if libc::setrlimit(resource, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Reaps `pid` if it has ended (`block`: waits until it has).
    fn reap(pid: libc::pid_t, block: bool) -> std::io::Result<Option<(ExitStatus, Usage)>> {
        loop {
            let mut status = 0;
            // SAFETY: zeroed `rusage` is a valid value of a plain C struct.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            let flags = if block { 0 } else { libc::WNOHANG };
            // SAFETY: `pid` is our own unreaped child; both pointers are valid.
            let got = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
            match got {
                0 => return Ok(None),
                n if n == pid => return Ok(Some((ExitStatus::from_raw(status), usage_of(&usage)))),
                _ => {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
    }

    fn usage_of(u: &libc::rusage) -> Usage {
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        // Linux reports the peak in KiB, macOS in bytes.
        let unit = if cfg!(target_os = "macos") { 1 } else { 1024 };
        Usage { peak_memory: u.ru_maxrss as u64 * unit, cpu: time(u.ru_utime) + time(u.ru_stime) }
    }

    pub(super) fn wait(mut child: Child, limit: Duration) -> std::io::Result<Waited> {
        let pid = child.id() as libc::pid_t;
        let deadline = Instant::now() + limit;
        loop {
            if let Some((status, usage)) = reap(pid, false)? {
                return Ok(Waited::Exited { status, usage: Some(usage) });
            }
            if Instant::now() >= deadline {
                // Not reaped yet, so the ID is still our child's.
                let _ = child.kill();
                let usage = reap(pid, true)?.map(|(_, usage)| usage);
                return Ok(Waited::TimedOut { usage });
            }
            std::thread::sleep(POLL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn sizes_read_and_print_in_binary_units() {
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size(" 64 kb "), Ok(64 << 10));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1.5G"), Err(SizeError::UnknownUnit("1.5G".into())));
        assert!(parse_size("1.5G").unwrap_err().to_string().contains("unknown unit (use bytes, K, M, G or T"));
        assert_eq!(parse_size("lots"), Err(SizeError::NotANumber("lots".into())));
        assert_eq!(parse_size("0"), Err(SizeError::OutOfRange("0".into())));
        assert_eq!(parse_size("99999999999T").unwrap_err().to_string(), "size `99999999999T` is out of range");
        assert_eq!(format_size(1 << 30), "1 GiB");
        assert_eq!(format_size(3 << 29), "1536 MiB");
        assert_eq!(format_size(1000), "1000 bytes");
    }

    #[test]
    fn cpu_caps_round_up_to_whole_seconds() {
        assert_eq!(cpu_seconds(Duration::from_secs(3)), 3);
        assert_eq!(cpu_seconds(Duration::from_millis(2500)), 3);
        assert_eq!(cpu_seconds(Duration::ZERO), 1);
        assert_eq!(Breach::Cpu { limit: Duration::from_millis(1500) }.to_string(), "used more than 2 s of CPU");
    }

    #[test]
    fn a_panic_on_the_render_thread_is_an_error_with_its_message() {
        let caps = Caps { stack: 1 << 20, ..Caps::default() };
        assert_eq!(caps.on_stack(|| 41 + 1), Ok(42));
        let panicked = caps.on_stack(|| -> i32 { panic!("boom") }).unwrap_err();
        assert_eq!(panicked, RenderThreadError::Panicked("boom".into()));
        assert_eq!(panicked.to_string(), "panicked: boom");
    }

    #[cfg(unix)]
    fn shell(script: &str, caps: &Caps, limit: Duration) -> (Waited, String) {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", script]).stderr(std::process::Stdio::piped());
        caps.apply(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        let mut pipe = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut pipe, &mut text).map(|_| text)
        });
        let waited = wait(child, limit).unwrap();
        (waited, reader.join().unwrap().unwrap())
    }

    #[cfg(unix)]
    #[test]
    fn the_child_starts_with_the_caps_in_place() {
        let caps = Caps { memory: 256 << 20, cpu: Duration::from_secs(7), ..Caps::default() };
        let script = "ulimit -v >&2; ulimit -d >&2; ulimit -t >&2; ulimit -c >&2";
        let (waited, stderr) = shell(script, &caps, Duration::from_secs(10));
        assert!(waited.status().unwrap().success());
        // ulimit prints KiB for -v and -d.
        assert_eq!(stderr.split_whitespace().collect::<Vec<_>>(), ["262144", "262144", "7", "0"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_busy_child_dies_of_the_cpu_cap_and_is_named() {
        let caps = Caps { cpu: Duration::from_secs(1), ..Caps::default() };
        let (waited, stderr) = shell("while :; do :; done", &caps, Duration::from_secs(30));
        let usage = waited.usage().unwrap();
        // The kernel accounts CPU time on its ticks: on a loaded machine the
        // usage it reports can read short of the cap it enforced.
        assert!(usage.cpu >= Duration::from_millis(500), "{usage:?}");
        let breach = caps.breach(waited.status().expect("killed by the cap, not the wall time"), Some(usage), &stderr);
        assert_eq!(breach, Some(Breach::Cpu { limit: Duration::from_secs(1) }));
    }

    #[cfg(unix)]
    #[test]
    fn a_child_past_the_wall_time_is_killed_and_reaped() {
        let start = Instant::now();
        let (waited, _) = shell("exec sleep 30", &Caps::default(), Duration::from_millis(200));
        assert!(matches!(waited, Waited::TimedOut { usage: Some(_) }), "{waited:?}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[cfg(unix)]
    #[test]
    fn the_runtime_messages_name_memory_and_stack() {
        let caps = Caps::default();
        let abort = std::os::unix::process::ExitStatusExt::from_raw(libc::SIGABRT);
        let oom = "fixture: x\nmemory allocation of 6000000000 bytes failed\n";
        assert_eq!(
            caps.breach(abort, None, oom).unwrap().to_string(),
            "exceeded the 1 GiB memory limit (an allocation of 6000000000 bytes failed)"
        );
        let at_cap = Some(Usage { peak_memory: 1 << 30, cpu: Duration::ZERO });
        let segv = std::os::unix::process::ExitStatusExt::from_raw(libc::SIGSEGV);
        assert_eq!(caps.breach(segv, at_cap, "").unwrap().to_string(), "exceeded the 1 GiB memory limit");
        let overflow = "\nthread 'render' has overflowed its stack\nfatal runtime error: stack overflow\n";
        assert_eq!(
            caps.breach(abort, None, overflow).unwrap().to_string(),
            "overflowed its stack (8 MiB render thread)"
        );
        assert_eq!(caps.breach(abort, None, "fixture: x\n"), None);
    }
}
