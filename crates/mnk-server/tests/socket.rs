//! Over a real socket: a server on 127.0.0.1:0 answering plain HTTP/1.1, a client that hangs up
//! in the middle of a search (which must stop it), and a taken port reported clearly.

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mnk_server::ServerConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Starts the app on a free port of the loopback interface.
async fn start(config: ServerConfig) -> SocketAddr {
    let listener = mnk_server::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { mnk_server::run(listener, &config, std::future::pending()).await });
    addr
}

/// Writes one request and returns the open connection.
async fn send_request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// One request, read to the end: status, head and body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String, String) {
    let mut stream = send_request(addr, method, path, body).await;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .expect("a complete HTTP response");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_and_the_page_answer_over_http() {
    let addr = start(common::config()).await;
    let (status, head, body) = http(addr, "GET", "/api/health", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(body.contains("\"ok\""), "{body}");

    let (status, _, body) = http(
        addr,
        "POST",
        "/api/move",
        Some(r#"{"rules":"tictactoe","moves":["a1"],"opponent":{"bot":"perfect"},"seed":1}"#),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let reply: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["move"]["cell"], "b2");

    let (status, _, body) = http(addr, "POST", "/api/state", Some("{not json")).await;
    assert_eq!(status, 400);
    assert!(body.contains("bad_json"), "{body}");

    let (status, head, body) = http(addr, "GET", "/", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(
        body.to_ascii_lowercase().contains("<html"),
        "the page itself"
    );

    let (status, _, body) = http(addr, "PUT", "/api/solve", Some("{}")).await;
    assert_eq!(status, 405);
    assert!(body.contains("method_not_allowed"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_stops_its_search() {
    let config = ServerConfig {
        threads: 1,
        queue_wait: Duration::from_secs(4),
        max_think: Duration::from_secs(10),
        ..common::config()
    };
    let addr = start(config).await;
    // A search that would run for 8 s holds the only engine slot...
    let slow = r#"{"rules":"gomoku15","moves":["h8","i9","g7"],"opponent":{"bot":"alphabeta","depth":8},"time_ms":8000,"seed":1}"#;
    let stream = send_request(addr, "POST", "/api/move", Some(slow)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // ...until its client goes away.
    drop(stream);
    let start = Instant::now();
    let (status, _, body) = http(
        addr,
        "POST",
        "/api/weights",
        Some(r#"{"rules":"gomoku15","moves":["h8"]}"#),
    )
    .await;
    assert_eq!(status, 200, "the slot came free: {body}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "the abandoned search stopped early ({:?})",
        start.elapsed()
    );
}

#[test]
fn a_taken_port_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let config = ServerConfig {
        addr: taken.local_addr().unwrap(),
        ..ServerConfig::default()
    };
    let error = mnk_server::serve(config).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AddrInUse);
    let message = error.to_string();
    assert!(message.contains("cannot listen on 127.0.0.1:"), "{message}");
    assert!(message.contains("--addr"), "{message}");
}
