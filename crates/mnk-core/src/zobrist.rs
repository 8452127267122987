//! Zobrist keys: a random-looking 64-bit number per (cell, player), XORed into a position's hash.
//!
//! Keys are computed from the coordinates by a fixed mixing function instead of being read from a
//! table, so the unbounded board needs no table and every run hashes alike.

use crate::cell::Cell;
use crate::player::Player;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
#[must_use]
pub const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of `player`'s stone on `cell`.
#[must_use]
pub fn stone_key(cell: Cell, player: Player) -> u64 {
    let packed = (u64::from(cell.x as u32) << 32) | u64::from(cell.y as u32);
    mix64(packed ^ (player.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// XORed into the hash when the second-listed player (O) is to move.
pub const O_TO_MOVE: u64 = 0x3C6E_F372_FE94_F82B;
