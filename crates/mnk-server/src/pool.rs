//! Where engine work runs: off the async threads, at most `threads` jobs at once.
//!
//! A request first waits for one of the pool's slots (a semaphore permit), but only for a bounded
//! time: when every slot stays busy it is refused with `busy` (503 and `Retry-After`) rather than
//! queued without end. The job then runs on tokio's blocking pool holding the slot until it
//! returns, so a slot is only freed when the search has really stopped.
//!
//! Every job gets a stop flag. The flag is raised when the request's future is dropped, which is
//! what hyper does when the client disconnects, so an abandoned search ends at its next check
//! instead of burning a core for nobody. A panic inside a job is caught, logged and answered as
//! an `internal` error: a bug must not take a worker thread or the server down.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// A bounded set of engine slots.
#[derive(Debug)]
pub struct EnginePool {
    slots: Arc<Semaphore>,
    queue_wait: Duration,
}

/// Raises the stop flag when dropped: held by the request's future, so dropping the future (a
/// disconnected client) stops the job.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl EnginePool {
    /// A pool of `threads` slots (at least one) where a job waits at most `queue_wait` for a slot.
    #[must_use]
    pub fn new(threads: usize, queue_wait: Duration) -> EnginePool {
        EnginePool {
            slots: Arc::new(Semaphore::new(threads.max(1))),
            queue_wait,
        }
    }

    /// Runs `job` in a free slot, handing it the stop flag it must watch.
    ///
    /// Refused with [`ApiError::Busy`] when no slot frees up within the queueing limit; a panic in
    /// the job becomes [`ApiError::Internal`].
    pub async fn run<R, F>(&self, job: F) -> Result<R, ApiError>
    where
        F: FnOnce(Arc<AtomicBool>) -> Result<R, ApiError> + Send + 'static,
        R: Send + 'static,
    {
        let permit =
            match tokio::time::timeout(self.queue_wait, self.slots.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                Ok(Err(_)) => return Err(ApiError::Internal("the engine pool is closed".into())),
                Err(_) => {
                    tracing::warn!("every engine slot is busy: refusing a request");
                    return Err(ApiError::Busy {
                        retry_after_secs: self.queue_wait.as_secs().max(1),
                    });
                }
            };
        let stop = Arc::new(AtomicBool::new(false));
        let _raise_on_drop = StopOnDrop(stop.clone());
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = permit;
            catch_unwind(AssertUnwindSafe(|| job(stop))).unwrap_or_else(|panic| {
                let what = panic_message(panic.as_ref());
                tracing::error!("engine work panicked: {what}");
                Err(ApiError::Internal(format!(
                    "the engine failed on this request ({what}); please report it"
                )))
            })
        });
        handle.await.unwrap_or_else(|e| {
            tracing::error!("engine task failed: {e}");
            Err(ApiError::Internal("the engine task failed".into()))
        })
    }

    /// Slots free right now (for tests and logs).
    #[must_use]
    pub fn free_slots(&self) -> usize {
        self.slots.available_permits()
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    /// A job that spins until its stop flag is raised (or 5 s pass), then reports how it ended.
    fn spin_until_stopped(
        done: mpsc::Sender<bool>,
    ) -> impl FnOnce(Arc<AtomicBool>) -> Result<(), ApiError> {
        move |stop| {
            let start = Instant::now();
            while !stop.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let _ = done.send(stop.load(Ordering::Relaxed));
            Ok(())
        }
    }

    #[tokio::test]
    async fn results_come_back() {
        let pool = EnginePool::new(2, Duration::from_millis(100));
        assert_eq!(pool.run(|_| Ok(6 * 7)).await, Ok(42));
        assert_eq!(
            pool.run(|_| Err::<(), _>(ApiError::TooLarge("x".into())))
                .await,
            Err(ApiError::TooLarge("x".into()))
        );
        assert_eq!(pool.free_slots(), 2);
    }

    #[tokio::test]
    async fn a_dropped_request_raises_the_stop_flag() {
        let pool = EnginePool::new(1, Duration::from_millis(100));
        let (tx, rx) = mpsc::channel();
        let request = pool.run(spin_until_stopped(tx));
        // The client goes away after 50 ms: the request future is dropped.
        let dropped = tokio::time::timeout(Duration::from_millis(50), request).await;
        assert!(dropped.is_err(), "the job should still have been running");
        let stopped = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(2)))
            .await
            .unwrap();
        assert_eq!(stopped, Ok(true), "the job saw its stop flag");
    }

    #[tokio::test]
    async fn a_full_pool_answers_busy_after_the_queue_wait() {
        let pool = Arc::new(EnginePool::new(1, Duration::from_millis(50)));
        let (tx, rx) = mpsc::channel();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let slow = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(move |stop: Arc<AtomicBool>| {
                    let _ = started_tx.send(());
                    spin_until_stopped(tx)(stop)
                })
                .await
            })
        };
        started_rx.await.unwrap();
        let start = Instant::now();
        let refused = pool.run(|_| Ok(())).await;
        assert!(matches!(refused, Err(ApiError::Busy { .. })), "{refused:?}");
        assert!(start.elapsed() >= Duration::from_millis(50));
        slow.abort();
        let _ = slow.await;
        let stopped = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(2)))
            .await
            .unwrap();
        assert_eq!(stopped, Ok(true));
        // The slot is free again once the job has really returned.
        assert_eq!(pool.run(|_| Ok(1)).await, Ok(1));
    }

    #[tokio::test]
    async fn a_panicking_job_is_an_internal_error() {
        let pool = EnginePool::new(1, Duration::from_millis(100));
        let result: Result<(), ApiError> = pool.run(|_| panic!("boom")).await;
        match result {
            Err(ApiError::Internal(message)) => assert!(message.contains("boom"), "{message}"),
            other => panic!("expected an internal error, got {other:?}"),
        }
        assert_eq!(pool.free_slots(), 1);
        assert_eq!(pool.run(|_| Ok(2)).await, Ok(2));
    }
}
