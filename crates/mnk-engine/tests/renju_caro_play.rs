//! Self-play under renju and caro: whole games between the engine, the levels and the classic
//! bots, every move checked by mnk-core. Black (the first player) must never choose a
//! forbidden point under renju (each of its moves is checked before it is played, besides
//! `try_play`'s own refusal), and every game must end with a legal win or a full board.
//!
//! The node limits keep every game the same on every run. The quick test plays two short games
//! in any build; the ignored one plays more and stronger games (release builds:
//! `cargo test --profile ci -p mnk-engine -- --ignored`).

mod common;

use mnk_core::{Cell, Outcome, Position, Rules};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::Limits;

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

/// Plays one game from `opening` between `x` and `o` at `nodes` a move; panics at the first
/// illegal or forbidden move, and returns the finished position.
fn play(rules: &str, opening: &str, x: &str, o: &str, nodes: u64, seed: u64) -> Position {
    let rules: Rules = rules.parse().unwrap();
    let mut pos = Position::from_moves(rules, &cells(opening)).unwrap();
    let mut bots = [x, o].map(|spec| {
        let spec: BotSpec = spec.parse().unwrap();
        create(&spec, &rules, seed).unwrap()
    });
    while !pos.is_over() {
        let mover = pos.to_move();
        let choice = bots[mover.index()]
            .choose(&pos, &Limits::nodes(nodes))
            .unwrap_or_else(|e| {
                panic!(
                    "{rules}: {} found no move: {e}\n{pos}",
                    [x, o][mover.index()]
                )
            });
        if rules.has_forbidden_moves(mover) {
            assert_eq!(
                pos.forbidden_kind(choice.cell),
                None,
                "{rules}: black chose the forbidden point {} after {}\n{pos}",
                choice.cell,
                pos.ply()
            );
        }
        pos.try_play(choice.cell)
            .unwrap_or_else(|e| panic!("{rules}: {} is not legal: {e}\n{pos}", choice.cell));
    }
    match pos.outcome() {
        Outcome::Win { .. } | Outcome::Draw(_) => {}
        Outcome::Ongoing => unreachable!("the loop ends with the game"),
    }
    pos
}

#[test]
fn short_renju_and_caro_games_are_legal() {
    for rules in ["15x15x5,renju", "15x15x5,caro"] {
        play(rules, "h8 i9 g7", "level4", "weights", 2_000, 1);
        play(rules, "h8 h9 i9", "weights", "level4", 2_000, 2);
    }
}

#[test]
#[ignore = "slow in debug builds: run with --profile ci -- --ignored"]
fn renju_and_caro_self_play() {
    let openings = ["h8 i9 g7", "h8 j10 i7", "h8 g9 j8", "h8 h9 g10"];
    let mut games = Vec::new();
    for rules in ["15x15x5,renju", "15x15x5,caro"] {
        for (i, opening) in openings.iter().enumerate() {
            for (x, o) in [
                ("engine", "engine"),
                ("engine", "weights"),
                ("weights", "engine"),
                ("level3", "level5"),
                ("level1", "alphabeta"),
            ] {
                games.push((rules, *opening, x, o, i as u64));
            }
        }
    }
    // Each game at a node limit: the same whichever thread plays it.
    let ends = common::on_all_threads(&games, |&(rules, opening, x, o, seed)| {
        play(rules, opening, x, o, 20_000, seed)
    });
    let mut black_wins = 0;
    for ((rules, opening, x, o, _), pos) in games.iter().zip(&ends) {
        if pos.outcome().winner() == Some(pos.rules().first()) {
            black_wins += 1;
        }
        println!(
            "{rules} {opening}: {x} - {o}: {:?} after {} plies",
            pos.outcome().winner(),
            pos.ply()
        );
    }
    assert!(
        black_wins > 0,
        "black never won: its attacks are not played"
    );
}
