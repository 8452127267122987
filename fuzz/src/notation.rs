//! Checks for mnk-core's notations: move records (and the cells in them), diagrams, rules text
//! and Piskvork `.psq` files.
//!
//! Each check takes the fuzzer's bytes, reads them the way a front-end would, and panics when a
//! property fails: what parses must print back to text that parses to the same value, and what
//! mnk-core computes two ways (incrementally while playing, from scratch by a scan) must agree.
//! This file uses only mnk-core and std, so mnk-core's replay test includes it as it is.

use mnk_core::renju::reference;
use mnk_core::{
    Cell, Outcome, PlayError, Position, Psq, PsqError, Record, Rules, MAX_COORD, MAX_PICTURE_SPAN,
    MAX_SIDE,
};

/// Whether both coordinates lie within ±[`MAX_COORD`], computed without `Cell::in_range` (and
/// without `i32` arithmetic that could overflow), so that a bug there cannot hide itself.
fn within_range(c: Cell) -> bool {
    let limit = i64::from(MAX_COORD);
    i64::from(c.x).abs() <= limit && i64::from(c.y).abs() <= limit
}

/// A move record: `h8 i9 -2,3`. Records and the cells in them round-trip; a record that fails
/// names its first bad cell; played on a 32×32 board, on the unbounded one and under renju and
/// caro, every refusal is the one the rules predict and the incremental hash and outcome match a
/// fresh scan.
pub fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    for token in &tokens {
        cell(token);
    }
    match text.parse::<Record>() {
        Ok(record) => {
            assert_eq!(
                record.0.len(),
                tokens.len(),
                "one cell per word of {text:?}"
            );
            for (cell, token) in record.0.iter().zip(&tokens) {
                assert_eq!(token.parse::<Cell>().as_ref(), Ok(cell), "{token:?}");
            }
            let printed = record.to_string();
            assert_eq!(
                printed.parse::<Record>().as_ref(),
                Ok(&record),
                "{text:?} printed as {printed:?}"
            );
            assert!(
                !printed.contains("  ") && printed.trim() == printed,
                "{printed:?} is not single-spaced"
            );
            for rules in ["32x32x5", "infx5", "infx3,exact", "renju", "caro"] {
                play_record(rules.parse().expect("valid rules"), &record.0);
            }
        }
        Err(e) => {
            let first_bad = tokens
                .iter()
                .find(|t| t.parse::<Cell>().is_err())
                .unwrap_or_else(|| panic!("{text:?} refused ({e}) but every word is a cell"));
            assert_eq!(e.text, *first_bad, "the error names the first bad cell");
            assert!(!e.to_string().is_empty());
        }
    }
}

/// One cell in either notation: it round-trips through `Display`, both its names under a board's
/// rules read back, and it lies within the coordinate range.
pub fn cell(text: &str) {
    let Ok(cell) = text.parse::<Cell>() else {
        return;
    };
    assert!(
        within_range(cell),
        "{text:?} parsed to {cell:?}, out of range"
    );
    assert!(cell.in_range(), "{cell:?} is in range");
    let printed = cell.to_string();
    assert_eq!(
        printed.parse::<Cell>(),
        Ok(cell),
        "{text:?} printed as {printed:?}"
    );
    let xy = format!("{},{}", cell.x, cell.y);
    assert_eq!(xy.parse::<Cell>(), Ok(cell), "{xy:?}");
    if cell.x >= 0 && cell.y >= 0 {
        assert!(
            printed.starts_with(|c: char| c.is_ascii_lowercase()),
            "{printed:?} should use letters"
        );
    }
}

/// Plays `moves` one by one with `try_play`: each refusal must be the one the rules predict
/// (game over, off the board, occupied, forbidden to black under renju as the slow reference
/// checker sees it, in that order), a refusal changes nothing, and after every move the
/// incremental hash and outcome equal the ones computed from scratch.
fn play_record(rules: Rules, moves: &[Cell]) {
    let mut pos = Position::new(rules);
    for &cell in moves {
        let expected = if pos.is_over() {
            Err(PlayError::GameOver)
        } else if !rules.contains(cell) {
            Err(PlayError::OffBoard(cell))
        } else if pos.history().contains(&cell) {
            Err(PlayError::Occupied(cell))
        } else if let Some(kind) = rules
            .has_forbidden_moves(pos.to_move())
            .then(|| reference::forbidden_kind(&pos, cell))
            .flatten()
        {
            Err(PlayError::Forbidden { cell, kind })
        } else {
            Ok(())
        };
        let before = pos.clone();
        assert_eq!(
            pos.try_play(cell),
            expected,
            "{rules} after {:?}",
            pos.history()
        );
        if expected.is_err() {
            assert_eq!(pos, before, "a refused move changed the position");
            assert_eq!(pos.hash(), before.hash());
            continue;
        }
        assert_eq!(pos.hash(), pos.fresh_hash(), "{rules}: {:?}", pos.history());
        same_outcome(pos.outcome(), &pos.scan_outcome(), &rules, pos.history());
        if let Outcome::Win { winner, line } = pos.outcome() {
            assert!(
                line.contains(&cell),
                "the winning line runs through the last stone"
            );
            assert!(line.iter().all(|&c| pos.stone(c) == Some(*winner)));
            // The line is a whole run: the cells beyond both ends are not the winner's. (The
            // records are played under rules of k >= 3, so the line has a direction.)
            let (first, last) = (line[0], line[line.len() - 1]);
            let (dx, dy) = ((last.x - first.x).signum(), (last.y - first.y).signum());
            let beyond = [first.offset(dx, dy, -1), last.offset(dx, dy, 1)];
            assert!(beyond.iter().all(|&c| pos.stone(c) != Some(*winner)));
            let blocked = beyond
                .iter()
                .filter(|&&c| pos.stone(c) == Some(winner.opponent()))
                .count() as u32;
            assert!(rules.run_wins(*winner, line.len() as u32, blocked));
        }
    }
    // Undoing everything returns to the empty board and its hash.
    let mut back = pos.clone();
    while back.undo().is_some() {
        assert_eq!(back.hash(), back.fresh_hash());
    }
    assert_eq!(back, Position::new(rules));
}

/// Whether two outcomes say the same thing: same status and same winner (two winning lines made
/// by one stone may be reported in either order, so the lines are not compared).
fn same_outcome(a: &Outcome, b: &Outcome, rules: &Rules, moves: &[Cell]) {
    assert_eq!(
        (a.is_over(), a.winner()),
        (b.is_over(), b.winner()),
        "{rules}: incremental {a:?} but scan {b:?} after {moves:?}"
    );
}

/// A diagram: the first line is a rules string, the rest a diagram under those rules. A diagram
/// that reads prints back to one that reads as the same position; its rebuilt history is a legal
/// game that replays with `try_play` to the same position and outcome; its hash and outcome
/// match a fresh scan.
pub fn diagram(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, picture) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(rules) = first.parse::<Rules>() else {
        return;
    };
    let pos = match Position::from_diagram(rules, picture) {
        Ok(pos) => pos,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    assert_eq!(pos.rules(), &rules);
    for (c, _) in pos.stones() {
        assert!(
            within_range(c) && rules.contains(c),
            "{rules}: a stone on {c:?}"
        );
    }
    assert_eq!(pos.hash(), pos.fresh_hash(), "{rules}\n{picture}");
    same_outcome(pos.outcome(), &pos.scan_outcome(), &rules, pos.history());
    // The rebuilt history is a placement order; under exactly-k rules it may pass through a
    // win that a later overline undoes (see `Position::from_stones`), so only freestyle
    // histories must replay as games.
    if rules.win() == mnk_core::Win::Freestyle {
        let replayed = Position::from_moves(rules, pos.history())
            .unwrap_or_else(|(i, e)| panic!("{rules}: move {i} of the rebuilt history fails: {e}"));
        assert_eq!(
            replayed, pos,
            "{rules}: the history replays to another position"
        );
        same_outcome(replayed.outcome(), pos.outcome(), &rules, pos.history());
    }

    let printed = pos.to_string();
    if printed.starts_with("stones:") {
        let (lo, hi) = pos.stone_bounds().expect("a list has stones");
        assert!(
            hi.x - lo.x > MAX_PICTURE_SPAN || hi.y - lo.y > MAX_PICTURE_SPAN,
            "a narrow position printed as a list:\n{printed}"
        );
        return;
    }
    let again = Position::from_diagram(rules, &printed)
        .unwrap_or_else(|e| panic!("{rules}: the printed diagram does not read ({e}):\n{printed}"));
    assert_eq!(again, pos, "{rules}: printed as\n{printed}");
    same_outcome(again.outcome(), pos.outcome(), &rules, pos.history());
    assert_eq!(again.to_string(), printed, "printing is stable");
}

/// Rules text: what reads prints back to the same rules, which `Rules::new` accepts as they are;
/// case and surrounding spaces do not matter.
pub fn rules(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = text.parse::<Rules>();
    let upper = text.to_ascii_uppercase().parse::<Rules>();
    let spaced = format!(" {text}\t").parse::<Rules>();
    assert_eq!(
        parsed.as_ref().ok(),
        upper.as_ref().ok(),
        "case of {text:?}"
    );
    assert_eq!(
        parsed.as_ref().ok(),
        spaced.as_ref().ok(),
        "spaces around {text:?}"
    );
    match parsed {
        Ok(rules) => {
            let printed = rules.to_string();
            assert_eq!(
                printed.parse::<Rules>(),
                Ok(rules),
                "{text:?} printed as {printed:?}"
            );
            assert_eq!(
                Rules::new(rules.board(), rules.k(), rules.win(), rules.first()),
                Ok(rules)
            );
            assert!(rules.k() >= 1);
            if let Some((w, h)) = rules.size() {
                assert!(rules.k() <= w.max(h), "{printed}: k does not fit");
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// A Piskvork `.psq` file. Line ends (CRLF or LF) and a byte-order mark do not change what it
/// reads as. What reads has a board mnk plays and moves on distinct cells of it; they play under
/// the implied rules until the game ends, never refused otherwise; written back, the file reads
/// as the same game, and each written move line, converted by hand (1-based, rows from the top),
/// is the move. A refusal names a move exactly when it is about one.
pub fn psq(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let read = text.parse::<Psq>();
    assert_eq!(
        text.replace("\r\n", "\n").parse::<Psq>(),
        read,
        "CRLF and LF read alike: {text:?}"
    );
    if !text.starts_with('\u{feff}') {
        assert_eq!(
            format!("\u{feff}{text}").parse::<Psq>(),
            read,
            "a byte-order mark is skipped: {text:?}"
        );
    }
    let psq = match read {
        Ok(psq) => psq,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            let about_a_move = matches!(e, PsqError::OffBoard { .. } | PsqError::Taken { .. });
            assert_eq!(e.index().is_some(), about_a_move, "{e:?}");
            return;
        }
    };
    let (width, height) = (psq.width(), psq.height());
    assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
    let rules = psq.rules().expect("a psq board always has rules");
    assert_eq!(rules.size(), Some((width, height)));
    let mut seen = std::collections::HashSet::new();
    for &c in psq.moves() {
        assert!(rules.contains(c), "{c:?} is off the {width}x{height} board");
        assert!(seen.insert(c), "{c:?} is taken twice");
    }
    // Under the implied rules the moves play until the game ends: the reader already refused
    // every other reason.
    let mut pos = Position::new(rules);
    for &c in psq.moves() {
        match pos.try_play(c) {
            Ok(()) => {}
            Err(PlayError::GameOver) => break,
            Err(e) => panic!("{c:?} refused after the reader accepted it: {e}"),
        }
    }
    assert_eq!(pos.hash(), pos.fresh_hash());

    let written = psq.to_string();
    assert_eq!(written.parse::<Psq>().as_ref(), Ok(&psq), "{written:?}");
    let mut lines = written.split("\r\n");
    assert_eq!(
        lines.next(),
        Some(format!("Piskvorky {width}x{height}, 0:0, 0").as_str())
    );
    let by_hand: Vec<Cell> = lines
        .filter_map(|line| {
            let mut fields = line.split(',');
            let x: i32 = fields.next()?.parse().ok()?;
            let y: i32 = fields.next()?.parse().ok()?;
            Some(Cell::new(x - 1, height as i32 - y))
        })
        .collect();
    assert_eq!(by_hand, psq.moves(), "{written:?}");
}
