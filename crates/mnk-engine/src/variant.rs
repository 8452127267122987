//! Which parts of mnk-engine play which rule sets.
//!
//! The search engine and the classic bots play every rule set mnk-core knows: the engine's line
//! patterns follow each colour's winning runs (`Rules::run_wins`) and it asks mnk-core's renju
//! checker before black plays a point that could be forbidden; the attack-weight and
//! line-count bots choose among the moves mnk-core allows. The exact solver and counting work
//! on bitboards of k-windows that know only freestyle and exactly-k wins; renju and caro are
//! 15×15 games far beyond what they can finish anyway, so they refuse them with
//! [`not_solved`]'s reason.

use mnk_core::{Rules, Win};

/// Whether the exact solver and counting take these rules.
#[must_use]
pub(crate) fn solved(rules: &Rules) -> bool {
    matches!(rules.win(), Win::Freestyle | Win::Exact)
}
