//! ptc's side: [`Isolated`], a plugin strategy rendering in a child
//! process that lives as long as the instance (started at the first render,
//! started again after it fails).

use super::wire::{self, FromChild};
use super::{ChildCommand, Limits};
use crate::caps::{self, Usage, Waited};
use crate::child_limits::ChildLimits;
use crate::pipe;
use ptc_plugin_api::{ErrorKind, Prompt, RenderRequest, StrategyError};
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Process failures in a row after which an instance gives up: its renders
/// then fail at once instead of paying a start (or a time limit) each turn.
pub const MAX_FAILURES: u32 = 3;

/// How long a process that stopped answering gets to exit before it is killed.
const GRACE: Duration = Duration::from_secs(2);

/// What of the child's stderr is kept to explain how it died: the first
/// lines, and the last ones up to a size.
const HEAD_LINES: usize = 40;
const TAIL_BYTES: usize = 16 << 10;
/// The most of one stderr line kept (a plugin printing without a newline
/// writes one endless line: its stdout is the child's stderr).
const STDERR_LINE_BYTES: usize = 4 << 10;

/// A plugin strategy that renders in a child process under [`Limits`].
///
/// Renders are serialized (one child, one request at a time). A crash, a
/// cap breach, a timeout or an unreadable answer is a render error
/// ([`ErrorKind::Render`]) that says which; the next render starts a new
/// process, until [`MAX_FAILURES`] in a row. The strategy's own errors pass
/// through with their kind; when it cannot be built (bad parameters), every
/// render returns that error.
pub struct Isolated {
    plugin: String,
    file: PathBuf,
    params: String,
    command: ChildCommand,
    limits: Limits,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    child: Option<Running>,
    /// The request the running child holds (what an append builds on).
    sent: Option<RenderRequest>,
    /// Process failures in a row.
    failures: u32,
    /// Why every render fails from now on.
    broken: Option<StrategyError>,
}

impl Isolated {
    /// Strategy `plugin` of library `file`, built with JSON `params` in a
    /// child started by `command`, under `limits`. Nothing starts until the
    /// first [`Isolated::start`] or [`Isolated::render`].
    pub fn new(plugin: &str, file: &Path, params: &str, command: ChildCommand, limits: Limits) -> Isolated {
        Isolated {
            plugin: plugin.to_string(),
            file: file.to_path_buf(),
            params: params.to_string(),
            command,
            limits,
            state: Mutex::new(State::default()),
        }
    }

    /// The plugin's strategy name.
    pub fn plugin(&self) -> &str {
        &self.plugin
    }

    /// The limits it renders under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Starts the process and builds the strategy there, unless running.
    /// `Err` only when the strategy cannot be built (its parameters, or the
    /// library no longer loads): a process that fails is started again at
    /// the next render.
    pub fn start(&self) -> Result<(), StrategyError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match self.ensure_running(&mut state, 0) {
            Err(e) if state.broken.is_some() => Err(e),
            _ => Ok(()),
        }
    }

    /// Renders `request` in the child.
    pub fn render(&self, request: &RenderRequest) -> Result<Prompt, StrategyError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.ensure_running(&mut state, request.turn())?;
        let (line, common) = match state.sent.as_ref().and_then(|sent| common_turns(sent, request)) {
            Some(common) => (wire::append_line(common, &request.turns()[common..]), Some(common)),
            None => (wire::request_line(request), None),
        };
        let running = state.child.as_mut().expect("ensure_running leaves a child");
        let answer = running.exchange(line, self.limits.render_timeout);
        if let Ok(FromChild::Prompt(_) | FromChild::Error(_)) = answer {
            // The child now holds `request`: remember it as it does.
            state.failures = 0;
            match (state.sent.as_mut(), common) {
                (Some(sent), Some(common)) => {
                    sent.truncate_turns(common);
                    for turn in &request.turns()[common..] {
                        sent.push_turn(turn.clone());
                    }
                }
                _ => state.sent = Some(request.clone()),
            }
        }
        match answer {
            Ok(FromChild::Prompt(prompt)) => Ok(prompt),
            Ok(FromChild::Error(e)) => Err(e),
            Ok(FromChild::Ready { .. }) => {
                Err(self.fail(&mut state, Failure::Protocol("a second `ready`".into()), request.turn()))
            }
            Err(failure) => Err(self.fail(&mut state, failure, request.turn())),
        }
    }

    /// Starts the child and waits for its `ready`, unless one is running.
    fn ensure_running(&self, state: &mut State, turn: u32) -> Result<(), StrategyError> {
        if let Some(e) = &state.broken {
            return Err(e.clone());
        }
        if state.child.is_some() {
            return Ok(());
        }
        state.sent = None;
        let mut running = match self.spawn() {
            Ok(running) => running,
            Err(e) => return Err(self.fail(state, Failure::Start(e), turn)),
        };
        let answer = running.receive(self.limits.render_timeout);
        state.child = Some(running);
        match answer {
            Ok(FromChild::Ready { name, .. }) if name == self.plugin => Ok(()),
            Ok(FromChild::Ready { name, .. }) => {
                let e = StrategyError::new(
                    ErrorKind::Other,
                    format!(
                        "{} now holds strategy `{name}`, not `{}`; run ptc again",
                        self.file.display(),
                        self.plugin
                    ),
                );
                Err(self.give_up(state, e))
            }
            Ok(FromChild::Error(e)) => Err(self.give_up(state, e)),
            Ok(FromChild::Prompt(_)) => {
                Err(self.fail(state, Failure::Protocol("a prompt before `ready`".into()), turn))
            }
            Err(failure) => Err(self.fail(state, failure, turn)),
        }
    }

    fn spawn(&self) -> std::io::Result<Running> {
        let mut cmd = std::process::Command::new(&self.command.program);
        cmd.args(&self.command.leading_args)
            .arg(&self.file)
            .arg("--params")
            .arg(&self.params)
            .arg("--limits")
            .arg(ChildLimits::of_caps(&self.limits.caps).to_json())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        self.limits.caps.apply_renewable(&mut cmd);
        let (mut child, input) = writer(cmd)?;
        tracing::debug!(plugin = %self.plugin, pid = child.id(), "isolated plugin process started");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        Ok(Running {
            input: Some(input),
            replies: reader(stdout),
            stderr: StderrTail::collect(stderr, self.plugin.clone()),
            child: Some(child),
        })
    }

    /// Ends the running child after `failure` and returns the render error
    /// that says what happened; gives up after [`MAX_FAILURES`] in a row.
    fn fail(&self, state: &mut State, failure: Failure, turn: u32) -> StrategyError {
        let ended = state.child.take().map(|running| running.end(matches!(failure, Failure::Died)));
        state.sent = None;
        state.failures += 1;
        let what = match (&failure, ended) {
            (Failure::Start(e), _) => format!("could not start {}: {e}", self.command.program.display()),
            (Failure::TimedOut, _) => format!(
                "took longer than the {} ms render time limit (its process was killed)",
                self.limits.render_timeout.as_millis()
            ),
            (Failure::Protocol(what), _) => format!("answered out of protocol ({what}; its process was killed)"),
            (Failure::Died, Some(ended)) => ended.describe(&self.limits),
            (Failure::Died, None) => "lost its process".to_string(),
        };
        let during = if turn == 0 { "while starting".to_string() } else { format!("rendering turn {turn}") };
        let message = format!("isolated plugin `{}` {what} {during}", self.plugin);
        tracing::warn!(plugin = %self.plugin, failures = state.failures, "{message}");
        let error = StrategyError::render(message);
        if state.failures >= MAX_FAILURES {
            let e = StrategyError::render(format!(
                "isolated plugin `{}` is disabled for this run after {MAX_FAILURES} process failures in a row (last: {what})",
                self.plugin
            ));
            state.broken = Some(e);
        }
        error
    }

    /// Every render fails with `error` from now on.
    fn give_up(&self, state: &mut State, error: StrategyError) -> StrategyError {
        if let Some(running) = state.child.take() {
            running.end(false);
        }
        state.broken = Some(error.clone());
        error
    }
}

/// How many leading turns of `request` the child already holds, when the
/// rest of the request is the same as `sent`.
fn common_turns(sent: &RenderRequest, request: &RenderRequest) -> Option<usize> {
    let same = sent.max_turns() == request.max_turns()
        && sent.mission() == request.mission()
        && sent.system_prompt() == request.system_prompt()
        && sent.extensions() == request.extensions()
        && sent.tools() == request.tools()
        && sent.data() == request.data();
    same.then(|| sent.turns().iter().zip(request.turns()).take_while(|(a, b)| a == b).count())
}

/// Why a child gave no usable answer.
enum Failure {
    /// It could not be started.
    Start(std::io::Error),
    /// It closed its output (it died, or is dying).
    Died,
    /// It did not answer in time.
    TimedOut,
    /// It answered something else than the protocol allows.
    Protocol(String),
}

/// A child process and the threads that talk to it.
struct Running {
    child: Option<Child>,
    /// Lines to write; dropping it closes the child's stdin.
    input: Option<Sender<Vec<u8>>>,
    /// Lines it wrote; disconnected when its stdout closes.
    replies: Receiver<Result<String, String>>,
    stderr: StderrTail,
}

impl Running {
    fn exchange(&mut self, line: Vec<u8>, timeout: Duration) -> Result<FromChild, Failure> {
        // What it says on stderr from now on is about this request.
        self.stderr.clear();
        let sent = self.input.as_ref().is_some_and(|input| input.send(line).is_ok());
        if !sent {
            return Err(Failure::Died);
        }
        self.receive(timeout)
    }

    fn receive(&mut self, timeout: Duration) -> Result<FromChild, Failure> {
        match self.replies.recv_timeout(timeout) {
            Ok(Ok(line)) => wire::read_from_child(&line).map_err(Failure::Protocol),
            Ok(Err(why)) => Err(Failure::Protocol(why)),
            Err(RecvTimeoutError::Timeout) => Err(Failure::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Died),
        }
    }

    /// Closes its stdin and reaps it: at once when it `died` already, else
    /// after [`GRACE`] (killed if it is still there).
    fn end(mut self, died: bool) -> Ended {
        self.input = None;
        let child = self.child.take().expect("a running child is ended once");
        let waited = if died { caps::wait(child, GRACE) } else { kill_and_wait(child) };
        let stderr = self.stderr.finish();
        match waited {
            Ok(Waited::Exited { status, usage }) => Ended { status: Some(status), usage, stderr },
            Ok(Waited::TimedOut { usage }) => Ended { status: None, usage, stderr },
            Err(_) => Ended { status: None, usage: None, stderr },
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Closing stdin ends a healthy child; one that does not go within
        // the grace time is killed. Either way it is reaped.
        self.input = None;
        if let Some(child) = self.child.take() {
            let _ = caps::wait(child, GRACE);
        }
    }
}

fn kill_and_wait(mut child: Child) -> std::io::Result<Waited> {
    // Not reaped yet, so the ID is still our child's.
    let _ = child.kill();
    caps::wait(child, GRACE)
}

/// How a child ended, for the error message.
struct Ended {
    status: Option<ExitStatus>,
    usage: Option<Usage>,
    stderr: Vec<String>,
}

impl Ended {
    fn describe(&self, limits: &Limits) -> String {
        let text = self.stderr.join("\n");
        let Some(status) = self.status else {
            return "stopped answering (its process was killed)".to_string();
        };
        if let Some(breach) = limits.caps.breach(status, self.usage, &text) {
            return format!("{breach}");
        }
        let how = caps::describe_exit(status);
        let how = if how.starts_with("exited") { format!("{how} without an answer") } else { how };
        // The last line that says something: not blank, not a backtrace
        // frame or its header, not the runtime's closing note.
        let said = |l: &&String| {
            !(l.trim().is_empty() || l.starts_with(' ') || l.starts_with("note: ") || l.starts_with("stack backtrace:"))
        };
        match self.stderr.iter().rev().find(said) {
            Some(last) => format!("{how} (its last words: {})", last.trim()),
            None => how,
        }
    }
}

/// Starts `cmd` from a thread that then writes the lines it is sent to the
/// child's stdin, until the sender is dropped. The child lives no longer
/// than that thread (`Caps::apply_renewable` on Linux), so no longer than
/// its [`Running`], whichever thread renders.
fn writer(mut cmd: std::process::Command) -> std::io::Result<(Child, Sender<Vec<u8>>)> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let (started_tx, started) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdin = match cmd.spawn() {
            Ok(mut child) => {
                let stdin = child.stdin.take().expect("stdin is piped");
                let _ = started_tx.send(Ok(child));
                stdin
            }
            Err(e) => return drop(started_tx.send(Err(e))),
        };
        for line in rx {
            if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
                break;
            }
        }
    });
    let child = started.recv().map_err(|_| std::io::Error::other("the thread starting the child ended"))??;
    Ok((child, tx))
}

/// A thread that passes on the lines of the child's stdout; a line past
/// [`wire::MAX_LINE_BYTES`] is passed on as why it is not read, and the
/// reading stops there (the child is then killed for it).
fn reader(stdout: std::process::ChildStdout) -> Receiver<Result<String, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        while let Ok(Some(line)) = pipe::read_line(&mut stdout, wire::MAX_LINE_BYTES) {
            let message = match line.cut {
                false => Ok(String::from_utf8_lossy(&line.bytes).into_owned()),
                true => Err(format!("a line past {} MiB (wire::MAX_LINE_BYTES)", wire::MAX_LINE_BYTES >> 20)),
            };
            let stop = message.is_err();
            if tx.send(message).is_err() || stop {
                break;
            }
        }
    });
    rx
}

/// What the child wrote on stderr since the current request: its first
/// lines and its last ones (a runtime's message about a breach comes first,
/// a backtrace after it), each also logged at debug level.
struct StderrTail {
    lines: Arc<Mutex<Captured>>,
    done: Receiver<()>,
}

#[derive(Default)]
struct Captured {
    head: Vec<String>,
    tail: VecDeque<String>,
    tail_bytes: usize,
}

impl Captured {
    fn push(&mut self, line: String) {
        if self.head.len() < HEAD_LINES {
            return self.head.push(line);
        }
        self.tail_bytes += line.len();
        self.tail.push_back(line);
        while self.tail_bytes > TAIL_BYTES && self.tail.len() > 1 {
            let dropped = self.tail.pop_front().expect("more than one line");
            self.tail_bytes -= dropped.len();
        }
    }
}

impl StderrTail {
    fn collect(stderr: std::process::ChildStderr, plugin: String) -> StderrTail {
        let lines = Arc::new(Mutex::new(Captured::default()));
        let (tx, done) = mpsc::channel();
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            let mut stderr = BufReader::new(stderr);
            while let Ok(Some(line)) = pipe::read_line(&mut stderr, STDERR_LINE_BYTES) {
                let cut = if line.cut { " [cut]" } else { "" };
                let line = format!("{}{cut}", String::from_utf8_lossy(&line.bytes));
                tracing::debug!(plugin = %plugin, "isolated plugin stderr: {line}");
                kept.lock().unwrap_or_else(PoisonError::into_inner).push(line);
            }
            let _ = tx.send(());
        });
        StderrTail { lines, done }
    }

    /// Forgets what came before the current request.
    fn clear(&self) {
        *self.lines.lock().unwrap_or_else(PoisonError::into_inner) = Captured::default();
    }

    /// The kept lines, once the pipe closed (or after a short wait: a
    /// process the plugin started may hold it open).
    fn finish(&self) -> Vec<String> {
        let _ = self.done.recv_timeout(Duration::from_millis(500));
        let captured = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        captured.head.iter().chain(&captured.tail).cloned().collect()
    }
}
