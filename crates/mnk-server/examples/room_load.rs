//! A load benchmark for rooms (not a test): many rooms, two WebSocket clients each, making moves
//! for a while against a real `mnk serve`; reports moves per second, the relay latency (a move
//! sent by one client until the other receives the new state), the server's memory, and how the
//! ordinary API answers meanwhile.
//!
//! ```sh
//! cargo build --release -p mnk
//! cargo run --release -p mnk-server --example room_load -- target/release/mnk 1000 60 1000 [URL]
//! #                                                          server binary  rooms secs think_ms
//! ```
//!
//! The server runs on a fresh SQLite file in a temporary directory, or on the database `URL`
//! (`postgres://…`). Rooms are created from many loopback addresses (127.0.1.x); the sockets all
//! come from 127.0.0.1, so the server is started with per-address allowances of actions and reads
//! no single person needs. Only loopback is used.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

/// What every client adds to.
#[derive(Default)]
struct Tally {
    moves: AtomicU64,
    refused: AtomicU64,
    relays_us: Mutex<Vec<u64>>,
}

/// The move in flight of one room: its ply and when it was sent.
type InFlight = Arc<Mutex<Option<(u64, Instant)>>>;

/// The cell of ply `ply`: a pattern without three in a row on the unbounded board (see the crash
/// test in crates/mnk/tests/rooms_crash.rs), so games never end by themselves.
fn cell_at(ply: u64) -> String {
    let (player, nth) = (ply % 2, ply / 2);
    let (y, k) = (nth / 12, nth % 12);
    let x = 4 * (k / 2) + k % 2 + if (y % 2 == 0) == (player == 0) { 0 } else { 2 };
    format!("{x},{y}")
}

/// One HTTP/1.1 request from the loopback address `from`: the JSON answer.
async fn http(from: IpAddr, to: SocketAddr, method: &str, path: &str, body: &Value) -> Value {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut stream: TcpStream = socket.connect(to).await.unwrap();
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: mnk\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    let (_, body) = raw.split_once("\r\n\r\n").unwrap_or(("", ""));
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// One seat of one room, as its client knows it.
struct Seat {
    room: String,
    token: String,
    seat: usize,
    in_flight: InFlight,
}

/// What every client shares.
#[derive(Clone)]
struct Run {
    to: SocketAddr,
    think: Duration,
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
}

/// One seat's client: says hello, then moves whenever the state says it is its turn, after
/// thinking; measures the relay of the opponent's moves.
async fn client(run: Run, me: Seat) {
    let Run {
        to,
        think,
        tally,
        stop,
    } = run;
    let Seat {
        room,
        token,
        seat,
        in_flight,
    } = me;
    let url = format!("ws://{to}/api/rooms/{room}/socket");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = json!({"type": "hello", "token": token}).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    let mut moved_at = None;
    while let Some(Ok(message)) = ws.next().await {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Message::Text(text) = message else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if message["type"] == "error" {
            tally.refused.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let state = &message["state"];
        if message["type"] != "state" || state["status"] != "playing" {
            continue;
        }
        let ply = state["ply"].as_u64().unwrap_or(0);
        if let Some((sent_ply, sent)) = *in_flight.lock().unwrap() {
            if sent_ply + 1 == ply && moved_at != Some(sent_ply) {
                tally
                    .relays_us
                    .lock()
                    .unwrap()
                    .push(sent.elapsed().as_micros() as u64);
            }
        }
        let mine = state["seats"][seat]["colour"] == state["to_move"];
        if !mine || moved_at == Some(ply) {
            continue;
        }
        tokio::time::sleep(think).await;
        moved_at = Some(ply);
        *in_flight.lock().unwrap() = Some((ply, Instant::now()));
        let play = json!({"type": "move", "ply": ply, "cell": cell_at(ply)}).to_string();
        if ws.send(Message::Text(play.into())).await.is_err() {
            break;
        }
        tally.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// Creates room `r` and takes both its seats: the two clients, playing.
async fn set_up(r: usize, to: SocketAddr, run: Run) -> [tokio::task::JoinHandle<()>; 2] {
    // Ten rooms per address (the creation limit's burst).
    let from = IpAddr::V4(Ipv4Addr::new(
        127,
        0,
        1 + (r / 2500) as u8,
        1 + ((r / 10) % 250) as u8,
    ));
    let created = http(
        from,
        to,
        "POST",
        "/api/rooms",
        &json!({"rules": "infx5", "colour": "X"}),
    )
    .await;
    let room = created["room"]
        .as_str()
        .unwrap_or_else(|| panic!("room {r}: {created}"))
        .to_string();
    let path = format!("/api/rooms/{room}/join");
    let joined = http(from, to, "POST", &path, &json!({})).await;
    let in_flight: InFlight = Arc::default();
    [(0, &created["token"]), (1, &joined["token"])].map(|(seat, token)| {
        let me = Seat {
            room: room.clone(),
            token: token.as_str().unwrap().to_string(),
            seat,
            in_flight: in_flight.clone(),
        };
        tokio::spawn(client(run.clone(), me))
    })
}

/// The resident memory of process `pid`, in MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "target/release/mnk".into());
    let rooms: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60);
    let think = Duration::from_millis(args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1000));
    let _ = rlimit::increase_nofile_limit(u64::MAX);

    let dir = std::env::temp_dir().join(format!("mnk-room-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = args
        .get(5)
        .cloned()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("load.db").display()));
    let mut server = Command::new(&bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", &database])
        .args(["--room-actions-per-minute", "1000000"])
        .args(["--room-reads-per-minute", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let pid = server.id();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let to: SocketAddr = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let idle_rss = rss_mib(pid);

    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let setup = Instant::now();
    let run = Run {
        to,
        think,
        tally: tally.clone(),
        stop: stop.clone(),
    };
    // Rooms are set up 32 at a time (one after another, 1,000 rooms on PostgreSQL took minutes
    // on a loaded machine); each room's clients start playing as soon as it has both seats.
    let clients: Vec<_> = futures_util::stream::iter(0..rooms)
        .map(|r| set_up(r, to, run.clone()))
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .flatten()
        .collect();
    println!(
        "{rooms} rooms, {} clients connected in {:.1} s",
        clients.len(),
        setup.elapsed().as_secs_f64()
    );

    // Meanwhile, the ordinary API: a state request every 100 ms.
    let probe = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut times = Vec::new();
            let body = json!({"rules": "gomoku15", "moves": ["h8", "i9", "j10"]});
            while !stop.load(Ordering::Relaxed) {
                let start = Instant::now();
                let answer = http(
                    IpAddr::V4(Ipv4Addr::LOCALHOST),
                    to,
                    "POST",
                    "/api/state",
                    &body,
                )
                .await;
                assert_eq!(answer["ply"], 3, "{answer}");
                times.push(start.elapsed().as_micros() as u64);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            times
        })
    };
    let start = Instant::now();
    let moves_before = tally.moves.load(Ordering::Relaxed);
    let mut peak_rss: f64 = 0.0;
    while start.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        peak_rss = peak_rss.max(rss_mib(pid));
    }
    let moves = tally.moves.load(Ordering::Relaxed) - moves_before;
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut probes = probe.await.unwrap();
    probes.sort_unstable();
    let mut relays = tally.relays_us.lock().unwrap().clone();
    relays.sort_unstable();
    println!(
        "moves: {moves} in {elapsed:.1} s = {:.0} moves/s (think {} ms)",
        moves as f64 / elapsed,
        think.as_millis()
    );
    println!(
        "relay (move sent → opponent has the state): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} moves",
        percentile(&relays, 0.5),
        percentile(&relays, 0.99),
        percentile(&relays, 1.0),
        relays.len()
    );
    println!("refusals: {}", tally.refused.load(Ordering::Relaxed));
    println!("server memory: {idle_rss:.0} MiB idle, {peak_rss:.0} MiB peak");
    println!(
        "POST /api/state meanwhile: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} requests",
        percentile(&probes, 0.5),
        percentile(&probes, 0.99),
        percentile(&probes, 1.0),
        probes.len()
    );
    for c in clients {
        c.abort();
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
