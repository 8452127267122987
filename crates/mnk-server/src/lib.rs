//! # mnk-server — the web app
//!
//! `mnk serve` answers a stateless JSON API under `/api/` (documented in `docs/api.md`) and
//! serves the browser UI of `web/`, embedded in the binary at build time. Every request carries
//! the rules and the whole move list; mnk-core decides legality and outcomes, mnk-engine thinks.
//!
//! The front-end stays thin: mnk-api checks each stateless request and computes its answer (the
//! page's worker runs the same code), [`pool`] runs engine work off
//! the async threads with a bounded number of slots, a bounded queueing time and a stop flag per
//! search, and [`error`] maps every refusal to its HTTP status and stable code in one place.
//! [`rooms`] is the one stateful part: games between two devices, stored in a database.
//!
//! ```no_run
//! let config = mnk_server::ServerConfig::default();
//! mnk_server::serve(config).expect("the server runs until Ctrl-C");
//! ```

pub mod analysis;
pub mod api;
pub mod assets;
pub mod body;
pub mod books;
pub mod clients;
pub mod connection;
pub mod error;
pub mod head;
pub mod log;
pub mod long_link;
pub mod play;
pub mod pool;
pub mod refusals;
pub mod rooms;
pub mod stalls;
pub mod wire;

use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

pub use api::router;
pub use clients::ClientQuota;
pub use connection::ConnectionLimits;
pub use error::ApiError;
pub use rooms::RoomConfig;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen (default `127.0.0.1:8080`; port 0 picks a free port).
    pub addr: SocketAddr,
    /// How many searches may run at once (default: the number of cores): the engine slots.
    pub threads: usize,
    /// Threads each search of the engine takes (Lazy SMP; default 1). A slot then keeps that
    /// many cores busy, so `threads × search_threads` should not exceed the cores. Only the
    /// engine's own searches use them: the computer's move where it is the engine (level 6 on
    /// large boards, the `engine` bot) and the analysis board.
    pub search_threads: usize,
    /// How long a request may wait for a free engine slot before it is refused with `busy`.
    pub queue_wait: Duration,
    /// The longest a client may ask the computer to think (`time_ms` is capped to this).
    pub max_think: Duration,
    /// How long the computer thinks when a request does not say.
    pub default_think: Duration,
    /// Timeouts and the cap on connections.
    pub connections: ConnectionLimits,
    /// What each client (address) may ask of the engine.
    pub clients: ClientQuota,
    /// Where rooms are stored: `sqlite://FILE`, `memory` (the default here; `mnk serve` uses
    /// `sqlite://mnk.db`) or `postgres://…` (see [`rooms::store::Store::open`]).
    pub database: String,
    /// Limits and timings of the rooms.
    pub rooms: RoomConfig,
    /// The solved opening books exact values are answered from (default: the shipped ones).
    pub books: books::Books,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 8080)),
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            search_threads: 1,
            queue_wait: Duration::from_secs(2),
            max_think: Duration::from_secs(10),
            default_think: Duration::from_secs(1),
            connections: ConnectionLimits::default(),
            clients: ClientQuota::default(),
            database: "memory".to_string(),
            rooms: RoomConfig::default(),
            books: books::shipped(),
        }
    }
}

/// Runs the server on its own tokio runtime until Ctrl-C or SIGTERM: prints the URL it listens
/// on, then blocks. Fails with a clear message when the address cannot be bound (for example
/// when the port is taken).
pub fn serve(config: ServerConfig) -> std::io::Result<()> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(config.threads.max(1) + 4)
        .thread_name("mnk-server")
        .build()?;
    runtime.block_on(async {
        let listener = bind(config.addr).await?;
        let addr = listener.local_addr()?;
        log::log_panics_in_one_line();
        let descriptors = connection::raise_descriptor_limit();
        let app = App::open(&config).await?;
        println!("mnk is being served at http://{addr}/ (Ctrl-C stops it)");
        tracing::info!(%addr, threads = config.threads, ?descriptors, database = %shown_url(&config.database), "listening");
        tracing::info!(books = %config.books.summary(), "solved books");
        app.serve(listener, &config, shutdown_signal()).await?;
        tracing::info!("stopped");
        Ok::<(), std::io::Error>(())
    })?;
    // Searches were told to stop while draining; do not wait long for a straggler.
    runtime.shutdown_timeout(Duration::from_millis(200));
    Ok(())
}

/// Serves the app on `listener` until `shutdown` resolves, then drains within the configured
/// time (see [`connection`]). Tests call it on a port of their own.
pub async fn run(
    listener: tokio::net::TcpListener,
    config: &ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    App::open(config)
        .await?
        .serve(listener, config, shutdown)
        .await
}

/// The whole server before it listens: the router, the engine pool and the rooms' database.
#[derive(Debug)]
pub struct App {
    router: axum::Router,
    pool: std::sync::Arc<pool::EnginePool>,
    rooms: std::sync::Arc<rooms::Rooms>,
}

impl App {
    /// Builds the app and opens the rooms' database (creating it and migrating its schema).
    pub async fn open(config: &ServerConfig) -> std::io::Result<App> {
        let pool = api::engine_pool(config);
        let rooms = rooms::Rooms::open(&config.database, config.rooms.clone(), pool.clone())
            .await
            .map_err(|e| {
                std::io::Error::other(format!(
                    "cannot open the rooms' database {}: {e}",
                    shown_url(&config.database)
                ))
            })?;
        let router = api::assemble(config, pool.clone(), Some(rooms.clone()));
        Ok(App {
            router,
            pool,
            rooms,
        })
    }

    /// Serves on `listener` until `shutdown` resolves; rooms' sockets are closed then too.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        config: &ServerConfig,
        shutdown: impl Future<Output = ()>,
    ) -> std::io::Result<()> {
        let rooms = self.rooms;
        let shutdown = async move {
            shutdown.await;
            rooms.close();
        };
        connection::serve(
            listener,
            self.router,
            config.connections.clone(),
            self.pool,
            shutdown,
        )
        .await
    }
}

/// A database URL without its password, for logs and messages.
fn shown_url(url: &str) -> String {
    let (Some(scheme), Some(at)) = (url.find("://"), url.rfind('@')) else {
        return url.to_string();
    };
    match url[scheme + 3..at.max(scheme + 3)].split_once(':') {
        Some((user, _password)) => format!("{}{user}:…{}", &url[..scheme + 3], &url[at..]),
        None => url.to_string(),
    }
}

/// Binds a listener, turning the usual failures into messages that say what to do.
pub async fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                " (the port is taken: is another server running? choose another with --addr)"
            }
            std::io::ErrorKind::PermissionDenied => {
                " (permission denied: ports below 1024 need privileges; try a port such as 8080)"
            }
            std::io::ErrorKind::AddrNotAvailable => {
                " (this machine has no such address: try 127.0.0.1 or 0.0.0.0)"
            }
            _ => "",
        };
        std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}{hint}"))
    })
}

/// Logs to stderr, filtered by `RUST_LOG` (default: `info`; `RUST_LOG=info,tower_http=debug` also
/// logs every request). Does nothing if the program has already installed a subscriber.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM: in-flight requests then finish, new ones are refused.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing the requests in flight");
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_urls_are_shown_without_their_password() {
        let shown = super::shown_url;
        assert_eq!(
            shown("postgres://mnk:secret@db/mnk"),
            "postgres://mnk:…@db/mnk"
        );
        assert_eq!(shown("postgres://mnk@db/mnk"), "postgres://mnk@db/mnk");
        assert_eq!(shown("sqlite://mnk.db"), "sqlite://mnk.db");
        assert_eq!(shown("memory"), "memory");
    }
}
