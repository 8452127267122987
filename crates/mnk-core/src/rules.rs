//! The rules of one k-in-a-row game, validated at construction.

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;
use crate::player::Player;
use crate::symmetry::Symmetry;

/// The widest and tallest bounded board mnk plays on.
pub const MAX_SIDE: u32 = 32;
/// The longest line the rules may ask for.
pub const MAX_K: u32 = 32;

/// The shape of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// `width` columns by `height` rows.
    Bounded {
        /// Number of columns.
        width: u32,
        /// Number of rows.
        height: u32,
    },
    /// A board without borders: cells have signed coordinates and the game never fills it.
    Unbounded,
}

/// What a line must look like to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Win {
    /// k or more stones in a row win.
    Freestyle,
    /// Exactly k stones in a row win; a longer line (an overline) does not.
    Exact,
    /// Renju, as the international rules (RIF) define it: the first player (black) wins with
    /// exactly five and may not play a double-three, a double-four or an overline (see
    /// [`crate::renju`]); the second player (white) wins with five or more and has no forbidden
    /// moves. Only for k = 5 on a bounded board.
    Renju,
    /// Caro (Gomocup's rule flag 8, "Vietnamese gomoku"): exactly five wins, unless the
    /// opponent's stones close both of its ends. The board's edge is not a stone and closes
    /// nothing. Only for k = 5 on a bounded board.
    Caro,
}

impl Win {
    /// The name the text form of [`Rules`] uses for this win condition.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Win::Freestyle => "freestyle",
            Win::Exact => "exact",
            Win::Renju => "renju",
            Win::Caro => "caro",
        }
    }

    /// Whether the win condition belongs to five in a row only (renju and caro), so that
    /// [`Rules::new`] takes it only with k = 5 on a bounded board.
    #[must_use]
    pub fn needs_five_on_a_board(self) -> bool {
        matches!(self, Win::Renju | Win::Caro)
    }
}

impl fmt::Display for Win {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a set of rules was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Width or height is zero.
    ZeroSize,
    /// Width or height is above [`MAX_SIDE`].
    TooLarge {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// k is zero.
    ZeroK,
    /// k is above [`MAX_K`].
    KTooLarge(u32),
    /// No line of k fits on the board.
    KDoesNotFit {
        /// The k asked for.
        k: u32,
        /// The width of the board.
        width: u32,
        /// The height of the board.
        height: u32,
    },
    /// Renju or caro with a k other than five.
    NotFive {
        /// The win condition asked for.
        win: Win,
        /// The k asked for.
        k: u32,
    },
    /// Renju or caro on the unbounded board.
    NeedsBorders(Win),
    /// A rules string could not be read.
    Syntax(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::ZeroSize => write!(f, "the board needs at least one row and one column"),
            RulesError::TooLarge { width, height } => write!(
                f,
                "a {width}x{height} board is too large: each side can be at most {MAX_SIDE} (or play on the unbounded board)"
            ),
            RulesError::ZeroK => write!(f, "k must be at least 1"),
            RulesError::KTooLarge(k) => write!(f, "k = {k} is too large: at most {MAX_K}"),
            RulesError::KDoesNotFit { k, width, height } => write!(
                f,
                "no line of {k} fits on a {width}x{height} board: k can be at most {}",
                width.max(height)
            ),
            RulesError::NotFive { win, k } => write!(
                f,
                "{win} is five in a row: k must be 5, not {k} (or choose freestyle or exact)"
            ),
            RulesError::NeedsBorders(win) => write!(
                f,
                "{win} is played on a bounded board such as 15x15, not on the unbounded one"
            ),
            RulesError::Syntax(text) => write!(
                f,
                "cannot read rules '{text}': write WxHxK such as 15x15x5, or infxK for the unbounded board, optionally followed by ',exact', ',renju' or ',caro' and by ',o-first', or a preset name ({})",
                Preset::ALL.iter().map(|p| p.id()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// The rules of a game: the board, k, the win condition and who moves first.
///
/// Only [`Rules::new`] builds one, so every `Rules` value is playable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    board: Board,
    k: u32,
    win: Win,
    first: Player,
}

impl Rules {
    /// Validates and builds a set of rules.
    ///
    /// ```
    /// use mnk_core::{Board, Player, Rules, RulesError, Win};
    /// let r = Rules::new(Board::Bounded { width: 15, height: 15 }, 5, Win::Freestyle, Player::X);
    /// assert!(r.is_ok());
    /// let bad = Rules::new(Board::Bounded { width: 3, height: 3 }, 4, Win::Freestyle, Player::X);
    /// assert!(matches!(bad, Err(RulesError::KDoesNotFit { .. })));
    /// ```
    pub fn new(board: Board, k: u32, win: Win, first: Player) -> Result<Rules, RulesError> {
        if k == 0 {
            return Err(RulesError::ZeroK);
        }
        if k > MAX_K {
            return Err(RulesError::KTooLarge(k));
        }
        if let Board::Bounded { width, height } = board {
            if width == 0 || height == 0 {
                return Err(RulesError::ZeroSize);
            }
            if width > MAX_SIDE || height > MAX_SIDE {
                return Err(RulesError::TooLarge { width, height });
            }
            if k > width.max(height) {
                return Err(RulesError::KDoesNotFit { k, width, height });
            }
        }
        if win.needs_five_on_a_board() {
            if k != 5 {
                return Err(RulesError::NotFive { win, k });
            }
            if board == Board::Unbounded {
                return Err(RulesError::NeedsBorders(win));
            }
        }
        Ok(Rules {
            board,
            k,
            win,
            first,
        })
    }

    /// A bounded `width`×`height` board, k in a row, freestyle, X first.
    pub fn bounded(width: u32, height: u32, k: u32) -> Result<Rules, RulesError> {
        Rules::new(
            Board::Bounded { width, height },
            k,
            Win::Freestyle,
            Player::X,
        )
    }

    /// The same rules with another win condition, validated as [`Rules::new`] validates (renju
    /// and caro need k = 5 on a bounded board).
    pub fn with_win(self, win: Win) -> Result<Rules, RulesError> {
        Rules::new(self.board, self.k, win, self.first)
    }

    /// The same rules with another player moving first.
    #[must_use]
    pub fn with_first(self, first: Player) -> Rules {
        Rules { first, ..self }
    }

    /// The board's shape.
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// How many in a row win.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The win condition.
    #[must_use]
    pub fn win(&self) -> Win {
        self.win
    }

    /// Who makes the first move.
    #[must_use]
    pub fn first(&self) -> Player {
        self.first
    }

    /// Width and height of a bounded board; `None` for the unbounded one.
    #[must_use]
    pub fn size(&self) -> Option<(u32, u32)> {
        match self.board {
            Board::Bounded { width, height } => Some((width, height)),
            Board::Unbounded => None,
        }
    }

    /// Whether the board has borders.
    #[must_use]
    pub fn is_bounded(&self) -> bool {
        matches!(self.board, Board::Bounded { .. })
    }

    /// Number of cells of a bounded board; `None` for the unbounded one.
    #[must_use]
    pub fn cell_count(&self) -> Option<usize> {
        self.size().map(|(w, h)| w as usize * h as usize)
    }

    /// Whether `cell` is on the board.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        match self.board {
            Board::Bounded { width, height } => {
                cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < width && (cell.y as u32) < height
            }
            Board::Unbounded => cell.in_range(),
        }
    }

    /// Every cell of a bounded board, row by row from the bottom left; empty for the unbounded one.
    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        let (w, h) = self.size().unwrap_or((0, 0));
        (0..h as i32).flat_map(move |y| (0..w as i32).map(move |x| Cell::new(x, y)))
    }

    /// Index of an on-board cell in row-major order from the bottom left.
    #[must_use]
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        let (w, _) = self.size()?;
        self.contains(cell)
            .then(|| cell.y as usize * w as usize + cell.x as usize)
    }

    /// The symmetries of the board: 8 for a square, 4 for a rectangle, only the identity for the
    /// unbounded board (whose translations are not symmetries of a fixed frame).
    #[must_use]
    pub fn symmetries(&self) -> &'static [Symmetry] {
        match self.board {
            Board::Bounded { width, height } if width == height => &Symmetry::ALL,
            Board::Bounded { .. } => &Symmetry::RECTANGLE,
            Board::Unbounded => &Symmetry::ALL[..1],
        }
    }

    /// How this board writes a cell: `h8` on a bounded board, `x,y` on the unbounded one (where a
    /// letter name would change form as soon as a stone lands left of or below the first).
    #[must_use]
    pub fn cell_name(&self, cell: Cell) -> String {
        match self.board {
            Board::Bounded { .. } => cell.to_string(),
            Board::Unbounded => format!("{},{}", cell.x, cell.y),
        }
    }

    /// Whether an unbroken run of `length` of `player`'s stones wins: the one rule every win in
    /// mnk is decided by ([`crate::Position::wins_at`] and the outcome after each move ask it).
    /// `blocked_ends` says how many of the run's two ends (the cells just beyond it) hold an
    /// opponent's stone; a board edge is not a stone and does not count. Only caro looks at it.
    ///
    /// ```
    /// use mnk_core::{Player, Rules};
    /// let renju: Rules = "renju".parse().unwrap();
    /// assert!(renju.run_wins(Player::X, 5, 0));
    /// assert!(!renju.run_wins(Player::X, 6, 0), "black's overline does not win");
    /// assert!(renju.run_wins(Player::O, 6, 0), "white's does");
    /// let caro: Rules = "caro".parse().unwrap();
    /// assert!(caro.run_wins(Player::X, 5, 1));
    /// assert!(!caro.run_wins(Player::X, 5, 2), "closed at both ends by the opponent");
    /// assert!(!caro.run_wins(Player::X, 6, 0));
    /// ```
    #[must_use]
    pub fn run_wins(&self, player: Player, length: u32, blocked_ends: u32) -> bool {
        match self.win {
            Win::Freestyle => length >= self.k,
            Win::Exact => length == self.k,
            Win::Renju if self.has_forbidden_moves(player) => length == self.k,
            Win::Renju => length >= self.k,
            Win::Caro => length == self.k && blocked_ends < 2,
        }
    }

    /// Whether `player` has forbidden moves: the first player (black) under renju.
    #[must_use]
    pub fn has_forbidden_moves(&self, player: Player) -> bool {
        self.win == Win::Renju && player == self.first
    }
}

impl fmt::Display for Rules {
    /// The compact form `FromStr` reads back: `15x15x5`, `infx5`, `15x15x5,exact`,
    /// `15x15x5,renju`, `15x15x5,caro`, `3x3x3,o-first`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board {
            Board::Bounded { width, height } => write!(f, "{width}x{height}x{}", self.k)?,
            Board::Unbounded => write!(f, "infx{}", self.k)?,
        }
        if self.win != Win::Freestyle {
            write!(f, ",{}", self.win)?;
        }
        if self.first == Player::O {
            write!(f, ",o-first")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let text = s.trim().to_ascii_lowercase();
        if let Some(preset) = Preset::ALL.iter().find(|p| p.id() == text) {
            return Ok(preset.rules());
        }
        let syntax = || RulesError::Syntax(s.to_string());
        let mut parts = text.split(',').map(str::trim);
        let dims: Vec<&str> = parts
            .next()
            .ok_or_else(syntax)?
            .split('x')
            .map(str::trim)
            .collect();
        let number = |t: &str| t.parse::<u32>().map_err(|_| syntax());
        let (board, k) = match dims.as_slice() {
            ["inf", k] | ["unbounded", k] => (Board::Unbounded, number(k)?),
            [w, h, k] => (
                Board::Bounded {
                    width: number(w)?,
                    height: number(h)?,
                },
                number(k)?,
            ),
            _ => return Err(syntax()),
        };
        let (mut win, mut first) = (Win::Freestyle, Player::X);
        for option in parts {
            match option {
                "exact" => win = Win::Exact,
                "freestyle" => win = Win::Freestyle,
                "renju" => win = Win::Renju,
                "caro" => win = Win::Caro,
                "o-first" => first = Player::O,
                "x-first" => first = Player::X,
                _ => return Err(syntax()),
            }
        }
        Rules::new(board, k, win, first)
    }
}

/// Named rule sets that front-ends offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// 3×3, three in a row.
    TicTacToe,
    /// 9×9, five in a row (the board of the advanced tic-tac-toe this grew from).
    NineByNine,
    /// 15×15 gomoku, five or more.
    Gomoku15,
    /// 19×19 gomoku, five or more.
    Gomoku19,
    /// Standard gomoku: 15×15, exactly five.
    Standard,
    /// Five in a row without borders.
    Unbounded,
    /// Renju: 15×15, five in a row, black's forbidden moves.
    Renju,
    /// Caro: 15×15, exactly five, not closed at both ends by the opponent.
    Caro,
}

impl Preset {
    /// Every preset, in the order menus show them (`/api/presets`).
    pub const ALL: [Preset; 8] = [
        Preset::TicTacToe,
        Preset::NineByNine,
        Preset::Gomoku15,
        Preset::Gomoku19,
        Preset::Standard,
        Preset::Unbounded,
        Preset::Renju,
        Preset::Caro,
    ];

    /// A stable identifier for APIs and the command line.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Preset::TicTacToe => "tictactoe",
            Preset::NineByNine => "9x9",
            Preset::Gomoku15 => "gomoku15",
            Preset::Gomoku19 => "gomoku19",
            Preset::Standard => "standard",
            Preset::Unbounded => "unbounded",
            Preset::Renju => "renju",
            Preset::Caro => "caro",
        }
    }

    /// A name for people.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Preset::TicTacToe => "Tic-tac-toe (3×3, three in a row)",
            Preset::NineByNine => "9×9, five in a row",
            Preset::Gomoku15 => "Gomoku 15×15, five or more",
            Preset::Gomoku19 => "Gomoku 19×19, five or more",
            Preset::Standard => "Standard gomoku 15×15, exactly five",
            Preset::Unbounded => "Five in a row without borders",
            Preset::Renju => {
                "Renju 15×15 (black's double-three, double-four and overline are forbidden)"
            }
            Preset::Caro => "Caro 15×15, exactly five not closed at both ends",
        }
    }

    /// The rules of the preset.
    #[must_use]
    pub fn rules(self) -> Rules {
        let bounded = |w, h, k, win| {
            Rules::new(
                Board::Bounded {
                    width: w,
                    height: h,
                },
                k,
                win,
                Player::X,
            )
        };
        match self {
            Preset::TicTacToe => bounded(3, 3, 3, Win::Freestyle),
            Preset::NineByNine => bounded(9, 9, 5, Win::Freestyle),
            Preset::Gomoku15 => bounded(15, 15, 5, Win::Freestyle),
            Preset::Gomoku19 => bounded(19, 19, 5, Win::Freestyle),
            Preset::Standard => bounded(15, 15, 5, Win::Exact),
            Preset::Unbounded => Rules::new(Board::Unbounded, 5, Win::Freestyle, Player::X),
            Preset::Renju => bounded(15, 15, 5, Win::Renju),
            Preset::Caro => bounded(15, 15, 5, Win::Caro),
        }
        .expect("presets are valid")
    }
}

#[cfg(feature = "serde")]
pub use serde_impl::RulesSpec;

#[cfg(feature = "serde")]
mod serde_impl {
    //! Rules travel as `{"width":15,"height":15,"k":5,"win":"freestyle","first":"X"}`, or with
    //! `"unbounded": true` instead of width and height; they are validated on the way in.
    use super::*;

    /// Rules as they travel, before they are checked: [`RulesSpec::build`] says what is wrong
    /// with them as a [`RulesError`] (which `Rules`' own deserializer can only give as text).
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RulesSpec {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        width: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        height: Option<u32>,
        #[serde(default)]
        unbounded: bool,
        k: u32,
        #[serde(default = "freestyle")]
        win: Win,
        #[serde(default = "x_first")]
        first: Player,
    }

    fn freestyle() -> Win {
        Win::Freestyle
    }

    fn x_first() -> Player {
        Player::X
    }

    impl serde::Serialize for Rules {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let size = self.size();
            RulesSpec {
                width: size.map(|(w, _)| w),
                height: size.map(|(_, h)| h),
                unbounded: size.is_none(),
                k: self.k,
                win: self.win,
                first: self.first,
            }
            .serialize(s)
        }
    }

    impl RulesSpec {
        /// The rules these fields describe, checked.
        pub fn build(self) -> Result<Rules, RulesError> {
            let board = match (self.unbounded, self.width, self.height) {
                (true, None, None) => Board::Unbounded,
                (false, Some(width), Some(height)) => Board::Bounded { width, height },
                (true, _, _) => {
                    return Err(RulesError::Syntax(
                        "an unbounded board has no width or height".into(),
                    ))
                }
                (false, _, _) => {
                    return Err(RulesError::Syntax(
                        "give both width and height, or \"unbounded\": true".into(),
                    ))
                }
            };
            Rules::new(board, self.k, self.win, self.first)
        }
    }

    impl<'de> serde::Deserialize<'de> for Rules {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
            RulesSpec::deserialize(d)?
                .build()
                .map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_rules_are_refused_with_reasons() {
        assert_eq!(Rules::bounded(0, 3, 3), Err(RulesError::ZeroSize));
        assert_eq!(Rules::bounded(3, 3, 0), Err(RulesError::ZeroK));
        assert!(matches!(
            Rules::bounded(33, 3, 3),
            Err(RulesError::TooLarge { .. })
        ));
        assert!(matches!(
            Rules::bounded(3, 3, 4),
            Err(RulesError::KDoesNotFit { .. })
        ));
        assert!(Rules::bounded(1, 1, 1).is_ok());
        assert!(Rules::bounded(32, 32, 32).is_ok());
        assert!(Rules::bounded(5, 1, 5).is_ok());
        assert!(Rules::new(Board::Unbounded, 40, Win::Freestyle, Player::X).is_err());
        let message = Rules::bounded(3, 3, 4).unwrap_err().to_string();
        assert!(message.contains("at most 3"), "{message}");
    }

    #[test]
    fn rules_strings_round_trip() {
        for text in [
            "3x3x3",
            "15x15x5,exact",
            "infx5",
            "7x4x4,o-first",
            "infx6,exact,o-first",
            "15x15x5,renju",
            "15x15x5,caro",
            "19x19x5,renju,o-first",
            "9x7x5,caro",
        ] {
            let rules: Rules = text.parse().unwrap();
            assert_eq!(rules.to_string(), text);
        }
        assert_eq!(
            "gomoku15".parse::<Rules>().unwrap(),
            Preset::Gomoku15.rules()
        );
        for preset in Preset::ALL {
            assert_eq!(preset.id().parse::<Rules>(), Ok(preset.rules()));
            let text = preset.rules().to_string();
            assert_eq!(text.parse::<Rules>(), Ok(preset.rules()), "{text}");
        }
        assert_eq!(Preset::Renju.rules().to_string(), "15x15x5,renju");
        assert_eq!(Preset::Caro.rules().to_string(), "15x15x5,caro");
        assert_eq!("15X15X5, Renju".parse::<Rules>(), Ok(Preset::Renju.rules()));
        for bad in [
            "",
            "3x3",
            "3x3x4",
            "axbxc",
            "15x15x5,gomoku",
            "0x0x1",
            "15x15x5,renju,",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad}");
        }
    }

    #[test]
    fn renju_and_caro_are_five_in_a_row_on_a_board() {
        for win in [Win::Renju, Win::Caro] {
            let on = |board, k| Rules::new(board, k, win, Player::X);
            let square = Board::Bounded {
                width: 15,
                height: 15,
            };
            assert!(on(square, 5).is_ok());
            assert_eq!(on(square, 4), Err(RulesError::NotFive { win, k: 4 }));
            assert_eq!(on(square, 6), Err(RulesError::NotFive { win, k: 6 }));
            assert_eq!(on(Board::Unbounded, 5), Err(RulesError::NeedsBorders(win)));
            let message = on(Board::Unbounded, 5).unwrap_err().to_string();
            assert!(message.contains("bounded board"), "{message}");
            let message = on(square, 4).unwrap_err().to_string();
            assert!(message.contains("k must be 5"), "{message}");
            assert_eq!(
                Rules::bounded(15, 15, 4).unwrap().with_win(win),
                Err(RulesError::NotFive { win, k: 4 })
            );
        }
        assert_eq!(
            "infx5,caro".parse::<Rules>(),
            Err(RulesError::NeedsBorders(Win::Caro))
        );
        assert_eq!(
            "15x15x4,renju".parse::<Rules>(),
            Err(RulesError::NotFive {
                win: Win::Renju,
                k: 4
            })
        );
        assert_eq!(
            Rules::bounded(15, 15, 5).unwrap().with_win(Win::Renju),
            Ok(Preset::Renju.rules())
        );
    }

    #[test]
    fn who_wins_with_which_run() {
        let freestyle = Preset::Gomoku15.rules();
        let exact = Preset::Standard.rules();
        let renju = Preset::Renju.rules();
        let caro = Preset::Caro.rules();
        for p in [Player::X, Player::O] {
            assert!(freestyle.run_wins(p, 6, 2) && !freestyle.run_wins(p, 4, 0));
            assert!(exact.run_wins(p, 5, 2) && !exact.run_wins(p, 6, 0));
            assert!(caro.run_wins(p, 5, 0) && caro.run_wins(p, 5, 1));
            assert!(!caro.run_wins(p, 5, 2) && !caro.run_wins(p, 6, 0));
        }
        assert!(renju.has_forbidden_moves(Player::X) && !renju.has_forbidden_moves(Player::O));
        assert!(!renju.run_wins(Player::X, 6, 0) && renju.run_wins(Player::O, 7, 2));
        let o_first = renju.with_first(Player::O);
        assert!(o_first.has_forbidden_moves(Player::O) && !o_first.run_wins(Player::O, 6, 0));
        assert!(!exact.has_forbidden_moves(Player::X));
    }

    #[test]
    fn presets_are_what_they_say() {
        assert_eq!(Preset::Standard.rules().to_string(), "15x15x5,exact");
        assert_eq!(Preset::Unbounded.rules().to_string(), "infx5");
        assert_eq!(Preset::Renju.rules().to_string(), "15x15x5,renju");
        assert_eq!(Preset::TicTacToe.rules().symmetries().len(), 8);
        assert_eq!(Rules::bounded(4, 3, 3).unwrap().symmetries().len(), 4);
    }
}
