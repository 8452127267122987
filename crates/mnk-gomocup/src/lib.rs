//! # mnk-gomocup — the Gomocup (Piskvork) engine protocol
//!
//! Two sides of one protocol (`docs/gomocup.md` in the repository describes both):
//! - **the brain**: [`command`] parses the manager's lines into typed commands, [`session`]
//!   answers them exactly as the specification says, [`stdio`] runs a reader thread and a
//!   thinking thread over standard input and output ([`run_stdio`], used by `mnk gomocup` and
//!   the `pbrain-mnk` binary). [`coords`] is the one place where the protocol's rows (counted
//!   from the top) meet mnk-core's (counted from the bottom); [`time_control`] turns the
//!   manager's clock into a budget per move.
//! - **the manager** ([`arena`]): `mnk match` plays our bots and external `pbrain-*` engines
//!   against each other, with mnk-core as the referee ([`run_match`]).

pub mod arena;
pub mod command;
pub mod coords;
pub mod session;
pub mod stdio;
pub mod time_control;

pub use arena::{run_match, MatchArgs, MatchError, MatchReport};
pub use command::{BlockKind, BoardStone, Command, Coord, Field, Info, ParseError, Parser};
pub use session::{BotMaker, BotOptions, Flow, Session, SessionError};
pub use stdio::{run, run_stdio};

use std::time::Duration;

use mnk_core::{Position, Rules};
use mnk_engine::level::Level;
use mnk_engine::search::{EngineConfig, DEFAULT_HASH_MB};
use mnk_engine::{Bot, BotError, Deadline, Limits};

/// The seed of the brain's bot: the brain plays the same game every time it sees the same moves.
pub const BRAIN_SEED: u64 = 1;

/// Largest transposition table the brain takes, in megabytes, however much memory it is given.
pub const MAX_HASH_MB: u64 = 1024;

/// The brain's bot: mnk's strongest level for `rules`. Where that level is the search engine
/// (every board too large to solve), its transposition table takes `options.hash_bytes` (the
/// session sizes it within `INFO max_memory`, see [`session::HASH_MB_PER_SECOND`]), at most
/// [`MAX_HASH_MB`], and it searches with `options.threads` threads (`INFO thread_num`).
///
/// The bot is warmed up with a tiny search, so that tables the engine builds on first use are
/// built here, before any clock runs, and not during the first move.
pub fn strongest_bot(rules: &Rules, options: BotOptions) -> Result<Box<dyn Bot>, BotError> {
    let engine = EngineConfig {
        hash_mb: options.hash_bytes.map_or(DEFAULT_HASH_MB, |bytes| {
            (bytes >> 20).clamp(1, MAX_HASH_MB) as usize
        }),
        threads: options.threads,
        weights: None,
    };
    let mut bot = Level::top().bot_with(rules, BRAIN_SEED, engine);
    let mut pos = Position::new(*rules);
    if let Some(cell) = pos.legal_moves().first().copied() {
        pos.play(cell);
        let limits = Limits {
            max_depth: Some(1),
            max_nodes: Some(WARM_UP_NODES),
            deadline: Some(Deadline::from_now(WARM_UP_TIME)),
            cutoff: None,
            stop: None,
        };
        // Only the side effect matters; a bot that cannot move here will say so later.
        let _ = bot.choose(&pos, &limits);
    }
    Ok(bot)
}

/// Nodes of the warm-up search.
const WARM_UP_NODES: u64 = 2_000;
/// Time limit of the warm-up search.
const WARM_UP_TIME: Duration = Duration::from_millis(500);
