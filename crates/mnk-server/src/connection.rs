//! The listener's side of the server: accepting connections, the limits and timeouts every
//! connection lives under, and shutting down in bounded time.
//!
//! A public server must not let silent or slow clients hold its descriptors: a connection gets
//! [`ConnectionLimits::header_timeout`] to send each request head (the first, and each next one on
//! a kept-alive connection, so an idle connection is closed after the same time), request bodies
//! are read within [`crate::body::BODY_TIMEOUT`], a write that makes no progress for
//! [`ConnectionLimits::write_timeout`] gives the connection up ([`crate::stalls`]), and at most
//! [`ConnectionLimits::max_connections`] are open at once (the next ones wait in the kernel's
//! backlog until a slot frees up). The first request head of every connection is read and checked
//! here, before hyper sees it (see [`crate::head`]), so that a malformed or oversized request is
//! answered with the API's JSON error rather than hyper's empty one.
//!
//! Shutdown: the listener closes at once, idle connections are closed, requests in flight get
//! [`ConnectionLimits::drain`] to finish; halfway through, every running search is told to stop
//! and answer with the best move it has, so that the whole takes about a second.
//!
//! A connection upgraded to a WebSocket (a room's) leaves this loop once the upgrade is done:
//! its limits are the socket's own ([`crate::rooms::socket`]) and the write timeout, which
//! goes with the stream, and it is closed when the rooms are, at shutdown.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

use crate::clients::ClientAddr;
use crate::head::{read_first_head, FirstHead};
use crate::log::Throttled;
use crate::pool::EnginePool;
use crate::refusals::JsonRefusals;
use crate::stalls::{WriteDeadline, WRITE_TIMEOUT};

/// Limits on connections.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// Time to send a whole request head, counted from the connection's start or from the end of
    /// the previous response (so it is also the keep-alive idle timeout).
    pub header_timeout: Duration,
    /// How long a write may make no progress (the client reads nothing) before the connection
    /// is reset: HTTP responses and rooms' WebSockets alike (see [`crate::stalls`]).
    pub write_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
    /// How long shutdown waits for requests in flight.
    pub drain: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            write_timeout: WRITE_TIMEOUT,
            max_connections: 8192,
            drain: Duration::from_secs(1),
        }
    }
}

/// The largest buffer hyper keeps for a connection (request heads after the first are bounded by
/// it; the first is bounded by [`crate::wire::MAX_HEAD_BYTES`]).
const MAX_BUF_BYTES: usize = 64 * 1024;

/// Raises this process's limit of open files to what the system allows, so that many clients do
/// not exhaust descriptors long before the connection cap. Returns the limit now in force.
pub fn raise_descriptor_limit() -> Option<u64> {
    rlimit::increase_nofile_limit(u64::MAX).ok()
}

/// Accepts connections on `listener` and serves `app` on them until `shutdown` resolves, then
/// drains as the module documentation says.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    pool: Arc<EnginePool>,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let max_connections = limits
        .max_connections
        .min(Semaphore::MAX_PERMITS)
        .clamp(1, u32::MAX as usize);
    let slots = Arc::new(Semaphore::new(max_connections));
    let (closing, closing_rx) = watch::channel(false);
    let accept_errors = Throttled::new(Duration::from_secs(5));
    let mut shutdown = pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it was accepted: wait a
                    // little (a busy loop would not free anything) and go on.
                    accept_errors.warn(|| format!("cannot accept a connection: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let limits = limits.clone();
        let closing = closing_rx.clone();
        tokio::spawn(async move {
            let _slot = permit;
            serve_connection(stream, peer, app, &limits, closing).await;
        });
    }
    drop(listener);
    let _ = closing.send(true);
    tracing::info!("shutting down: no new connections; finishing the requests in flight");
    let half = limits.drain / 2;
    // Every connection holds a slot until it ends: all slots free means all drained.
    let mut drained = pin!(slots.acquire_many(max_connections as u32));
    if tokio::time::timeout(half, &mut drained).await.is_err() {
        // Searches still running: ask them for their best move now.
        pool.stop_all();
        if tokio::time::timeout(limits.drain - half, &mut drained)
            .await
            .is_err()
        {
            tracing::warn!("some connections were still open after {:?}", limits.drain);
        }
    }
    Ok(())
}

/// Serves one connection: its first request head checked here, the rest by hyper.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: &ConnectionLimits,
    mut closing: watch::Receiver<bool>,
) {
    let first = tokio::select! {
        first = read_first_head(stream, limits.header_timeout) => first,
        // Shutting down while a client is still sending its first head: close it.
        _ = closing.wait_for(|&closing| closing) => return,
    };
    let io = match first {
        FirstHead::Ready(io) => io,
        FirstHead::Answered | FirstHead::Closed => return,
    };
    let service = app.map_request(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ClientAddr(peer));
        request
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_BUF_BYTES);
    let connection = http
        .serve_connection(
            TokioIo::new(JsonRefusals::new(WriteDeadline::new(
                io,
                limits.write_timeout,
            ))),
            TowerToHyperService::new(service),
        )
        .with_upgrades();
    let mut connection = pin!(connection);
    // Errors here are the client's (reset, timeout, garbage after the first request): nothing
    // to report.
    tokio::select! {
        _ = connection.as_mut() => return,
        _ = closing.wait_for(|&closing| closing) => {}
    }
    // Shutting down: finish the request in flight, if any, then close.
    connection.as_mut().graceful_shutdown();
    let _ = connection.await;
}
