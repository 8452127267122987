//! Set-up positions (`Position::from_setup`: stone counts that do not alternate, the player to
//! move named, as a Gomocup GUI's board editor sends them): the engine's board takes the stones'
//! owners and the side to move from the position, not from the counts, and the search plays
//! them like any other.

use mnk_core::{Cell, Player, Position, Rules};
use mnk_engine::search::board::Board;
use mnk_engine::search::Engine;
use mnk_engine::{Limits, Value};

/// A node budget that settles a win in one or a forced block at once.
const NODES: u64 = 50_000;

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

fn set_up(rules: &str, x: &str, o: &str, to_move: Player) -> Position {
    let rules: Rules = rules.parse().unwrap();
    Position::from_setup(rules, &cells(x), &cells(o), to_move).unwrap()
}

#[test]
fn the_search_board_takes_owners_and_side_from_the_position() {
    let pos = set_up("15x15x5", "h5 h6 h7 h8", "i5 i6 i7", Player::X);
    assert_eq!(pos.setup_stones(), 7);
    let board = Board::from_position(&pos);
    assert_eq!(board.to_move(), Player::X);
    let fresh = Board::from_position(
        &Position::from_stones(*pos.rules(), &cells("h5 h6 h7 h8"), &cells("i5 i6 i7")).unwrap(),
    );
    // The same stones as the game where O is to move, only the side differs.
    assert_eq!(format!("{board:?}"), format!("{fresh:?}"));
    assert_eq!(fresh.to_move(), Player::O);
}

#[test]
fn four_stones_to_three_with_the_four_to_move_wins_at_once() {
    // The Gomocup issue's position (protocol 7,7 7,8 7,9 7,10 against 8,8 8,9 8,10 on 15x15,
    // rows counted from the top): X's open four, X to move with a stone more than O.
    //  9 . . . .      h9 and h4 complete five
    //  8 . X . .
    //  7 . X O .
    //  6 . X O .
    //  5 . X O .
    //  4 . . . .
    //    g h i j
    let pos = set_up("15x15x5", "h5 h6 h7 h8", "i5 i6 i7", Player::X);
    let a = Engine::new(4)
        .analyse(&pos, &Limits::nodes(NODES), &mut |_| {})
        .unwrap();
    assert!(cells("h4 h9").contains(&a.best), "{}", a.best);
    assert_eq!(a.value, Value::Win(1));
}

#[test]
fn fewer_stones_to_move_still_blocks() {
    // O has six stones to X's four and a four i5-i8 closed at i9 by X; X to move must take i4.
    let pos = set_up("15x15x5", "h5 h6 h7 i9", "i5 i6 i7 i8 a1 o15", Player::X);
    assert_eq!(pos.setup_stones(), 10);
    let a = Engine::new(4)
        .analyse(&pos, &Limits::nodes(NODES), &mut |_| {})
        .unwrap();
    assert_eq!(a.best, "i4".parse().unwrap());
}

#[test]
fn renju_black_with_more_stones_keeps_off_its_forbidden_points() {
    // Black (X) has twos through h8 in its row and its column: a double three there, forbidden.
    // Black has more stones and is to move; whatever the engine likes, h8 is not its move.
    let pos = set_up("renju", "f8 g8 h9 h10 o15", "a1 c1", Player::X);
    assert_eq!(pos.forbidden_cells(), cells("h8"));
    let a = Engine::new(4)
        .analyse(&pos, &Limits::nodes(NODES), &mut |_| {})
        .unwrap();
    assert!(pos.check_move(a.best).is_ok(), "{}", a.best);
}
