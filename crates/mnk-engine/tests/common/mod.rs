//! Helpers shared by the engine's integration tests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` applied to every job on as many threads as the machine has, the results in the jobs'
/// order: for suites of independent, node-limited searches, whose results do not depend on
/// which thread runs them.
pub fn on_all_threads<J: Sync, R: Send>(jobs: &[J], work: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(jobs.len()));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(jobs.len()) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(index) else {
                    break;
                };
                let result = work(job);
                done.lock().unwrap().push((index, result));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}
