//! `Position::from_stones`: a position from its stones alone, or a typed reason why no game
//! reaches it.

use mnk_core::{Cell, DiagramError, Outcome, Player, Position, Rules, SetupError};

fn cells(names: &str) -> Vec<Cell> {
    names
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

fn setup(rules: &str, x: &str, o: &str) -> Result<Position, SetupError> {
    let rules: Rules = rules.parse().unwrap();
    Position::from_stones(rules, &cells(x), &cells(o))
}

#[test]
fn stones_must_be_on_the_board_and_one_to_a_cell() {
    let off = Cell::new(3, 0);
    assert_eq!(
        Position::from_stones("3x3x3".parse().unwrap(), &[off], &[]),
        Err(SetupError::OffBoard(off))
    );
    assert_eq!(
        setup("infx5", "-5,-5 0,0", "100,100"),
        Ok(Position::from_moves("infx5".parse().unwrap(), &cells("-5,-5 100,100 0,0")).unwrap())
    );
    let a1 = "a1".parse().unwrap();
    assert_eq!(
        setup("3x3x3", "a1 a1", "b2"),
        Err(SetupError::Duplicate(a1))
    );
    assert_eq!(setup("3x3x3", "a1", "a1"), Err(SetupError::Duplicate(a1)));
    let message = SetupError::Duplicate(a1).to_string();
    assert!(message.contains("a1"), "{message}");
}

#[test]
fn counts_must_alternate_from_the_first_player() {
    assert_eq!(
        setup("3x3x3", "a1 b1 c2", "b2"),
        Err(SetupError::BadCounts {
            first: 3,
            second: 1
        })
    );
    assert_eq!(
        setup("3x3x3", "a1", "b2 c3"),
        Err(SetupError::BadCounts {
            first: 1,
            second: 2
        })
    );
    // With O first, O may have one more.
    let pos = setup("3x3x3,o-first", "a1", "b2 c3").unwrap();
    assert_eq!(pos.to_move(), Player::X);
    assert_eq!(
        setup("3x3x3,o-first", "a1 b1", "b2"),
        Err(SetupError::BadCounts {
            first: 1,
            second: 2
        })
    );
}

#[test]
fn a_finished_game_must_have_been_finished_by_its_last_move() {
    assert_eq!(
        setup("3x3x3", "a1 b1 c1", "a2 b2 c2"),
        Err(SetupError::BothWon)
    );
    assert_eq!(
        setup("3x3x3", "a1 b1 c1", "a2 b2 a3"),
        Err(SetupError::WrongWinner {
            winner: Player::X,
            last_mover: Player::O
        })
    );
    assert_eq!(
        setup("5x3x3", "a1 b1 c1 a3 b3 c3", "a2 c2 d1 e2 d3"),
        Err(SetupError::SeveralWinningMoves)
    );
    let won = setup("3x3x3", "a1 b1 c1", "a2 b2").unwrap();
    assert!(matches!(
        won.outcome(),
        Outcome::Win {
            winner: Player::X,
            ..
        }
    ));
    // The rebuilt history alternates and ends with a stone of the line.
    let last = won.last_move().unwrap();
    assert!(cells("a1 b1 c1").contains(&last));
    let replayed = Position::from_moves(*won.rules(), won.history()).unwrap();
    assert_eq!(replayed, won);
    for e in [
        SetupError::BothWon,
        SetupError::SeveralWinningMoves,
        SetupError::WrongWinner {
            winner: Player::X,
            last_mover: Player::O,
        },
    ] {
        assert!(
            e.to_string()
                .starts_with("this position cannot arise in a game"),
            "{e}"
        );
    }
}

#[test]
fn the_rules_decide_what_counts_as_a_win() {
    // Six in a row: a win under freestyle, not under exactly five, caro or renju (black).
    let x = "b8 c8 d8 e8 f8 g8";
    let o = "a1 c1 e1 g1 i1";
    let freestyle = setup("15x15x5", x, o).unwrap();
    assert_eq!(freestyle.outcome().winner(), Some(Player::X));
    for rules in ["15x15x5,exact", "15x15x5,caro", "renju"] {
        let pos = setup(rules, x, o).unwrap();
        assert!(!pos.is_over(), "{rules}");
    }
    // Caro: a five closed at both ends is no win, so it may stand with O to move.
    let pos = setup("15x15x5,caro", "b8 c8 d8 e8 f8", "a8 g8 a1 c1 e1").unwrap();
    assert!(!pos.is_over());
}

#[test]
fn diagrams_report_setup_errors_as_such() {
    let err = Position::from_diagram("3x3x3".parse().unwrap(), "X X X\nO O O\n. . .").unwrap_err();
    assert_eq!(err, DiagramError::Setup(SetupError::BothWon));
    let err = Position::from_diagram("3x3x3".parse().unwrap(), "X X .\n. . .\n. . .").unwrap_err();
    assert!(matches!(
        err,
        DiagramError::Setup(SetupError::BadCounts { .. })
    ));
}
