//! Where rooms live: one storage layer over SQLite (the default, a file beside the server) and
//! PostgreSQL (for several servers sharing the rooms).
//!
//! Every change to a room is one transaction that first bumps the room's `version` from the
//! version the change was decided on (`... WHERE version = $expected`): a change decided on a
//! stale reading, by this server or another, touches nothing and is reported as a
//! [`Applied::Conflict`], to be decided again on a fresh reading. Moves also have their own
//! primary key `(room, game, ply)`, so one ply can never hold two moves. A move is acknowledged
//! only once its transaction has committed: SQLite runs in WAL mode with `synchronous = FULL`
//! (each commit waits for the log to reach the disk: a process killed at any moment, or a machine
//! that loses power, keeps every acknowledged move), PostgreSQL with its default durable commits.
//!
//! Faults: every wait on the database is bounded by one timeout (default
//! [`DATABASE_TIMEOUT`]): waiting for a connection from the pool (which covers connecting, so a
//! database that does not answer at start-up fails the start within it), PostgreSQL's
//! `statement_timeout`, SQLite's busy timeout. A database down is a transient fault (`unavailable`,
//! 503 with `Retry-After`) and [`Store::ping`] says so for the readiness probe; a damaged one is a
//! permanent fault ([`StoreError::is_permanent`]). An SQLite file is checked at start-up
//! (`PRAGMA quick_check`, at most [`INTEGRITY_CHECK_TIME`]) and a damaged file is refused with its
//! name and what to do, rather than served as if healthy.
//!
//! Queries are plain SQL checked at run time (no database is needed to build) and written once
//! for both databases: `$1`-style parameters, which SQLite reads too, and only types both share.
//! [`on_pool!`] expands a block once for each kind of pool.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::Duration;

use sqlx::error::{BoxDynError, DatabaseError};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgDatabaseError, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteError, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{PgPool, SqlitePool};

/// The schema's migrations for each database, embedded in the binary. (sqlx's `migrate!` macro
/// embeds them too, but it compiles a second copy of sqlx and of SQLite for the compiler, which
/// doubled the cold build.) Applied versions are recognised by their SQL's checksum, so a file is
/// never edited once released: a change is a new migration.
const SQLITE_SCHEMA: Schema = Schema(&[
    (
        1,
        "rooms",
        include_str!("../../migrations/sqlite/0001_rooms.sql"),
    ),
    (
        2,
        "openings",
        include_str!("../../migrations/sqlite/0002_openings.sql"),
    ),
    (
        3,
        "opening clocks",
        include_str!("../../migrations/sqlite/0003_opening_clocks.sql"),
    ),
]);
const POSTGRES_SCHEMA: Schema = Schema(&[
    (
        1,
        "rooms",
        include_str!("../../migrations/postgres/0001_rooms.sql"),
    ),
    (
        2,
        "openings",
        include_str!("../../migrations/postgres/0002_openings.sql"),
    ),
    (
        3,
        "opening clocks",
        include_str!("../../migrations/postgres/0003_opening_clocks.sql"),
    ),
]);

/// Migrations as (version, description, SQL), in order.
#[derive(Debug)]
struct Schema(&'static [(i64, &'static str, &'static str)]);

impl<'s> MigrationSource<'s> for Schema {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    sql.into(),
                    false,
                )
            })
            .collect();
        Box::pin(std::future::ready(Ok(migrations)))
    }
}

/// How long one wait on the database may take unless told: for a connection, a statement, a lock.
pub const DATABASE_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest the start-up integrity check of an SQLite file may take; a larger file is served
/// unchecked past it (with a warning), rather than kept from starting.
pub const INTEGRITY_CHECK_TIME: Duration = Duration::from_secs(20);

/// The channel PostgreSQL servers tell each other about changed rooms on (`room:version`).
pub const NOTIFY_CHANNEL: &str = "mnk_rooms";

/// A database of rooms.
#[derive(Clone, Debug)]
pub enum Store {
    /// An SQLite file (or memory, for tests).
    Sqlite(SqlitePool),
    /// A PostgreSQL database several servers may share.
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to whichever pool `$store` holds: the same code, compiled
/// once for each database.
macro_rules! on_pool {
    ($store:expr, |$pool:ident| $body:expr) => {
        match $store {
            Store::Sqlite($pool) => $body,
            Store::Postgres($pool) => $body,
        }
    };
}

/// Why the store could not answer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is not one the server can use.
    #[error("{0}")]
    BadUrl(String),
    /// The database failed or could not be reached.
    #[error("the database failed: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("the database's schema could not be migrated: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A row holds what the server never writes.
    #[error("the database holds a damaged room: {0}")]
    Damaged(String),
    /// The SQLite file fails its integrity check, or is not a database at all.
    #[error(
        "the file {file} is damaged ({detail}). Restore it from a backup, or \
         move it aside and start again with an empty one (`sqlite3 {file} .recover` may save \
         some of its rooms)"
    )]
    DamagedFile {
        /// The file's path.
        file: String,
        /// What the check found.
        detail: String,
    },
    /// Nothing answered within the timeout when the database was opened.
    #[error(
        "no answer within {} s ({cause}): is the database running and reachable at that \
         address? (`mnk serve --database-timeout-ms` sets how long to wait)",
        .waited.as_secs_f64()
    )]
    Unreachable {
        /// How long the server waited.
        waited: Duration,
        /// The last error seen.
        cause: String,
    },
}

impl StoreError {
    /// Whether retrying cannot help: the database reports its storage damaged (SQLite's
    /// `SQLITE_CORRUPT` or `SQLITE_NOTADB`, PostgreSQL's `data_corrupted` or `index_corrupted`).
    /// Anything else from the database (unreachable, timed out, busy) may pass.
    #[must_use]
    pub fn is_permanent(&self) -> bool {
        match self {
            StoreError::Database(e) => is_damage(e),
            StoreError::DamagedFile { .. } => true,
            _ => false,
        }
    }
}

/// Whether `error` is the database reporting its storage damaged (see [`StoreError::is_permanent`]).
fn is_damage(error: &sqlx::Error) -> bool {
    let sqlx::Error::Database(e) = error else {
        return false;
    };
    if let Some(e) = e.try_downcast_ref::<SqliteError>() {
        // Extended result codes keep the primary code in their low byte.
        let code = e.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(0) & 0xff;
        return code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
    }
    e.try_downcast_ref::<PgDatabaseError>()
        .is_some_and(|e| matches!(e.code(), "XX001" | "XX002"))
}

/// SQLite's result codes for a damaged file and for a file that is no database.
const SQLITE_CORRUPT: i64 = 11;
const SQLITE_NOTADB: i64 = 26;

/// A room's own row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    /// The room's id.
    pub id: String,
    /// The rules in mnk-core's text form.
    pub rules: String,
    /// Fischer clock: time at the start and added after each move, in milliseconds.
    pub clock: Option<(i64, i64)>,
    /// When the room was created.
    pub created_ms: i64,
    /// The last sign of life (a change, or a client connected to it).
    pub seen_ms: i64,
    /// When the room was closed for want of players, if it was.
    pub closed_ms: Option<i64>,
    /// Bumped by every change.
    pub version: i64,
    /// The current game's number, from 1.
    pub game: i64,
    /// What a seat offers (`draw:0`, `rematch:1`), if anything.
    pub offer: Option<String>,
    /// How its games open: `free`, `swap` or `swap2`.
    pub opening: String,
}

/// Who sits in a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRow {
    /// The SHA-256 of the seat's token, when a person took it.
    pub token_hash: Option<String>,
    /// The bot sitting there, in the engine's notation (`level3`).
    pub bot: Option<String>,
}

impl SeatRow {
    /// Whether someone (a person or a bot) sits there.
    #[must_use]
    pub fn is_taken(&self) -> bool {
        self.token_hash.is_some() || self.bot.is_some()
    }
}

/// One game of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its number in the room, from 1.
    pub number: i64,
    /// The seat playing X.
    pub x_seat: i64,
    /// When both seats were taken (clocks run from then).
    pub started_ms: Option<i64>,
    /// `X`, `O` or `draw`, once the game is over.
    pub result: Option<String>,
    /// How it ended: `line`, `full`, `no_line_left`, `resigned`, `agreed`, `time`.
    pub reason: Option<String>,
    /// The decisions of its swap opening so far, comma-separated (`place-two,black`).
    pub decisions: String,
    /// When the last of those decisions was made.
    pub decided_ms: Option<i64>,
    /// The deciding seat's time left after it (with the increment if its turn ended there), in
    /// games with a clock.
    pub decided_clock_ms: Option<i64>,
    /// When it ended, once it has (the clock of the seat that was to act stops there).
    pub finished_ms: Option<i64>,
}

/// One move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// The cell in the board's notation.
    pub cell: String,
    /// When it was played.
    pub played_ms: i64,
    /// The mover's time left after the move and its increment (games with a clock).
    pub clock_ms: Option<i64>,
}

/// A room as read in one go: what every decision about it starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The room's row.
    pub room: RoomRow,
    /// Seats 0 (the creator's) and 1.
    pub seats: [SeatRow; 2],
    /// The current game.
    pub game: GameRow,
    /// Its moves, in order.
    pub moves: Vec<MoveRow>,
}

/// A new room: its rules, clock, who plays X, and the creator's (and maybe a bot's) seat.
#[derive(Clone, Debug)]
pub struct NewRoom {
    /// The room's id.
    pub id: String,
    /// The rules in mnk-core's text form.
    pub rules: String,
    /// Fischer clock in milliseconds: initial time and increment.
    pub clock: Option<(i64, i64)>,
    /// The seat that plays X in the first game.
    pub x_seat: i64,
    /// The creator's token hash (seat 0).
    pub creator: String,
    /// A bot invited to seat 1.
    pub bot: Option<String>,
    /// How its games open: `free`, `swap` or `swap2`.
    pub opening: String,
}

/// One step of a change to a room (see [`Store::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A person (token hash) or a bot takes a free seat.
    TakeSeat {
        /// 0 or 1.
        seat: i64,
        /// The person's token hash.
        token_hash: Option<String>,
        /// Or the bot.
        bot: Option<String>,
    },
    /// A bot takes over a person's seat (whose token then holds nothing).
    SeatBot {
        /// 0 or 1.
        seat: i64,
        /// The bot.
        bot: String,
    },
    /// The current game starts: both seats are taken.
    StartGame {
        /// Its number.
        game: i64,
    },
    /// A move of the current game.
    Move {
        /// The game's number.
        game: i64,
        /// Its ply, from 0.
        ply: i64,
        /// The cell.
        cell: String,
        /// The mover's time left, with a clock.
        clock_ms: Option<i64>,
    },
    /// The game is over.
    Finish {
        /// The game's number.
        game: i64,
        /// `X`, `O` or `draw`.
        result: String,
        /// How it ended.
        reason: String,
    },
    /// A decision of the current game's swap opening.
    Decide {
        /// The game's number.
        game: i64,
        /// The decisions before it, as stored.
        before: String,
        /// The decisions with it.
        after: String,
        /// The deciding seat's time left after it, with a clock.
        clock_ms: Option<i64>,
    },
    /// What is on offer now (`None` clears it).
    Offer(Option<String>),
    /// The room's current game is now game `number`.
    CurrentGame(i64),
    /// A new game in the room (a rematch).
    NewGame {
        /// Its number.
        number: i64,
        /// The seat playing X.
        x_seat: i64,
    },
}

/// What became of a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Committed: the room is now at this version.
    Done(i64),
    /// The room changed since it was read (or is gone): nothing was written.
    Conflict,
}

/// A tuple as the `rooms` query reads it.
type RoomTuple = (
    String,
    String,
    Option<i64>,
    Option<i64>,
    i64,
    i64,
    Option<i64>,
    i64,
    i64,
    Option<String>,
    String,
);

/// A tuple as the `seats` query reads it.
type SeatTuple = (i64, Option<String>, Option<String>);
/// A tuple as the `games` query reads it.
type GameTuple = (
    i64,
    i64,
    Option<i64>,
    Option<String>,
    Option<String>,
    String,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);
/// A tuple as the `moves` query reads it.
type MoveTuple = (i64, String, i64, Option<i64>);

const SELECT_ROOM: &str = "SELECT id, rules, clock_initial_ms, clock_increment_ms, created_ms, \
     seen_ms, closed_ms, version, game, offer, opening FROM rooms WHERE id = $1";
const SELECT_SEATS: &str = "SELECT seat, token_hash, bot FROM seats WHERE room = $1 ORDER BY seat";
const SELECT_GAME: &str =
    "SELECT number, x_seat, started_ms, result, reason, decisions, decided_ms, \
     decided_clock_ms, finished_ms FROM games \
     WHERE room = $1 AND number = $2";
const SELECT_MOVES: &str = "SELECT ply, cell, played_ms, clock_ms FROM moves \
     WHERE room = $1 AND game = $2 ORDER BY ply";

impl Store {
    /// Opens the database `url` names, creating an SQLite file if it is missing, and brings its
    /// schema up to date. `url` is `sqlite://PATH` (`sqlite://mnk.db`), `sqlite::memory:` (or
    /// `memory`: rooms that last as long as the process), or `postgres://…`. Every wait on the
    /// database, this one included, is bounded by `timeout`; an SQLite file is checked first
    /// and refused if damaged.
    pub async fn open(url: &str, timeout: Duration) -> Result<Store, StoreError> {
        let store = if url == "memory" || url == "sqlite::memory:" {
            Store::Sqlite(Self::sqlite_memory().await?)
        } else if url.starts_with("sqlite:") {
            Store::Sqlite(Self::sqlite_file(url, timeout).await?)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Store::Postgres(Self::postgres(url, timeout).await?)
        } else {
            return Err(StoreError::BadUrl(format!(
                "unknown database {url:?}: give sqlite://FILE (such as sqlite://mnk.db), memory, \
                 or postgres://USER@HOST/DATABASE"
            )));
        };
        match &store {
            Store::Sqlite(pool) => Migrator::new(SQLITE_SCHEMA).await?.run(pool).await?,
            Store::Postgres(pool) => Migrator::new(POSTGRES_SCHEMA).await?.run(pool).await?,
        }
        Ok(store)
    }

    async fn postgres(url: &str, timeout: Duration) -> Result<PgPool, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::BadUrl(format!("cannot read the database URL: {e}")))?
            // A statement that runs longer is cancelled by the server itself.
            .options([("statement_timeout", timeout.as_millis().max(1).to_string())]);
        PgPoolOptions::new()
            .max_connections(16)
            // sqlx's default is 30 s: requests hung that long in an outage.
            .acquire_timeout(timeout)
            .connect_with(options)
            .await
            .map_err(|e| match e {
                sqlx::Error::PoolTimedOut => StoreError::Unreachable {
                    waited: timeout,
                    cause: "no connection could be made".into(),
                },
                e @ sqlx::Error::Io(_) => StoreError::Unreachable {
                    waited: timeout,
                    cause: e.to_string(),
                },
                e => e.into(),
            })
    }

    async fn sqlite_file(url: &str, timeout: Duration) -> Result<SqlitePool, StoreError> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::BadUrl(format!("cannot read {url:?}: {e}")))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL with FULL: a commit returns once the log is on the disk (see the module doc).
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            // Writers take turns; a writer waits for the one before rather than failing.
            .busy_timeout(timeout);
        let file = options.get_filename().display().to_string();
        let damaged = |e: sqlx::Error| {
            if is_damage(&e) {
                StoreError::DamagedFile {
                    file: file.clone(),
                    detail: e.to_string(),
                }
            } else {
                e.into()
            }
        };
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(timeout)
            .connect_with(options)
            .await
            .map_err(damaged)?;
        let check = sqlx::query_scalar::<_, String>("PRAGMA quick_check(3)").fetch_all(&pool);
        match tokio::time::timeout(INTEGRITY_CHECK_TIME, check).await {
            Ok(Ok(found)) if found == ["ok"] => Ok(pool),
            Ok(Ok(found)) => Err(StoreError::DamagedFile {
                file,
                detail: format!(
                    "PRAGMA quick_check: {}",
                    found.join("; ").replace('\n', "; ")
                ),
            }),
            Ok(Err(e)) => Err(damaged(e)),
            Err(_) => {
                tracing::warn!(
                    "the integrity check of {file} did not finish within {} s: serving it unchecked",
                    INTEGRITY_CHECK_TIME.as_secs()
                );
                Ok(pool)
            }
        }
    }

    async fn sqlite_memory() -> Result<SqlitePool, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        // One connection kept for ever: the database lives exactly as long as it does.
        Ok(SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?)
    }

    /// Whether the database answers now (a trivial query), for the readiness probe.
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(self, |pool| {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// Whether servers sharing this database need to tell each other about changes.
    #[must_use]
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// Stores a new room with its two seats and its first game.
    pub async fn create(&self, room: &NewRoom, now: i64) -> Result<(), StoreError> {
        let (initial, increment) = room.clock.unzip();
        on_pool!(self, |pool| {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO rooms (id, rules, clock_initial_ms, clock_increment_ms, created_ms, \
                 seen_ms, version, game, opening) VALUES ($1, $2, $3, $4, $5, $5, 1, 1, $6)",
            )
            .bind(&room.id)
            .bind(&room.rules)
            .bind(initial)
            .bind(increment)
            .bind(now)
            .bind(&room.opening)
            .execute(&mut *tx)
            .await?;
            let seats = [
                (0_i64, Some(room.creator.clone()), None, Some(now)),
                (1, None, room.bot.clone(), room.bot.as_ref().map(|_| now)),
            ];
            for (seat, token_hash, bot, taken_ms) in seats {
                sqlx::query(
                    "INSERT INTO seats (room, seat, token_hash, bot, taken_ms) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&room.id)
                .bind(seat)
                .bind(token_hash)
                .bind(bot)
                .bind(taken_ms)
                .execute(&mut *tx)
                .await?;
            }
            let started = room.bot.as_ref().map(|_| now);
            sqlx::query(
                "INSERT INTO games (room, number, x_seat, started_ms) VALUES ($1, 1, $2, $3)",
            )
            .bind(&room.id)
            .bind(room.x_seat)
            .bind(started)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Reads a room, its seats, its current game and that game's moves; `None` if there is no
    /// such room. The reads share one transaction, so they see one version of the room.
    pub async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        let read = on_pool!(self, |pool| {
            let mut tx = pool.begin().await?;
            let room: Option<RoomTuple> = sqlx::query_as(SELECT_ROOM)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(room) = room else {
                return Ok(None);
            };
            let seats: Vec<SeatTuple> = sqlx::query_as(SELECT_SEATS)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            let game: Option<GameTuple> = sqlx::query_as(SELECT_GAME)
                .bind(id)
                .bind(room.8)
                .fetch_optional(&mut *tx)
                .await?;
            let moves: Vec<MoveTuple> = sqlx::query_as(SELECT_MOVES)
                .bind(id)
                .bind(room.8)
                .fetch_all(&mut *tx)
                .await?;
            tx.commit().await?;
            (room, seats, game, moves)
        });
        snapshot(read).map(Some)
    }

    /// Reads game `number` of room `id`: the room's row, the game and its moves; `None` if there
    /// is no such room or game.
    pub async fn load_game(&self, id: &str, number: i64) -> Result<Option<Snapshot>, StoreError> {
        let Some(mut snap) = self.load(id).await? else {
            return Ok(None);
        };
        if number == snap.game.number {
            return Ok(Some(snap));
        }
        let read = on_pool!(self, |pool| {
            let game: Option<GameTuple> = sqlx::query_as(SELECT_GAME)
                .bind(id)
                .bind(number)
                .fetch_optional(pool)
                .await?;
            let moves: Vec<MoveTuple> = sqlx::query_as(SELECT_MOVES)
                .bind(id)
                .bind(number)
                .fetch_all(pool)
                .await?;
            (game, moves)
        });
        let (Some(game), moves) = read else {
            return Ok(None);
        };
        let seats = Vec::new();
        let room = (
            snap.room.id.clone(),
            snap.room.rules.clone(),
            snap.room.clock.map(|c| c.0),
            snap.room.clock.map(|c| c.1),
            snap.room.created_ms,
            snap.room.seen_ms,
            snap.room.closed_ms,
            snap.room.version,
            number,
            None,
            snap.room.opening.clone(),
        );
        let other = snapshot((room, seats, Some(game), moves))?;
        snap.game = other.game;
        snap.moves = other.moves;
        snap.room.offer = None;
        Ok(Some(snap))
    }

    /// Applies `ops` to room `id` in one transaction, if the room is still at `expected` (its
    /// version bumped by one, its last sign of life set to `now`). On PostgreSQL the other
    /// servers are told once it has committed.
    pub async fn apply(
        &self,
        id: &str,
        expected: i64,
        now: i64,
        ops: &[Op],
    ) -> Result<Applied, StoreError> {
        on_pool!(self, |pool| {
            let mut tx = pool.begin().await?;
            let bumped = sqlx::query(
                "UPDATE rooms SET version = version + 1, seen_ms = $3 \
                 WHERE id = $1 AND version = $2 AND closed_ms IS NULL",
            )
            .bind(id)
            .bind(expected)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if bumped.rows_affected() != 1 {
                return Ok(Applied::Conflict);
            }
            for op in ops {
                let (sql, args) = op_sql(op);
                let mut query = sqlx::query(sql).bind(id);
                for arg in args {
                    query = match arg {
                        Arg::Int(n) => query.bind(n),
                        Arg::MaybeInt(n) => query.bind(n),
                        Arg::Text(t) => query.bind(t),
                        Arg::Now => query.bind(now),
                    };
                }
                let done = query.execute(&mut *tx).await;
                match done {
                    Ok(done) if done.rows_affected() == 1 => {}
                    // A seat taken, a ply filled meanwhile (by another server): nothing happens.
                    Ok(_) => return Ok(Applied::Conflict),
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                        return Ok(Applied::Conflict)
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            tx.commit().await?;
            Ok::<_, StoreError>(())
        })?;
        if let Store::Postgres(pool) = self {
            // After the commit, in a transaction of its own: PostgreSQL serialises the commits
            // of transactions that notify, so a NOTIFY inside the change would make every
            // change wait for the disk writes of all the others (some 200 moves/s at most on
            // the development machine). Lost if the server dies right here: the other servers'
            // clients then catch up with the room's next change, or when they reconnect.
            let told = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(format!("{id}:{}", expected + 1))
                .execute(pool)
                .await;
            if let Err(e) = told {
                tracing::warn!(
                    room = id,
                    "could not tell the other servers of a change: {e}"
                );
            }
        }
        Ok(Applied::Done(expected + 1))
    }

    /// With PostgreSQL, sends `payload` to every server listening on [`NOTIFY_CHANNEL`]; with
    /// SQLite (one server) does nothing.
    pub async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        if let Store::Postgres(pool) = self {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(payload)
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// Marks rooms as seen now (rooms with clients connected to this server), in one
    /// transaction: one write to the disk for all of them.
    pub async fn touch(&self, ids: &[String], now: i64) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        on_pool!(self, |pool| {
            let mut tx = pool.begin().await?;
            for id in ids {
                sqlx::query("UPDATE rooms SET seen_ms = $2 WHERE id = $1")
                    .bind(id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Closes the open rooms not seen since `cutoff`; answers how many. Their finished games
    /// stay; an unfinished one stays as it was left.
    pub async fn close_idle(&self, cutoff: i64, now: i64) -> Result<u64, StoreError> {
        let closed = on_pool!(self, |pool| {
            sqlx::query(
                "UPDATE rooms SET closed_ms = $2, version = version + 1 \
                 WHERE closed_ms IS NULL AND seen_ms < $1",
            )
            .bind(cutoff)
            .bind(now)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(closed)
    }
}

/// A bound value of an [`Op`]'s statement (after the room id, `$1`).
enum Arg {
    Int(i64),
    MaybeInt(Option<i64>),
    Text(Option<String>),
    /// The change's time.
    Now,
}

/// The statement of one step and its values from `$2` on.
fn op_sql(op: &Op) -> (&'static str, Vec<Arg>) {
    match op {
        Op::TakeSeat {
            seat,
            token_hash,
            bot,
        } => (
            "UPDATE seats SET token_hash = $3, bot = $4, taken_ms = $5 \
             WHERE room = $1 AND seat = $2 AND token_hash IS NULL AND bot IS NULL",
            vec![
                Arg::Int(*seat),
                Arg::Text(token_hash.clone()),
                Arg::Text(bot.clone()),
                Arg::Now,
            ],
        ),
        Op::SeatBot { seat, bot } => (
            "UPDATE seats SET token_hash = NULL, bot = $3, taken_ms = $4 \
             WHERE room = $1 AND seat = $2 AND token_hash IS NOT NULL AND bot IS NULL",
            vec![Arg::Int(*seat), Arg::Text(Some(bot.clone())), Arg::Now],
        ),
        Op::StartGame { game } => (
            "UPDATE games SET started_ms = $3 WHERE room = $1 AND number = $2 \
             AND started_ms IS NULL",
            vec![Arg::Int(*game), Arg::Now],
        ),
        Op::Move {
            game,
            ply,
            cell,
            clock_ms,
        } => (
            "INSERT INTO moves (room, game, ply, cell, played_ms, clock_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Arg::Int(*game),
                Arg::Int(*ply),
                Arg::Text(Some(cell.clone())),
                Arg::Now,
                Arg::MaybeInt(*clock_ms),
            ],
        ),
        Op::Finish {
            game,
            result,
            reason,
        } => (
            "UPDATE games SET result = $3, reason = $4, finished_ms = $5 \
             WHERE room = $1 AND number = $2 AND result IS NULL",
            vec![
                Arg::Int(*game),
                Arg::Text(Some(result.clone())),
                Arg::Text(Some(reason.clone())),
                Arg::Now,
            ],
        ),
        Op::Decide {
            game,
            before,
            after,
            clock_ms,
        } => (
            "UPDATE games SET decisions = $3, decided_ms = $5, decided_clock_ms = $6 \
             WHERE room = $1 AND number = $2 AND decisions = $4",
            vec![
                Arg::Int(*game),
                Arg::Text(Some(after.clone())),
                Arg::Text(Some(before.clone())),
                Arg::Now,
                Arg::MaybeInt(*clock_ms),
            ],
        ),
        Op::Offer(offer) => (
            "UPDATE rooms SET offer = $2 WHERE id = $1",
            vec![Arg::Text(offer.clone())],
        ),
        Op::CurrentGame(number) => (
            "UPDATE rooms SET game = $2 WHERE id = $1",
            vec![Arg::Int(*number)],
        ),
        Op::NewGame { number, x_seat } => (
            "INSERT INTO games (room, number, x_seat, started_ms) VALUES ($1, $2, $3, $4)",
            vec![Arg::Int(*number), Arg::Int(*x_seat), Arg::Now],
        ),
    }
}

/// What [`Store::load`] reads, before it is checked.
type Read = (RoomTuple, Vec<SeatTuple>, Option<GameTuple>, Vec<MoveTuple>);

/// Turns rows into a [`Snapshot`], refusing what the server never writes.
fn snapshot((room, seats, game, moves): Read) -> Result<Snapshot, StoreError> {
    let damaged = |what: &str| StoreError::Damaged(format!("room {}: {what}", room.0));
    let room_row = RoomRow {
        id: room.0.clone(),
        rules: room.1.clone(),
        clock: room.2.zip(room.3),
        created_ms: room.4,
        seen_ms: room.5,
        closed_ms: room.6,
        version: room.7,
        game: room.8,
        offer: room.9.clone(),
        opening: room.10.clone(),
    };
    let mut seat_rows: [SeatRow; 2] = Default::default();
    for (seat, token_hash, bot) in seats {
        let slot = usize::try_from(seat)
            .ok()
            .and_then(|s| seat_rows.get_mut(s))
            .ok_or_else(|| damaged("a seat other than 0 and 1"))?;
        *slot = SeatRow { token_hash, bot };
    }
    let (
        number,
        x_seat,
        started_ms,
        result,
        reason,
        decisions,
        decided_ms,
        decided_clock_ms,
        finished_ms,
    ) = game.ok_or_else(|| damaged("no row for its current game"))?;
    let game = GameRow {
        number,
        x_seat,
        started_ms,
        result,
        reason,
        decisions,
        decided_ms,
        decided_clock_ms,
        finished_ms,
    };
    let mut move_rows = Vec::with_capacity(moves.len());
    for (index, (ply, cell, played_ms, clock_ms)) in moves.into_iter().enumerate() {
        if usize::try_from(ply).ok() != Some(index) {
            return Err(damaged("a gap in its moves"));
        }
        move_rows.push(MoveRow {
            cell,
            played_ms,
            clock_ms,
        });
    }
    Ok(Snapshot {
        room: room_row,
        seats: seat_rows,
        game,
        moves: move_rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Databases made by earlier releases recorded each migration's checksum (SHA-384 of its
    /// SQL); an edited migration would stop every one of them from opening.
    #[tokio::test]
    async fn released_migrations_keep_their_checksums() {
        for (schema, released) in [
            (
                SQLITE_SCHEMA,
                ["cf2a5f2e35ff2be87a811d18", "3d9071e3c7ff4a738627a0e1"],
            ),
            (
                POSTGRES_SCHEMA,
                ["643d2492158f09b9b0f92387", "8c04f5393c31ef53de7ef8ce"],
            ),
        ] {
            let migrations = schema.resolve().await.unwrap();
            assert_eq!(migrations.len(), 3);
            for (index, released) in released.into_iter().enumerate() {
                let checksum: String = migrations[index].checksum[..12]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                assert_eq!(checksum, released, "migration {}", index + 1);
                assert_eq!(migrations[index].version, index as i64 + 1);
            }
        }
    }

    /// A file damaged while the server runs (past its start-up check): reading it is a
    /// permanent fault, answered `database_damaged`, where a database that does not answer is
    /// a transient one.
    #[tokio::test]
    async fn a_file_damaged_at_run_time_is_a_permanent_fault() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rooms.db");
        let store = Store::open(&format!("sqlite://{}", file.display()), DATABASE_TIMEOUT)
            .await
            .unwrap();
        let room = NewRoom {
            id: "r".into(),
            rules: "15x15x5".into(),
            clock: None,
            x_seat: 0,
            creator: "hash".into(),
            bot: None,
            opening: "free".into(),
        };
        store.create(&room, 0).await.unwrap();
        assert!(store.load("r").await.unwrap().is_some());
        let Store::Sqlite(pool) = store else {
            unreachable!("an SQLite file")
        };
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        // Every page but the first (the schema) overwritten.
        let mut bytes = std::fs::read(&file).unwrap();
        bytes[4096..].fill(0x5a);
        std::fs::write(&file, bytes).unwrap();

        let options = SqliteConnectOptions::new().filename(&file);
        let damaged = Store::Sqlite(SqlitePool::connect_with(options).await.unwrap());
        let error = damaged.load("r").await.unwrap_err();
        assert!(error.is_permanent(), "{error}");
        let answer = crate::error::ApiError::from(error);
        assert_eq!(answer.code(), "database_damaged", "{answer}");
        assert_eq!(answer.retry_after(), None);

        let down = StoreError::Database(sqlx::Error::PoolTimedOut);
        assert!(!down.is_permanent());
        assert_eq!(crate::error::ApiError::from(down).code(), "unavailable");
    }

    /// An SQLite database in memory made with the first `migrations` migrations, holding `rows`
    /// (SQL inserts in that schema), then opened as a server opens it: every migration run.
    async fn migrated_from(migrations: usize, rows: &[&str]) -> Store {
        let pool = Store::sqlite_memory().await.unwrap();
        let old = Schema(&SQLITE_SCHEMA.0[..migrations]);
        Migrator::new(old).await.unwrap().run(&pool).await.unwrap();
        for sql in rows {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        Migrator::new(SQLITE_SCHEMA)
            .await
            .unwrap()
            .run(&pool)
            .await
            .unwrap();
        Store::Sqlite(pool)
    }

    /// A database made before swap openings (only the first migration applied) opens with the
    /// new schema, its rooms opening freely and their games with no decisions.
    #[tokio::test]
    async fn a_database_from_before_openings_is_migrated_and_its_rooms_open_freely() {
        let store = migrated_from(
            1,
            &[
                "INSERT INTO rooms (id, rules, created_ms, seen_ms, version, game) \
                 VALUES ('old', '15x15x5', 0, 0, 1, 1)",
                "INSERT INTO seats (room, seat, token_hash) VALUES ('old', 0, 'a')",
                "INSERT INTO seats (room, seat) VALUES ('old', 1)",
                "INSERT INTO games (room, number, x_seat) VALUES ('old', 1, 0)",
            ],
        )
        .await;
        let snap = store.load("old").await.unwrap().unwrap();
        assert_eq!(snap.room.opening, "free");
        assert_eq!(snap.game.decisions, "");
        let decided = store
            .apply(
                "old",
                1,
                5,
                &[Op::Decide {
                    game: 1,
                    before: String::new(),
                    after: "black".into(),
                    clock_ms: None,
                }],
            )
            .await
            .unwrap();
        assert_eq!(decided, Applied::Done(2));
        assert_eq!(
            store.load("old").await.unwrap().unwrap().game.decisions,
            "black"
        );
        // A decision decided on a reading that no longer holds writes nothing.
        let stale = store
            .apply(
                "old",
                2,
                6,
                &[Op::Decide {
                    game: 1,
                    before: String::new(),
                    after: "white".into(),
                    clock_ms: None,
                }],
            )
            .await
            .unwrap();
        assert_eq!(stale, Applied::Conflict);
        assert_eq!(store.load("old").await.unwrap().unwrap().room.version, 2);
    }

    /// A database from before clocks in swap openings (migrations 1 and 2) gains the decision's
    /// time and clock, empty in its games; a decision then stores both.
    #[tokio::test]
    async fn a_database_from_before_opening_clocks_is_migrated() {
        let store = migrated_from(
            2,
            &[
                "INSERT INTO rooms (id, rules, created_ms, seen_ms, version, game, opening) \
                 VALUES ('swap', '15x15x5', 0, 0, 1, 1, 'swap2')",
                "INSERT INTO seats (room, seat, token_hash) VALUES ('swap', 0, 'a')",
                "INSERT INTO seats (room, seat, token_hash) VALUES ('swap', 1, 'b')",
                "INSERT INTO games (room, number, x_seat, started_ms, decisions) \
                 VALUES ('swap', 1, 0, 0, 'place-two')",
            ],
        )
        .await;
        let snap = store.load("swap").await.unwrap().unwrap();
        assert_eq!(
            (snap.game.decisions.as_str(), snap.game.decided_ms),
            ("place-two", None)
        );
        let decided = store
            .apply(
                "swap",
                1,
                7,
                &[Op::Decide {
                    game: 1,
                    before: "place-two".into(),
                    after: "place-two,black".into(),
                    clock_ms: Some(4000),
                }],
            )
            .await
            .unwrap();
        assert_eq!(decided, Applied::Done(2));
        let game = store.load("swap").await.unwrap().unwrap().game;
        assert_eq!(
            (game.decided_ms, game.decided_clock_ms),
            (Some(7), Some(4000))
        );
    }
}
