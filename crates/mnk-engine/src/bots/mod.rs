//! The classic bots of the games mnk grew from (the 3×3 rule player, the line counter) and the
//! perfect player built on the exact solver. [`crate::roster`] names and builds them.

mod linecount;
mod perfect;
mod rules;

pub use linecount::{LineCountBot, DEFAULT_DEPTH};
pub use perfect::PerfectBot;
pub use rules::{RulesBot, SPIRAL};
