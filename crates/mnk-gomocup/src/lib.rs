//! # mnk-gomocup — the Gomocup (Piskvork) engine protocol
//!
//! `docs/gomocup.md` in the repository describes how mnk speaks the protocol.
//! - **the brain**: [`command`] parses the manager's lines into typed commands, [`session`]
//!   answers them exactly as the specification says, [`stdio`] runs a reader thread and a
//!   thinking thread over standard input and output ([`run_stdio`], used by `mnk gomocup` and
//!   the `pbrain-mnk` binary). [`coords`] is the one place where the protocol's rows (counted
//!   from the top) meet mnk-core's (counted from the bottom); [`time_control`] turns the
//!   manager's clock into a budget per move.

pub mod command;
pub mod coords;
pub mod session;
pub mod stdio;
pub mod time_control;

pub use command::{BlockKind, BoardStone, Command, Coord, Field, Info, ParseError, Parser};
pub use session::{BotMaker, Flow, Session, SessionError};
pub use stdio::{run, run_stdio};

use mnk_core::Rules;
use mnk_engine::level::Level;
use mnk_engine::{Bot, BotError};

/// The seed of the brain's bot: the brain plays the same game every time it sees the same moves.
pub const BRAIN_SEED: u64 = 1;

/// The brain's bot: mnk's strongest level for `rules`.
///
/// The engine does not take a hash-table size yet, so `hash_bytes` (half of `INFO max_memory`)
/// is not used; the bots' memory stays far below Gomocup's limits.
pub fn strongest_bot(rules: &Rules, hash_bytes: Option<u64>) -> Result<Box<dyn Bot>, BotError> {
    let _ = hash_bytes;
    Ok(Level::top().bot(rules, BRAIN_SEED))
}
