//! The brain's side of one conversation: the board as the manager describes it, the settings
//! from `INFO`, and the answer to every command.
//!
//! The session keeps the stones as the protocol gives them (own, opponent's, winning-line) in the
//! order they arrived, not as an mnk-core [`Position`]: `BOARD` may list them in any order and
//! `TAKEBACK` may remove any of them. Each move request builds the [`Position`] afresh from the
//! stones with the brain to move, whatever the counts: board editors and analysis GUIs send
//! positions no alternating game reaches, and a manager that asks for a move must get one.
//! mnk-core's [`Position::from_setup`] builds it (a game's position when the counts alternate,
//! set-up stones otherwise) and says whether it is over; X, black under renju, is the side with
//! more stones, or the side to move when the counts are equal (see [`Session::position`]).
//! Errors are [`SessionError`]s, turned into `ERROR …` lines in one place ([`Session::handle`]).
//!
//! Thinking happens inside [`Session::handle`], on the caller's thread; the caller passes the
//! stop flag that the reader thread raises on `YXSTOP` or `END` (see [`crate::stdio`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use mnk_core::{
    Board, Cell, Decision, ForbiddenKind, Opening, Outcome, PlayError, Player, Position, Rules,
    RulesError, SetupError, Step, Win, MAX_SIDE,
};
use mnk_engine::opening::{self, nearest_centre};
use mnk_engine::{Bot, BotError, Choice, Deadline, Limits, SearchInfo};

use crate::command::{BlockKind, BoardStone, Command, Coord, Field, Info, ParseError};
use crate::coords::Frame;
use crate::time_control::TimeControl;

/// Gomocup games are five in a row.
pub const K: u32 = 5;
/// `INFO rule` flag: exactly five wins (an overline does not).
pub const RULE_EXACT: u32 = 1;
/// `INFO rule` flag: continuous game (accepted; played as an ordinary game).
pub const RULE_CONTINUOUS: u32 = 2;
/// `INFO rule` flag: renju (black, the player who began, has forbidden moves).
pub const RULE_RENJU: u32 = 4;
/// `INFO rule` flag: caro (exactly five, not closed at both ends by the opponent).
pub const RULE_CARO: u32 = 8;
/// Megabytes of hash table per second of `timeout_turn` (see `Session::hash_bytes`).
pub const HASH_MB_PER_SECOND: u64 = 40;
/// The hash table of the bot made at `START`, before the INFO lines that size it arrive.
pub const START_HASH_BYTES: u64 = 16 << 20;

/// What the session asks of the bot it makes, besides the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotOptions {
    /// Bytes the bot's hash table may take (see `Session::hash_bytes`), when sized.
    pub hash_bytes: Option<u64>,
    /// Threads per search: `INFO thread_num`, 1 until it comes.
    pub threads: usize,
}

/// Makes the bot that thinks for the brain, for given rules, hash-table size and threads.
pub trait BotMaker: Send {
    /// A bot for `rules` whose tables fit in `options.hash_bytes` when given, searching with
    /// `options.threads` threads where it can.
    fn make(&mut self, rules: &Rules, options: BotOptions) -> Result<Box<dyn Bot>, BotError>;
}

impl<F> BotMaker for F
where
    F: FnMut(&Rules, BotOptions) -> Result<Box<dyn Bot>, BotError> + Send,
{
    fn make(&mut self, rules: &Rules, options: BotOptions) -> Result<Box<dyn Bot>, BotError> {
        self(rules, options)
    }
}

/// Why the brain cannot do what a command asks. Answered as `ERROR <message>`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A move or board command came before `START`.
    #[error("there is no board yet: send START n (or RECTSTART w,h) first")]
    NoBoard,
    /// `START`/`RECTSTART` asked for a board mnk cannot play five in a row on.
    #[error("{0}")]
    BadBoard(String),
    /// A cell outside the board.
    #[error(
        "{coord} is not on the {width}x{height} board (x counts columns and y rows, both from 0)"
    )]
    OffBoard {
        /// The cell.
        coord: Coord,
        /// Board columns.
        width: u32,
        /// Board rows.
        height: u32,
    },
    /// A stone on a taken cell.
    #[error("{0} is already taken")]
    Occupied(Coord),
    /// `TAKEBACK` of an empty cell.
    #[error("there is no stone on {0} to take back")]
    NoStone(Coord),
    /// A block lists the same cell twice.
    #[error("{0} is listed twice")]
    Duplicate(Coord),
    /// `BEGIN` on a board with stones.
    #[error("BEGIN needs an empty board, but it holds stones ({0}): send RESTART first, or BOARD")]
    BeginNotEmpty(usize),
    /// Stones no board holds (two winning lines).
    #[error("{0}")]
    Setup(SetupError),
    /// Field-3 stones: a continuous game going on past a five.
    #[error("winning-line stones (field 3) are not supported: mnk cannot play on after a five")]
    ContinuousStones,
    /// The position is decided.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// Renju: black may not play there.
    #[error("{0} is forbidden to black under renju: {1}")]
    Forbidden(Coord, ForbiddenKind),
    /// `INFO rule` with both the renju and the caro flag.
    #[error("INFO rule {0} asks for renju (4) and caro (8) at once: choose one")]
    RenjuAndCaro(u32),
    /// `INFO rule` with flags the specification does not define.
    #[error("INFO rule {0} has unknown flags: mnk knows 1 (exactly five), 2 (continuous), 4 (renju) and 8 (caro)")]
    UnknownRule(u32),
    /// An earlier `INFO` line could not be honoured.
    #[error("{0}")]
    Info(ParseError),
    /// `SWAP2BOARD` with a stone count swap2 never has.
    #[error("SWAP2BOARD needs 0, 3 or 5 stones, not {0}")]
    Swap2Count(usize),
    /// The engine could not move.
    #[error("the engine cannot move: {0}")]
    Engine(String),
}

/// Whose turn a position is built for (see `Session::position`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// A move request: the brain is to move.
    Brain,
    /// After the brain's move: the opponent is to move.
    Opponent,
}

/// Whether the conversation goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `END`: exit and write nothing more.
    End,
}

struct CachedBot {
    rules: Rules,
    options: BotOptions,
    bot: Box<dyn Bot>,
}

/// One brain's conversation with a manager. See the module documentation.
pub struct Session {
    maker: Box<dyn BotMaker>,
    bot: Option<CachedBot>,
    frame: Option<Frame>,
    stones: Vec<BoardStone>,
    rule: u32,
    time: TimeControl,
    max_memory: u64,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    /// Threads per search (`INFO thread_num`).
    threads: usize,
    pending: Option<ParseError>,
}

/// The `ABOUT` line.
#[must_use]
pub fn about() -> String {
    format!(
        "name=\"mnk\", version=\"{}\", author=\"the mnk authors\", country=\"n/a\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// The `MESSAGE` line that reports a completed search depth, with the principal variation in
/// protocol coordinates.
#[must_use]
pub fn info_message(frame: Frame, info: &SearchInfo) -> String {
    let mut line = format!(
        "MESSAGE depth {} score {} nodes {} time {} ms",
        info.depth, info.value, info.nodes, info.elapsed_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &cell in &info.pv {
            match frame.coord(cell) {
                Some(c) => line.push_str(&format!(" {c}")),
                None => break,
            }
        }
    }
    line
}

impl Session {
    /// A session whose bots come from `maker`.
    pub fn new(maker: impl BotMaker + 'static) -> Session {
        Session {
            maker: Box::new(maker),
            bot: None,
            frame: None,
            stones: Vec::new(),
            rule: 0,
            time: TimeControl::default(),
            max_memory: 0,
            max_depth: None,
            max_nodes: None,
            threads: 1,
            pending: None,
        }
    }

    /// The board size, once `START` or `RECTSTART` succeeded.
    #[must_use]
    pub fn frame(&self) -> Option<Frame> {
        self.frame
    }

    /// The stones as the protocol gave them, in order.
    #[must_use]
    pub fn stones(&self) -> &[BoardStone] {
        &self.stones
    }

    /// The clock settings.
    #[must_use]
    pub fn time_control(&self) -> &TimeControl {
        &self.time
    }

    /// Answers one parsed line. Every line is written through `out` without its line end.
    /// `stop` is the flag that stops a search this command starts.
    pub fn handle(
        &mut self,
        parsed: Result<Command, ParseError>,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Flow {
        let command = match parsed {
            Ok(command) => command,
            Err(e) if e.expects_reply() => {
                out(&e.reply());
                return Flow::Continue;
            }
            Err(e) => {
                // A bad INFO value: no reply is due now; the next move request reports it.
                self.pending = Some(e);
                return Flow::Continue;
            }
        };
        let reply: Result<Option<String>, SessionError> = match command {
            Command::End => return Flow::End,
            Command::Start(n) => self.start(Frame::new(n, n)).map(|()| Some("OK".into())),
            Command::RectStart { width, height } => self
                .start(Frame::new(width, height))
                .map(|()| Some("OK".into())),
            Command::Restart => self.restart().map(|()| Some("OK".into())),
            Command::Begin => self.begin(stop, out).map(Some),
            Command::Turn(c) => self.turn(c, stop, out).map(Some),
            Command::Block { kind, stones } => match kind {
                BlockKind::Board => self.board(stones, stop, out).map(Some),
                BlockKind::YxBoard => self.yxboard(stones).map(|()| None),
                BlockKind::Swap2Board => self.swap2(&stones, stop, out).map(Some),
            },
            Command::Info(info) => {
                self.info(info);
                Ok(None)
            }
            Command::About => Ok(Some(about())),
            Command::Takeback(c) => self.takeback(c).map(|()| Some("OK".into())),
            Command::Play(c) => self.play(c).map(Some),
            // The reader thread already raised the stop flag of the search, if one runs.
            Command::Stop => Ok(None),
            Command::ShowForbid => Ok(Some(self.show_forbid())),
        };
        match reply {
            Ok(Some(line)) => out(&line),
            Ok(None) => {}
            Err(e) => out(&format!("ERROR {e}")),
        }
        Flow::Continue
    }

    fn start(&mut self, frame: Frame) -> Result<(), SessionError> {
        board_rules(frame, Win::Freestyle)?;
        self.frame = Some(frame);
        self.stones.clear();
        self.time.new_game();
        // Make the bot now, while no clock runs, rather than at the first move (with a small
        // table: the INFO lines that size it usually come after START).
        if let Ok(rules) = self.rules() {
            let options = BotOptions {
                hash_bytes: Some(self.hash_bytes().min(START_HASH_BYTES)),
                threads: self.threads,
            };
            let _ = self.bot_for(rules, options);
        }
        Ok(())
    }

    fn restart(&mut self) -> Result<(), SessionError> {
        self.frame.ok_or(SessionError::NoBoard)?;
        self.stones.clear();
        self.time.new_game();
        Ok(())
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.time.turn_ms = ms,
            Info::TimeoutMatch(ms) => self.time.match_ms = ms,
            Info::TimeLeft(ms) => self.time.report_left(ms),
            Info::MaxMemory(bytes) => self.max_memory = bytes,
            Info::Rule(flags) => self.rule = flags,
            Info::MaxDepth(d) => self.max_depth = d,
            Info::MaxNode(n) => self.max_nodes = n,
            Info::ThreadNum(n) => self.threads = n,
            // Nothing in mnk depends on the kind of game, the cell under the mouse or a folder;
            // unknown keys are ignored as the specification says.
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) | Info::Other { .. } => {}
        }
    }

    /// The rules the next move is played under.
    fn rules(&self) -> Result<Rules, SessionError> {
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        let known = RULE_EXACT | RULE_CONTINUOUS | RULE_RENJU | RULE_CARO;
        if self.rule & !known != 0 {
            return Err(SessionError::UnknownRule(self.rule));
        }
        // Renju and caro decide overlines themselves, so the exactly-five flag adds nothing to
        // them; the continuous flag is played as an ordinary game.
        let win = match (self.rule & RULE_RENJU != 0, self.rule & RULE_CARO != 0) {
            (true, true) => return Err(SessionError::RenjuAndCaro(self.rule)),
            (true, false) => Win::Renju,
            (false, true) => Win::Caro,
            (false, false) if self.rule & RULE_EXACT != 0 => Win::Exact,
            (false, false) => Win::Freestyle,
        };
        board_rules(frame, win)
    }

    /// The answer to `YXSHOWFORBID`, Yixin's way: `FORBID ` then black's forbidden cells as
    /// four digits each (column, then row from the top, two digits apiece), in reading order,
    /// then `.`. Black is the side with more stones, or the brain when
    /// the counts are equal (as for a move request, see [`Session::position`]). Under other
    /// rules, or with no position the rules allow, there are none: `FORBID .`.
    fn show_forbid(&self) -> String {
        let mut coords = self.forbidden_coords().unwrap_or_default();
        coords.sort_by_key(|c| (c.y, c.x));
        let cells: String = coords
            .iter()
            .map(|c| format!("{:02}{:02}", c.x, c.y))
            .collect();
        format!("FORBID {cells}.")
    }

    fn forbidden_coords(&self) -> Option<Vec<Coord>> {
        let rules = self.rules().ok()?;
        if !rules.has_forbidden_moves(rules.first()) {
            return None;
        }
        let frame = self.frame?;
        let pos = self.position(rules, Side::Brain).ok()?;
        Some(
            pos.forbidden_cells()
                .into_iter()
                .filter_map(|c| frame.coord(c))
                .collect(),
        )
    }

    fn frame_checked(&self, c: Coord) -> Result<Frame, SessionError> {
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        if frame.contains(c) {
            Ok(frame)
        } else {
            Err(SessionError::OffBoard {
                coord: c,
                width: frame.width,
                height: frame.height,
            })
        }
    }

    fn counts(stones: &[BoardStone]) -> (usize, usize) {
        let own = stones.iter().filter(|s| s.field == Field::Own).count();
        let opponent = stones.iter().filter(|s| s.field == Field::Opponent).count();
        (own, opponent)
    }

    /// Checks that a block's cells are on the board and distinct.
    fn check_block(&self, stones: &[BoardStone]) -> Result<(), SessionError> {
        let mut seen = std::collections::HashSet::new();
        for s in stones {
            self.frame_checked(s.at)?;
            if !seen.insert(s.at) {
                return Err(SessionError::Duplicate(s.at));
            }
        }
        Ok(())
    }

    /// The mnk-core cells of the stones marked `field`.
    fn cells_of(&self, frame: Frame, field: Field) -> Vec<Cell> {
        self.stones
            .iter()
            .filter(|s| s.field == field)
            .filter_map(|s| frame.cell(s.at))
            .collect()
    }

    /// The mnk-core position of the stones with `to_move` to move, whatever the counts; an
    /// error when no board holds the stones or the game is over.
    ///
    /// X is black, the player renju's rules bind: the side with more stones, since black moves
    /// first and so never has fewer in a game; with equal counts the side to move, as in a game
    /// (the brain, at a move request). So the colours are a game's whenever the counts are a
    /// game's, and otherwise the ones that stay closest to a game.
    fn position(&self, rules: Rules, to_move: Side) -> Result<Position, SessionError> {
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        if self.stones.iter().any(|s| s.field == Field::WinningLine) {
            return Err(SessionError::ContinuousStones);
        }
        let (own, opponent) = (
            self.cells_of(frame, Field::Own),
            self.cells_of(frame, Field::Opponent),
        );
        let brain_is_black = match own.len().cmp(&opponent.len()) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => to_move == Side::Brain,
        };
        let (brain, x, o) = if brain_is_black {
            (Player::X, own, opponent)
        } else {
            (Player::O, opponent, own)
        };
        let mover = if to_move == Side::Brain {
            brain
        } else {
            brain.opponent()
        };
        let pos = Position::from_setup(rules, &x, &o, mover).map_err(SessionError::Setup)?;
        if pos.is_over() {
            return Err(SessionError::GameOver(describe_end(&pos, Some(brain))));
        }
        Ok(pos)
    }

    /// The bot for `rules` with `options` (table size, threads), made anew only when the rules
    /// or the options changed.
    fn bot_for(
        &mut self,
        rules: Rules,
        options: BotOptions,
    ) -> Result<&mut Box<dyn Bot>, SessionError> {
        let fresh = !matches!(&self.bot, Some(c) if c.rules == rules && c.options == options);
        if fresh {
            let bot = self
                .maker
                .make(&rules, options)
                .map_err(|e| SessionError::Engine(e.to_string()))?;
            self.bot = Some(CachedBot {
                rules,
                options,
                bot,
            });
        }
        Ok(&mut self.bot.as_mut().expect("bot made above").bot)
    }

    /// The size of the bot's hash table: no more than half of `max_memory` (the rest is for
    /// everything else), and no more than the move time can use. A table is cleared when it is
    /// made, at about a millisecond per megabyte, and a short search cannot fill a large one, so
    /// the table grows with `timeout_turn` by [`HASH_MB_PER_SECOND`].
    fn hash_bytes(&self) -> u64 {
        const MB: u64 = 1 << 20;
        let by_time = (self.time.turn_ms.saturating_mul(HASH_MB_PER_SECOND) / 1000).max(1) * MB;
        let by_memory = if self.max_memory > 0 {
            self.max_memory / 2
        } else {
            u64::MAX
        };
        by_time.min(by_memory).max(MB)
    }

    /// The bot options for a search under `rules`: [`Session::hash_bytes`] and the threads
    /// asked for, except that a search already stopped (`YXSTOP` or `END` came before it began)
    /// keeps the bot it has, since it answers at once and clearing a new table would only delay
    /// the answer.
    fn options_for(&self, rules: &Rules, stop: &AtomicBool) -> BotOptions {
        match &self.bot {
            Some(CachedBot {
                rules: cached,
                options,
                ..
            }) if cached == rules && stop.load(Ordering::SeqCst) => *options,
            _ => BotOptions {
                hash_bytes: Some(self.hash_bytes()),
                threads: self.threads,
            },
        }
    }

    /// How the game ended, if the stones hold a winning line or fill the board, the opponent to
    /// move; `None` when it goes on or the rules or stones are not playable.
    fn game_over(&self) -> Option<String> {
        let rules = self.rules().ok()?;
        match self.position(rules, Side::Opponent) {
            Err(SessionError::GameOver(why)) => Some(why),
            _ => None,
        }
    }

    /// Asks the bot for a move in `pos` within the clock, streaming `MESSAGE` lines.
    fn search(
        &mut self,
        pos: &Position,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<Choice, SessionError> {
        self.think(pos, None, stop, out)
    }

    /// One of the `share` searches of a swap2 step: a `share`-th of the move's time, and the
    /// steadier value opening decisions compare (`opening::steady_choice`).
    fn opening_search(
        &mut self,
        pos: &Position,
        share: usize,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<Choice, SessionError> {
        self.think(pos, Some(share), stop, out)
    }

    /// [`Session::search`], or with `opening_share`, [`Session::opening_search`].
    fn think(
        &mut self,
        pos: &Position,
        opening_share: Option<usize>,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<Choice, SessionError> {
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        // The clock runs from the request, so making the bot (and its tables) counts too.
        let share = opening_share.map_or(1, |n| u32::try_from(n.max(1)).unwrap_or(u32::MAX));
        let budget = self.time.budget(pos.ply()) / share;
        let deadline = Deadline::from_now(budget);
        let started = Instant::now();
        let limits = Limits {
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            deadline: Some(deadline),
            cutoff: None,
            stop: Some(Arc::clone(stop)),
        };
        let options = self.options_for(pos.rules(), stop);
        let bot = self.bot_for(*pos.rules(), options)?;
        let mut info = |info: &SearchInfo| out(&info_message(frame, info));
        let result = if opening_share.is_some() {
            opening::steady_choice(bot.as_mut(), pos, &limits, &mut info)
        } else {
            bot.choose_with_info(pos, &limits, &mut info)
        };
        self.time.spend(started.elapsed().as_millis() as u64);
        let mut choice = result.map_err(|e| SessionError::Engine(e.to_string()))?;
        if pos.check_move(choice.cell).is_err() {
            // Never answer an illegal move: fall back to the free cell nearest the centre.
            let cell = nearest_centre(pos).ok_or_else(|| {
                SessionError::Engine(format!("it chose {}, which is not legal", choice.cell))
            })?;
            choice = Choice::just(cell);
        }
        Ok(choice)
    }

    /// Thinks in the current position, plays the move and returns it as the reply.
    fn move_request(
        &mut self,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<String, SessionError> {
        if let Some(e) = self.pending.take() {
            return Err(SessionError::Info(e));
        }
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        let rules = self.rules()?;
        let pos = self.position(rules, Side::Brain)?;
        let choice = self.search(&pos, stop, out)?;
        let at = frame
            .coord(choice.cell)
            .expect("legal moves are on the board");
        self.stones.push(BoardStone {
            at,
            field: Field::Own,
        });
        Ok(at.to_string())
    }

    fn begin(
        &mut self,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<String, SessionError> {
        self.frame.ok_or(SessionError::NoBoard)?;
        if !self.stones.is_empty() {
            return Err(SessionError::BeginNotEmpty(self.stones.len()));
        }
        self.move_request(stop, out)
    }

    fn turn(
        &mut self,
        c: Coord,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<String, SessionError> {
        self.frame_checked(c)?;
        if self.stones.iter().any(|s| s.at == c) {
            return Err(SessionError::Occupied(c));
        }
        if let Some(why) = self.game_over() {
            return Err(SessionError::GameOver(why));
        }
        self.stones.push(BoardStone {
            at: c,
            field: Field::Opponent,
        });
        // The opponent's stone is on the board now, whether or not the brain can answer.
        self.move_request(stop, out)
    }

    fn board(
        &mut self,
        stones: Vec<BoardStone>,
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<String, SessionError> {
        self.check_block(&stones)?;
        self.stones = stones;
        self.move_request(stop, out)
    }

    fn yxboard(&mut self, stones: Vec<BoardStone>) -> Result<(), SessionError> {
        self.frame.ok_or(SessionError::NoBoard)?;
        // Any counts: the move requests that follow play from it as from a BOARD.
        self.check_block(&stones)?;
        self.stones = stones;
        Ok(())
    }

    fn takeback(&mut self, c: Coord) -> Result<(), SessionError> {
        self.frame_checked(c)?;
        let i = self
            .stones
            .iter()
            .position(|s| s.at == c)
            .ok_or(SessionError::NoStone(c))?;
        self.stones.remove(i);
        Ok(())
    }

    fn play(&mut self, c: Coord) -> Result<String, SessionError> {
        let frame = self.frame_checked(c)?;
        let rules = self.rules()?;
        let pos = self.position(rules, Side::Brain)?;
        let cell = frame.cell(c).expect("checked on the board");
        pos.check_move(cell).map_err(|e| match e {
            PlayError::Occupied(_) => SessionError::Occupied(c),
            PlayError::OffBoard(_) => SessionError::OffBoard {
                coord: c,
                width: frame.width,
                height: frame.height,
            },
            PlayError::GameOver => SessionError::GameOver(describe_end(&pos, None)),
            PlayError::Forbidden { kind, .. } => SessionError::Forbidden(c, kind),
        })?;
        self.stones.push(BoardStone {
            at: c,
            field: Field::Own,
        });
        Ok(c.to_string())
    }

    /// Swap2 (`SWAP2BOARD`), decided by mnk-engine's `opening` like every swap2 of mnk: with no
    /// stones, the opener's three; with 3 or 5, the decision of the one choosing: `SWAP` to take
    /// black, one move to take white, or (after three) two moves placing two more stones.
    fn swap2(
        &mut self,
        stones: &[BoardStone],
        stop: &Arc<AtomicBool>,
        out: &mut dyn FnMut(&str),
    ) -> Result<String, SessionError> {
        let frame = self.frame.ok_or(SessionError::NoBoard)?;
        self.check_block(stones)?;
        if let Some(e) = self.pending.take() {
            return Err(SessionError::Info(e));
        }
        let rules = self.rules()?;
        let n = stones.len();
        let options = match Opening::Swap2.step(n, swap2_decisions_before(n)) {
            Ok(Step::Place { .. }) if n == 0 => {
                let share = opening::searches_to_place(&rules);
                let cells = opening::place_three(&rules, 0, &mut |pos: &Position| {
                    self.opening_search(pos, share, stop, out)
                })?;
                return Ok(coords_text(frame, &cells));
            }
            Ok(Step::Choose { options, .. }) => options,
            _ => return Err(SessionError::Swap2Count(n)),
        };
        if stones.iter().any(|s| s.field == Field::WinningLine) {
            return Err(SessionError::ContinuousStones);
        }
        let is_black = black_stones(stones);
        let pick = |black: bool| {
            stones
                .iter()
                .zip(&is_black)
                .filter(move |(_, &b)| b == black)
                .filter_map(|(s, _)| frame.cell(s.at))
                .collect::<Vec<Cell>>()
        };
        let pos = setup(rules, &pick(true), &pick(false), Player::O)?;
        let share = opening::searches_to_decide(options);
        let answer = opening::decide(&pos, options, &mut |pos: &Position| {
            self.opening_search(pos, share, stop, out)
        })?;
        // Remember the position with our colour, so the game can go on with TURN. After
        // placing two the colour is the opener's to choose; we keep it as white, the colour
        // that moves next and so the one a manager asks a move of.
        let we_are_black = answer.decision == Decision::Black;
        self.stones = stones
            .iter()
            .zip(&is_black)
            .map(|(s, &black)| BoardStone {
                at: s.at,
                field: if black == we_are_black {
                    Field::Own
                } else {
                    Field::Opponent
                },
            })
            .collect();
        let placed: Vec<Coord> = answer
            .stones
            .iter()
            .map(|&c| frame.coord(c).expect("legal moves are on the board"))
            .collect();
        for (i, &at) in placed.iter().enumerate() {
            // White's stones are ours (we play white), black's the opponent's.
            let field = if i % 2 == 0 {
                Field::Own
            } else {
                Field::Opponent
            };
            self.stones.push(BoardStone { at, field });
        }
        Ok(match answer.decision {
            Decision::Black => "SWAP".into(),
            _ => coords_text(frame, &answer.stones),
        })
    }
}

/// The swap2 decisions made before a `SWAP2BOARD` of `stones` stones: five stones mean the
/// second player placed two more.
fn swap2_decisions_before(stones: usize) -> &'static [Decision] {
    if stones > 3 {
        &[Decision::PlaceTwo]
    } else {
        &[]
    }
}

/// Which of a swap2 block's stones are black's: the group of black's size (two of three, three
/// of five) by field, or by order (black, white, black, …) when the fields do not tell.
fn black_stones(stones: &[BoardStone]) -> Vec<bool> {
    let n = stones.len();
    let black_count = n.div_ceil(2);
    let (own, _) = Session::counts(stones);
    if own == black_count {
        stones.iter().map(|s| s.field == Field::Own).collect()
    } else if n - own == black_count {
        stones.iter().map(|s| s.field == Field::Opponent).collect()
    } else {
        (0..n).map(|i| i % 2 == 0).collect()
    }
}

/// Cells as the protocol's `x,y x,y …`.
fn coords_text(frame: Frame, cells: &[Cell]) -> String {
    cells
        .iter()
        .filter_map(|&c| frame.coord(c))
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Five in a row on the protocol's board, X first, or why mnk cannot play there.
fn board_rules(frame: Frame, win: Win) -> Result<Rules, SessionError> {
    let (width, height) = (frame.width, frame.height);
    Rules::new(Board::Bounded { width, height }, K, win, Player::X).map_err(|e| {
        SessionError::BadBoard(match e {
            RulesError::TooLarge { .. } => format!(
                "a {width}x{height} board is too large: mnk plays boards up to {MAX_SIDE}x{MAX_SIDE}"
            ),
            RulesError::ZeroSize | RulesError::KDoesNotFit { .. } => {
                format!("five in a row does not fit on a {width}x{height} board")
            }
            other => other.to_string(),
        })
    })
}

/// The position where the player who began (X) has the `first` stones and the other (O) the
/// `second`, checked by mnk-core, which also finds which stone must have come last; the game
/// must still be going. `brain` names the brain's player for messages.
///
/// The stones go to mnk-core as a set rather than being played one by one, so that the order
/// they were listed in cannot matter (under exactly-five, five stones of a six could otherwise
/// look like a win on the way).
fn setup(
    rules: Rules,
    first: &[Cell],
    second: &[Cell],
    brain: Player,
) -> Result<Position, SessionError> {
    let pos = Position::from_stones(rules, first, second).map_err(SessionError::Setup)?;
    if pos.is_over() {
        return Err(SessionError::GameOver(describe_end(&pos, Some(brain))));
    }
    Ok(pos)
}

/// Says how a finished game ended, from the brain's side when `brain` is known.
fn describe_end(pos: &Position, brain: Option<Player>) -> String {
    match (pos.outcome(), brain) {
        (Outcome::Win { winner, .. }, Some(b)) if *winner == b => {
            "the brain already has five in a row".into()
        }
        (Outcome::Win { .. }, Some(_)) => "the opponent has five in a row".into(),
        (Outcome::Win { winner, .. }, None) => format!("{winner} has five in a row"),
        (Outcome::Draw(kind), _) => kind.to_string(),
        (Outcome::Ongoing, _) => "it has ended".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Parser;
    use std::sync::Mutex;

    /// Plays the free cell nearest the centre.
    struct Centre;

    impl Bot for Centre {
        fn id(&self) -> &'static str {
            "centre"
        }
        fn choose(&mut self, pos: &Position, _: &Limits) -> Result<Choice, BotError> {
            nearest_centre(pos)
                .map(Choice::just)
                .ok_or(BotError::GameOver)
        }
    }

    /// The options of every bot a session made, in order.
    type Made = Arc<Mutex<Vec<BotOptions>>>;

    /// A session whose maker records the options of every bot it makes, and a way to feed it
    /// lines and read the answers.
    fn recording() -> (Made, impl FnMut(&str) -> Vec<String>) {
        let made = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&made);
        let mut session = Session::new(move |_: &Rules, options: BotOptions| {
            log.lock().unwrap().push(options);
            Ok(Box::new(Centre) as Box<dyn Bot>)
        });
        let mut parser = Parser::new();
        let feed = move |line: &str| {
            let mut out = Vec::new();
            if let Some(parsed) = parser.feed(line) {
                let stop = Arc::new(AtomicBool::new(false));
                session.handle(parsed, &stop, &mut |l: &str| out.push(l.to_string()));
            }
            out
        };
        (made, feed)
    }

    #[test]
    fn info_thread_num_reaches_the_bot_and_garbage_changes_nothing() {
        let (made, mut feed) = recording();
        let threads =
            |made: &Arc<Mutex<Vec<BotOptions>>>| made.lock().unwrap().last().unwrap().threads;
        assert_eq!(feed("START 15"), ["OK"]);
        assert_eq!(threads(&made), 1, "one thread until told otherwise");
        assert!(feed("INFO thread_num 2").is_empty());
        assert_eq!(feed("BEGIN"), ["7,7"]);
        assert_eq!(threads(&made), 2);
        let bots = made.lock().unwrap().len();
        for garbage in ["0", "-3", "two", "1.5", ""] {
            assert!(feed(&format!("INFO thread_num {garbage}")).is_empty());
            let reply = feed("TURN 0,0");
            assert_eq!(
                reply,
                [format!(
                    "ERROR INFO thread_num needs a number of threads (a whole number, 1 or more), not '{garbage}'"
                )],
                "{garbage}"
            );
            // Reported once; the bot and its two threads stay.
            assert_ne!(feed("TAKEBACK 0,0"), Vec::<String>::new());
            let reply = feed("TURN 0,0");
            assert_eq!(reply.len(), 1);
            assert!(!reply[0].starts_with("ERROR"), "{reply:?}");
            assert_eq!(feed("TAKEBACK 0,0"), ["OK"]);
            let at = reply[0].clone();
            assert_eq!(feed(&format!("TAKEBACK {at}")), ["OK"]);
            assert_eq!(made.lock().unwrap().len(), bots, "no bot made anew");
            assert_eq!(threads(&made), 2);
        }
        // A number above the most threads a search takes is the most.
        assert!(feed("INFO thread_num 1000").is_empty());
        assert_eq!(feed("TURN 0,0").len(), 1);
        assert_eq!(threads(&made), mnk_engine::search::MAX_THREADS);
    }

    #[test]
    fn the_first_list_belongs_to_the_player_who_began() {
        let rules = Rules::bounded(15, 15, 5).unwrap();
        let pos = setup(rules, &[Cell::new(7, 7)], &[Cell::new(8, 8)], Player::X).unwrap();
        assert_eq!(pos.stone(Cell::new(7, 7)), Some(Player::X));
        assert_eq!(pos.stone(Cell::new(8, 8)), Some(Player::O));
        assert_eq!(pos.to_move(), Player::X);
    }

    #[test]
    fn a_five_in_the_list_is_game_over() {
        let rules = Rules::bounded(15, 15, 5).unwrap();
        let opp: Vec<Cell> = (0..5).map(|x| Cell::new(x, 0)).collect();
        let own: Vec<Cell> = (0..4).map(|x| Cell::new(x, 5)).collect();
        let e = setup(rules, &opp, &own, Player::O).unwrap_err();
        assert_eq!(
            e,
            SessionError::GameOver("the opponent has five in a row".into())
        );
    }

    #[test]
    fn list_order_cannot_fake_a_win_under_exactly_five() {
        // Six in a row listed left to right: its first five are exactly five on the way, but the
        // position holds an overline, which does not win under exactly five.
        let rules = Rules::bounded(15, 15, 5)
            .unwrap()
            .with_win(Win::Exact)
            .unwrap();
        let opp: Vec<Cell> = (0..6).map(|x| Cell::new(x, 0)).collect();
        let own: Vec<Cell> = [(0, 5), (1, 5), (3, 5), (4, 5), (0, 7)]
            .iter()
            .map(|&(x, y)| Cell::new(x, y))
            .collect();
        let pos = setup(rules, &opp, &own, Player::O).unwrap();
        assert!(!pos.is_over());
        assert_eq!(pos.to_move(), Player::O);
    }
}
