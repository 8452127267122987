//! The evaluation's numbers, in one table per variant, read from a text file.
//!
//! Everything the search values lives here: what one line [`Pattern`] is worth to the player who
//! could play it, what a cell's combination of patterns (its
//! [`Threat`](super::threat::Threat) class) adds, how the evaluation weighs the mover's sums
//! against the opponent's and the threats that decide the game soon, and how move ordering ranks
//! attacks and defences. The board sums the cell values
//! incrementally; [`super::eval`] and [`super::movegen`] read the rest.
//!
//! The tables ship as text files in `crates/mnk-engine/weights/` (one per [`Variant`]), embedded
//! in the binary and parsed once; `mnk tune` writes the same format, and a match can load another
//! file to compare tables. Values may differ by colour: a section `[line]` sets both colours,
//! `[line black]` or `[line white]` one of them (black is the side that moves first). Renju's
//! table is split so, because black's lines follow other rules than white's.
//!
//! ```text
//! # comment
//! [line]          one value per Pattern: dead b1 f1 b2 f2 b3 f3 b4 f4 five
//! f3 40
//! [cell]          one value per Threat class: none flex2 block3 … five
//! flex3x2 120
//! [eval]          own_quarters opponent_quarters flex4_unanswered flex4_answered four_three
//! [order attack]  one value per Threat class
//! [order defend]  one value per Threat class
//! ```
//!
//! Every value must be given exactly once (per colour for the colour sections), so a table file
//! is always complete.

use std::fmt::{self, Write as _};
use std::sync::OnceLock;

use mnk_core::{Rules, Win};

use super::net::{Net, MAX_NET_SIDE};
use super::pattern::Pattern;
use super::threat::{classify, key_pattern, pack_info};

/// Which shipped table a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// k or more in a row on a bounded board.
    Freestyle,
    /// Exactly k in a row on a bounded board.
    Exact,
    /// The board without borders.
    Unbounded,
    /// Renju (black exactly five with forbidden moves, white five or more).
    Renju,
    /// Caro (exactly five, not closed at both ends).
    Caro,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] = [
        Variant::Freestyle,
        Variant::Exact,
        Variant::Unbounded,
        Variant::Renju,
        Variant::Caro,
    ];

    /// The table for games under `rules`.
    #[must_use]
    pub fn of(rules: &Rules) -> Variant {
        if !rules.is_bounded() {
            return Variant::Unbounded;
        }
        match rules.win() {
            Win::Freestyle => Variant::Freestyle,
            Win::Exact => Variant::Exact,
            Win::Renju => Variant::Renju,
            Win::Caro => Variant::Caro,
        }
    }

    /// The name of its file (without `.txt`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Variant::Freestyle => "freestyle",
            Variant::Exact => "exact",
            Variant::Unbounded => "unbounded",
            Variant::Renju => "renju",
            Variant::Caro => "caro",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Variant::Freestyle => include_str!("../../weights/freestyle.txt"),
            Variant::Exact => include_str!("../../weights/exact.txt"),
            Variant::Unbounded => include_str!("../../weights/unbounded.txt"),
            Variant::Renju => include_str!("../../weights/renju.txt"),
            Variant::Caro => include_str!("../../weights/caro.txt"),
        }
    }

    /// The shipped network this variant plays, if any. Every variant on a bounded board plays
    /// the freestyle network: it reads the line patterns as the rules classify them (no five of
    /// six under exactly five, none for black under renju, none closed at both ends under caro),
    /// and networks trained on exactly-five and renju games played no better (docs/strength.md,
    /// "The learnt evaluation"). The board without borders keeps its table.
    fn net(self) -> Option<&'static Net> {
        static FREESTYLE: OnceLock<Net> = OnceLock::new();
        match self {
            Variant::Freestyle | Variant::Exact | Variant::Renju | Variant::Caro => {
                Some(FREESTYLE.get_or_init(|| {
                    // The shipped file is checked by the tests: this cannot fail in a tested
                    // build.
                    Net::parse(include_str!("../../weights/freestyle.net"))
                        .unwrap_or_else(|e| panic!("the shipped network freestyle.net: {e}"))
                }))
            }
            Variant::Unbounded => None,
        }
    }
}

/// Names of the line patterns in a table file, in [`Pattern`] order.
pub const PATTERN_NAMES: [&str; 10] = [
    "dead", "b1", "f1", "b2", "f2", "b3", "f3", "b4", "f4", "five",
];
/// Names of the threat classes in a table file, in [`Threat`](super::threat::Threat) order.
pub const THREAT_NAMES: [&str; 13] = [
    "none",
    "flex2",
    "block3",
    "flex2x2",
    "block3plus",
    "flex3",
    "flex3plus",
    "flex3x2",
    "block4",
    "block4plus",
    "block4flex3",
    "flex4",
    "five",
];
/// Names of the evaluation terms, in [`EvalTerms`] order.
pub const EVAL_NAMES: [&str; 5] = [
    "own_quarters",
    "opponent_quarters",
    "flex4_unanswered",
    "flex4_answered",
    "four_three",
];

/// Most a value may be in size (a cell's values are summed and kept in 16 bits, beyond which
/// they are cut; ordering values may be larger).
pub const MAX_VALUE: i32 = 1_000_000;

/// The evaluation's terms besides the cell sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    /// The mover's sum counts this many quarters.
    pub own_quarters: i32,
    /// The opponent's sum counts this many quarters.
    pub opponent_quarters: i32,
    /// The mover can make an open four and the opponent has no four to interpose.
    pub flex4_unanswered: i32,
    /// The mover can make an open four but the opponent has fours.
    pub flex4_answered: i32,
    /// The mover can make a four-three.
    pub four_three: i32,
}

impl EvalTerms {
    fn get(&self, i: usize) -> i32 {
        [
            self.own_quarters,
            self.opponent_quarters,
            self.flex4_unanswered,
            self.flex4_answered,
            self.four_three,
        ][i]
    }

    fn slot(&mut self, i: usize) -> &mut i32 {
        match i {
            0 => &mut self.own_quarters,
            1 => &mut self.opponent_quarters,
            2 => &mut self.flex4_unanswered,
            3 => &mut self.flex4_answered,
            _ => &mut self.four_three,
        }
    }
}

/// The values the evaluation and the move ordering use, for one variant. Colour 0 is black (the
/// side that moves first), 1 white.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per colour, the value of one line pattern for the player who could play it.
    pub line: [[i32; 10]; 2],
    /// Per colour, the extra value of a cell's combination of patterns, by threat class.
    pub cell: [[i32; 13]; 2],
    /// The evaluation's other terms.
    pub eval: EvalTerms,
    /// Ordering value of a move by the threat it makes for the mover.
    pub attack: [i32; 13],
    /// Ordering value of a move by the threat it takes from the opponent.
    pub defend: [i32; 13],
    /// Whether the file gave the colours values of their own (written back the same way).
    pub by_colour: bool,
}

/// A [`Weights`] with its lookup tables built: what the board reads.
#[derive(Debug, PartialEq, Eq)]
pub struct WeightTable {
    weights: Weights,
    /// Per colour, threat and cell value of every packed key (see [`CellTable`]).
    info: [Vec<u32>; 2],
    /// The learnt evaluation that replaces the cell sums, if any ([`super::net`]).
    net: Option<&'static Net>,
}

/// Why a table file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// 1-based line, 0 for the whole file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.reason)
        } else {
            f.write_str(&self.reason)
        }
    }
}

impl std::error::Error for WeightsError {}

/// A section of a table file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Line(Option<usize>),
    Cell(Option<usize>),
    Eval,
    Attack,
    Defend,
}

impl Weights {
    /// Reads a table file (see the module documentation).
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights {
            line: [[0; 10]; 2],
            cell: [[0; 13]; 2],
            eval: EvalTerms {
                own_quarters: 0,
                opponent_quarters: 0,
                flex4_unanswered: 0,
                flex4_answered: 0,
                four_three: 0,
            },
            attack: [0; 13],
            defend: [0; 13],
            by_colour: false,
        };
        // How often each value was set: [line 2×10][cell 2×13][eval 5][attack 13][defend 13].
        let mut seen = [0u8; 20 + 26 + 5 + 26];
        let mut section: Option<Section> = None;
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let err = |reason: String| WeightsError {
                line: line_no,
                reason,
            };
            let text = raw.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            if let Some(name) = text.strip_prefix('[') {
                let name = name
                    .strip_suffix(']')
                    .ok_or_else(|| err(format!("'{text}' opens a section without closing it")))?;
                let words: Vec<&str> = name.split_whitespace().collect();
                let colour = |word: Option<&&str>| match word.copied() {
                    None => Ok(None),
                    Some("black") => Ok(Some(0)),
                    Some("white") => Ok(Some(1)),
                    Some(other) => Err(err(format!(
                        "'{other}' is not a colour: black or white (or none for both)"
                    ))),
                };
                section = Some(match (words.first().copied(), words.len()) {
                    (Some("line"), 1 | 2) => Section::Line(colour(words.get(1))?),
                    (Some("cell"), 1 | 2) => Section::Cell(colour(words.get(1))?),
                    (Some("eval"), 1) => Section::Eval,
                    (Some("order"), 2) if words[1] == "attack" => Section::Attack,
                    (Some("order"), 2) if words[1] == "defend" => Section::Defend,
                    _ => {
                        return Err(err(format!(
                            "'[{name}]' is not a section: [line], [cell] (either with black or white), [eval], [order attack] or [order defend]"
                        )))
                    }
                });
                if matches!(
                    section,
                    Some(Section::Line(Some(_)) | Section::Cell(Some(_)))
                ) {
                    w.by_colour = true;
                }
                continue;
            }
            let Some(sec) = section else {
                return Err(err(format!("'{text}' comes before any [section]")));
            };
            let mut words = text.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(err(format!("'{text}' is not a name and one value")));
            };
            let value: i32 = value
                .parse()
                .ok()
                .filter(|v: &i32| v.abs() <= MAX_VALUE)
                .ok_or_else(|| {
                    err(format!(
                        "'{value}' is not a whole number from -{MAX_VALUE} to {MAX_VALUE}"
                    ))
                })?;
            let find = |names: &[&str]| {
                names.iter().position(|&n| n == name).ok_or_else(|| {
                    err(format!(
                        "'{name}' is not a value of this section: {}",
                        names.join(", ")
                    ))
                })
            };
            let colours = |c: Option<usize>| match c {
                Some(c) => c..c + 1,
                None => 0..2,
            };
            let mut set = |slot: usize, target: &mut i32| {
                seen[slot] += 1;
                *target = value;
            };
            match sec {
                Section::Line(c) => {
                    let i = find(&PATTERN_NAMES)?;
                    for c in colours(c) {
                        set(c * 10 + i, &mut w.line[c][i]);
                    }
                }
                Section::Cell(c) => {
                    let i = find(&THREAT_NAMES)?;
                    for c in colours(c) {
                        set(20 + c * 13 + i, &mut w.cell[c][i]);
                    }
                }
                Section::Eval => {
                    let i = find(&EVAL_NAMES)?;
                    set(46 + i, w.eval.slot(i));
                }
                Section::Attack => {
                    let i = find(&THREAT_NAMES)?;
                    set(51 + i, &mut w.attack[i]);
                }
                Section::Defend => {
                    let i = find(&THREAT_NAMES)?;
                    set(64 + i, &mut w.defend[i]);
                }
            }
        }
        let name_of = |slot: usize| -> String {
            let colour = |c: usize| if c == 0 { "black" } else { "white" };
            match slot {
                0..20 => format!(
                    "[line] {} ({})",
                    PATTERN_NAMES[slot % 10],
                    colour(slot / 10)
                ),
                20..46 => format!(
                    "[cell] {} ({})",
                    THREAT_NAMES[(slot - 20) % 13],
                    colour((slot - 20) / 13)
                ),
                46..51 => format!("[eval] {}", EVAL_NAMES[slot - 46]),
                51..64 => format!("[order attack] {}", THREAT_NAMES[slot - 51]),
                _ => format!("[order defend] {}", THREAT_NAMES[slot - 64]),
            }
        };
        if let Some(slot) = seen.iter().position(|&s| s > 1) {
            return Err(WeightsError {
                line: 0,
                reason: format!("{} is given more than once", name_of(slot)),
            });
        }
        if let Some(slot) = seen.iter().position(|&s| s == 0) {
            return Err(WeightsError {
                line: 0,
                reason: format!("{} is missing", name_of(slot)),
            });
        }
        Ok(w)
    }

    /// The table file of these values, with `title` as its first comment.
    #[must_use]
    pub fn to_text(&self, title: &str) -> String {
        let mut out = String::new();
        for line in title.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let section = |out: &mut String, header: &str, names: &[&str], values: &[i32]| {
            let _ = writeln!(out, "\n[{header}]");
            for (name, v) in names.iter().zip(values) {
                let _ = writeln!(out, "{name} {v}");
            }
        };
        if self.by_colour {
            for (c, colour) in ["black", "white"].iter().enumerate() {
                section(
                    &mut out,
                    &format!("line {colour}"),
                    &PATTERN_NAMES,
                    &self.line[c],
                );
            }
            for (c, colour) in ["black", "white"].iter().enumerate() {
                section(
                    &mut out,
                    &format!("cell {colour}"),
                    &THREAT_NAMES,
                    &self.cell[c],
                );
            }
        } else {
            section(&mut out, "line", &PATTERN_NAMES, &self.line[0]);
            section(&mut out, "cell", &THREAT_NAMES, &self.cell[0]);
        }
        let eval: Vec<i32> = (0..EVAL_NAMES.len()).map(|i| self.eval.get(i)).collect();
        section(&mut out, "eval", &EVAL_NAMES, &eval);
        section(&mut out, "order attack", &THREAT_NAMES, &self.attack);
        section(&mut out, "order defend", &THREAT_NAMES, &self.defend);
        out
    }

    /// The value of a cell with these four line patterns for `colour`: the patterns' values plus
    /// the combination's (the board sums these over the empty cells).
    #[must_use]
    pub fn cell_value(&self, colour: usize, patterns: [Pattern; 4]) -> i32 {
        let t = classify(patterns);
        patterns
            .iter()
            .map(|&p| self.line[colour][p as usize])
            .sum::<i32>()
            + self.cell[colour][t as usize]
    }
}

impl WeightTable {
    /// The lookup tables for `weights`.
    #[must_use]
    pub fn new(weights: Weights) -> WeightTable {
        let info = [0, 1].map(|colour| {
            let mut info = vec![0u32; 10_000];
            for (index, slot) in info.iter_mut().enumerate() {
                // The index read as four decimal digits is the key (see threat::compact_index).
                let mut key = 0u16;
                let mut rest = index;
                for d in 0..4 {
                    key |= ((rest % 10) as u16) << (4 * d);
                    rest /= 10;
                }
                let patterns = [0, 1, 2, 3].map(|d| key_pattern(key, d));
                let value = weights
                    .cell_value(colour, patterns)
                    .clamp(i32::from(i16::MIN), i32::from(i16::MAX));
                *slot = pack_info(classify(patterns), value as i16);
            }
            info
        });
        WeightTable {
            weights,
            info,
            net: None,
        }
    }

    /// This table with the learnt evaluation `net` in place of its cell sums (`None`: the
    /// sums). Ordering and threat values stay the table's.
    #[must_use]
    pub fn with_net(mut self, net: Option<&'static Net>) -> WeightTable {
        self.net = net;
        self
    }

    /// The learnt evaluation, if the table has one.
    #[must_use]
    pub fn net(&self) -> Option<&'static Net> {
        self.net
    }

    /// The shipped table of `variant`, parsed on first use.
    #[must_use]
    pub fn shipped(variant: Variant) -> &'static WeightTable {
        static TABLES: [OnceLock<WeightTable>; 5] = [const { OnceLock::new() }; 5];
        TABLES[variant as usize].get_or_init(|| {
            // The shipped files are checked by the tests: this cannot fail in a tested build.
            let weights = Weights::parse(variant.source())
                .unwrap_or_else(|e| panic!("the shipped table {}.txt: {e}", variant.name()));
            WeightTable::new(weights)
        })
    }

    /// The shipped evaluation for games under `rules`: the variant's table, with the shipped
    /// network in place of its sums where one covers the rules ([`WeightTable::shipped_net`]).
    #[must_use]
    pub fn for_rules(rules: &Rules) -> &'static WeightTable {
        static WITH_NET: [OnceLock<WeightTable>; 5] = [const { OnceLock::new() }; 5];
        let variant = Variant::of(rules);
        match WeightTable::shipped_net(rules) {
            Some(net) => WITH_NET[variant as usize].get_or_init(|| {
                WeightTable::new(WeightTable::shipped(variant).weights().clone())
                    .with_net(Some(net))
            }),
            None => WeightTable::shipped(variant),
        }
    }

    /// The shipped network for games under `rules`, if one covers them: five in a row on a
    /// bounded board of at most [`MAX_NET_SIDE`] a side, in a variant with a trained network
    /// (elsewhere the tables' sums judge).
    #[must_use]
    pub fn shipped_net(rules: &Rules) -> Option<&'static Net> {
        let fits = rules.k() == 5
            && matches!(rules.board(), mnk_core::Board::Bounded { width, height }
                if width <= MAX_NET_SIDE && height <= MAX_NET_SIDE);
        fits.then(|| Variant::of(rules).net()).flatten()
    }

    /// A table kept for the rest of the process (loaded from a file once per run: a match or a
    /// tuning run compares a handful of tables, so leaking them costs nothing that matters).
    #[must_use]
    pub fn leak(weights: Weights) -> &'static WeightTable {
        Box::leak(Box::new(WeightTable::new(weights)))
    }

    /// The values.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The lookup of `colour`'s cell values (0 black, 1 white).
    #[must_use]
    pub fn cells(&'static self, colour: usize) -> CellTable {
        CellTable::new(&self.info[colour.min(1)])
    }
}

/// One colour's threat class and cell value of every packed key, in one word per key.
#[derive(Clone, Copy)]
pub struct CellTable {
    info: &'static [u32],
    low: &'static [u16; 256],
    high: &'static [u16; 256],
}

impl CellTable {
    fn new(info: &'static [u32]) -> CellTable {
        let (low, high) = super::threat::compact_halves();
        CellTable { info, low, high }
    }

    /// Threat and value of a packed key in one word (see [`super::threat::info_threat`],
    /// [`super::threat::info_score`]).
    #[inline]
    #[must_use]
    pub fn info(self, key: u16) -> u32 {
        let index = self.low[usize::from(key & 0xFF)] + self.high[usize::from(key >> 8)];
        self.info[usize::from(index)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::threat::{info_score, info_threat, threat_of};

    #[test]
    fn the_shipped_networks_cover_five_in_a_row_up_to_their_largest_board() {
        let net = |text: &str| WeightTable::shipped_net(&text.parse().unwrap());
        for covered in [
            "15x15x5",
            "20x20x5",
            "9x9x5",
            "gomoku15",
            "15x15x5,exact",
            "15x15x5,renju",
            "15x15x5,caro",
        ] {
            let shipped = net(covered).unwrap_or_else(|| panic!("{covered}"));
            assert_eq!(Net::parse(&shipped.to_text("again")).unwrap(), *shipped);
            let rules: Rules = covered.parse().unwrap();
            assert_eq!(WeightTable::for_rules(&rules).net(), Some(shipped));
        }
        // One network, parsed once, for every rule set of five.
        let freestyle = net("15x15x5").unwrap();
        assert!(std::ptr::eq(net("15x15x5,renju").unwrap(), freestyle));
        // Each variant keeps its own table for everything but the sums.
        for variant in ["15x15x5,exact", "15x15x5,renju", "15x15x5,caro"] {
            let rules: Rules = variant.parse().unwrap();
            assert_eq!(
                WeightTable::for_rules(&rules).weights(),
                WeightTable::shipped(Variant::of(&rules)).weights(),
                "{variant}"
            );
        }
        for other in ["15x15x4", "15x15x6", "21x21x5", "20x21x5,exact", "infx5"] {
            assert!(net(other).is_none(), "{other}");
            let rules: Rules = other.parse().unwrap();
            assert!(WeightTable::for_rules(&rules).net().is_none(), "{other}");
        }
    }

    #[test]
    fn shipped_tables_parse_and_print_back() {
        for v in Variant::ALL {
            let w = Weights::parse(v.source()).unwrap_or_else(|e| panic!("{}: {e}", v.name()));
            assert_eq!(
                Weights::parse(&w.to_text("again")).as_ref(),
                Ok(&w),
                "{}",
                v.name()
            );
            assert_eq!(w.by_colour, v == Variant::Renju, "{}", v.name());
        }
    }

    #[test]
    fn every_key_reads_its_class_and_value() {
        let table = WeightTable::shipped(Variant::Freestyle);
        let w = table.weights();
        for colour in 0..2 {
            let cells = table.cells(colour);
            for key in 0..=u16::MAX {
                let info = cells.info(key);
                let patterns = [0, 1, 2, 3].map(|d| key_pattern(key, d));
                assert_eq!(info_threat(info), threat_of(key));
                assert_eq!(info_score(info), w.cell_value(colour, patterns));
            }
        }
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let good = WeightTable::shipped(Variant::Freestyle)
            .weights()
            .to_text("t");
        let cases = [
            ("f3 40\n", "before any [section]"),
            ("[lines]\n", "is not a section"),
            ("[line red]\n", "not a colour"),
            ("[line]\nf3\n", "a name and one value"),
            ("[line]\nf3 x\n", "whole number"),
            ("[line]\nf3 9999999\n", "whole number"),
            ("[line]\nf5 1\n", "not a value of this section"),
            ("[line\n", "without closing"),
        ];
        for (text, expected) in cases {
            let e = Weights::parse(text).unwrap_err();
            assert!(e.to_string().contains(expected), "{text:?}: {e}");
            assert_eq!(e.line, text.lines().count(), "{text:?}");
        }
        let missing = good.replace("f3 ", "# f3 ");
        let e = Weights::parse(&missing).unwrap_err();
        assert!(
            e.to_string().contains("[line] f3 (black) is missing"),
            "{e}"
        );
        let twice = format!("{good}\n[line black]\nf3 1\n");
        let e = Weights::parse(&twice).unwrap_err();
        assert!(e.to_string().contains("more than once"), "{e}");
    }
}
