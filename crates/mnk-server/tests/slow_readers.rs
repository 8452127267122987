//! Room sockets whose clients stop reading: 50 sockets with small receive buffers that never read
//! while 1,000 moves are played in their room are all given up within the write timeout, the
//! server's send queues for them go back to nothing, and a socket that reads is served to the
//! last move. (Before, a session blocked in its send for ever, its silence check with it.)

use crate::common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::wire::{http, Server};
use futures_util::StreamExt;
use mnk_server::{ConnectionLimits, RoomConfig, ServerConfig};
use serde_json::{json, Value};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::Message;

/// The write timeout of this test: the default's order of magnitude, shorter to keep it quick.
const WRITE_TIMEOUT: Duration = Duration::from_secs(3);
const SOCKETS: usize = 50;
const MOVES: usize = 1000;

fn config() -> ServerConfig {
    ServerConfig {
        connections: ConnectionLimits {
            write_timeout: WRITE_TIMEOUT,
            ..ConnectionLimits::default()
        },
        rooms: RoomConfig {
            per_address: common::unlimited_rates(),
            ..RoomConfig::default()
        },
        ..common::config()
    }
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let text = body.to_string();
    let response = http(addr, method, path, Some(&text)).await;
    let json = serde_json::from_str(&response.body).unwrap_or(Value::Null);
    (response.status, json)
}

/// The cell of move `ply`: X on even, O on odd points of a grid, two apart, so no two stones of
/// one colour touch and the game never ends.
fn cell(ply: usize) -> String {
    let (j, odd) = (ply / 2, ply % 2);
    format!("{},{}", 2 * (j % 25) + odd, 2 * (j / 25) + odd)
}

/// The server's side of each connection to `server` from the client ports in `from`: its send
/// queue in bytes (what the kernel holds unsent), read from `/proc/net/tcp`.
fn send_queues(server: u16, from: &[u16]) -> HashMap<u16, u64> {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let port = |field: &str| u16::from_str_radix(field.rsplit(':').next()?, 16).ok();
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (local, remote) = (port(fields.get(1)?)?, port(fields.get(2)?)?);
            let tx = u64::from_str_radix(fields.get(4)?.split(':').next()?, 16).ok()?;
            (local == server && from.contains(&remote)).then_some((remote, tx))
        })
        .collect()
}

/// This process's resident memory in bytes (the server runs in it).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_that_never_read_are_closed_within_the_write_timeout() {
    let _alone = crate::one_at_a_time().await;
    let server = Server::start(config()).await;
    let addr = server.addr;
    let (status, created) = call(
        addr,
        "POST",
        "/api/rooms",
        &json!({"rules": {"unbounded": true, "k": 5}, "colour": "X"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let (_, joined) = call(addr, "POST", &format!("/api/rooms/{room}/join"), &json!({})).await;
    let o = joined["token"].as_str().unwrap().to_string();
    let url = format!("ws://{addr}/api/rooms/{room}/socket");
    let before = resident();

    // Sockets that never read, each with a small receive buffer.
    let mut silent = Vec::new();
    let mut ports = Vec::new();
    for _ in 0..SOCKETS {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        ports.push(stream.local_addr().unwrap().port());
        let (ws, _) = tokio_tungstenite::client_async(url.as_str(), stream)
            .await
            .unwrap();
        silent.push(ws);
    }
    // And one that reads everything, to the last move.
    let (mut reader, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let reading = tokio::spawn(async move {
        while let Some(Ok(message)) = reader.next().await {
            if let Message::Text(text) = message {
                let message: Value = serde_json::from_str(&text).unwrap();
                if message["type"] == "state" && message["state"]["ply"] == MOVES {
                    return true;
                }
            }
        }
        false
    });

    let (server_port, watched) = (addr.port(), ports.clone());
    let watching = tokio::spawn(async move {
        // The largest send queue seen for one silent socket, and when the last one went.
        let (mut largest, start) = (0, Instant::now());
        loop {
            let queues = send_queues(server_port, &watched);
            largest = queues.values().copied().max().unwrap_or(0).max(largest);
            if queues.is_empty() || start.elapsed() > Duration::from_secs(120) {
                return (largest, queues.len());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });

    let start = Instant::now();
    for ply in 0..MOVES {
        let token = if ply % 2 == 0 { &x } else { &o };
        let body = json!({"token": token, "ply": ply, "cell": cell(ply)});
        let (status, reply) = call(addr, "POST", &format!("/api/rooms/{room}/move"), &body).await;
        assert_eq!(status, 200, "move {ply}: {reply}");
    }
    let played = start.elapsed();
    let (largest, left) = watching.await.unwrap();
    let closed = start.elapsed();
    eprintln!(
        "{MOVES} moves in {played:?}; the {SOCKETS} silent sockets all closed {:?} after the \
         start ({:?} after the last move), the largest send queue one held: {largest} bytes",
        closed,
        closed.saturating_sub(played),
    );
    assert_eq!(left, 0, "silent sockets still open after 120 s");
    assert!(
        closed <= played + WRITE_TIMEOUT + Duration::from_secs(3),
        "the silent sockets were closed {:?} after the last move, past the write timeout",
        closed - played
    );
    assert!(
        tokio::time::timeout(Duration::from_secs(10), reading)
            .await
            .expect("the reading socket saw the last move")
            .unwrap(),
        "the reading socket stays open and sees the last move"
    );
    let after = resident();
    eprintln!(
        "resident memory: {:.1} MB before the sockets, {:.1} MB after",
        before as f64 / 1e6,
        after as f64 / 1e6
    );
    assert!(
        after < before + 10_000_000,
        "memory back within 10 MB: {before} then {after}"
    );
    drop(silent);
}
