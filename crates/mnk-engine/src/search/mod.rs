//! The search for large boards (work in progress).

pub mod board;
pub mod pattern;
pub mod threat;
