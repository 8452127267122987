//! `mnk play`: a game in the terminal against a bot or a second person.
//!
//! Reads one command a line: a cell (`h8`, or `x,y`), `undo`, `hint`, `new`, `help`, `quit`.
//! Bad input gets a message and a new prompt; the game is never lost to a typo.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Args;
use mnk_core::{Cell, Outcome, Player, Position, Rules};
use mnk_engine::bots::{create, BotSpec};
use mnk_engine::level::Level;
use mnk_engine::weights::WeightsBot;
use mnk_engine::{Bot, Limits};

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
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "mnk — {rules}. Type a cell to play (like {}), or help.",
        example_cell(&rules)
    );
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
        Outcome::Draw => Some("Draw: the board is full.".into()),
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
