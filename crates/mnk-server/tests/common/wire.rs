//! Over real sockets: a server on a free loopback port, raw HTTP/1.1 requests written byte by
//! byte as clients (slow, malformed or normal) would, and clients on other loopback addresses.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use mnk_server::ServerConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

/// A server running in this process; dropping the handle does not stop it, [`Server::stop`] does.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Starts the app under `config` on a free port of 127.0.0.1.
    pub async fn start(config: ServerConfig) -> Server {
        let listener = mnk_server::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            mnk_server::run(listener, &config, async {
                let _ = stopped.await;
            })
            .await
        });
        Server {
            addr,
            stop: Some(stop),
            done,
        }
    }

    /// Shuts the server down as a signal would, and waits until it has drained.
    pub async fn stop(mut self) -> Duration {
        let start = Instant::now();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.done.await.unwrap().unwrap();
        start.elapsed()
    }
}

/// A connection from the loopback address `from` (127.0.0.x: a different client to the server).
pub async fn connect_from(from: IpAddr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(to).await.unwrap()
}

/// A connection from 127.0.0.1.
pub async fn connect(to: SocketAddr) -> TcpStream {
    TcpStream::connect(to).await.unwrap()
}

/// A whole request as bytes (`Connection: close` so the server ends the exchange).
pub fn request(method: &str, path: &str, body: Option<&str>) -> String {
    let body = body.unwrap_or("");
    format!(
        "{method} {path} HTTP/1.1\r\nHost: mnk\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A response read to the end of the connection.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// The head, lower-cased.
    pub head: String,
    pub body: String,
}

impl Response {
    /// The JSON error code of the body, if it has one.
    pub fn code(&self) -> Option<String> {
        let json: serde_json::Value = serde_json::from_str(&self.body).ok()?;
        json["error"]["code"].as_str().map(str::to_string)
    }

    /// A header's value, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            (n.trim() == name).then(|| v.trim())
        })
    }
}

/// Writes `raw` and reads the response to the end of the connection.
pub async fn exchange(stream: &mut TcpStream, raw: &[u8]) -> Response {
    stream.write_all(raw).await.unwrap();
    read_response(stream).await
}

/// Reads everything until the server closes, as a response.
pub async fn read_response(stream: &mut TcpStream) -> Response {
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw)).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Response {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

/// One request on a fresh connection from 127.0.0.1.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Response {
    let mut stream = connect(addr).await;
    exchange(&mut stream, request(method, path, body).as_bytes()).await
}

/// Waits until the server closes `stream` (reads return end of file or an error), at most
/// `limit`; returns how long it took, or `None` if it stayed open.
pub async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        let left = limit.checked_sub(start.elapsed())?;
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}
