//! `mnk`: play, study and serve k-in-a-row games.

mod analysis;
mod calibrate;
mod play;
mod review;
mod train_net;
mod tune;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use mnk_server::rooms::limits::{AddressRates, Rate};

/// k-in-a-row games: tic-tac-toe, m,n,k-games and gomoku, on any board.
///
/// Without a subcommand, `mnk` serves the web game (as `mnk serve`).
#[derive(Parser, Debug)]
#[command(name = "mnk", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the web game (the default): http://127.0.0.1:8080 unless --addr says otherwise.
    Serve(ServeArgs),
    /// Play in the terminal against a bot or a second person.
    Play(play::PlayArgs),
    /// Walk the whole game tree of a small board and count games and positions.
    Count(analysis::CountArgs),
    /// Solve a small-board position exactly: its value, a best move, and optionally every move's value.
    Solve(analysis::SolveArgs),
    /// Speak the Gomocup engine protocol on stdin/stdout, for tournament managers and analysis GUIs.
    Gomocup,
    /// Search a fixed set of positions and report nodes, time and speed, ending with "Bench: N".
    Bench(BenchArgs),
    /// Play bots, levels or external Gomocup engines against each other and report the score and Elo.
    Match(Box<mnk_gomocup::MatchArgs>),
    /// Fit the engine's weight table to games recorded by `mnk match --record` (Texel tuning).
    Tune(tune::TuneArgs),
    /// Train the learnt evaluation (a small network) on games recorded by `mnk match --record`.
    TrainNet(train_net::TrainNetArgs),
    /// Fit the win-chance scale to games recorded by `mnk match --record` and show its calibration.
    Calibrate(calibrate::CalibrateArgs),
    /// Review recorded games as the page does: every move marked, each player's accuracy.
    Review(review::ReviewArgs),
}

/// Most searches `mnk serve --threads` runs at once.
const MAX_THREADS: u64 = 256;
/// Deepest `mnk bench --depth`: deeper takes hours and measures nothing new.
const MAX_BENCH_DEPTH: i64 = 30;

/// Arguments of `mnk serve`.
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// How many searches may run at once, 1 to 256 (default: the number of cores divided by
    /// --search-threads).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS))]
    threads: Option<usize>,
    /// Threads each engine search takes, 1 to 64 (Lazy SMP; default 1): the computer's moves at
    /// level 6 on large boards and the analysis board.
    #[arg(long = "search-threads", value_name = "N", value_parser = search_threads)]
    search_threads: Option<usize>,
    /// Where rooms (games with a friend) are stored: sqlite://FILE (created if missing),
    /// memory (lost when the server stops), or postgres://USER@HOST/DB to share rooms between
    /// several servers.
    #[arg(long, value_name = "URL", default_value = DEFAULT_DATABASE)]
    database: String,
    /// How long the server waits on the rooms' database, in milliseconds, 100 to 60000: for a
    /// connection, a statement or a lock, and for the database at start-up. Past it a request
    /// is answered `unavailable` (503) rather than kept waiting.
    #[arg(long = "database-timeout-ms", value_name = "MS", default_value_t = DEFAULT_DATABASE_TIMEOUT_MS, value_parser = clap::value_parser!(u64).range(100..=60_000))]
    database_timeout_ms: u64,
    /// How long a client may read nothing of what it is sent, in seconds, 1 to 300, before its
    /// connection (an HTTP response or a room's WebSocket) is given up.
    #[arg(long = "write-timeout-secs", value_name = "SECONDS", default_value_t = DEFAULT_WRITE_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=300))]
    write_timeout_secs: u64,
    /// Close a room after this many minutes without a change or a connected client, 1 to 43200
    /// (30 days); its games stay stored.
    #[arg(long = "room-idle-minutes", value_name = "MINUTES", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=MAX_IDLE_MINUTES))]
    room_idle_minutes: u32,
    /// In a game without a clock, how long a player must have been away (not connected), in
    /// seconds, 1 to 3600, before the opponent may claim the win or hand the seat to the
    /// computer.
    #[arg(long = "room-claim-secs", value_name = "SECONDS", default_value_t = DEFAULT_CLAIM_SECS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    room_claim_secs: u64,
    /// Rooms one address may create in an hour, 1 to 1000000 (all of them at once after a
    /// pause, then evenly spread).
    #[arg(long = "room-creations-per-hour", value_name = "N", default_value_t = DEFAULT_RATES.creations.count, value_parser = room_rate())]
    room_creations_per_hour: u32,
    /// Rooms one address may join in a minute, 1 to 1000000.
    #[arg(long = "room-joins-per-minute", value_name = "N", default_value_t = DEFAULT_RATES.joins.count, value_parser = room_rate())]
    room_joins_per_minute: u32,
    /// Moves, resignations, offers, bot invitations and claims one address may send to rooms
    /// in a minute, 1 to 1000000.
    #[arg(long = "room-actions-per-minute", value_name = "N", default_value_t = DEFAULT_RATES.actions.count, value_parser = room_rate())]
    room_actions_per_minute: u32,
    /// Room reads one address may make in a minute (states, long polls, sockets opened), 1 to
    /// 1000000.
    #[arg(long = "room-reads-per-minute", value_name = "N", default_value_t = DEFAULT_RATES.reads.count, value_parser = room_rate())]
    room_reads_per_minute: u32,
    /// Answer exact values from this solved opening book (written by `mnk solve --book`), as
    /// well as from the books shipped in the binary; repeat for more rule sets, one book each.
    /// A book for rules a shipped book covers replaces it.
    #[arg(long = "book", value_name = "FILE")]
    books: Vec<std::path::PathBuf>,
}

/// `--database-timeout-ms` unless told.
const DEFAULT_DATABASE_TIMEOUT_MS: u64 =
    mnk_server::rooms::store::DATABASE_TIMEOUT.as_millis() as u64;
/// `--write-timeout-secs` unless told.
const DEFAULT_WRITE_TIMEOUT_SECS: u64 = mnk_server::stalls::WRITE_TIMEOUT.as_secs();

/// `--room-claim-secs` unless told.
const DEFAULT_CLAIM_SECS: u64 = mnk_server::rooms::CLAIM_AFTER.as_secs();

/// Longest `--room-idle-minutes`: 30 days.
const MAX_IDLE_MINUTES: i64 = 30 * 24 * 60;
/// Largest per-address room rate.
const MAX_ROOM_RATE: i64 = 1_000_000;
/// The rooms' per-address allowances unless told.
const DEFAULT_RATES: AddressRates = AddressRates::DEFAULT;

/// Reads a per-address room rate, 1 to [`MAX_ROOM_RATE`].
fn room_rate() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_ROOM_RATE)
}

/// Where `mnk serve` stores rooms unless told: a file in the directory it runs in.
const DEFAULT_DATABASE: &str = "sqlite://mnk.db";

/// Arguments of `mnk bench`.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Search every position to this depth, 1 to 30 (default: the bench's own depth).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_DEPTH))]
    depth: Option<u32>,
    /// Threads per search, 1 to 64 (Lazy SMP; default 1). Only the one-thread node count is the
    /// signature. With --turn-ms, sent to the engine as `INFO thread_num`.
    #[arg(long, value_name = "N", value_parser = search_threads)]
    threads: Option<usize>,
    /// Instead of the fixed-depth bench: how much of a turn of MS milliseconds (1 to 60,000) a
    /// Gomocup engine uses on the undecided 15x15 middle-game positions, measured like a
    /// tournament manager (a fresh process a position, timed from BOARD to the move), with the
    /// depth it reports.
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..=MAX_TURN_MS))]
    turn_ms: Option<u64>,
    /// The engine --turn-ms measures, as a command line (default: this program's `gomocup`).
    #[arg(long, value_name = "CMD", requires = "turn_ms")]
    engine: Option<String>,
}

/// Longest `mnk bench --turn-ms`: a minute.
const MAX_TURN_MS: u64 = 60_000;

/// `mnk bench`: the fixed-depth bench, or with `--turn-ms` the turn measurement.
fn bench(args: &BenchArgs) -> Result<(), String> {
    let Some(turn_ms) = args.turn_ms else {
        let threads = args.threads.unwrap_or(1);
        println!("{}", mnk_engine::bench::run_bench(args.depth, threads));
        return Ok(());
    };
    let command = match &args.engine {
        Some(command) => command.clone(),
        None => {
            let exe =
                std::env::current_exe().map_err(|e| format!("cannot find mnk itself: {e}"))?;
            format!("\"{}\" gomocup", exe.display())
        }
    };
    let positions = mnk_engine::bench::undecided::undecided_positions();
    let report =
        mnk_gomocup::arena::turn_time::measure_turns(&command, &positions, turn_ms, args.threads)
            .map_err(|(i, fault)| format!("position {i}: {}", fault.detail))?;
    println!("{report}");
    Ok(())
}

/// Reads a number of search threads, 1 to [`mnk_engine::search::MAX_THREADS`].
fn search_threads(text: &str) -> Result<usize, String> {
    let max = mnk_engine::search::MAX_THREADS;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("threads per search are a number from 1 to {max}")),
    }
}

fn serve(args: Option<ServeArgs>) -> Result<(), String> {
    let mut config = mnk_server::ServerConfig {
        database: DEFAULT_DATABASE.to_string(),
        ..mnk_server::ServerConfig::default()
    };
    if let Some(args) = args {
        config.addr = args.addr;
        config.database = args.database;
        config.rooms.idle = Duration::from_secs(u64::from(args.room_idle_minutes) * 60);
        config.rooms.database_timeout = Duration::from_millis(args.database_timeout_ms);
        config.rooms.claim_after = Duration::from_secs(args.room_claim_secs);
        config.connections.write_timeout = Duration::from_secs(args.write_timeout_secs);
        config.rooms.per_address = AddressRates {
            creations: Rate::per_hour(args.room_creations_per_hour),
            joins: Rate::per_minute(args.room_joins_per_minute),
            actions: Rate::per_minute(args.room_actions_per_minute),
            reads: Rate::per_minute(args.room_reads_per_minute),
        };
        if let Some(search_threads) = args.search_threads {
            config.search_threads = search_threads;
            // Each slot keeps that many cores busy.
            config.threads = (config.threads / search_threads).max(1);
        }
        if let Some(threads) = args.threads {
            config.threads = threads;
        }
        if !args.books.is_empty() {
            config.books = mnk_server::books::with_files(&args.books).map_err(|e| e.to_string())?;
        }
    }
    mnk_server::serve(config).map_err(|e| e.to_string())
}

fn play_match(args: &mnk_gomocup::MatchArgs) -> Result<(), String> {
    let report = mnk_gomocup::run_match(args).map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(())
}

/// A reader that stops reading (`mnk match … | head`) ends the output quietly, as it ends any
/// other program's, instead of a panic with a backtrace: the standard library's `println!`
/// panics when stdout is a closed pipe, and Rust ignores the SIGPIPE that would end a C program.
fn quiet_when_the_pipe_closes() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map_or("", String::as_str);
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            // 128 + SIGPIPE, what a shell reports for a program a closed pipe ended.
            std::process::exit(141);
        }
        report(info);
    }));
}

fn main() -> ExitCode {
    quiet_when_the_pipe_closes();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Count(args)) => analysis::count(&args),
        Some(Command::Solve(args)) => analysis::solve(&args),
        Some(Command::Serve(args)) => serve(Some(args)),
        Some(Command::Gomocup) => mnk_gomocup::run_stdio().map_err(|e| e.to_string()),
        Some(Command::Bench(args)) => bench(&args),
        Some(Command::Match(args)) => play_match(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::TrainNet(args)) => train_net::run(&args),
        Some(Command::Calibrate(args)) => calibrate::run(&args),
        Some(Command::Review(args)) => review::run(&args),
        None => serve(None),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mnk: {message}");
            ExitCode::FAILURE
        }
    }
}
