//! The classic bots, checked exhaustively on 3×3 and on threats on large boards.

use mnk_core::{Cell, Outcome, Player, Position, Preset, Rules};
use mnk_engine::bots::{LineCountBot, PerfectBot, RulesBot};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::weights::attack_weights;
use mnk_engine::{Bot, Limits, Rng, Value};
use proptest::prelude::*;

/// Plays every game in which the bot (`bot_side`) picks any of `choices` and the opponent any
/// legal move, calling `check` on every finished game.
fn every_game(
    pos: &mut Position,
    bot_side: Player,
    choices: &mut dyn FnMut(&Position) -> Vec<Cell>,
    check: &mut dyn FnMut(&Position),
) {
    if pos.is_over() {
        check(pos);
        return;
    }
    let moves = if pos.to_move() == bot_side {
        choices(pos)
    } else {
        pos.legal_moves()
    };
    assert!(!moves.is_empty());
    for m in moves {
        pos.play(m);
        every_game(pos, bot_side, choices, check);
        pos.undo();
    }
}

fn tic_tac_toe() -> Rules {
    Preset::TicTacToe.rules()
}

#[test]
fn the_rule_player_never_loses() {
    for side in [Player::X, Player::O] {
        let mut games = 0;
        every_game(
            &mut Position::new(tic_tac_toe()),
            side,
            &mut |p| RulesBot::candidates(p).unwrap(),
            &mut |p| {
                games += 1;
                assert_ne!(
                    p.outcome().winner(),
                    Some(side.opponent()),
                    "lost: {:?}",
                    p.history()
                );
            },
        );
        assert!(games > 100, "{games}");
    }
}

#[test]
fn the_rule_player_answers_a_free_square_in_every_position() {
    // Not only the games it steers: any position, either side to move, either side first.
    fn walk(pos: &mut Position, seen: &mut usize) {
        if pos.is_over() {
            return;
        }
        let answers = RulesBot::candidates(pos).unwrap();
        assert!(!answers.is_empty(), "no answer after {:?}", pos.history());
        for a in &answers {
            assert!(pos.is_free(*a), "{a} is taken after {:?}", pos.history());
        }
        *seen += 1;
        for m in pos.legal_moves() {
            pos.play(m);
            walk(pos, seen);
            pos.undo();
        }
    }
    for first in [Player::X, Player::O] {
        let mut seen = 0;
        walk(
            &mut Position::new(tic_tac_toe().with_first(first)),
            &mut seen,
        );
        // Every unfinished move sequence: 549,946 game-tree nodes less 255,168 complete games
        // (shared/data/tree-counts.tsv).
        assert_eq!(seen, 294_778);
    }
}

#[test]
fn the_perfect_player_never_loses_and_wins_what_can_be_won() {
    for side in [Player::X, Player::O] {
        let mut bot = PerfectBot::new(0);
        // Every position where the perfect player moved into a won game must end in its win.
        let mut won_positions = Vec::new();
        let mut choices = |p: &Position| {
            let (best, choice) = bot.best_moves(p, &Limits::none()).unwrap();
            if matches!(choice.value, Some(Value::Win(_))) {
                won_positions.push(p.history().to_vec());
            }
            best
        };
        let mut finished = Vec::new();
        every_game(
            &mut Position::new(tic_tac_toe()),
            side,
            &mut choices,
            &mut |p| {
                finished.push((p.history().to_vec(), p.outcome().winner()));
            },
        );
        for (history, winner) in &finished {
            assert_ne!(*winner, Some(side.opponent()), "lost: {history:?}");
            let started_won = won_positions.iter().any(|w| history.starts_with(w));
            if started_won {
                assert_eq!(*winner, Some(side), "let a won game slip: {history:?}");
            }
        }
        assert!(!won_positions.is_empty(), "the opponent never erred?");
    }
}

#[test]
fn the_perfect_player_wins_as_fast_as_it_can() {
    // X: a1 b1, O: a2 b2 — X to move wins at once on c1 rather than later.
    let pos = Position::from_diagram(tic_tac_toe(), ". . .\nO O .\nX X .").unwrap();
    let choice = PerfectBot::new(3).choose(&pos, &Limits::none()).unwrap();
    assert_eq!(choice.cell, "c1".parse().unwrap());
    assert_eq!(choice.value, Some(Value::Win(1)));
}

#[test]
fn the_rule_player_refuses_other_boards() {
    let pos = Position::new(Preset::Gomoku15.rules());
    assert!(RulesBot::candidates(&pos).is_err());
}

/// A random game of `plies` moves near the stones that nobody has won yet.
fn random_position(rules: Rules, seed: u64, plies: usize) -> Option<Position> {
    let mut rng = Rng::seeded(seed);
    let mut pos = Position::new(rules);
    for _ in 0..plies {
        let moves = pos.cells_near_stones(1);
        pos.play(rng.pick(&moves)?);
        if pos.is_over() {
            return None;
        }
    }
    Some(pos)
}

fn weights_choice(pos: &Position, seed: u64) -> Cell {
    create(&"weights".parse::<BotSpec>().unwrap(), pos.rules(), seed)
        .unwrap()
        .choose(pos, &Limits::none())
        .unwrap()
        .cell
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whenever it can complete its own line it does; otherwise it blocks the opponent's.
    #[test]
    fn the_weights_bot_completes_and_blocks(seed in any::<u64>(), plies in 6usize..40, preset in 0usize..3) {
        let rules = [Preset::Gomoku15, Preset::Unbounded, Preset::Standard][preset].rules();
        if let Some(pos) = random_position(rules, seed, plies) {
            let me = pos.to_move();
            let mine = pos.winning_cells(me);
            let theirs = pos.winning_cells(me.opponent());
            let cell = weights_choice(&pos, seed);
            if !mine.is_empty() {
                prop_assert!(mine.contains(&cell), "{pos}\nplayed {cell}, wins at {mine:?}");
            } else if theirs.len() == 1 {
                prop_assert!(theirs.contains(&cell), "{pos}\nplayed {cell}, must block {theirs:?}");
            }
        }
    }
}

#[test]
fn the_weights_bot_completes_an_open_four_and_blocks_a_four() {
    let rules = Preset::Gomoku15.rules();
    let own = Position::from_diagram(
        rules,
        &board15(&[
            (5, 7, 'X'),
            (6, 7, 'X'),
            (7, 7, 'X'),
            (8, 7, 'X'),
            (5, 5, 'O'),
            (6, 5, 'O'),
            (7, 5, 'O'),
            (8, 5, 'O'),
            (1, 1, 'X'),
            (13, 13, 'O'),
        ]),
    )
    .unwrap();
    let cell = weights_choice(&own, 1);
    assert!(
        cell == Cell::new(4, 7) || cell == Cell::new(9, 7),
        "{own}\n{cell}"
    );
    let block = Position::from_diagram(
        rules,
        &board15(&[
            (5, 7, 'O'),
            (6, 7, 'O'),
            (7, 7, 'O'),
            (8, 7, 'O'),
            (4, 7, 'X'),
            (6, 9, 'X'),
            (7, 9, 'X'),
            (8, 10, 'X'),
        ]),
    )
    .unwrap();
    assert_eq!(block.to_move(), Player::X);
    assert_eq!(weights_choice(&block, 1), Cell::new(9, 7), "{block}");
    assert!(!attack_weights(&block).is_empty());
}

fn board15(stones: &[(i32, i32, char)]) -> String {
    (0..15)
        .rev()
        .map(|y| {
            (0..15)
                .map(|x| {
                    stones
                        .iter()
                        .find(|s| s.0 == x && s.1 == y)
                        .map_or('.', |s| s.2)
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn line_count_alpha_beta_wins_and_blocks() {
    let rules = tic_tac_toe();
    let win = Position::from_diagram(rules, "X X .\nO O .\n. . .").unwrap();
    for depth in [1, 2, 4] {
        let choice = LineCountBot::new(depth, 5)
            .choose(&win, &Limits::none())
            .unwrap();
        assert_eq!(choice.cell, "c3".parse().unwrap(), "depth {depth}");
    }
    let block = Position::from_diagram(rules, "X . .\nO O .\nX . .").unwrap();
    for depth in [2, 3] {
        let choice = LineCountBot::new(depth, 5)
            .choose(&block, &Limits::none())
            .unwrap();
        assert_eq!(choice.cell, "c2".parse().unwrap(), "depth {depth}");
    }
}

#[test]
fn line_count_alpha_beta_plays_a_whole_game_on_every_board() {
    for rules in [
        Preset::NineByNine.rules(),
        Preset::Unbounded.rules(),
        Rules::bounded(7, 4, 4).unwrap(),
    ] {
        let mut pos = Position::new(rules);
        let mut bots = [LineCountBot::new(2, 1), LineCountBot::new(2, 2)];
        while !pos.is_over() && pos.ply() < 40 {
            let choice = bots[pos.ply() % 2].choose(&pos, &Limits::none()).unwrap();
            pos.try_play(choice.cell).unwrap();
        }
        assert!(pos.ply() >= 7, "{rules}");
        assert!(matches!(
            pos.outcome(),
            Outcome::Ongoing | Outcome::Win { .. } | Outcome::Draw(_)
        ));
    }
}

/// Every level and bot answers on tiny k (k = 1, 2) boards, bounded and not, from the empty board.
#[test]
fn every_bot_moves_when_k_is_one_or_two() {
    for text in ["infx1", "infx2", "15x15x1", "1x1x1", "5x5x2", "infx2,exact"] {
        let rules: Rules = text.parse().unwrap();
        let pos = Position::new(rules);
        for spec in [
            "level1",
            "level2",
            "level3",
            "level4",
            "level5",
            "level6",
            "engine",
            "weights",
            "alphabeta",
        ] {
            let spec: BotSpec = spec.parse().unwrap();
            let mut bot = create(&spec, &rules, 1).unwrap();
            let choice = bot
                .choose(&pos, &Limits::time(std::time::Duration::from_millis(50)))
                .unwrap();
            assert!(
                pos.is_free(choice.cell),
                "{spec} on {text} chose {}",
                choice.cell
            );
        }
    }
}

/// The line-count search answers within its deadline even on a crowded unbounded board.
#[test]
fn line_count_alpha_beta_keeps_its_deadline() {
    let rules = Preset::Unbounded.rules();
    let mut pos = Position::new(rules);
    let mut rng = Rng::seeded(9);
    while pos.ply() < 200 {
        let cell = Cell::new(rng.below(60) as i32 * 3, rng.below(60) as i32 * 3);
        if pos.is_free(cell) {
            pos.play(cell);
        }
    }
    let start = std::time::Instant::now();
    let choice = LineCountBot::new(4, 1)
        .choose(&pos, &Limits::time(std::time::Duration::from_millis(200)))
        .unwrap();
    assert!(pos.is_free(choice.cell));
    // Generous: the point is that it stops, not how precisely (timing is measured in benches).
    assert!(
        start.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}
