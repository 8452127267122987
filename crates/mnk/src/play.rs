//! `mnk play`: a game in the terminal against a bot or a second person.
//!
//! Reads one command a line: a cell (`h8`, or `x,y`), `undo`, `hint`, `new`, `help`, `quit`.
//! Bad input gets a message and a new prompt; the game is never lost to a typo. With a swap
//! opening (`--opening swap2`), -x names the opener and -o the one choosing until the colours
//! are settled (`black`, `white` or `place-two` at the choice).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Args;
use mnk_core::{Cell, Decision, Opening, Outcome, Player, Position, Rules, Seat, Step};
use mnk_engine::level::Level;
use mnk_engine::opening::{self, OpeningAnswer};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::weights::WeightsBot;
use mnk_engine::{Bot, BotError, Choice, Limits};

/// Longest thinking time `--time-ms` allows: an hour.
const MAX_TIME_MS: u64 = 3_600_000;

/// Arguments of `mnk play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Rules: a preset (tictactoe, 9x9, gomoku15, gomoku19, standard, unbounded, renju, caro), or
    /// WxHxK such as 7x6x4, or infxK for a board without borders; add ",exact" for exactly k,
    /// ",renju" or ",caro" (five in a row on a board), ",o-first" for O to start.
    #[arg(long, default_value = "tictactoe")]
    rules: String,
    /// Who plays X: "human" or a bot (level1..level6, rules, perfect, alphabeta[:N], weights, engine).
    #[arg(short = 'x', long = "x", default_value = "human")]
    x: String,
    /// Who plays O: "human" or a bot, as for -x.
    #[arg(short = 'o', long = "o", default_value = "level6")]
    o: String,
    /// Thinking time per computer move, in milliseconds, 1 to 3600000 (an hour).
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIME_MS))]
    time_ms: u64,
    /// Seed for the bots' random choices (the same seed replays the same game).
    #[arg(long)]
    seed: Option<u64>,
    /// How the game begins: free, swap or swap2 (the opener, -x, places three stones; the other,
    /// -o, takes a colour or, in swap2, places two more and lets the opener choose).
    #[arg(long, default_value = "free")]
    opening: Opening,
}

enum Side {
    Human,
    Computer(Box<dyn Bot>, String),
}

struct Game {
    pos: Position,
    sides: [Side; 2],
    time: Duration,
    seed: u64,
}

fn side(spec: &str, rules: &Rules, seed: u64) -> Result<Side, String> {
    if spec.eq_ignore_ascii_case("human") {
        return Ok(Side::Human);
    }
    let parsed: BotSpec = spec
        .parse()
        .map_err(|e: mnk_engine::BotError| e.to_string())?;
    let bot = create(&parsed, rules, seed).map_err(|e| e.to_string())?;
    Ok(Side::Computer(bot, parsed.to_string()))
}

/// Runs a game on the terminal.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let rules: Rules = args
        .rules
        .parse()
        .map_err(|e: mnk_core::RulesError| e.to_string())?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let sides = [
        side(&args.x, &rules, seed)?,
        side(&args.o, &rules, seed.wrapping_add(1))?,
    ];
    let mut game = Game {
        pos: Position::new(rules),
        sides,
        time: Duration::from_millis(args.time_ms),
        seed,
    };
    args.opening
        .check_rules(&rules)
        .map_err(|e| e.to_string())?;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "mnk — {rules}. Type a cell to play (like {}), or help.",
        example_cell(&rules)
    );
    if args.opening != Opening::Free {
        match play_opening(&mut game, args.opening, &mut lines)? {
            Some(black) => game.seat_colours(black),
            None => return Ok(()),
        }
    }
    loop {
        println!("\n{}", render(&game.pos));
        if let Some(summary) = result(&game.pos) {
            println!("{summary}");
            if game.all_computers() {
                return Ok(());
            }
            prompt("undo, new or quit> ");
        } else if let Side::Computer(bot, name) = &mut game.sides[game.pos.to_move().index()] {
            let limits = Limits::time(game.time);
            let choice = bot.choose(&game.pos, &limits).or_else(|e| {
                // A bot that cannot answer in time (the solver on a large board, say) must not end
                // the game: the attack-weight bot moves instead, and says so.
                println!("{name} could not move ({e}); the attack-weight bot moves instead");
                WeightsBot::new(game.seed).choose(&game.pos, &limits)
            });
            match choice {
                Ok(choice) => {
                    let value = choice.value.map(|v| format!(" ({v})")).unwrap_or_default();
                    let cell = game.pos.rules().cell_name(choice.cell);
                    println!("{} ({name}) plays {cell}{value}", game.pos.to_move());
                    game.pos.play(choice.cell);
                    continue;
                }
                Err(e) => return Err(format!("{name} cannot move: {e}")),
            }
        } else {
            prompt(&format!("{} to move> ", game.pos.to_move()));
        }
        let Some(line) = lines.next() else {
            println!();
            return Ok(());
        };
        let line = line.map_err(|e| e.to_string())?;
        if !game.command(line.trim()) {
            return Ok(());
        }
    }
}

/// Plays a swap opening: -x (`sides[0]`) opens, -o (`sides[1]`) chooses. Answers the seat that
/// plays black, or `None` when the input ends or a person quits.
fn play_opening(
    game: &mut Game,
    opening: Opening,
    lines: &mut impl Iterator<Item = io::Result<String>>,
) -> Result<Option<Seat>, String> {
    let mut decisions: Vec<Decision> = Vec::new();
    loop {
        println!("\n{}", render(&game.pos));
        let step = opening
            .step(game.pos.ply(), &decisions)
            .map_err(|e| e.to_string())?;
        let (seat, options) = match step {
            Step::Settled { black } => return Ok(Some(black)),
            Step::Place { seat, left } => {
                if game.computer_places(seat)? {
                    continue;
                }
                let next = game.pos.to_move();
                prompt(&format!(
                    "{}: opening stone, {left} to place ({next} next)> ",
                    seat_name(seat)
                ));
                (seat, None)
            }
            Step::Choose { seat, options } => {
                if let Some(decision) = game.computer_decides(seat, options)? {
                    decisions.push(decision);
                    continue;
                }
                let names: Vec<&str> = options.iter().map(|d| d.name()).collect();
                prompt(&format!(
                    "{}: choose {}> ",
                    seat_name(seat),
                    names.join(", ")
                ));
                (seat, Some(options))
            }
        };
        let Some(line) = lines.next() else {
            println!();
            return Ok(None);
        };
        let line = line.map_err(|e| e.to_string())?;
        let input = line.trim().to_ascii_lowercase();
        match (input.as_str(), options) {
            ("quit" | "q" | "exit", _) => return Ok(None),
            ("" | "help" | "?", _) => println!(
                "The opening: {} places the stones, then chooses as asked; quit ends.",
                seat_name(seat)
            ),
            (text, Some(options)) => match text.parse::<Decision>() {
                Ok(d) if options.contains(&d) => decisions.push(d),
                _ => println!("choose one of the words shown"),
            },
            (text, None) => match text.parse::<Cell>() {
                Ok(cell) => {
                    if let Err(e) = game.pos.try_play(cell) {
                        println!("{e}");
                    }
                }
                Err(e) => println!("{e}"),
            },
        }
    }
}

/// The seat's name in the prompts.
fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::Opener => "the opener (-x)",
        Seat::Chooser => "the chooser (-o)",
    }
}

fn prompt(text: &str) {
    print!("{text}");
    let _ = io::stdout().flush();
}

fn example_cell(rules: &Rules) -> String {
    if rules.is_bounded() {
        "b2".into()
    } else {
        "0,0".into()
    }
}

impl Game {
    /// The side (by seat: the opener is -x, the chooser -o) whose part the opening asks for.
    fn seat_index(seat: Seat) -> usize {
        match seat {
            Seat::Opener => 0,
            Seat::Chooser => 1,
        }
    }

    /// After the opening: the seat that took black plays the first player's stones.
    fn seat_colours(&mut self, black: Seat) {
        let first = self.pos.rules().first().index();
        if Game::seat_index(black) != first {
            self.sides.swap(0, 1);
        }
        let name = |side: &Side| match side {
            Side::Human => "a person".to_string(),
            Side::Computer(_, name) => name.clone(),
        };
        println!(
            "The colours are settled: X is {}, O is {}.",
            name(&self.sides[0]),
            name(&self.sides[1])
        );
    }

    /// A search by the computer of `seat` within a `share`-th of the thinking time.
    fn opening_search(
        &mut self,
        seat: Seat,
        share: usize,
    ) -> impl FnMut(&Position) -> Result<Choice, BotError> + '_ {
        let time = self.time / u32::try_from(share.max(1)).unwrap_or(u32::MAX);
        let side = &mut self.sides[Game::seat_index(seat)];
        move |pos: &Position| match side {
            Side::Computer(bot, _) => {
                opening::steady_choice(bot.as_mut(), pos, &Limits::time(time), &mut |_| {})
            }
            Side::Human => Err(BotError::GameOver),
        }
    }

    /// Places the opener's three stones when the opener is a computer; false for a person.
    fn computer_places(&mut self, seat: Seat) -> Result<bool, String> {
        let Side::Computer(_, name) = &self.sides[Game::seat_index(seat)] else {
            return Ok(false);
        };
        let name = name.clone();
        let rules = *self.pos.rules();
        let seed = self.seed;
        let cells = {
            let mut search = self.opening_search(seat, opening::searches_to_place(&rules));
            opening::place_three(&rules, seed, &mut search).map_err(|e| e.to_string())?
        };
        let names: Vec<String> = cells.iter().map(|&c| rules.cell_name(c)).collect();
        println!("{name} opens with {}", names.join(" "));
        for cell in cells {
            self.pos.try_play(cell).map_err(|e| e.to_string())?;
        }
        Ok(true)
    }

    /// The computer's decision when the one choosing is a computer (with its stones played);
    /// `None` for a person.
    fn computer_decides(
        &mut self,
        seat: Seat,
        options: &[Decision],
    ) -> Result<Option<Decision>, String> {
        let Side::Computer(_, name) = &self.sides[Game::seat_index(seat)] else {
            return Ok(None);
        };
        let name = name.clone();
        let pos = self.pos.clone();
        let OpeningAnswer { decision, stones } = {
            let mut search = self.opening_search(seat, opening::searches_to_decide(options));
            opening::decide(&pos, options, &mut search).map_err(|e| e.to_string())?
        };
        let names: Vec<String> = stones.iter().map(|&c| pos.rules().cell_name(c)).collect();
        println!("{name} chooses {decision} {}", names.join(" "));
        for cell in stones {
            self.pos.try_play(cell).map_err(|e| e.to_string())?;
        }
        Ok(Some(decision))
    }

    fn all_computers(&self) -> bool {
        self.sides.iter().all(|s| matches!(s, Side::Computer(..)))
    }

    /// Handles one line of input; false means quit.
    fn command(&mut self, input: &str) -> bool {
        match input.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => return false,
            "help" | "?" => println!(
                "Commands: a cell such as {} to play there; undo; hint; new (a new game); quit.",
                example_cell(self.pos.rules())
            ),
            "undo" | "u" => self.undo(),
            "new" | "n" => self.pos = Position::new(*self.pos.rules()),
            "hint" | "h" => self.hint(),
            text => match text.parse::<Cell>() {
                Err(e) => println!("{e}. Type help for the commands."),
                Ok(_) if self.pos.no_line_left() => {
                    println!("the game is over: a draw, no line can be completed any more");
                }
                Ok(cell) => {
                    if let Err(e) = self.pos.try_play(cell) {
                        println!("{e}");
                    }
                }
            },
        }
        true
    }

    /// Takes back the last move, and the computer's reply before it, so it is a person's turn again.
    fn undo(&mut self) {
        if self.pos.undo().is_none() {
            println!("nothing to undo");
            return;
        }
        while matches!(self.sides[self.pos.to_move().index()], Side::Computer(..))
            && self.pos.undo().is_some()
        {}
    }

    fn hint(&mut self) {
        if self.pos.is_over() || self.pos.no_line_left() {
            println!("the game is over");
            return;
        }
        let mut bot = Level::top().bot(self.pos.rules(), self.seed);
        match bot.choose(&self.pos, &Limits::time(self.time)) {
            Ok(choice) => {
                let value = choice.value.map(|v| format!(" ({v})")).unwrap_or_default();
                println!("hint: {}{value}", self.pos.rules().cell_name(choice.cell));
            }
            Err(e) => println!("no hint: {e}"),
        }
    }
}

fn result(pos: &Position) -> Option<String> {
    match pos.outcome() {
        Outcome::Ongoing if pos.no_line_left() => {
            Some("Draw: no line can be completed any more.".into())
        }
        Outcome::Ongoing => None,
        Outcome::Draw(kind) => Some(format!("Draw: {kind}.")),
        Outcome::Win { winner, line } => {
            let cells: Vec<String> = line.iter().map(|&c| pos.rules().cell_name(c)).collect();
            Some(format!("{winner} wins with {}.", cells.join(" ")))
        }
    }
}

/// The board with coordinates; the unbounded board shows the stones' neighbourhood with `x`
/// numbers on top and `y` numbers on the left.
fn render(pos: &Position) -> String {
    let mut out = if pos.rules().is_bounded() {
        pos.to_string()
    } else {
        render_unbounded(pos)
    };
    if let Some(last) = pos.last_move() {
        let mover = if pos.ply() % 2 == 1 {
            pos.rules().first()
        } else {
            pos.rules().first().opponent()
        };
        out.push_str(&format!(
            "last move: {mover} {}",
            pos.rules().cell_name(last)
        ));
    }
    out
}

fn render_unbounded(pos: &Position) -> String {
    const MARGIN: i32 = 2;
    // At most this many columns and rows either side of the last move, however far stones spread.
    const VIEW: i32 = 12;
    let (lo, hi) = pos
        .stone_bounds()
        .unwrap_or((Cell::new(0, 0), Cell::new(0, 0)));
    let focus = pos.last_move().unwrap_or(Cell::new(0, 0));
    let (x0, x1) = (
        (lo.x - MARGIN).max(focus.x - VIEW),
        (hi.x + MARGIN).min(focus.x + VIEW),
    );
    let (y0, y1) = (
        (lo.y - MARGIN).max(focus.y - VIEW),
        (hi.y + MARGIN).min(focus.y + VIEW),
    );
    let mut out = String::from("    ");
    for x in x0..=x1 {
        out.push_str(&format!("{x:>3}"));
    }
    out.push('\n');
    for y in (y0..=y1).rev() {
        out.push_str(&format!("{y:>4}"));
        for x in x0..=x1 {
            let mark = pos.stone(Cell::new(x, y)).map_or('.', Player::symbol);
            out.push_str(&format!("{mark:>3}"));
        }
        out.push('\n');
    }
    out
}
