//! `GET /api/analyse` over real sockets: events at least every second while the engine thinks,
//! multi-PV lines that are legal, the engine slot freed at once when the client goes away, and
//! the usual JSON errors before any stream starts.

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::wire::{connect, connect_from, exchange, request, Server};
use common::{assert_error, get};
use mnk_core::{Cell, Position, Rules};
use mnk_server::pool::EnginePool;
use mnk_server::ServerConfig;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// A 15×15 game a few moves in: X to move, nothing decided.
const FEW_MOVES: &str = "rules=15x15x5&moves=h8.i9.h10.h9.j9.i8";

/// One server-sent event, and when it arrived.
#[derive(Debug)]
struct Event {
    name: String,
    data: Value,
    at: Instant,
}

/// The client side of an event stream over HTTP/1.1 (chunked), read by hand.
struct EventReader {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Event text decoded from chunks, not yet split into events.
    text: String,
    /// The chunked body's last chunk has come.
    finished: bool,
}

impl EventReader {
    /// Sends `GET /api/analyse?{query}` on `stream` as a browser would (accepting gzip, which
    /// the server must not apply to events) and reads the head of the stream.
    async fn open(mut stream: TcpStream, query: &str) -> EventReader {
        let head = format!(
            "GET /api/analyse?{query} HTTP/1.1\r\nHost: mnk\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let mut reader = EventReader {
            stream,
            buf: Vec::new(),
            text: String::new(),
            finished: false,
        };
        let head = loop {
            if let Some(end) = find(&reader.buf, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&reader.buf[..end]).to_ascii_lowercase();
                reader.buf.drain(..end + 4);
                break head;
            }
            assert!(reader.fill().await, "the server closed before its head");
        };
        assert!(head.starts_with("http/1.1 200 "), "{head}");
        assert!(head.contains("content-type: text/event-stream"), "{head}");
        assert!(head.contains("transfer-encoding: chunked"), "{head}");
        assert!(
            !head.contains("content-encoding"),
            "events are not compressed: {head}"
        );
        reader
    }

    /// Reads more bytes; false at the end of the connection.
    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk).await {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    /// The next event, or `None` when the stream ended (or `limit` passed).
    async fn next(&mut self, limit: Duration) -> Option<Event> {
        tokio::time::timeout(limit, self.next_event())
            .await
            .ok()
            .flatten()
    }

    async fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        name = v.to_string();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data.push_str(v);
                    }
                }
                let data = serde_json::from_str(&data).unwrap_or_else(|e| panic!("{data}: {e}"));
                return Some(Event {
                    name,
                    data,
                    at: Instant::now(),
                });
            }
            if self.finished {
                return None;
            }
            // Decode one chunk: its size in hex, CRLF, the data, CRLF.
            if let Some(line_end) = find(&self.buf, b"\r\n") {
                let size_text = String::from_utf8_lossy(&self.buf[..line_end]).to_string();
                let size = usize::from_str_radix(size_text.trim(), 16)
                    .unwrap_or_else(|_| panic!("bad chunk size {size_text:?}"));
                if self.buf.len() >= line_end + 2 + size + 2 {
                    let data = &self.buf[line_end + 2..line_end + 2 + size];
                    self.text.push_str(std::str::from_utf8(data).unwrap());
                    self.buf.drain(..line_end + 2 + size + 2);
                    if size == 0 {
                        self.finished = true;
                    }
                    continue;
                }
            }
            if !self.fill().await {
                return None;
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The server on a free port with its engine pool in reach, to see its slots.
struct PoolServer {
    addr: SocketAddr,
    pool: Arc<EnginePool>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl PoolServer {
    async fn start(config: ServerConfig) -> PoolServer {
        let listener = mnk_server::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let (app, pool) = mnk_server::api::app(&config);
        let (stop, stopped) = oneshot::channel::<()>();
        let served = pool.clone();
        let done = tokio::spawn(async move {
            mnk_server::connection::serve(listener, app, config.connections, served, async {
                let _ = stopped.await;
            })
            .await
        });
        PoolServer {
            addr,
            pool,
            stop: Some(stop),
            done,
        }
    }

    /// Shuts down as a signal would; returns how long it took.
    async fn stop(mut self) -> Duration {
        let start = Instant::now();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.done.await.unwrap().unwrap();
        start.elapsed()
    }
}

/// The position a `FEW_MOVES`-style query describes.
fn position(rules: &str, moves: &str) -> Position {
    let rules: Rules = rules.parse().unwrap();
    let cells: Vec<Cell> = moves.split('.').map(|m| m.parse().unwrap()).collect();
    Position::from_moves(rules, &cells).unwrap()
}

/// Checks an `info` or `done` event's lines: `multipv` of them, distinct moves, each line
/// starting with its move and legal from `pos`.
#[track_caller]
fn check_lines(data: &Value, pos: &Position, multipv: usize) {
    let lines = data["lines"].as_array().unwrap();
    assert_eq!(lines.len(), multipv, "{data}");
    let mut moves = Vec::new();
    for line in lines {
        let cell = line["move"]["cell"].as_str().unwrap();
        assert!(!moves.contains(&cell), "{cell} twice: {data}");
        moves.push(cell);
        assert!(line["value"]["kind"].is_string(), "{line}");
        let pv: Vec<&str> = line["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(pv[0], cell, "{line}");
        let mut after = pos.clone();
        for c in &pv {
            after
                .try_play(c.parse().unwrap())
                .unwrap_or_else(|e| panic!("{c} in {pv:?}: {e}"));
        }
    }
    assert_eq!(data["to_move"], Value::from(pos.to_move().to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_streams_legal_lines_every_second_then_done() {
    let server = Server::start(common::config()).await;
    let query = format!("{FEW_MOVES}&multipv=3&max_ms=3500");
    let mut events = EventReader::open(connect(server.addr).await, &query).await;
    let start = Instant::now();
    let pos = position("15x15x5", "h8.i9.h10.h9.j9.i8");
    let mut seen = Vec::new();
    while let Some(event) = events.next(Duration::from_secs(10)).await {
        seen.push(event);
    }
    let done = seen.last().expect("events came");
    assert_eq!(done.name, "done", "the stream ends with done: {seen:?}");
    assert_eq!(done.data["reason"], "time", "{}", done.data);
    check_lines(&done.data, &pos, 3);

    // At least one event in every second the search ran.
    let mut per_second = [0usize; 3];
    for e in &seen {
        let second = e.at.duration_since(start).as_secs() as usize;
        if second < per_second.len() {
            per_second[second] += 1;
        }
    }
    println!(
        "events per second: {per_second:?} ({} in all, {} info)",
        seen.len(),
        seen.iter().filter(|e| e.name == "info").count()
    );
    assert!(per_second.iter().all(|&n| n >= 1), "{per_second:?}");

    let infos: Vec<&Event> = seen.iter().filter(|e| e.name == "info").collect();
    assert!(infos.len() >= 3, "{seen:?}");
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.data["depth"], i as u64 + 1, "{}", info.data);
        check_lines(&info.data, &pos, 3);
    }
    for e in seen.iter().filter(|e| e.name == "progress") {
        assert!(e.data["nodes"].as_u64().is_some() && e.data["time_ms"].as_u64().is_some());
    }
    println!("last info: {}", infos.last().unwrap().data);
    println!("done: {}", done.data);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_connection_frees_the_engine_slot_at_once() {
    let server = PoolServer::start(common::config()).await;
    assert_eq!(server.pool.free_slots(), 2);
    let mut worst = Duration::ZERO;
    for round in 0..3 {
        let mut events = EventReader::open(connect(server.addr).await, FEW_MOVES).await;
        let first = events.next(Duration::from_secs(5)).await.unwrap();
        assert!(
            ["info", "progress"].contains(&first.name.as_str()),
            "{first:?}"
        );
        // Close in the middle of an iteration, at various depths.
        tokio::time::sleep(Duration::from_millis(400 * round)).await;
        assert_eq!(server.pool.free_slots(), 1, "the analysis holds a slot");
        let closed = Instant::now();
        drop(events);
        while server.pool.free_slots() < 2 && closed.elapsed() < Duration::from_secs(2) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let took = closed.elapsed();
        println!("slot free {took:?} after the client closed");
        assert!(
            took < Duration::from_millis(200),
            "the slot took {took:?} to free"
        );
        worst = worst.max(took);
    }
    println!("worst: {worst:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_holds_its_slot_until_its_client_leaves() {
    // One slot and a short queue: while the analysis runs, another client is refused `busy`
    // (as JSON, before any stream); once it is closed, the next request gets the slot at once.
    let config = ServerConfig {
        threads: 1,
        queue_wait: Duration::from_millis(200),
        ..common::config()
    };
    let server = Server::start(config).await;
    let other: IpAddr = [127, 0, 0, 2].into();
    let mut events = EventReader::open(connect(server.addr).await, FEW_MOVES).await;
    events.next(Duration::from_secs(5)).await.unwrap();

    let mut stream = connect_from(other, server.addr).await;
    let path = format!("/api/analyse?{FEW_MOVES}");
    let refused = exchange(&mut stream, request("GET", &path, None).as_bytes()).await;
    assert_eq!(refused.status, 503, "{refused:?}");
    assert_eq!(refused.code().as_deref(), Some("busy"));

    drop(events);
    let hint = r#"{"rules":"gomoku15","moves":["h8","i9"],"time_ms":50}"#;
    let mut stream = connect_from(other, server.addr).await;
    let answer = exchange(
        &mut stream,
        request("POST", "/api/hint", Some(hint)).as_bytes(),
    )
    .await;
    assert_eq!(answer.status, 200, "the slot was free again: {answer:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_while_waiting_for_a_slot_never_takes_it() {
    let config = ServerConfig {
        threads: 1,
        queue_wait: Duration::from_secs(2),
        ..common::config()
    };
    let server = PoolServer::start(config).await;
    let mut first = EventReader::open(connect(server.addr).await, FEW_MOVES).await;
    first.next(Duration::from_secs(5)).await.unwrap();
    // A second client asks, waits in the queue, and goes away before the slot frees.
    let other: IpAddr = [127, 0, 0, 2].into();
    let mut waiting = connect_from(other, server.addr).await;
    let head = format!("GET /api/analyse?{FEW_MOVES} HTTP/1.1\r\nHost: mnk\r\n\r\n");
    waiting.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(waiting);
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(first);
    // The slot comes back and stays free: the abandoned request did not start a search.
    let closed = Instant::now();
    while server.pool.free_slots() < 1 && closed.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(server.pool.free_slots(), 1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        server.pool.free_slots(),
        1,
        "the abandoned request took the slot"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proven_win_ends_the_analysis_at_once() {
    let server = Server::start(common::config()).await;
    // X to move with four in a row, open at both ends.
    let moves = "h8.a1.i8.a3.j8.a5.k8.a7";
    let query = format!("rules=gomoku15&moves={moves}&multipv=2");
    let start = Instant::now();
    let mut events = EventReader::open(connect(server.addr).await, &query).await;
    let mut last = None;
    while let Some(event) = events.next(Duration::from_secs(5)).await {
        last = Some(event);
    }
    let done = last.unwrap();
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(done.name, "done");
    assert_eq!(done.data["reason"], "proven");
    let best = &done.data["lines"][0];
    assert_eq!(best["value"]["kind"], "win", "{}", done.data);
    assert_eq!(best["value"]["plies"], 1);
    assert!(["g8", "l8"].contains(&best["move"]["cell"].as_str().unwrap()));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_ends_an_analysis_with_done() {
    let server = Server::start(common::config()).await;
    let mut events = EventReader::open(connect(server.addr).await, FEW_MOVES).await;
    events.next(Duration::from_secs(5)).await.unwrap();
    let stopping = tokio::spawn(server.stop());
    let mut last = None;
    while let Some(event) = events.next(Duration::from_secs(5)).await {
        last = Some(event);
    }
    let done = last.unwrap();
    assert_eq!(
        (done.name.as_str(), &done.data["reason"]),
        ("done", &Value::from("stopped"))
    );
    let took = stopping.await.unwrap();
    assert!(took < Duration::from_secs(2), "shutdown took {took:?}");
}

#[tokio::test]
async fn bad_queries_get_the_json_errors_before_any_stream() {
    let app = common::app();
    let cases = [
        ("", 400, "bad_query"),
        ("moves=h8", 400, "bad_query"),
        ("rules=15x15x5&multipv=6", 400, "bad_query"),
        ("rules=15x15x5&max_ms=soon", 400, "bad_query"),
        ("rules=15x15x5&colour=red", 400, "bad_query"),
        ("rules=15x15x0", 422, "bad_rules"),
        ("rules=15x15x5&moves=h8.zz", 400, "bad_cell"),
        ("rules=15x15x5&moves=h8.h8", 422, "illegal_move"),
        ("rules=3x3x3&moves=a1.a2.b1.b2.c1.c2", 409, "game_over"),
        ("rules=3x3x3&moves=a1.a2.b1.b2.c1", 409, "game_over"),
        (
            "rules=3x3x3&moves=a1.a2.a3.b1.b2.b3.c1.c2.c3.a1",
            422,
            "too_large",
        ),
        ("rules=5x5x2", 422, "unsupported"),
    ];
    for (query, status, code) in cases {
        let reply = get(&app, &format!("/api/analyse?{query}")).await;
        assert_error(&reply, status, code);
        if ["bad_cell", "illegal_move"].contains(&code) {
            assert_eq!(reply.json["error"]["index"], 1, "{query}");
        }
    }
    let reply = common::post(&app, "/api/analyse", serde_json::json!({})).await;
    assert_error(&reply, 405, "method_not_allowed");
}
