//! Logs a person can read under load: a flood of refusals (sockets past the cap, engine requests
//! past the slots, all 503) writes a few lines, not one a refusal. (Before, the HTTP trace layer
//! wrote an ERROR line for every 5xx, past the one line per 10 s the refusals' own logs keep.)

use crate::common;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::wire::{connect, connect_from, exchange, request, Server};
use mnk_server::{RoomConfig, ServerConfig};

/// Everything logged, as the server's log would show it.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// The warning and error lines so far.
    fn loud_lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .filter(|l| l.contains("WARN") || l.contains("ERROR"))
            .map(str::to_string)
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refusals_writes_a_few_lines() {
    let _alone = crate::one_at_a_time().await;
    let captured = Captured::default();
    let writer = captured.clone();
    // As `mnk serve` logs: everything at info and above.
    tracing::subscriber::set_global_default(
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish(),
    )
    .unwrap();
    let server = Server::start(ServerConfig {
        threads: 1,
        queue_wait: Duration::from_millis(100),
        rooms: RoomConfig {
            max_sockets: 1,
            per_address: common::unlimited_rates(),
            ..RoomConfig::default()
        },
        ..common::config()
    })
    .await;
    let addr = server.addr;
    let mut stream = connect(addr).await;
    let created = exchange(
        &mut stream,
        request("POST", "/api/rooms", Some(r#"{"rules":"tictactoe"}"#)).as_bytes(),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let room: serde_json::Value = serde_json::from_str(&created.body).unwrap();
    let url = format!(
        "ws://{addr}/api/rooms/{}/socket",
        room["room"].as_str().unwrap()
    );
    let (_holder, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();

    // 100 sockets past the cap of one.
    let mut refused = 0;
    for _ in 0..100 {
        if let Err(tokio_tungstenite::tungstenite::Error::Http(response)) =
            tokio_tungstenite::connect_async(url.as_str()).await
        {
            assert_eq!(response.status(), 503);
            refused += 1;
        }
    }
    assert_eq!(refused, 100);

    // 40 clients (each its own address) asking for a long search at once, on one engine slot.
    let slow = r#"{"rules":"gomoku15","moves":["h8","i9","g7"],"opponent":{"bot":"alphabeta","depth":8},"time_ms":1000,"seed":1}"#;
    let clients: Vec<_> = (0..40u8)
        .map(|i| {
            tokio::spawn(async move {
                let from = IpAddr::V4(Ipv4Addr::new(127, 0, 1, i + 1));
                let mut stream = connect_from(from, addr).await;
                exchange(
                    &mut stream,
                    request("POST", "/api/move", Some(slow)).as_bytes(),
                )
                .await
                .status
            })
        })
        .collect();
    let mut busy = 0;
    for client in clients {
        if client.await.unwrap() == 503 {
            busy += 1;
        }
    }
    assert!(busy >= 30, "only {busy} of 40 were refused as busy");

    let lines = captured.loud_lines();
    eprintln!(
        "{} refusals, {} warning and error lines:\n{}",
        refused + busy,
        lines.len(),
        lines.join("\n")
    );
    // One line per kind of refusal (the socket cap, the engine slots) in the 10 s window.
    assert!(
        lines.len() <= 4,
        "{} lines for {} refusals",
        lines.len(),
        refused + busy
    );
}
