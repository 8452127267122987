//! # mnk-engine — the thinking
//!
//! Counting game trees ([`count`]), the exact solver for small boards ([`solver`]), the classic
//! bots the project grew from and the level ladder ([`bots`], [`level`]), the attack-weight heat
//! map ([`weights`]), all behind one [`Bot`] interface; [`tune`] fits the engine's evaluation to
//! recorded games. Time and stopping come in through [`Limits`]; the engine reads no clock of its
//! own and does no I/O, and starts no threads unless a search is given more than one
//! ([`search::Engine::set_threads`], Lazy SMP).

pub mod bench;
mod bot;
pub mod bots;
pub mod chance;
pub mod count;
pub mod explain;
pub mod geometry;
pub mod level;
mod limits;
pub mod opening;
pub mod review;
mod rng;
pub mod roster;
pub mod search;
pub mod solver;
pub mod train;
pub mod tune;
mod value;
mod variant;
pub mod weights;

pub use bot::{Bot, BotError, Choice, Explained, SearchInfo, Unplayable};
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use limits::SystemClock;
pub use limits::{Clock, Deadline, Limits};
pub use rng::Rng;
pub use value::Value;
