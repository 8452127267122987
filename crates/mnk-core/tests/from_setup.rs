//! `Position::from_setup`: a board editor's position, any stone counts with the player to move
//! named; refused only when no board holds the stones.

use mnk_core::{Cell, Outcome, Player, Position, Psq, Rules, SetupError};

fn cells(names: &str) -> Vec<Cell> {
    names
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

fn setup(rules: &str, x: &str, o: &str, to_move: Player) -> Result<Position, SetupError> {
    let rules: Rules = rules.parse().unwrap();
    Position::from_setup(rules, &cells(x), &cells(o), to_move)
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

#[test]
fn any_counts_with_either_player_to_move() {
    // Four X stones in a column, three O stones: X to move, as a Gomocup GUI may send it.
    //    . . . . .
    // 11 . . . . .
    // 10 . . X O .
    //  9 . . X O .
    //  8 . . X O .
    //  7 . . X . .
    for to_move in [Player::X, Player::O] {
        let pos = setup("15x15x5", "h7 h8 h9 h10", "i8 i9 i10", to_move).unwrap();
        assert_eq!(pos.to_move(), to_move);
        assert!(!pos.is_over());
        assert_eq!(pos.ply(), 7);
        // With O to move a game reaches the stones (X began and has one more): its position.
        let placed = if to_move == Player::X { 7 } else { 0 };
        assert_eq!(pos.setup_stones(), placed);
        assert_eq!(pos.hash(), pos.fresh_hash());
        assert_eq!(pos.stone(cell("h7")), Some(Player::X));
        assert_eq!(pos.stone(cell("i8")), Some(Player::O));
        let owners: Vec<(Cell, Player)> = pos.stones().collect();
        assert_eq!(owners.len(), 7);
        for (c, p) in owners {
            assert_eq!(pos.stone(c), Some(p), "{c}");
        }
        assert_eq!(pos.winning_cells(Player::X), cells("h6 h11"));
    }
    // More O stones than X ones, X to move.
    let pos = setup("15x15x5", "a1", "h8 h9 h10", Player::X).unwrap();
    assert_eq!(pos.to_move(), Player::X);
    assert_eq!(pos.legal_moves().len(), 15 * 15 - 4);
}

#[test]
fn moves_alternate_after_the_setup_and_undo_stops_at_it() {
    let mut pos = setup("15x15x5", "h7 h8 h9 h10", "i8 i9 i10", Player::X).unwrap();
    let before = pos.clone();
    pos.play(cell("a1"));
    assert_eq!(pos.to_move(), Player::O);
    assert_eq!(pos.stone(cell("a1")), Some(Player::X));
    pos.play(cell("b1"));
    assert_eq!(pos.stone(cell("b1")), Some(Player::O));
    assert_eq!(pos.hash(), pos.fresh_hash());
    assert_eq!(pos.setup_stones(), 7);
    assert_eq!(pos.undo(), Some(cell("b1")));
    assert_eq!(pos.undo(), Some(cell("a1")));
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    // The set-up stones were not moves.
    assert_eq!(pos.undo(), None);
    assert_eq!(pos, before);
    // The win the setup left: X plays h11 and has five.
    pos.play(cell("h11"));
    assert_eq!(pos.outcome().winner(), Some(Player::X));
}

#[test]
fn counts_a_game_reaches_give_the_games_position() {
    for (x, o, to_move) in [("h8", "j9", Player::X), ("h8 h9", "j9", Player::O)] {
        let pos = setup("15x15x5", x, o, to_move).unwrap();
        assert_eq!(pos.setup_stones(), 0, "{x} / {o}");
        assert_eq!(pos, setup_game(x, o));
        // So it replays and writes as a game.
        assert_eq!(
            Position::from_moves(*pos.rules(), pos.history()).unwrap(),
            pos
        );
        assert!(Psq::from_position(&pos).is_some());
    }
    // The same stones with the other player to move are set up.
    let pos = setup("15x15x5", "h8", "j9", Player::O).unwrap();
    assert_eq!(pos.setup_stones(), 2);
    assert_eq!(pos.to_move(), Player::O);
    assert_ne!(pos, setup_game("h8", "j9"));
    assert!(
        Psq::from_position(&pos).is_none(),
        "a psq file would give the stones to the wrong players"
    );
}

fn setup_game(x: &str, o: &str) -> Position {
    Position::from_stones("15x15x5".parse().unwrap(), &cells(x), &cells(o)).unwrap()
}

#[test]
fn only_what_no_board_holds_is_refused() {
    assert_eq!(
        setup("3x3x3", "a1 d4", "", Player::X),
        Err(SetupError::OffBoard(cell("d4")))
    );
    assert_eq!(
        setup("3x3x3", "a1 b2 c3", "b2", Player::O),
        Err(SetupError::Duplicate(cell("b2")))
    );
    // A game ends at the first line, so no position has two players' lines, whatever the counts.
    for to_move in [Player::X, Player::O] {
        assert_eq!(
            setup("3x3x3", "a1 b1 c1", "a2 b2 c2", to_move),
            Err(SetupError::BothWon)
        );
        assert_eq!(
            setup("3x3x3", "a1 b1 c1", "a2 b2 c2 a3", to_move),
            Err(SetupError::BothWon)
        );
    }
}

#[test]
fn a_winning_line_or_a_full_board_ends_the_game() {
    // X's line with X to move: no game reaches it, an editor does; X has won.
    let pos = setup("3x3x3", "a1 b1 c1", "a2 b2", Player::X).unwrap();
    assert!(matches!(
        pos.outcome(),
        Outcome::Win {
            winner: Player::X,
            ..
        }
    ));
    assert!(pos.legal_moves().is_empty());
    // Uneven counts and two separate lines of one player: won all the same.
    let pos = setup("5x3x3", "a1 b1 c1 a3 b3 c3", "e2", Player::O).unwrap();
    assert_eq!(pos.outcome().winner(), Some(Player::X));
    // A full board without a line: drawn, whatever the counts.
    //  3 O X O
    //  2 O X X
    //  1 X O O
    let mut pos = setup("3x3x3", "a1 b2 b3 c2", "a2 a3 b1 c1 c3", Player::X).unwrap();
    assert_eq!(pos.outcome(), &Outcome::Draw(mnk_core::DrawKind::FullBoard));
    assert_eq!(pos.undo(), None);
}

#[test]
fn under_renju_the_rules_first_player_is_black_whatever_the_counts() {
    // Black (X) has f8 g8 and h9 h10 (two twos through h8: a double three there) and more stones
    // than white; with black to move, h8 is forbidden.
    let pos = setup("renju", "f8 g8 h9 h10 o15", "a1 c1", Player::X).unwrap();
    assert_eq!(pos.to_move(), Player::X);
    assert!(pos.check_move(cell("h8")).is_err());
    assert!(!pos.legal_moves().contains(&cell("h8")));
    assert_eq!(pos.forbidden_cells(), vec![cell("h8")]);
    // White to move may play it.
    let pos = setup("renju", "f8 g8 h9 h10 o15", "a1 c1", Player::O).unwrap();
    assert!(pos.check_move(cell("h8")).is_ok());
}
