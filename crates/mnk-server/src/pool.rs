//! Where engine work runs: off the async threads, at most `threads` jobs at once.
//!
//! A request first waits for one of the pool's slots (a semaphore permit), but only for a bounded
//! time: when every slot stays busy it is refused with `busy` (503 and `Retry-After`) rather than
//! queued without end. The job then runs on tokio's blocking pool holding the slot until it
//! returns, so a slot is only freed when the search has really stopped.
//!
//! Before that, the request is admitted for its client ([`crate::clients`]): a client over its rate
//! or with too many requests in progress is refused with `rate_limited` (429) at once, and waits
//! for its share of the slots, never more than half of them.
//!
//! Every job gets a stop flag. The flag is raised when the request's future is dropped, which is
//! what hyper does when the client disconnects, so an abandoned search ends at its next check
//! instead of burning a core for nobody; and for every job at once when the server shuts down
//! ([`EnginePool::stop_all`]), so searches answer with their best move so far. A panic inside a
//! job is caught and answered as an `internal` error (the panic hook logs it): a bug must not
//! take a worker thread or the server down.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::clients::{Client, ClientLimits, ClientQuota};
use crate::error::ApiError;
use crate::log::{panic_message, Throttled};

/// A bounded set of engine slots.
#[derive(Debug)]
pub struct EnginePool {
    slots: Arc<Semaphore>,
    queue_wait: Duration,
    clients: ClientLimits,
    /// The stop flags of the jobs that may still run.
    running: Mutex<Vec<Weak<AtomicBool>>>,
    /// Raised for good by [`EnginePool::stop_all`].
    closing: AtomicBool,
    busy_log: Throttled,
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
    /// A pool of `threads` slots (at least one) where a job waits at most `queue_wait` for a slot,
    /// and each client is held to `quota`.
    #[must_use]
    pub fn new(threads: usize, queue_wait: Duration, quota: ClientQuota) -> EnginePool {
        let threads = threads.max(1);
        EnginePool {
            slots: Arc::new(Semaphore::new(threads)),
            queue_wait,
            clients: ClientLimits::new(quota, threads),
            running: Mutex::new(Vec::new()),
            closing: AtomicBool::new(false),
            busy_log: Throttled::new(Duration::from_secs(10)),
        }
    }

    /// Runs `job` for `client` in a free slot, handing it the stop flag it must watch.
    ///
    /// Refused with [`ApiError::RateLimited`] when the client is over its quota, with
    /// [`ApiError::Busy`] when no slot frees up within the queueing limit; a panic in the job
    /// becomes [`ApiError::Panicked`].
    pub async fn run<R, F>(&self, client: Client, job: F) -> Result<R, ApiError>
    where
        F: FnOnce(Arc<AtomicBool>) -> Result<R, ApiError> + Send + 'static,
        R: Send + 'static,
    {
        let admission = self.clients.admit(client)?;
        let slots = async {
            let share = admission.start().await;
            let slot = self.slots.clone().acquire_owned().await;
            (share, slot)
        };
        let (share, permit) = match tokio::time::timeout(self.queue_wait, slots).await {
            Ok((share, Ok(permit))) => (share, permit),
            Ok((_, Err(_))) => {
                return Err(ApiError::Api(mnk_api::ApiError::Internal(
                    "the engine pool is closed".into(),
                )))
            }
            Err(_) => {
                self.busy_log
                    .warn(|| "every engine slot is busy: refusing requests".to_string());
                return Err(ApiError::Busy {
                    retry_after_secs: self.queue_wait.as_secs().max(1),
                });
            }
        };
        let stop = Arc::new(AtomicBool::new(self.closing.load(Ordering::Relaxed)));
        self.track(&stop);
        let _raise_on_drop = StopOnDrop(stop.clone());
        let handle = tokio::task::spawn_blocking(move || {
            let _slots = (permit, share);
            catch_unwind(AssertUnwindSafe(|| job(stop))).unwrap_or_else(|panic| {
                Err(ApiError::Panicked(format!(
                    "the engine failed on this request ({}); please report it",
                    panic_message(panic.as_ref())
                )))
            })
        });
        handle.await.unwrap_or_else(|e| {
            Err(ApiError::Api(mnk_api::ApiError::Internal(format!(
                "the engine task failed: {e}"
            ))))
        })
    }

    /// Raises the stop flag of every job, running or to come: searches answer with their best
    /// move so far. For shutting down.
    pub fn stop_all(&self) {
        self.closing.store(true, Ordering::Relaxed);
        for flag in self.lock_running().iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Remembers a job's stop flag for [`EnginePool::stop_all`], forgetting finished jobs' flags.
    fn track(&self, stop: &Arc<AtomicBool>) {
        let mut running = self.lock_running();
        running.retain(|flag| flag.strong_count() > 0);
        running.push(Arc::downgrade(stop));
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, Vec<Weak<AtomicBool>>> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Slots free right now (for tests and logs).
    #[must_use]
    pub fn free_slots(&self) -> usize {
        self.slots.available_permits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clients::Client;
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
        let pool = EnginePool::new(2, Duration::from_millis(100), ClientQuota::default());
        assert_eq!(pool.run(Client(None), |_| Ok(6 * 7)).await, Ok(42));
        assert_eq!(
            pool.run(Client(None), |_| Err::<(), _>(ApiError::Api(
                mnk_api::ApiError::TooLarge("x".into())
            )))
            .await,
            Err(ApiError::Api(mnk_api::ApiError::TooLarge("x".into())))
        );
        assert_eq!(pool.free_slots(), 2);
    }

    #[tokio::test]
    async fn a_dropped_request_raises_the_stop_flag() {
        let pool = EnginePool::new(1, Duration::from_millis(100), ClientQuota::default());
        let (tx, rx) = mpsc::channel();
        let request = pool.run(Client(None), spin_until_stopped(tx));
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
        let pool = Arc::new(EnginePool::new(
            1,
            Duration::from_millis(50),
            ClientQuota::default(),
        ));
        let (tx, rx) = mpsc::channel();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let slow = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(Client(None), move |stop: Arc<AtomicBool>| {
                    let _ = started_tx.send(());
                    spin_until_stopped(tx)(stop)
                })
                .await
            })
        };
        started_rx.await.unwrap();
        let start = Instant::now();
        let refused = pool.run(Client(None), |_| Ok(())).await;
        assert!(matches!(refused, Err(ApiError::Busy { .. })), "{refused:?}");
        assert!(start.elapsed() >= Duration::from_millis(50));
        slow.abort();
        let _ = slow.await;
        let stopped = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(2)))
            .await
            .unwrap();
        assert_eq!(stopped, Ok(true));
        // The slot is free again once the job has really returned.
        assert_eq!(pool.run(Client(None), |_| Ok(1)).await, Ok(1));
    }

    #[tokio::test]
    async fn a_panicking_job_is_an_internal_error() {
        let pool = EnginePool::new(1, Duration::from_millis(100), ClientQuota::default());
        let result: Result<(), ApiError> = pool.run(Client(None), |_| panic!("boom")).await;
        match result {
            Err(ApiError::Panicked(message)) => assert!(message.contains("boom"), "{message}"),
            other => panic!("expected an internal error, got {other:?}"),
        }
        assert_eq!(pool.free_slots(), 1);
        assert_eq!(pool.run(Client(None), |_| Ok(2)).await, Ok(2));
    }
}
