//! The rooms' database failing: PostgreSQL unreachable at start-up (the start fails within the
//! timeout), a PostgreSQL outage during play (readiness says so, requests are refused within the
//! timeout, the first move after it is acknowledged at once and none acknowledged is lost), and
//! a damaged SQLite file (refused at start-up, naming the file).
//!
//! The outage needs a PostgreSQL cluster of its own, which it stops and starts: it starts one with
//! `scripts/pg-cluster.sh` (never the test script's shared one). Without PostgreSQL it fails,
//! unless `MNK_SKIP_POSTGRES=1` says to skip it.

use crate::common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::wire::{http, Server};
use mnk_server::{RoomConfig, ServerConfig};
use serde_json::{json, Value};

/// The database timeout of these tests: the default.
const TIMEOUT: Duration = mnk_server::rooms::store::DATABASE_TIMEOUT;

fn config(database: String) -> ServerConfig {
    ServerConfig {
        database,
        rooms: RoomConfig {
            per_address: common::unlimited_rates(),
            database_timeout: TIMEOUT,
            ..RoomConfig::default()
        },
        ..common::config()
    }
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let text = body.map(Value::to_string);
    let response = http(addr, method, path, text.as_deref()).await;
    let json = serde_json::from_str(&response.body).unwrap_or(Value::Null);
    (response.status, json)
}

/// A room on the board without borders, X and O seated: the room and both tokens.
async fn room_with_two_players(addr: SocketAddr) -> (String, [String; 2]) {
    let rules = json!({"rules": {"unbounded": true, "k": 5}, "colour": "X"});
    let (status, created) = call(addr, "POST", "/api/rooms", Some(&rules)).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_string();
    let path = format!("/api/rooms/{room}/join");
    let (_, joined) = call(addr, "POST", &path, Some(&json!({}))).await;
    let tokens = [&created, &joined].map(|r| r["token"].as_str().unwrap().to_string());
    (room, tokens)
}

/// The cell of move `ply`: stones two apart, so the game never ends.
fn cell(ply: usize) -> String {
    let (j, odd) = (ply / 2, ply % 2);
    format!("{},{}", 2 * (j % 25) + odd, 2 * (j / 25) + odd)
}

/// Move `ply` in `room`, timed.
async fn play(
    addr: SocketAddr,
    room: &str,
    tokens: &[String; 2],
    ply: usize,
) -> (u16, Value, Duration) {
    let body = json!({"token": tokens[ply % 2], "ply": ply, "cell": cell(ply)});
    let start = Instant::now();
    let (status, reply) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/move"),
        Some(&body),
    )
    .await;
    (status, reply, start.elapsed())
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_fails_the_start_within_the_timeout() {
    let url = format!("postgres://mnk@127.0.0.1:{}/mnk", closed_port());
    let start = Instant::now();
    let error = mnk_server::App::open(&config(url.clone()))
        .await
        .expect_err("no database, no server");
    let waited = start.elapsed();
    let message = error.to_string();
    eprintln!("gave up after {waited:?}: {message}");
    assert!(waited < TIMEOUT + Duration::from_secs(1), "{waited:?}");
    assert!(message.contains(&url), "{message}");
    assert!(message.contains("running and reachable"), "{message}");
}

/// The cluster this test starts, stops, resumes, and stops for good when dropped.
struct Cluster {
    script: PathBuf,
    dir: tempfile::TempDir,
    url: String,
}

impl Cluster {
    /// A fresh cluster, or `None` when told to skip.
    fn start() -> Option<Cluster> {
        if std::env::var("MNK_SKIP_POSTGRES").is_ok_and(|v| v == "1") {
            eprintln!("MNK_SKIP_POSTGRES=1: the PostgreSQL outage test is skipped");
            return None;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-cluster.sh");
        let dir = tempfile::tempdir().unwrap();
        // As root the cluster runs as `postgres`, which must reach the directory.
        let _ = Command::new("chmod").arg("755").arg(dir.path()).status();
        let out = Command::new(&script)
            .arg("start")
            .arg(dir.path().join("pg"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "no PostgreSQL for the outage test: {} (install postgresql, or \
             MNK_SKIP_POSTGRES=1 to skip)",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8(out.stdout).unwrap().trim().to_string();
        Some(Cluster { script, dir, url })
    }

    fn run(&self, command: &str) {
        let status = Command::new(&self.script)
            .arg(command)
            .arg(self.dir.path().join("pg"))
            .status()
            .unwrap();
        assert!(status.success(), "pg-cluster.sh {command}");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(&self.script)
            .arg("stop")
            .arg(self.dir.path().join("pg"))
            .status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_outage_is_reported_refused_in_time_and_survived() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let server = Server::start(config(cluster.url.clone())).await;
    let addr = server.addr;
    let (room, tokens) = room_with_two_players(addr).await;
    let mut ply = 0;
    while ply < 10 {
        let (status, reply, _) = play(addr, &room, &tokens, ply).await;
        assert_eq!(status, 200, "{reply}");
        ply += 1;
    }
    assert_eq!(call(addr, "GET", "/api/ready", None).await.0, 200);

    cluster.run("stop");
    let down = Instant::now();
    // Readiness reports the database down; liveness does not.
    loop {
        let (status, reply) = call(addr, "GET", "/api/ready", None).await;
        if status == 503 {
            assert_eq!(reply["error"]["code"], "unavailable", "{reply}");
            break;
        }
        assert!(
            down.elapsed() < Duration::from_secs(5),
            "still ready: {reply}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let noticed = down.elapsed();
    assert_eq!(call(addr, "GET", "/api/health", None).await.0, 200);

    // Every request in the outage is refused within the timeout (and a bit for the exchange).
    // The outage lasts 10 s, or MNK_TEST_OUTAGE_SECS (the figure is for 30 s).
    let outage = std::env::var("MNK_TEST_OUTAGE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(Duration::from_secs(10), Duration::from_secs);
    let mut slowest = Duration::ZERO;
    while down.elapsed() < outage {
        let (status, reply, took) = play(addr, &room, &tokens, ply).await;
        assert_eq!(status, 503, "{reply}");
        assert_eq!(reply["error"]["code"], "unavailable", "{reply}");
        slowest = slowest.max(took);
        let start = Instant::now();
        let (status, _) = call(addr, "GET", &format!("/api/rooms/{room}"), None).await;
        assert_eq!(status, 503);
        slowest = slowest.max(start.elapsed());
    }
    assert!(
        slowest <= TIMEOUT + Duration::from_millis(500),
        "{slowest:?}"
    );

    cluster.run("resume");
    let up = Instant::now();
    let first = loop {
        let (status, reply, _) = play(addr, &room, &tokens, ply).await;
        if status == 200 {
            break up.elapsed();
        }
        assert!(
            up.elapsed() < Duration::from_secs(5),
            "no move taken: {reply}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    ply += 1;
    eprintln!(
        "readiness said down {noticed:?} into the outage; the slowest refusal took {slowest:?}; \
         the first move after it was acknowledged {first:?} after the database was back"
    );
    assert!(first <= Duration::from_secs(1), "{first:?}");

    let (status, state) = call(addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200, "{state}");
    let moves: Vec<String> = (0..ply).map(cell).collect();
    assert_eq!(
        state["moves"],
        json!(moves),
        "every acknowledged move is there"
    );
    let ready = Instant::now();
    while call(addr, "GET", "/api/ready", None).await.0 != 200 {
        assert!(ready.elapsed() < Duration::from_secs(3), "not ready again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop().await;
}

/// Writes a database with rooms in it through a server, then leaves it as one file (the log
/// folded in), as a server stopped cleanly leaves it.
async fn database_with_rooms(file: &Path) {
    let server = Server::start(config(format!("sqlite://{}", file.display()))).await;
    for _ in 0..30 {
        let (room, tokens) = room_with_two_players(server.addr).await;
        for ply in 0..20 {
            let (status, reply, _) = play(server.addr, &room, &tokens, ply).await;
            assert_eq!(status, 200, "{reply}");
        }
    }
    server.stop().await;
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(file);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_sqlite_file_is_refused_at_start_with_its_name_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rooms.db");
    database_with_rooms(&file).await;

    // Five pages near the end overwritten with garbage, as a failing disk might leave them.
    let mut bytes = std::fs::read(&file).unwrap();
    let page = 4096;
    let pages = bytes.len() / page;
    assert!(pages >= 10, "{pages} pages");
    let mut noise = 0x2545_f491_u32;
    for byte in &mut bytes[(pages - 6) * page..(pages - 1) * page] {
        noise ^= noise << 13;
        noise ^= noise >> 17;
        noise ^= noise << 5;
        *byte = noise as u8;
    }
    std::fs::write(&file, &bytes).unwrap();

    let error = mnk_server::App::open(&config(format!("sqlite://{}", file.display())))
        .await
        .expect_err("a damaged file is not served");
    let message = error.to_string();
    eprintln!("{message}");
    assert!(message.contains(&file.display().to_string()), "{message}");
    assert!(message.contains("damaged"), "{message}");
    assert!(message.contains("backup"), "{message}");
}
