//! One client cannot take the engine from the others: its parallel engine requests beyond its
//! share are refused with 429 and `Retry-After`, and another client's request still succeeds.

use crate::common;

use std::net::IpAddr;
use std::time::Duration;

use common::wire::{connect_from, exchange, request, Server};

/// A search that uses its whole budget (a depth the line counter does not finish in 1.5 s).
const SLOW_MOVE: &str = r#"{"rules":"gomoku15","moves":["h8","i9","g7"],"opponent":{"bot":"alphabeta","depth":8},"time_ms":1500,"seed":1}"#;

async fn engine_request(from: IpAddr, server: std::net::SocketAddr) -> common::wire::Response {
    let mut stream = connect_from(from, server).await;
    exchange(
        &mut stream,
        request("POST", "/api/move", Some(SLOW_MOVE)).as_bytes(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_greedy_client_gets_429_and_another_client_is_served() {
    let config = mnk_server::ServerConfig {
        threads: 2,
        queue_wait: Duration::from_secs(3),
        ..common::config()
    };
    let server = Server::start(config).await;
    let addr = server.addr;
    let greedy: IpAddr = [127, 0, 0, 2].into();
    let other: IpAddr = [127, 0, 0, 3].into();

    let flood: Vec<_> = (0..50)
        .map(|_| tokio::spawn(engine_request(greedy, addr)))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let served = engine_request(other, addr).await;
    assert_eq!(served.status, 200, "the other client: {served:?}");

    let mut statuses = Vec::new();
    for reply in flood {
        let reply = reply.await.unwrap();
        if reply.status == 429 {
            assert_eq!(reply.code().as_deref(), Some("rate_limited"));
            let retry: u64 = reply.header("retry-after").unwrap().parse().unwrap();
            assert!(retry >= 1);
        }
        statuses.push(reply.status);
    }
    let refused = statuses.iter().filter(|&&s| s == 429).count();
    let ok = statuses.iter().filter(|&&s| s == 200).count();
    assert!(refused >= 40, "{statuses:?}");
    assert!(ok >= 1, "{statuses:?}");
    // The few admitted wait their turn on the client's share of the engine: some may run out of
    // queueing time (503 busy), never anything else.
    assert!(
        statuses.iter().all(|&s| [200, 429, 503].contains(&s)),
        "{statuses:?}"
    );
    server.stop().await;
}
