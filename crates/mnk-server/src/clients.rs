//! Fair sharing of the engine between clients (by address): a rate limit on engine requests and a
//! cap on each client's engine requests at once, both answered `429 rate_limited` with
//! `Retry-After`, so that one client with many parallel requests cannot take every engine slot.
//!
//! The rate limit is `governor`'s keyed GCRA limiter. On top of it a client may have at most
//! [`ClientQuota::admitted`] engine requests admitted (running or waiting for a slot), of which at
//! most half the pool's slots (at least one) run at once, so that on a pool of two or more slots
//! another client always finds a slot the first one cannot take.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The address a request came from (set on every request of a connection, for per-client limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub SocketAddr);

/// Per-client limits on engine work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientQuota {
    /// Engine requests a client may start per second, on average.
    pub per_second: u32,
    /// How many it may start at once after a pause.
    pub burst: u32,
    /// Engine requests a client may have admitted at once (running or waiting).
    pub admitted: usize,
}

impl Default for ClientQuota {
    fn default() -> ClientQuota {
        ClientQuota {
            per_second: 10,
            burst: 20,
            admitted: 4,
        }
    }
}

/// Who sent a request: the peer address of its connection (absent for requests made in-process,
/// which no per-client limit applies to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<ClientAddr>()
                .map(|ClientAddr(addr): &ClientAddr| SocketAddr::ip(addr)),
        ))
    }
}

/// The per-client state: the rate limiter and each client's admitted and running requests.
#[derive(Debug)]
pub struct ClientLimits {
    quota: ClientQuota,
    /// Engine requests of one client running at once.
    running: usize,
    rate: DefaultKeyedRateLimiter<IpAddr>,
    clients: Mutex<HashMap<IpAddr, Admitted>>,
}

/// One client's admitted requests and its share of the engine slots.
#[derive(Debug)]
struct Admitted {
    count: usize,
    running: Arc<Semaphore>,
}

/// A request admitted for a client: holds its place until dropped.
#[derive(Debug)]
pub struct Admission<'a> {
    limits: &'a ClientLimits,
    client: Option<IpAddr>,
    running: Option<Arc<Semaphore>>,
}

impl ClientLimits {
    /// Limits for a pool of `slots` engine slots.
    #[must_use]
    pub fn new(quota: ClientQuota, slots: usize) -> ClientLimits {
        let per_second = NonZeroU32::new(quota.per_second.max(1)).expect("at least one");
        let burst = NonZeroU32::new(quota.burst.max(1)).expect("at least one");
        ClientLimits {
            quota,
            running: (slots / 2).max(1),
            rate: governor::RateLimiter::keyed(Quota::per_second(per_second).allow_burst(burst)),
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// Admits an engine request of `client`, or refuses it with `rate_limited`.
    pub fn admit(&self, client: Client) -> Result<Admission<'_>, ApiError> {
        let Client(Some(ip)) = client else {
            return Ok(Admission {
                limits: self,
                client: None,
                running: None,
            });
        };
        if let Err(not_until) = self.rate.check_key(&ip) {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(ApiError::RateLimited {
                retry_after_secs: wait.as_secs() + 1,
                message: format!(
                    "too many engine requests from your address: at most {} a second",
                    self.quota.per_second
                ),
            });
        }
        let mut clients = self.lock();
        if clients.len() > 4096 {
            // Forget clients with nothing in flight (and the limiter's idle keys).
            clients.retain(|_, a| a.count > 0);
            self.rate.retain_recent();
        }
        let entry = clients.entry(ip).or_insert_with(|| Admitted {
            count: 0,
            running: Arc::new(Semaphore::new(self.running)),
        });
        if entry.count >= self.quota.admitted {
            return Err(ApiError::RateLimited {
                retry_after_secs: 1,
                message: format!(
                    "your address already has {} engine requests in progress: wait for them",
                    self.quota.admitted
                ),
            });
        }
        entry.count += 1;
        Ok(Admission {
            limits: self,
            client: Some(ip),
            running: Some(entry.running.clone()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Admitted>> {
        self.clients
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Admission<'_> {
    /// Waits for the client's share of the engine (immediately for in-process requests).
    pub async fn start(&self) -> Option<OwnedSemaphorePermit> {
        match &self.running {
            Some(running) => running.clone().acquire_owned().await.ok(),
            None => None,
        }
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        if let Some(ip) = self.client {
            if let Some(entry) = self.limits.lock().get_mut(&ip) {
                entry.count = entry.count.saturating_sub(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> Client {
        Client(Some(IpAddr::from([10, 0, 0, last])))
    }

    #[test]
    fn a_client_gets_only_its_admitted_requests_and_others_are_not_affected() {
        let limits = ClientLimits::new(ClientQuota::default(), 2);
        let held: Vec<_> = (0..4).map(|_| limits.admit(client(1)).unwrap()).collect();
        let refused = limits.admit(client(1)).unwrap_err();
        assert_eq!(refused.code(), "rate_limited");
        assert!(limits.admit(client(2)).is_ok());
        drop(held);
        assert!(limits.admit(client(1)).is_ok());
    }

    #[test]
    fn the_rate_limit_refuses_a_burst_with_a_retry_time() {
        let quota = ClientQuota {
            per_second: 1,
            burst: 3,
            admitted: 100,
        };
        let limits = ClientLimits::new(quota, 2);
        for _ in 0..3 {
            drop(limits.admit(client(1)).unwrap());
        }
        match limits.admit(client(1)) {
            Err(ApiError::RateLimited {
                retry_after_secs, ..
            }) => assert!((1..=2).contains(&retry_after_secs)),
            other => panic!("expected rate_limited, got {other:?}"),
        }
        assert!(limits.admit(Client(None)).is_ok());
    }

    #[test]
    fn one_client_runs_on_fewer_slots_than_the_pool_has() {
        assert_eq!(ClientLimits::new(ClientQuota::default(), 1).running, 1);
        assert_eq!(ClientLimits::new(ClientQuota::default(), 2).running, 1);
        assert_eq!(ClientLimits::new(ClientQuota::default(), 8).running, 4);
    }
}
