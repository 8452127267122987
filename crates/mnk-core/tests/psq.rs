//! Piskvork `.psq` files: the hand-written files of `tests/data/` read as the moves written in
//! them, and every legal game survives writing and reading back.

use mnk_core::{Board, Cell, Outcome, Player, Position, Psq, Record, Rules, Win};
use proptest::prelude::*;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn record(text: &str) -> Vec<Cell> {
    text.parse::<Record>().expect("a record").0
}

#[test]
fn a_gomocup_file_reads_as_its_moves_and_its_win() {
    let psq: Psq = data("vertical-five-20x20.psq").parse().unwrap();
    assert_eq!((psq.width(), psq.height()), (20, 20));
    assert_eq!(psq.moves(), record("c19 r2 c18 r3 c17 q2 c16 s2 c15"));
    let rules = psq.rules().unwrap();
    assert_eq!(rules, Rules::bounded(20, 20, 5).unwrap());
    let pos = Position::from_moves(rules, psq.moves()).unwrap();
    let Outcome::Win { winner, line } = pos.outcome() else {
        panic!("the first player made five: {:?}", pos.outcome());
    };
    assert_eq!(*winner, Player::X);
    assert_eq!(line.len(), 5);
    assert!(line.iter().all(|c| c.x == 2), "{line:?}");
}

#[test]
fn a_rectangular_file_without_times_reads() {
    let psq: Psq = data("corners-15x10.psq").parse().unwrap();
    assert_eq!((psq.width(), psq.height()), (15, 10));
    assert_eq!(psq.moves(), record("h6 i5 a1 o10"));
}

#[test]
fn written_files_read_back_as_written_by_hand() {
    // The writer's output for the hand-written game differs from the file only in what the
    // format leaves free (levels, times, trailer), and reads back to the same moves.
    let psq: Psq = data("vertical-five-20x20.psq").parse().unwrap();
    let written = psq.to_string();
    let moves_of = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .filter_map(|l| l.rsplit_once(','))
            .map(|(xy, _)| xy.to_string())
            .filter(|xy| xy.contains(','))
            .collect()
    };
    assert_eq!(
        moves_of(&written),
        moves_of(&data("vertical-five-20x20.psq"))
    );
    assert!(written.starts_with("Piskvorky 20x20, 0:0, 0\r\n"));
    assert!(written.ends_with("\r\n-1\r\n"));
    assert_eq!(written.parse::<Psq>().unwrap(), psq);
}

fn bounded_rules() -> impl Strategy<Value = Rules> {
    (1u32..=32, 1u32..=32, 1u32..=6, any::<bool>(), any::<bool>()).prop_filter_map(
        "k must fit",
        |(width, height, k, exact, o_first)| {
            Rules::new(
                Board::Bounded { width, height },
                k,
                if exact { Win::Exact } else { Win::Freestyle },
                if o_first { Player::O } else { Player::X },
            )
            .ok()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A random legal game, written as a psq file and read back, has the same board and moves,
    /// and replays under its rules to the same position; LF line ends read the same as CRLF.
    #[test]
    fn games_round_trip(rules in bounded_rules(), choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let mut pos = Position::new(rules);
        for i in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[i % moves.len()]);
        }
        let psq = Psq::from_position(&pos).expect("a bounded board");
        let text = psq.to_string();
        let read: Psq = text.parse().unwrap();
        prop_assert_eq!(&read, &psq);
        prop_assert_eq!((read.width(), read.height()), rules.size().unwrap());
        prop_assert_eq!(read.moves(), pos.history());
        prop_assert_eq!(Position::from_moves(rules, read.moves()).unwrap(), pos);
        prop_assert_eq!(text.replace("\r\n", "\n").parse::<Psq>().unwrap(), psq);
    }
}
