//! Renju's forbidden moves on diagrams worked out by hand (`tests/data/renju.txt`, described in
//! `tests/data/README.md`): both checkers, the fast one behind `Position::forbidden_kind` and the
//! slow reference, must give every empty cell of every diagram exactly its mark, and `try_play`
//! must refuse the forbidden cells with their reason and change nothing.

use std::collections::BTreeMap;

use mnk_core::renju::reference;
use mnk_core::{Cell, DrawKind, ForbiddenKind, Outcome, PlayError, Position, Rules};

/// What a diagram says about one empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// `.` or `+`: black may play here (`+` draws the eye to a cell that looks forbidden).
    Free,
    /// `3`, `4`, `6`: forbidden as a double-three, a double-four, an overline.
    Forbidden(ForbiddenKind),
    /// `5`: black makes five here and wins (never forbidden).
    Five,
}

struct Diagram {
    title: String,
    rules: Rules,
    position: Position,
    marks: BTreeMap<Cell, Mark>,
}

fn read_diagrams() -> Vec<Diagram> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/renju.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/renju.txt");
    let mut diagrams = Vec::new();
    for block in text.split("\n== ").skip(1) {
        let mut lines = block.lines();
        let title = lines.next().expect("a title").trim().to_string();
        let mut rules_text = None;
        let mut rows: Vec<Vec<char>> = Vec::new();
        let mut picture = String::new();
        for line in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(r) = line.strip_prefix("rules ") {
                rules_text = Some(r.trim().to_string());
                continue;
            }
            let mut tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.first() == Some(&"a") {
                continue; // the column header
            }
            if tokens.first().is_some_and(|t| t.parse::<u32>().is_ok()) {
                tokens.remove(0);
            }
            let cells: Vec<char> = tokens.iter().flat_map(|t| t.chars()).collect();
            let plain: String = cells
                .iter()
                .map(|&c| if "XO.".contains(c) { c } else { '.' })
                .collect();
            picture.push_str(&plain);
            picture.push('\n');
            rows.push(cells);
        }
        let (width, height) = (rows[0].len(), rows.len());
        let rules: Rules = rules_text
            .unwrap_or_else(|| format!("{width}x{height}x5,renju"))
            .parse()
            .unwrap_or_else(|e| panic!("{title}: {e}"));
        let position = Position::from_diagram(rules, &picture)
            .unwrap_or_else(|e| panic!("{title}: {e}\n{picture}"));
        let mut marks = BTreeMap::new();
        for (r, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let cell = Cell::new(x as i32, (height - 1 - r) as i32);
                let mark = match ch {
                    'X' | 'O' => continue,
                    '.' | '+' => Mark::Free,
                    '3' => Mark::Forbidden(ForbiddenKind::DoubleThree),
                    '4' => Mark::Forbidden(ForbiddenKind::DoubleFour),
                    '6' => Mark::Forbidden(ForbiddenKind::Overline),
                    '5' => Mark::Five,
                    other => panic!("{title}: unknown mark {other:?}"),
                };
                marks.insert(cell, mark);
            }
        }
        diagrams.push(Diagram {
            title,
            rules,
            position,
            marks,
        });
    }
    diagrams
}

fn expected_kind(mark: Mark) -> Option<ForbiddenKind> {
    match mark {
        Mark::Forbidden(kind) => Some(kind),
        Mark::Free | Mark::Five => None,
    }
}

#[test]
fn both_checkers_find_exactly_the_marked_forbidden_points() {
    let diagrams = read_diagrams();
    let mut failures = Vec::new();
    for d in &diagrams {
        let pos = &d.position;
        for (&cell, &mark) in &d.marks {
            let expected = expected_kind(mark);
            let fast = pos.forbidden_kind(cell);
            let slow = reference::forbidden_kind(pos, cell);
            if fast != expected || slow != expected {
                failures.push(format!(
                    "{}: {cell} is marked {expected:?}, the fast checker says {fast:?}, the reference {slow:?}",
                    d.title
                ));
            }
        }
        let marked: Vec<Cell> = d
            .marks
            .iter()
            .filter(|(_, &m)| expected_kind(m).is_some())
            .map(|(&c, _)| c)
            .collect();
        let mut listed = pos.forbidden_cells();
        listed.sort();
        if listed != marked {
            failures.push(format!(
                "{}: forbidden_cells {listed:?}, marked {marked:?}",
                d.title
            ));
        }
        let black = d.rules.first();
        let mut fives = pos.winning_cells(black);
        fives.sort();
        let marked_fives: Vec<Cell> = d
            .marks
            .iter()
            .filter(|(_, &m)| m == Mark::Five)
            .map(|(&c, _)| c)
            .collect();
        if fives != marked_fives {
            failures.push(format!(
                "{}: black wins at {fives:?}, marked {marked_fives:?}",
                d.title
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn black_to_move_is_refused_the_forbidden_points_and_nothing_else() {
    let mut refused = 0;
    for d in read_diagrams() {
        let pos = &d.position;
        if pos.to_move() != d.rules.first() || pos.is_over() {
            continue;
        }
        let legal = pos.legal_moves();
        for (&cell, &mark) in &d.marks {
            let mut copy = pos.clone();
            let result = copy.try_play(cell);
            match mark {
                Mark::Forbidden(kind) => {
                    assert_eq!(
                        result,
                        Err(PlayError::Forbidden { cell, kind }),
                        "{}: {cell}",
                        d.title
                    );
                    assert_eq!(copy, *pos, "{}: a refusal changed the position", d.title);
                    assert_eq!(copy.hash(), pos.hash());
                    assert_eq!(copy.history(), pos.history());
                    assert!(
                        !legal.contains(&cell),
                        "{}: {cell} listed as legal",
                        d.title
                    );
                    let message = result.unwrap_err().to_string();
                    assert!(message.contains(kind.name()), "{message}");
                    refused += 1;
                }
                Mark::Five => {
                    assert_eq!(result, Ok(()), "{}: {cell}", d.title);
                    assert!(
                        matches!(copy.outcome(), Outcome::Win { winner, .. } if *winner == d.rules.first()),
                        "{}: {cell} should win",
                        d.title
                    );
                    assert!(legal.contains(&cell));
                }
                Mark::Free => {
                    assert_eq!(result, Ok(()), "{}: {cell}", d.title);
                    assert!(legal.contains(&cell));
                }
            }
        }
    }
    assert!(refused >= 40, "only {refused} refusals checked");
}

#[test]
fn the_diagrams_cover_every_kind() {
    let diagrams = read_diagrams();
    assert!(diagrams.len() >= 50, "{} diagrams", diagrams.len());
    let all: Vec<Mark> = diagrams
        .iter()
        .flat_map(|d| d.marks.values().copied())
        .collect();
    for kind in [
        ForbiddenKind::DoubleThree,
        ForbiddenKind::DoubleFour,
        ForbiddenKind::Overline,
    ] {
        let n = all.iter().filter(|&&m| m == Mark::Forbidden(kind)).count();
        assert!(n >= 10, "{kind:?} marked only {n} times");
    }
    assert!(all.iter().filter(|&&m| m == Mark::Five).count() >= 5);
    // White has no forbidden moves: after a quiet black move far from the marks, white may
    // play every free cell, the forbidden points of black included.
    for d in &diagrams {
        let mut pos = d.position.clone();
        if pos.to_move() != d.rules.first() {
            continue;
        }
        let Some(&quiet) = pos.legal_moves().iter().find(|&&c| {
            pos.rules()
                .cells()
                .all(|o| pos.stone(o).is_none() || distance(c, o) > 5)
        }) else {
            continue;
        };
        pos.play(quiet);
        for &cell in d.marks.keys() {
            if cell != quiet {
                let mut copy = pos.clone();
                assert_eq!(copy.try_play(cell), Ok(()), "{}: white at {cell}", d.title);
            }
        }
    }
}

fn distance(a: Cell, b: Cell) -> i32 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

#[test]
fn overline_then_double_four_then_double_three() {
    let renju: Rules = "renju".parse().unwrap();
    let cells =
        |s: &str| -> Vec<Cell> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
    // f8: c8-h8 would be six, and f8-f11 and f8-i11 two fours: the overline is the reason.
    let pos = Position::from_stones(
        renju,
        &cells("c8 d8 e8 g8 h8 f9 f10 f11 g9 h10 i11"),
        &cells("f12 j12 a1 c1 e1 g1 i1 k1 m1 o1 a3"),
    )
    .unwrap();
    let f8: Cell = "f8".parse().unwrap();
    assert_eq!(pos.forbidden_kind(f8), Some(ForbiddenKind::Overline));
    assert_eq!(
        reference::forbidden_kind(&pos, f8),
        Some(ForbiddenKind::Overline)
    );
    // h8: two closed fours (e8-h8, h8-h11) and the threes h8 i9 j10 and h8 g9 f10: the
    // double-four is the reason.
    let pos = Position::from_stones(
        renju,
        &cells("e8 f8 g8 h9 h10 h11 i9 j10 g9 f10"),
        &cells("d8 h12 a1 c1 e1 g1 i1 k1 m1 o1"),
    )
    .unwrap();
    let h8: Cell = "h8".parse().unwrap();
    assert_eq!(pos.forbidden_kind(h8), Some(ForbiddenKind::DoubleFour));
    assert_eq!(
        reference::forbidden_kind(&pos, h8),
        Some(ForbiddenKind::DoubleFour)
    );
}

#[test]
fn a_refused_move_changes_nothing_and_play_panics() {
    let renju: Rules = "renju".parse().unwrap();
    let cells =
        |s: &str| -> Vec<Cell> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
    let pos = Position::from_stones(renju, &cells("f8 g8 h9 h10"), &cells("a1 c1 e1 g1")).unwrap();
    let h8: Cell = "h8".parse().unwrap();
    let mut copy = pos.clone();
    let refused = copy.try_play(h8).unwrap_err();
    assert_eq!(
        refused,
        PlayError::Forbidden {
            cell: h8,
            kind: ForbiddenKind::DoubleThree
        }
    );
    assert_eq!(refused.to_string(), "h8 is forbidden to black under renju: it makes a double-three (two threes at once); choose another cell");
    assert_eq!(copy, pos);
    assert_eq!(copy.hash(), pos.hash());
    assert_eq!(copy.history(), pos.history());
    assert_eq!(copy.check_move(h8), Err(refused));
    let panicked = std::panic::catch_unwind(move || copy.play(h8));
    assert!(panicked.is_err());
    // The same stones under freestyle: h8 is an ordinary move.
    let free = Position::from_stones(
        "15x15x5".parse().unwrap(),
        &cells("f8 g8 h9 h10"),
        &cells("a1 c1 e1 g1"),
    )
    .unwrap();
    assert!(free.forbidden_cells().is_empty());
    assert_eq!(free.forbidden_kind(h8), None);
    // White to move may play black's forbidden point; so may black once it is not forbidden.
    let mut white =
        Position::from_stones(renju, &cells("f8 g8 h9 h10 o15"), &cells("a1 c1 e1 g1")).unwrap();
    assert_eq!(
        white.forbidden_cells(),
        vec![h8],
        "asked about black whoever moves"
    );
    assert_eq!(white.try_play(h8), Ok(()));
}

#[test]
fn black_with_only_forbidden_cells_left_draws() {
    let renju: Rules = "renju".parse().unwrap();
    // Two engines filled all but one cell, j11, a point black may not play: black, to move,
    // has no move, and without passes nobody can win any more, so it is a draw.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/renju-no-move.txt");
    let game = std::fs::read_to_string(path).unwrap();
    let moves: Vec<Cell> = game
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(moves.len(), 224);
    let mut pos = Position::new(renju);
    for (i, &m) in moves.iter().enumerate() {
        assert_eq!(pos.outcome(), &Outcome::Ongoing, "before move {}", i + 1);
        pos.try_play(m).unwrap();
    }
    let j11: Cell = "j11".parse().unwrap();
    assert!(pos.is_free(j11) && !pos.is_full());
    assert!(
        reference::forbidden_kind(&pos, j11).is_some(),
        "the slow checker forbids j11 too"
    );
    assert_eq!(pos.outcome(), &Outcome::Draw(DrawKind::NoMoveLeft));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.check_move(j11), Err(PlayError::GameOver));
    assert_eq!(
        DrawKind::NoMoveLeft.to_string(),
        "black has no move left that is not forbidden"
    );
    // Set up from the stones, the same draw; one white move back, white may still play j11.
    let again = Position::from_moves(renju, &moves).unwrap();
    assert_eq!(again.outcome(), &Outcome::Draw(DrawKind::NoMoveLeft));
    pos.undo();
    assert_eq!(pos.outcome(), &Outcome::Ongoing);
    assert_eq!(pos.check_move(j11), Ok(()));
    // Under freestyle the same stones leave black j11 to play.
    let free = Position::from_moves("15x15x5".parse().unwrap(), &moves).unwrap();
    assert_eq!(free.outcome(), &Outcome::Ongoing);
    assert_eq!(free.legal_moves(), vec![j11]);
}
