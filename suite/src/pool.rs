//! The bounded worker pool: `concurrency` std threads take jobs from one
//! queue in order, so at most that many runs (and model calls) are in
//! flight at any time.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Calls `work` on every job with at most `concurrency` (at least 1) calls
/// at once; returns when all are done. Jobs start in order.
pub fn for_each_bounded<J: Sync>(jobs: &[J], concurrency: usize, work: impl Fn(&J) + Sync) {
    let next = AtomicUsize::new(0);
    let workers = concurrency.max(1).min(jobs.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                work(job);
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_job_runs_once_and_never_more_than_the_bound_at_once() {
        let jobs: Vec<u32> = (0..40).collect();
        let (now, peak, seen) = (AtomicUsize::new(0), AtomicUsize::new(0), Mutex::new(Vec::new()));
        for_each_bounded(&jobs, 3, |&j| {
            let running = now.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(running, Ordering::SeqCst);
            std::thread::yield_now();
            seen.lock().unwrap().push(j);
            now.fetch_sub(1, Ordering::SeqCst);
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, jobs);
        assert!(peak.load(Ordering::SeqCst) <= 3);
    }
}
