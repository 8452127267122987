//! Property tests: what is computed incrementally equals what is computed from scratch, and the
//! notations round-trip.

use mnk_core::{Board, Cell, PlayError, Player, Position, Record, Rules, SetupError, Win};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    let bounded = (1u32..=9, 1u32..=9, 1u32..=6, any::<bool>(), any::<bool>()).prop_filter_map(
        "k must fit",
        |(w, h, k, exact, o_first)| {
            let win = if exact { Win::Exact } else { Win::Freestyle };
            let first = if o_first { Player::O } else { Player::X };
            Rules::new(
                Board::Bounded {
                    width: w,
                    height: h,
                },
                k,
                win,
                first,
            )
            .ok()
        },
    );
    let unbounded = (2u32..=6, any::<bool>()).prop_map(|(k, exact)| {
        Rules::new(
            Board::Unbounded,
            k,
            if exact { Win::Exact } else { Win::Freestyle },
            Player::X,
        )
        .unwrap()
    });
    // Renju and caro: five in a row on boards of 5 to 9 a side.
    let five =
        (5u32..=9, 5u32..=9, any::<bool>(), any::<bool>()).prop_map(|(w, h, renju, o_first)| {
            let win = if renju { Win::Renju } else { Win::Caro };
            let first = if o_first { Player::O } else { Player::X };
            Rules::new(
                Board::Bounded {
                    width: w,
                    height: h,
                },
                5,
                win,
                first,
            )
            .unwrap()
        });
    prop_oneof![3 => bounded, 1 => unbounded, 1 => five]
}

/// Plays `choices` (indices into the legal moves) from the empty board until the game ends.
fn play_out(rules: Rules, choices: &[usize]) -> Position {
    let mut pos = Position::new(rules);
    for &i in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[i % moves.len()]);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn try_play_agrees_with_the_legal_moves(rules in rules_strategy(), choices in prop::collection::vec(any::<usize>(), 0..40)) {
        prop_assume!(rules.is_bounded());
        let pos = play_out(rules, &choices);
        let legal = pos.legal_moves();
        let (w, h) = rules.size().unwrap();
        for y in -1..=h as i32 {
            for x in -1..=w as i32 {
                let cell = Cell::new(x, y);
                let mut copy = pos.clone();
                let result = copy.try_play(cell);
                prop_assert_eq!(result.is_ok(), legal.contains(&cell), "{} at {}", pos, cell);
                if let Err(e) = result {
                    // A refused move changes nothing.
                    prop_assert_eq!(&copy, &pos);
                    prop_assert_eq!(copy.hash(), pos.hash());
                    let expected = if pos.is_over() {
                        PlayError::GameOver
                    } else if !rules.contains(cell) {
                        PlayError::OffBoard(cell)
                    } else if pos.stone(cell).is_some() {
                        PlayError::Occupied(cell)
                    } else {
                        let kind = pos.forbidden_kind(cell);
                        prop_assert!(rules.has_forbidden_moves(pos.to_move()) && kind.is_some());
                        PlayError::Forbidden { cell, kind: kind.unwrap() }
                    };
                    prop_assert_eq!(e, expected);
                }
            }
        }
    }

    #[test]
    fn the_incremental_hash_equals_a_fresh_one(rules in rules_strategy(), choices in prop::collection::vec(any::<usize>(), 0..60), undos in 0usize..20) {
        let mut pos = play_out(rules, &choices);
        prop_assert_eq!(pos.hash(), pos.fresh_hash());
        for _ in 0..undos {
            pos.undo();
            prop_assert_eq!(pos.hash(), pos.fresh_hash());
        }
        let replayed = Position::from_moves(rules, pos.history()).unwrap();
        prop_assert_eq!(replayed.hash(), pos.hash());
    }

    #[test]
    fn the_outcome_agrees_with_a_full_scan(rules in rules_strategy(), choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let mut pos = play_out(rules, &choices);
        loop {
            let scanned = pos.scan_outcome();
            prop_assert_eq!(pos.outcome().is_over(), scanned.is_over(), "{}", pos);
            prop_assert_eq!(pos.outcome().winner(), scanned.winner(), "{}", pos);
            if pos.undo().is_none() {
                break;
            }
        }
    }

    #[test]
    fn set_up_positions_keep_their_owners_hash_and_outcome(
        rules in rules_strategy(),
        choices in prop::collection::vec(any::<usize>(), 0..50),
        dropped in prop::collection::vec(any::<bool>(), 50),
        o_to_move in any::<bool>(),
        later in prop::collection::vec(any::<usize>(), 0..10),
    ) {
        // The stones of a game with some of X's taken away: counts no game need reach.
        let game = play_out(rules, &choices);
        let mut x = Vec::new();
        let mut o = Vec::new();
        for (i, (c, p)) in game.stones().enumerate() {
            match p {
                Player::X if !dropped[i] => x.push(c),
                Player::X => {}
                Player::O => o.push(c),
            }
        }
        let to_move = if o_to_move { Player::O } else { Player::X };
        // Taking a stone away may also make a line (a five out of an overline under exactly
        // five, a caro five no longer closed): two players' lines are the one refusal.
        let set_up = match Position::from_setup(rules, &x, &o, to_move) {
            Ok(pos) => pos,
            Err(e) => {
                prop_assert_eq!(e, SetupError::BothWon);
                return Ok(());
            }
        };
        prop_assert_eq!(set_up.to_move(), to_move);
        prop_assert_eq!(set_up.ply(), x.len() + o.len());
        for &c in &x {
            prop_assert_eq!(set_up.stone(c), Some(Player::X));
        }
        for &c in &o {
            prop_assert_eq!(set_up.stone(c), Some(Player::O));
        }
        prop_assert_eq!(set_up.stones().count(), set_up.ply());
        let mut pos = set_up.clone();
        let mut played = 0;
        loop {
            prop_assert_eq!(pos.hash(), pos.fresh_hash());
            let scanned = pos.scan_outcome();
            prop_assert_eq!(pos.outcome().is_over(), scanned.is_over(), "{}", pos);
            prop_assert_eq!(pos.outcome().winner(), scanned.winner(), "{}", pos);
            let moves = pos.legal_moves();
            if played == later.len() || moves.is_empty() {
                break;
            }
            pos.play(moves[later[played] % moves.len()]);
            played += 1;
        }
        for _ in 0..played {
            prop_assert!(pos.undo().is_some());
        }
        prop_assert_eq!(&pos, &set_up);
        prop_assert_eq!(pos.hash(), set_up.hash());
        prop_assert_eq!(pos.undo().is_some(), set_up.setup_stones() < set_up.ply());
    }

    #[test]
    fn records_round_trip(rules in rules_strategy(), choices in prop::collection::vec(any::<usize>(), 0..50)) {
        let pos = play_out(rules, &choices);
        let record = Record(pos.history().to_vec());
        let text = record.to_string();
        prop_assert_eq!(text.parse::<Record>().unwrap(), record.clone());
        prop_assert_eq!(Position::from_moves(rules, &record.0).unwrap(), pos);
    }

    #[test]
    fn diagrams_round_trip(rules in rules_strategy(), choices in prop::collection::vec(any::<usize>(), 0..50)) {
        let pos = play_out(rules, &choices);
        let parsed = Position::from_diagram(rules, &pos.to_string()).unwrap();
        prop_assert_eq!(&parsed, &pos);
        prop_assert_eq!(parsed.outcome().winner(), pos.outcome().winner());
        prop_assert_eq!(parsed.is_over(), pos.is_over());
    }

    #[test]
    fn cells_round_trip(x in -1000i32..1000, y in -1000i32..1000) {
        let cell = Cell::new(x, y);
        prop_assert_eq!(cell.to_string().parse::<Cell>().unwrap(), cell);
    }

    #[test]
    fn symmetries_preserve_the_outcome(choices in prop::collection::vec(any::<usize>(), 0..25), n in 3u32..7, k in 3u32..5) {
        let rules = Rules::bounded(n, n, k.min(n)).unwrap();
        let pos = play_out(rules, &choices);
        for s in rules.symmetries() {
            let moved: Vec<Cell> = pos.history().iter().map(|&c| s.apply(c, n, n)).collect();
            let image = Position::from_moves(rules, &moved).unwrap();
            prop_assert_eq!(image.outcome().winner(), pos.outcome().winner());
            prop_assert_eq!(image.is_over(), pos.is_over());
        }
    }
}

#[test]
fn a_game_spanning_thousands_of_cells_is_cheap() {
    let rules = mnk_core::Preset::Unbounded.rules();
    let mut pos = Position::new(rules);
    for i in 0..2000 {
        // Stones far apart: the cost must follow the stones, not the span.
        pos.play(Cell::new(i * 1000 - 1_000_000, (i % 7) * 100_000));
    }
    assert!(!pos.is_over());
    assert_eq!(pos.ply(), 2000);
    assert!(pos
        .to_string()
        .starts_with("stones: X -1000000,0, O -999000,100000"));
}
