//! The rule sets mnk-engine plays: freestyle and exactly-k. mnk-core also knows renju and caro
//! (forbidden moves, closed fives), but the bots, the search, the solver and counting reason
//! about lines their own way and would play or count those as freestyle or exactly five, so
//! every entry point asks here first and refuses them with [`not_yet`]'s reason.

use mnk_core::{Rules, Win};

/// Whether the engine plays these rules.
#[must_use]
pub(crate) fn plays(rules: &Rules) -> bool {
    matches!(rules.win(), Win::Freestyle | Win::Exact)
}

/// Why the engine does not play `rules` (those for which [`plays`] is false).
#[must_use]
pub(crate) fn not_yet(rules: &Rules) -> String {
    format!(
        "the computer does not play {} yet: play {rules} with two people, or choose freestyle or exact rules",
        rules.win()
    )
}
