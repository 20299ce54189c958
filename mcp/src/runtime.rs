//! The one place tokio runs: a current-thread runtime on its own thread.

use std::future::Future;
use std::sync::mpsc;
use std::thread::JoinHandle;

/// A tokio runtime driven by a thread of its own, shared by the servers of
/// a run. Dropping the last handle stops it: the thread ends, every task
/// (and with it every connection and child process) is dropped.
pub struct Runtime {
    handle: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Runtime {
    /// Starts the runtime thread.
    pub fn new() -> std::io::Result<Runtime> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new().name("ptc-mcp".into()).spawn(move || {
            runtime.block_on(async {
                let _ = stopped.await;
            });
            // Dropping the runtime drops every task, connections and child processes included.
            drop(runtime);
        })?;
        Ok(Runtime { handle, stop: Some(stop), thread: Some(thread) })
    }

    /// Runs `future` on the runtime thread and waits for its output; `None`
    /// when the runtime stopped first. Callers bound `future` with a timeout.
    pub fn block_on<T: Send + 'static>(&self, future: impl Future<Output = T> + Send + 'static) -> Option<T> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = tx.send(future.await);
        });
        rx.recv().ok()
    }

    /// Starts `future` on the runtime thread without waiting.
    pub(crate) fn spawn(&self, future: impl Future<Output = ()> + Send + 'static) {
        self.handle.spawn(future);
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
