//! Every explained move is the move the bot plays: for the same seed and limits, `explain`
//! answers the very choice `choose` makes (move, value, depth, node count), and what it records
//! adds up to that choice.

use mnk_core::{Position, Rules};
use mnk_engine::explain::{Explained, Explanation};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::{Limits, Rng};

/// Random unfinished positions of `rules`, from the empty board to `max_plies` stones.
fn positions(rules: &str, count: usize, max_plies: usize, seed: u64) -> Vec<Position> {
    let rules: Rules = rules.parse().unwrap();
    let mut rng = Rng::seeded(seed);
    let mut all = Vec::new();
    while all.len() < count {
        let mut pos = Position::new(rules);
        let plies = rng.below(max_plies + 1);
        while pos.ply() < plies && !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play(rng.pick(&moves).unwrap());
        }
        if !pos.is_over() {
            all.push(pos);
        }
    }
    all
}

/// The bot `spec` explains `pos` with `seed`, and a fresh bot of the same seed chooses: the
/// explained choice must be the choice.
fn explained(spec: &str, pos: &Position, seed: u64, limits: &Limits) -> Explained {
    let spec: BotSpec = spec.parse().unwrap();
    let choice = create(&spec, pos.rules(), seed)
        .unwrap()
        .choose(pos, limits)
        .unwrap();
    let explained = create(&spec, pos.rules(), seed)
        .unwrap()
        .explain(pos, limits)
        .unwrap_or_else(|e| panic!("{spec} does not explain {pos:?}: {e}"));
    assert_eq!(explained.choice, choice, "{spec} seed {seed}\n{pos:?}");
    explained
}

#[test]
fn the_rule_player_explains_the_move_it_plays() {
    for (i, pos) in positions("3x3x3", 200, 7, 1).iter().enumerate() {
        let e = explained("rules", pos, i as u64, &Limits::none());
        match e.explanation {
            Explanation::Rules(decision) => assert!(decision.candidates.contains(&e.choice.cell)),
        }
    }
}
