//! Slow and silent clients over real sockets: half-sent heads, slowloris, idle keep-alive and slow
//! bodies are closed within their timeouts, while a normal client is served quickly; thousands of
//! idle connections do not lock the page out.

use crate::common;

use std::time::{Duration, Instant};

use common::wire::{closed_within, connect, exchange, http, request, Server};
use mnk_server::body::BODY_TIMEOUT;
use mnk_server::ConnectionLimits;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// The header timeout of these tests: the defaults' order of magnitude, shorter to keep the suite
/// quick (the default is checked below to be well within 30 s).
const HEADER_TIMEOUT: Duration = Duration::from_secs(3);

fn config() -> mnk_server::ServerConfig {
    mnk_server::ServerConfig {
        connections: ConnectionLimits {
            header_timeout: HEADER_TIMEOUT,
            ..ConnectionLimits::default()
        },
        ..common::config()
    }
}

/// Sends `bytes` one at a time, a second apart, until the server closes the connection.
async fn slowloris(mut stream: TcpStream, bytes: Vec<u8>) -> Option<Duration> {
    let start = Instant::now();
    for b in bytes {
        if stream.write_all(&[b]).await.is_err() {
            return Some(start.elapsed());
        }
        if let Some(_closed) = closed_within(&mut stream, Duration::from_secs(1)).await {
            return Some(start.elapsed());
        }
    }
    None
}

#[test]
fn the_default_timeouts_close_slow_clients_within_30_seconds() {
    let limits = ConnectionLimits::default();
    assert!(limits.header_timeout <= Duration::from_secs(15));
    assert!(BODY_TIMEOUT <= Duration::from_secs(15));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_are_closed_while_a_normal_client_is_served() {
    let _alone = crate::one_at_a_time().await;
    let server = Server::start(config()).await;
    let addr = server.addr;
    let limit = HEADER_TIMEOUT + Duration::from_secs(2);

    let mut silent = Vec::new();
    for _ in 0..20 {
        silent.push(tokio::spawn(async move {
            let mut stream = connect(addr).await;
            closed_within(&mut stream, limit).await
        }));
    }
    let mut half_sent = Vec::new();
    for _ in 0..20 {
        half_sent.push(tokio::spawn(async move {
            let mut stream = connect(addr).await;
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: mnk\r\nX-Wait:")
                .await
                .unwrap();
            closed_within(&mut stream, limit).await
        }));
    }
    let mut loris = Vec::new();
    for _ in 0..10 {
        loris.push(tokio::spawn(async move {
            let stream = connect(addr).await;
            slowloris(stream, request("GET", "/", None).into_bytes()).await
        }));
    }
    let idle_after_a_request = tokio::spawn(async move {
        let mut stream = connect(addr).await;
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: mnk\r\n\r\n")
            .await
            .unwrap();
        closed_within(&mut stream, limit).await
    });
    let slow_body = tokio::spawn(async move {
        let mut stream = connect(addr).await;
        stream
            .write_all(b"POST /api/state HTTP/1.1\r\nHost: mnk\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            .await
            .unwrap();
        let start = Instant::now();
        let reply = common::wire::read_response(&mut stream).await;
        (reply, start.elapsed())
    });

    // Meanwhile a normal client: 200 requests, each on a connection of its own.
    let mut times = Vec::new();
    for i in 0..200 {
        let start = Instant::now();
        let reply = if i % 2 == 0 {
            http(addr, "GET", "/api/health", None).await
        } else {
            let body = r#"{"rules":"gomoku15","moves":["h8","i9"]}"#;
            http(addr, "POST", "/api/state", Some(body)).await
        };
        assert_eq!(reply.status, 200, "{reply:?}");
        times.push(start.elapsed());
    }
    times.sort();
    let p99 = times[times.len() * 99 / 100];
    assert!(p99 < Duration::from_millis(50), "p99 {p99:?}");

    for (what, tasks) in [
        ("silent", silent),
        ("half-sent head", half_sent),
        ("slowloris", loris),
    ] {
        for task in tasks {
            let closed = task.await.unwrap();
            assert!(closed.is_some_and(|t| t <= limit), "{what}: {closed:?}");
        }
    }
    let idle = idle_after_a_request.await.unwrap();
    assert!(
        idle.is_some_and(|t| t <= limit),
        "idle keep-alive: {idle:?}"
    );
    let (reply, took) = slow_body.await.unwrap();
    assert_eq!(reply.status, 408, "{reply:?}");
    assert_eq!(reply.code().as_deref(), Some("timeout"));
    assert!(took <= BODY_TIMEOUT + Duration::from_secs(2), "{took:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_idle_connections_do_not_stop_the_page() {
    let _alone = crate::one_at_a_time().await;
    // Both ends of every connection live in this process.
    mnk_server::connection::raise_descriptor_limit();
    let server = Server::start(config()).await;
    let mut idle = Vec::new();
    for _ in 0..2000 {
        idle.push(connect(server.addr).await);
    }
    let start = Instant::now();
    let page = http(server.addr, "GET", "/", None).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<html"), "the page itself");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(1), "{took:?}");
    let mut stream = connect(server.addr).await;
    let reply = exchange(&mut stream, request("GET", "/api/health", None).as_bytes()).await;
    assert_eq!(reply.status, 200);
    drop(idle);
    server.stop().await;
}
