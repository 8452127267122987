//! Test helpers shared by the integration tests: deterministic bots, a synchronous runner and
//! the transcript format.
#![allow(dead_code)]

pub mod transcript;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mnk_core::{Position, Rules};
use mnk_engine::opening::nearest_centre;
use mnk_engine::{Bot, BotError, Choice, Limits, SearchInfo, Value};
use mnk_gomocup::{BotOptions, Flow, Parser, Session};

/// Plays the free cell nearest the centre (ties: the smaller cell), and reports it as a
/// one-ply search.
pub struct Nearest;

impl Bot for Nearest {
    fn id(&self) -> &'static str {
        "nearest"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        self.choose_with_info(pos, limits, &mut |_| {})
    }
    fn choose_with_info(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Choice, BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let cell = nearest_centre(pos).ok_or(BotError::GameOver)?;
        info(&SearchInfo {
            depth: 1,
            value: Value::Eval(0),
            pv: vec![cell],
            nodes: 1,
            elapsed_ms: 0,
        });
        Ok(Choice::just(cell))
    }
}

/// Plays the first free cell of mnk-core's order: bottom row first, left to right. Makes the
/// row flip between the protocol (rows from the top) and mnk-core (rows from the bottom) visible.
pub struct BottomLeft;

impl Bot for BottomLeft {
    fn id(&self) -> &'static str {
        "bottom-left"
    }
    fn choose(&mut self, pos: &Position, _limits: &Limits) -> Result<Choice, BotError> {
        let cell = pos
            .legal_moves()
            .into_iter()
            .min_by_key(|c| (c.y, c.x))
            .ok_or(BotError::GameOver)?;
        Ok(Choice::just(cell))
    }
}

/// Thinks until told to stop (by the flag or the deadline), then plays like [`Nearest`].
pub struct UntilStopped;

impl Bot for UntilStopped {
    fn id(&self) -> &'static str {
        "until-stopped"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        while !limits.should_stop() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        Nearest.choose(pos, limits)
    }
}

/// The brain's own bot (`mnk_gomocup::strongest_bot`, a small table, one thread), each search
/// held to [`STRONGEST_NODES`] nodes with no deadline, so that it plays the same moves on every
/// run and on a loaded machine.
pub struct Strongest(Box<dyn Bot>);

/// The nodes of each search of [`Strongest`]: enough for a win in one or a forced block.
pub const STRONGEST_NODES: u64 = 50_000;

impl Strongest {
    fn new(rules: &Rules) -> Result<Strongest, BotError> {
        let options = BotOptions {
            hash_bytes: Some(1 << 20),
            threads: 1,
        };
        Ok(Strongest(mnk_gomocup::strongest_bot(rules, options)?))
    }

    fn limits(limits: &Limits) -> Limits {
        Limits {
            max_depth: limits.max_depth,
            max_nodes: Some(STRONGEST_NODES),
            deadline: None,
            cutoff: None,
            stop: limits.stop.clone(),
        }
    }
}

impl Bot for Strongest {
    fn id(&self) -> &'static str {
        self.0.id()
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        self.0.choose(pos, &Strongest::limits(limits))
    }
    fn choose_with_info(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Choice, BotError> {
        self.0
            .choose_with_info(pos, &Strongest::limits(limits), info)
    }
}

/// A swap2 bot that judges every position lost for the side to move (so it always swaps).
pub struct Pessimist;

impl Bot for Pessimist {
    fn id(&self) -> &'static str {
        "pessimist"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        let mut c = Nearest.choose(pos, limits)?;
        c.value = Some(Value::Eval(-1000));
        Ok(c)
    }
}

/// A swap2 bot that judges every position even (so, asked after three stones, it places two).
pub struct Even;

impl Bot for Even {
    fn id(&self) -> &'static str {
        "even"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        let mut c = Nearest.choose(pos, limits)?;
        c.value = Some(Value::Eval(0));
        Ok(c)
    }
}

pub fn maker(name: &str) -> impl Fn(&Rules, BotOptions) -> Result<Box<dyn Bot>, BotError> + Send {
    let name = name.to_string();
    move |rules: &Rules, _options: BotOptions| -> Result<Box<dyn Bot>, BotError> {
        Ok(match name.as_str() {
            "strongest" => Box::new(Strongest::new(rules)?),
            "nearest" => Box::new(Nearest),
            "bottom-left" => Box::new(BottomLeft),
            "until-stopped" => Box::new(UntilStopped),
            "pessimist" => Box::new(Pessimist),
            "even" => Box::new(Even),
            other => panic!("no test bot {other}"),
        })
    }
}

/// What one input line produced.
#[derive(Debug)]
pub struct Step {
    pub line: String,
    pub replies: Vec<String>,
}

/// Feeds lines one by one to a session on this thread; stops after `END`. When the input ends
/// without `END`, a block left open is answered as the brain answers it, in a last step whose
/// line is empty.
pub fn run_sync(bot: &str, lines: &[String]) -> Vec<Step> {
    let mut parser = Parser::new();
    let mut session = Session::new(maker(bot));
    let mut steps = Vec::new();
    let mut answer = |parsed, replies: &mut Vec<String>| {
        let stop = Arc::new(AtomicBool::new(false));
        session.handle(parsed, &stop, &mut |l: &str| replies.push(l.to_string()))
    };
    for line in lines {
        let mut replies = Vec::new();
        let mut flow = Flow::Continue;
        if let Some(parsed) = parser.feed(line) {
            flow = answer(parsed, &mut replies);
        }
        steps.push(Step {
            line: line.clone(),
            replies,
        });
        if flow == Flow::End {
            return steps;
        }
    }
    if let Some(e) = parser.finish() {
        let mut replies = Vec::new();
        answer(Err(e), &mut replies);
        steps.push(Step {
            line: String::new(),
            replies,
        });
    }
    steps
}

/// Splits text into lines the way the brain does (CR LF, LF, CR; empty lines dropped).
pub fn split(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    mnk_gomocup::stdio::read_lines(text.as_bytes(), |l| {
        v.push(l.to_string());
        true
    })
    .unwrap();
    v
}

/// Whether a reply line has one of the shapes the protocol allows.
pub fn well_formed(line: &str) -> bool {
    let is_move = |t: &str| {
        t.split_once(',').is_some_and(|(x, y)| {
            !x.is_empty()
                && !y.is_empty()
                && x.bytes().all(|b| b.is_ascii_digit())
                && y.bytes().all(|b| b.is_ascii_digit())
        })
    };
    !line.contains(['\r', '\n'])
        && (line == "OK"
            || line == "SWAP"
            || is_forbid(line)
            || line.starts_with("ERROR ")
            || line.starts_with("UNKNOWN ")
            || line.starts_with("MESSAGE ")
            || line.starts_with("name=\"")
            || (!line.is_empty() && line.split(' ').all(is_move)))
}

/// Whether a line is a `YXSHOWFORBID` answer: `FORBID `, cells as four digits each, `.`.
fn is_forbid(line: &str) -> bool {
    line.strip_prefix("FORBID ")
        .and_then(|rest| rest.strip_suffix('.'))
        .is_some_and(|cells| cells.len() % 4 == 0 && cells.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a line is a message the manager skips.
pub fn is_message(line: &str) -> bool {
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ")
}
