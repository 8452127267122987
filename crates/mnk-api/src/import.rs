//! Import and export: a game pasted or loaded as text, and a game written back as text.
//!
//! `POST /api/import` recognises the text's format by itself, trying in turn:
//! 1. a Piskvork `.psq` file, when its first line that is not blank starts with `Piskvorky`
//!    ([`Psq`], whose documentation gives the coordinates);
//! 2. a board diagram, when a line is a row of `.`, `X` and `O` (labels allowed) or an `@ x,y`
//!    origin line ([`Position::from_diagram`]); the moves are then a rebuilt order, the players'
//!    stones alternating, since a diagram does not say in which order they came;
//! 3. otherwise a move record: every word a cell, `h8 i9 j10` or `x,y` pairs, read exactly as
//!    the API reads cells everywhere (0-based, rows from the bottom; Gomocup's top-left
//!    coordinates come only inside a `.psq` file, whose header says the board's height).
//!
//! The rules are the request's when it gives them (a `.psq` file's board must then be theirs);
//! otherwise the text implies them, always five in a row, freestyle, X first: a `.psq` file or a
//! diagram gives its board (k is then at most its longer side), a record is put on the smallest of
//! [`RECORD_SIDES`] that holds it, or on the unbounded board when none does, which only x,y pairs
//! reach: a cell named in letters beyond the largest board (`z99`) is refused as a mistake.
//!
//! The answer is what `/api/state` answers for the imported game, plus its format, so the page
//! loads it as it is. `POST /api/export` writes a game as a record, a `.psq` file or a diagram,
//! so the page never writes file formats itself. Neither endpoint thinks: they answer at once,
//! outside the engine pool.

use mnk_core::{Board, Cell, Player, Position, Psq, PsqError, Rules, Win, MAX_SIDE, PSQ_K};
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::error::ApiError;
use crate::game::{self, cell_names, check_move_count, parse_rules, state_json};

/// The square boards a move record is put on when the request gives no rules, smallest first.
pub const RECORD_SIDES: [u32; 3] = [15, 19, MAX_SIDE];

/// `POST /api/import`: text to read, and optionally the rules to read it under.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The text: a `.psq` file, a diagram or a move record.
    pub text: String,
    /// The rules, as in [`game::GameRequest`]; absent or `null` to take what the text implies.
    #[serde(default)]
    pub rules: Option<Json>,
}

/// `POST /api/export`: a game and the format to write it in.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// The rules, as in [`game::GameRequest`].
    pub rules: Json,
    /// The moves, as in [`game::GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// What to write.
    pub format: ExportFormat,
}

/// The formats a game can be exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// The moves on one line, as the API writes them (`h8 i9`; `x,y` on the unbounded board).
    Record,
    /// A Piskvork `.psq` file (bounded boards only).
    Psq,
    /// A board diagram (a list of stones when they spread too wide to draw).
    Diagram,
}

/// The formats text is recognised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Piskvork `.psq` file.
    Psq,
    /// A board diagram.
    Diagram,
    /// A move record in letter notation (`h8 i9`), possibly mixed with `x,y` cells.
    Record,
    /// A move record of `x,y` pairs only (`7,7 8,8`).
    Xy,
}

impl Format {
    /// The name the API gives the format.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Psq => "psq",
            Format::Diagram => "diagram",
            Format::Record => "record",
            Format::Xy => "xy",
        }
    }

    /// Recognises the format of non-empty text (see the module documentation).
    #[must_use]
    pub fn of(text: &str) -> Format {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty());
        if first.is_some_and(|l| {
            l.get(..9)
                .is_some_and(|s| s.eq_ignore_ascii_case("piskvorky"))
        }) {
            Format::Psq
        } else if text.lines().any(is_diagram_line) {
            Format::Diagram
        } else if text.split_whitespace().all(|w| w.contains(',')) {
            Format::Xy
        } else {
            Format::Record
        }
    }
}

/// Whether a line belongs to a diagram only: an origin line, or a row of `.`, `X` and `O`
/// (between optional row numbers). Words of a move record never are.
fn is_diagram_line(line: &str) -> bool {
    let line = line.trim();
    if line.starts_with('@') {
        return true;
    }
    let is_number = |w: &&str| w.bytes().all(|b| b.is_ascii_digit());
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = usize::from(words.first().is_some_and(is_number));
    let end = words.len() - usize::from(words.len() > start && words.last().is_some_and(is_number));
    let cells = words[start..end].concat();
    !cells.is_empty()
        && cells
            .chars()
            .all(|c| matches!(c, '.' | 'X' | 'x' | 'O' | 'o'))
}

/// Reads a game from text (see the module documentation). The checks come in the API's order:
/// the rules, then the text's format and notation, the number of moves, each move's legality.
pub fn read_game(text: &str, rules: Option<&Json>) -> Result<(Format, Position), ApiError> {
    let rules = rules.map(parse_rules).transpose()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ApiError::Import(
            "there is nothing to import: paste a move record such as \"h8 i9 j10\", a board diagram or a .psq file"
                .to_string(),
        ));
    }
    let format = Format::of(text);
    let pos = match format {
        Format::Psq => from_psq(text, rules)?,
        Format::Diagram => from_diagram(text, rules)?,
        Format::Record | Format::Xy => from_record(text, rules)?,
    };
    Ok((format, pos))
}

/// Five in a row (at most the longer side), freestyle, X first, on `board`.
fn implied_rules(board: Board) -> Result<Rules, ApiError> {
    let k = match board {
        Board::Bounded { width, height } => PSQ_K.min(width.max(height)),
        Board::Unbounded => PSQ_K,
    };
    Ok(Rules::new(board, k, Win::Freestyle, Player::X)?)
}

fn from_psq(text: &str, rules: Option<Rules>) -> Result<Position, ApiError> {
    let psq: Psq = text.parse().map_err(|e: PsqError| {
        let message = format!("the .psq file cannot be read: {e}");
        match e {
            PsqError::BoardSize { .. } => ApiError::BadRules(message),
            PsqError::OffBoard { index, .. } | PsqError::Taken { index, .. } => {
                ApiError::IllegalMove { index, message }
            }
            PsqError::Header { .. } | PsqError::MoveAfterEnd { .. } => ApiError::Import(message),
        }
    })?;
    let size = (psq.width(), psq.height());
    let rules = match rules {
        None => psq.rules()?,
        Some(rules) => match rules.size() {
            Some(given) if given != size => {
                return Err(ApiError::Import(format!(
                    "the .psq file is for a {}x{} board but the rules are for {}x{}: leave the rules out or choose a {}x{} board",
                    size.0, size.1, given.0, given.1, size.0, size.1
                )));
            }
            _ => rules,
        },
    };
    check_move_count(&rules, psq.moves().len())?;
    Position::from_moves(rules, psq.moves()).map_err(|(index, e)| ApiError::from_play(index, &e))
}

fn from_diagram(text: &str, rules: Option<Rules>) -> Result<Position, ApiError> {
    let unreadable = |e: mnk_core::DiagramError| {
        ApiError::Import(format!("the text reads as a board diagram, but {e}"))
    };
    let rules = match rules {
        Some(rules) => rules,
        None => implied_rules(Position::diagram_board(text).map_err(unreadable)?)?,
    };
    let pos = Position::from_diagram(rules, text).map_err(unreadable)?;
    check_move_count(&rules, pos.ply())?;
    // The answer's moves must replay as /api/state replays them. A diagram's rebuilt order
    // always does under freestyle rules; under exactly-k rules it may not (a win on the way that
    // a later overline undoes).
    Position::from_moves(rules, pos.history()).map_err(|(index, e)| {
        ApiError::Import(format!(
            "the diagram's stones cannot be put in a game order under these rules: placed one by one, move {} fails ({e})",
            index + 1
        ))
    })
}

fn from_record(text: &str, rules: Option<Rules>) -> Result<Position, ApiError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let rules = match rules {
        Some(rules) => rules,
        None => {
            letters_on_the_largest_board(&words)?;
            implied_rules(record_board(&words))?
        }
    };
    let moves: Vec<Json> = words.iter().map(|w| Json::from(*w)).collect();
    game::play(rules, &moves)
}

/// Refuses a cell named in letters and numbers (`z99`) beyond the largest board: such names are a
/// bounded board's, so a record read without rules that holds one is mistaken, not a game on the
/// board without borders (whose cells are written as x,y pairs).
fn letters_on_the_largest_board(words: &[&str]) -> Result<(), ApiError> {
    let side = MAX_SIDE as i32;
    for (index, word) in words.iter().enumerate() {
        let Some(cell) = word.parse::<Cell>().ok().filter(|_| !word.contains(',')) else {
            continue;
        };
        if cell.x >= side || cell.y >= side {
            return Err(ApiError::BadCell {
                index,
                message: format!(
                    "move {} ({word}) is beyond the largest board, {side}×{side} (columns a to {}, rows 1 to {side}): write the cells of the board without borders as x,y pairs",
                    index + 1,
                    mnk_core::column_name(MAX_SIDE - 1),
                ),
            }
            .worded(
                "beyond_largest_board",
                json!({ "move": index + 1, "cell": word, "side": side }),
            ));
        }
    }
    Ok(())
}

/// The board a record is put on without rules: the smallest of [`RECORD_SIDES`] that holds
/// every cell of it, else the unbounded board. Words that are not cells are left to the
/// refusal that follows.
fn record_board(words: &[&str]) -> Board {
    let cells: Vec<Cell> = words.iter().filter_map(|w| w.parse().ok()).collect();
    let fits = |side: u32| {
        cells
            .iter()
            .all(|c| c.x >= 0 && c.y >= 0 && (c.x as u32) < side && (c.y as u32) < side)
    };
    RECORD_SIDES
        .into_iter()
        .find(|&side| fits(side))
        .map_or(Board::Unbounded, |side| Board::Bounded {
            width: side,
            height: side,
        })
}

/// `import`: the game the text holds, as `state` answers it, with the format it was read as.
pub fn import(request: &ImportRequest) -> Result<Json, ApiError> {
    let (format, pos) = read_game(&request.text, request.rules.as_ref())?;
    let mut answer = state_json(&pos);
    answer["format"] = json!(format.name());
    Ok(answer)
}

/// Writes a game in a format.
pub fn write_game(pos: &Position, format: ExportFormat) -> Result<String, ApiError> {
    Ok(match format {
        ExportFormat::Record => cell_names(pos.rules(), pos.history()).join(" "),
        ExportFormat::Psq => Psq::from_position(pos)
            .ok_or_else(|| {
                ApiError::Unsupported(
                    "a .psq file holds a bounded board: export a game on the unbounded board as a record or a diagram"
                        .to_string(),
                )
            })?
            .to_string(),
        ExportFormat::Diagram => pos.to_string(),
    })
}

/// `export`: the game written in the format asked for.
pub fn export(request: &ExportRequest) -> Result<Json, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    let text = write_game(&pos, request.format)?;
    let format = match request.format {
        ExportFormat::Record => "record",
        ExportFormat::Psq => "psq",
        ExportFormat::Diagram => "diagram",
    };
    Ok(json!({ "format": format, "text": text }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, rules: Option<Json>) -> Result<(Format, Position), ApiError> {
        read_game(text, rules.as_ref())
    }

    fn moves(pos: &Position) -> String {
        cell_names(pos.rules(), pos.history()).join(" ")
    }

    #[test]
    fn formats_are_recognised() {
        let cases = [
            ("h8 i9 j10", Format::Record),
            ("7,7\n8,8\n", Format::Xy),
            ("h8 8,8", Format::Record),
            ("\n  PISKVORKY 15x15, 0:0, 0\n8,8,0", Format::Psq),
            ("X . O\n. X .\n. . .", Format::Diagram),
            ("  a b c\n3 X . O\n2 . X .\n1 . . .", Format::Diagram),
            ("@ -2,3\nXO", Format::Diagram),
            ("h8 zz", Format::Record),
            ("x o", Format::Diagram),
        ];
        for (text, format) in cases {
            assert_eq!(Format::of(text), format, "{text:?}");
        }
    }

    #[test]
    fn records_take_the_rules_or_the_smallest_board() {
        let (format, pos) = read("h8 i9 j10", None).unwrap();
        assert_eq!(format, Format::Record);
        assert_eq!(pos.rules().size(), Some((15, 15)));
        assert_eq!(moves(&pos), "h8 i9 j10");
        let (_, pos) = read("h8 s19", None).unwrap();
        assert_eq!(pos.rules().size(), Some((19, 19)));
        let (_, pos) = read("h8 t20", None).unwrap();
        assert_eq!(pos.rules().size(), Some((32, 32)));
        let (format, pos) = read("0,0 -1,1", None).unwrap();
        assert_eq!(format, Format::Xy);
        assert!(!pos.rules().is_bounded());
        // x,y pairs are the API's cells: 0-based, rows from the bottom.
        let (_, pos) = read("0,0\n2,1", Some(json!("tictactoe"))).unwrap();
        assert_eq!(moves(&pos), "a1 c2");
        let e = read("h8 zz", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("bad_cell", Some(1)));
        // Letters name a bounded board's cells: beyond the largest one is a mistake, not a move
        // on the board without borders.
        let e = read("h8 z99", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("bad_cell", Some(1)));
        assert!(
            e.message().contains("beyond the largest board, 32×32"),
            "{}",
            e.message()
        );
        assert!(e.message().contains("columns a to af"), "{}", e.message());
        let e = read("ag1", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("bad_cell", Some(0)));
        let (_, pos) = read("af32 a1", None).unwrap();
        assert_eq!(pos.rules().size(), Some((32, 32)));
        // Under rules given with the text, a name is read as the API reads it everywhere.
        let (_, pos) = read("z99", Some(json!("infx5"))).unwrap();
        assert_eq!(moves(&pos), "25,98");
        let e = read("a1 a2 a3 b1 b2 b3 c1 c2 c3 a1", Some(json!("3x3x3"))).unwrap_err();
        assert_eq!(e.code(), "too_large");
    }

    #[test]
    fn psq_files_bring_their_board() {
        let text = "Piskvorky 10x12, 11:11, 0\r\n1,1,5\r\n10,12,7\r\n-1\r\n";
        let (format, pos) = read(text, None).unwrap();
        assert_eq!(format, Format::Psq);
        assert_eq!(*pos.rules(), Rules::bounded(10, 12, 5).unwrap());
        assert_eq!(moves(&pos), "a12 j1");
        let (_, exact) = read(text, Some(json!("10x12x5,exact"))).unwrap();
        assert_eq!(exact.rules().win(), Win::Exact);
        let (_, unbounded) = read(text, Some(json!("infx5"))).unwrap();
        assert_eq!(unbounded.history(), pos.history());
        let e = read(text, Some(json!("15x15x5"))).unwrap_err();
        assert_eq!(e.code(), "import");
        assert!(e.message().contains("10x12"), "{}", e.message());
        let e = read("Piskvorky 33x33, 0:0, 0", None).unwrap_err();
        assert_eq!(e.code(), "bad_rules");
        let e = read("Piskvorky 15x15\n8,8\n8,8", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("illegal_move", Some(1)));
        let e = read("Piskvorky 15x15\n8,8\n20,1", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("illegal_move", Some(1)));
        let e = read("Piskvorky\n8,8", None).unwrap_err();
        assert_eq!(e.code(), "import");
        let e = read("Piskvorky 3x3\n1,1\n1,2\n2,1\n2,2\n3,1\n3,2", None).unwrap_err();
        assert_eq!((e.code(), e.index()), ("game_over", Some(5)));
    }

    #[test]
    fn diagrams_bring_their_board() {
        let (format, pos) = read("X . O\n. X .\n. . .", None).unwrap();
        assert_eq!(format, Format::Diagram);
        assert_eq!(*pos.rules(), mnk_core::Preset::TicTacToe.rules());
        assert_eq!(pos.ply(), 3);
        let (_, pos) = read("@ -2,3\nX O", None).unwrap();
        assert!(!pos.rules().is_bounded());
        assert_eq!(moves(&pos), "-2,3 -1,3");
        let (_, pos) = read("X . O .\n. X . .\n. . . .", Some(json!("4x3x3"))).unwrap();
        assert_eq!(pos.rules().size(), Some((4, 3)));
        let e = read("X . O\n. X .", Some(json!("tictactoe"))).unwrap_err();
        assert_eq!(e.code(), "import");
        let e = read("X X .\n. . .\n. . .", None).unwrap_err();
        assert_eq!(e.code(), "import");
        let e = read(&".".repeat(40), None).unwrap_err();
        assert_eq!(e.code(), "bad_rules");
    }

    #[test]
    fn empty_text_and_bad_rules_are_refused_first() {
        for text in ["", "  \n\t", "\u{feff}"] {
            assert_eq!(read(text, None).unwrap_err().code(), "import");
        }
        assert_eq!(
            read("", Some(json!("3x3x9"))).unwrap_err().code(),
            "bad_rules"
        );
    }

    #[test]
    fn games_export_in_every_format_and_import_back() {
        let pos = game::position(
            &json!("gomoku15"),
            &[json!("h8"), json!("a1"), json!("o15")],
        )
        .unwrap();
        for format in [
            ExportFormat::Record,
            ExportFormat::Psq,
            ExportFormat::Diagram,
        ] {
            let text = write_game(&pos, format).unwrap();
            let (_, back) = read(&text, Some(json!("gomoku15"))).unwrap();
            assert_eq!(back.ply(), 3, "{format:?}");
            if format != ExportFormat::Diagram {
                assert_eq!(back.history(), pos.history(), "{format:?}");
            }
        }
        assert_eq!(write_game(&pos, ExportFormat::Record).unwrap(), "h8 a1 o15");
        let unbounded = game::position(&json!("infx5"), &[json!("0,0")]).unwrap();
        let e = write_game(&unbounded, ExportFormat::Psq).unwrap_err();
        assert_eq!(e.code(), "unsupported");
        assert_eq!(write_game(&unbounded, ExportFormat::Record).unwrap(), "0,0");
    }
}
