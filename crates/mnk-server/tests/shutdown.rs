//! Shutting down (what SIGTERM and Ctrl-C trigger) takes about a second whatever the clients do:
//! a half-sent request is closed, a running search answers with its best move so far.

use crate::common;

use std::time::Duration;

use common::wire::{closed_within, connect, read_response, request, Server};
use tokio::io::AsyncWriteExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_half_sent_requests_and_stops_searches_within_two_seconds() {
    let _alone = crate::one_at_a_time().await;
    let config = mnk_server::ServerConfig {
        max_think: Duration::from_secs(10),
        ..common::config()
    };
    let server = Server::start(config).await;
    let mut half_sent = connect(server.addr).await;
    half_sent
        .write_all(b"POST /api/move HTTP/1.1\r\nHost: mnk\r\nContent-")
        .await
        .unwrap();
    let search = r#"{"rules":"gomoku15","moves":["h8","i9","g7"],"opponent":{"level":6},"time_ms":10000,"seed":1}"#;
    let mut searching = connect(server.addr).await;
    searching
        .write_all(request("POST", "/api/move", Some(search)).as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let took = server.stop().await;
    assert!(took < Duration::from_secs(2), "shutdown took {took:?}");
    let answer = read_response(&mut searching).await;
    assert_eq!(answer.status, 200, "the search answered: {answer:?}");
    assert!(answer.body.contains("\"move\""), "{}", answer.body);
    let closed = closed_within(&mut half_sent, Duration::from_millis(100)).await;
    assert!(closed.is_some(), "the half-sent request was closed");
}
