//! # mnk-core — the rules of k-in-a-row games
//!
//! Everything that decides what is legal and who has won lives here, and nowhere else:
//! [`Rules`] (board, k, win condition — freestyle, exactly k, renju, caro — and who starts;
//! validated at construction), [`Position`] (stones, history, hash, outcome; whether a stone
//! would win with [`Position::wins_at`]; renju's forbidden moves in [`renju`]; a position from
//! its stones alone with [`Position::from_stones`], or a board editor's, with any stone counts
//! and the player to move named, with [`Position::from_setup`]), [`Cell`] notation (`h8` and `x,y`), game
//! [`Record`]s, swap [`Opening`]s, ASCII diagrams, Piskvork's `.psq` files ([`Psq`]) and board [`Symmetry`]s.
//! Front-ends and the engine build on these types.

mod cell;
mod diagram;
mod forbidden;
mod live;
mod opening;
mod player;
mod position;
mod psq;
mod record;
pub mod renju;
mod rules;
mod setup;
mod symmetry;
mod win;
pub mod zobrist;

pub use cell::{column_name, parse_column, Cell, CellParseError, DIRECTIONS, MAX_COORD};
pub use diagram::{DiagramError, MAX_PICTURE_SPAN};
pub use forbidden::ForbiddenKind;
pub use opening::{Decision, Opening, OpeningError, Seat, Step};
pub use player::Player;
pub use position::{DrawKind, Outcome, PlayError, Position};
pub use psq::{Psq, PsqError, PSQ_K};
pub use record::Record;
#[cfg(feature = "serde")]
pub use rules::RulesSpec;
pub use rules::{Board, Preset, Rules, RulesError, Win, MAX_K, MAX_SIDE};
pub use setup::SetupError;
pub use symmetry::Symmetry;
pub use win::NoWin;
