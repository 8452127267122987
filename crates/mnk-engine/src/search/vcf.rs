//! Threat-space searches: victory by continuous fours (VCF) and by continuous threats (VCT).
//!
//! Both are proof searches for the side to move, the attacker. In a **VCF** every attacking
//! move makes a four, so the defender's reply is forced (the one cell that stops the five), and
//! the tree is narrow: one branch per four. If the defender's forced block makes a four of
//! their own, the attacker must block it, and may go on only if that block is again a four. An
//! open four (or double four) against a defender with no five to make is a win.
//!
//! A **VCT** also allows moves that threaten to make an open four (open threes and better).
//! The defender then has choices: every one of them must lose. After a three the defender may
//! stop it on any cell where the attacker would make a four, or play a four of their own (which
//! the attacker must answer); these sets hold every defence of a three. VCT is much more
//! expensive, so it runs with small depth and node budgets, and each attacker node first tries
//! the cheap VCF.
//!
//! Failed (and proven) positions are remembered by hash with the depth they were tried at, since
//! fours can be played in many orders. Both searches count their nodes with the main search and
//! give up when the limits say stop.

use super::board::Board;
use super::control::Control;
use super::movegen::threat_cells;
use super::threat::Threat;

const CACHE_BITS: u32 = 16;

/// Remembered results of threat searches: `(hash, depth, won)` per slot.
pub struct ThreatCache {
    slots: Vec<(u64, u8, bool)>,
}

impl Default for ThreatCache {
    fn default() -> Self {
        ThreatCache::new()
    }
}

impl ThreatCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> ThreatCache {
        ThreatCache {
            slots: vec![(0, 0, false); 1 << CACHE_BITS],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill((0, 0, false));
    }

    fn slot(hash: u64, kind: u64) -> usize {
        ((hash ^ kind.wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> (64 - CACHE_BITS)) as usize
    }

    /// Whether the position is known to fail with at least `depth` left.
    fn failed(&self, hash: u64, kind: u64, depth: u32) -> bool {
        let (h, d, won) = self.slots[Self::slot(hash, kind)];
        h == (hash ^ kind) && !won && u32::from(d) >= depth
    }

    fn remember(&mut self, hash: u64, kind: u64, depth: u32, won: bool) {
        self.slots[Self::slot(hash, kind)] = (hash ^ kind, depth.min(255) as u8, won);
    }
}

const KIND_VCF: u64 = 1;
const KIND_VCT: u64 = 2;

/// Looks for a VCF for the side to move with at most `max_fours` fours. On success returns the
/// winning line (attacker and defender moves alternating, ending with the five).
pub fn vcf(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    max_fours: u32,
) -> Option<Vec<usize>> {
    let mut line = Vec::new();
    vcf_attack(board, ctl, cache, max_fours, &mut line).then(|| {
        line.reverse();
        line
    })
}

/// Attacker to move. On success pushes the line in reverse.
fn vcf_attack(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    fours: u32,
    line: &mut Vec<usize>,
) -> bool {
    let att = board.side();
    let def = 1 - att;
    let mut moves = Vec::new();
    if board.threat_count(att, Threat::Five) > 0 {
        threat_cells(board, att, Threat::Five, &mut moves);
        line.push(moves[0]);
        return true;
    }
    match board.threat_count(def, Threat::Five) {
        0 => {
            if board.threat_count(att, Threat::Flex4) > 0 {
                // An open four: the defender blocks one end, the other wins.
                threat_cells(board, att, Threat::Flex4, &mut moves);
                return flex4_line(board, moves[0], line);
            }
            if fours == 0 || board.threats_at_least(att, Threat::Block4) == 0 {
                return false;
            }
            threat_cells(board, att, Threat::Block4, &mut moves);
        }
        1 => {
            // Forced to block; it must also be a four to keep the initiative.
            threat_cells(board, def, Threat::Five, &mut moves);
            if fours == 0 || board.threat(moves[0], att) < Threat::Block4 {
                return false;
            }
        }
        _ => return false,
    }
    let hash = board.hash();
    if cache.failed(hash, KIND_VCF, fours) {
        return false;
    }
    // Fours that also make a three (four-threes) first, then by cell.
    moves.sort_by_key(|&m| (std::cmp::Reverse(board.threat(m, att)), m));
    for m in moves {
        if ctl.tick() {
            return false;
        }
        board.play(m);
        if board.threat_count(att, Threat::Five) >= 2 {
            // Became an open or double four: the defender can stop only one five.
            let won = flex_followup(board, line);
            board.undo();
            if won {
                line.push(m);
                return true;
            }
            continue;
        }
        let mut reply = Vec::new();
        threat_cells(board, att, Threat::Five, &mut reply);
        if reply.len() == 1 {
            ctl.tick();
            board.play(reply[0]);
            let won = vcf_attack(board, ctl, cache, fours - 1, line);
            board.undo();
            if won {
                line.push(reply[0]);
                board.undo();
                line.push(m);
                return true;
            }
        }
        board.undo();
        if ctl.stopped() {
            return false;
        }
    }
    cache.remember(hash, KIND_VCF, fours, false);
    false
}

/// The defender faces two or more fives: they block the first, the attacker plays another.
/// Pushes (in reverse) the block and the five. Fails only if the defender has a five.
fn flex_followup(board: &mut Board, line: &mut Vec<usize>) -> bool {
    let def = board.side();
    let att = 1 - def;
    if board.threat_count(def, Threat::Five) > 0 {
        return false;
    }
    let mut fives = Vec::new();
    threat_cells(board, att, Threat::Five, &mut fives);
    line.push(fives[1]);
    line.push(fives[0]);
    true
}

/// The attacker plays an open-four cell `m` against a defender without a five.
fn flex4_line(board: &mut Board, m: usize, line: &mut Vec<usize>) -> bool {
    board.play(m);
    let won = flex_followup(board, line);
    board.undo();
    if won {
        line.push(m);
    }
    won
}

/// Looks for a VCT for the side to move, with at most `max_threats` attacking moves (each of
/// which may also end in a VCF). Returns the first winning move, the number of plies to the
/// win against the most stubborn defence found, and a principal line.
pub fn vct(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    max_threats: u32,
) -> Option<(usize, u32, Vec<usize>)> {
    let mut line = Vec::new();
    let plies = vct_attack(board, ctl, cache, max_threats, &mut line)?;
    line.reverse();
    Some((line[0], plies, line))
}

/// Whether the attacker's threat `m` starts a VCT of at most `max_threats` threats (every
/// defence loses); for listing all winning first moves of a position.
pub fn vct_move_wins(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    m: usize,
    max_threats: u32,
) -> bool {
    if max_threats == 0 {
        return false;
    }
    board.play(m);
    let won = board.last_move_won()
        || vct_defend(board, ctl, cache, max_threats - 1, &mut Vec::new()).is_some();
    board.undo();
    won
}

/// VCF depth used inside the VCT.
const VCT_VCF_FOURS: u32 = 8;

/// The VCF inside the VCT: its length in plies, its line pushed onto `line` in reverse.
fn vcf_into(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    line: &mut Vec<usize>,
) -> Option<u32> {
    let v = vcf(board, ctl, cache, VCT_VCF_FOURS)?;
    let n = v.len() as u32;
    line.extend(v.into_iter().rev());
    Some(n)
}

/// Attacker to move: plies to win, pushing the line in reverse.
fn vct_attack(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    depth: u32,
    line: &mut Vec<usize>,
) -> Option<u32> {
    let att = board.side();
    let def = 1 - att;
    if let Some(n) = vcf_into(board, ctl, cache, line) {
        return Some(n);
    }
    if depth == 0 || ctl.stopped() || board.threat_count(def, Threat::Five) > 0 {
        // A defender's four that the attacker cannot answer with a four is handled by VCF;
        // here it ends the attack (answering it quietly would give up the initiative).
        return None;
    }
    let hash = board.hash();
    if cache.failed(hash, KIND_VCT, depth) {
        return None;
    }
    let mut moves = Vec::new();
    threat_cells(board, att, Threat::Flex3, &mut moves);
    moves.sort_by_key(|&m| (std::cmp::Reverse(board.threat(m, att)), m));
    for m in moves {
        if ctl.tick() {
            return None;
        }
        board.play(m);
        let mut sub = Vec::new();
        let r = vct_defend(board, ctl, cache, depth - 1, &mut sub);
        board.undo();
        if let Some(n) = r {
            line.extend(sub);
            line.push(m);
            return Some(n + 1);
        }
        if ctl.stopped() {
            return None;
        }
    }
    cache.remember(hash, KIND_VCT, depth, false);
    None
}

/// Defender to move after a threat: every defence must lose. Returns plies to the win against
/// the longest-lasting defence.
fn vct_defend(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    depth: u32,
    line: &mut Vec<usize>,
) -> Option<u32> {
    let def = board.side();
    let att = 1 - def;
    if board.threat_count(def, Threat::Five) > 0 {
        return None;
    }
    let attacker_fives = board.threat_count(att, Threat::Five);
    if attacker_fives >= 2 {
        let mut f = Vec::new();
        threat_cells(board, att, Threat::Five, &mut f);
        line.push(f[1]);
        line.push(f[0]);
        return Some(2);
    }
    let mut defences = Vec::new();
    if attacker_fives == 1 {
        threat_cells(board, att, Threat::Five, &mut defences);
    } else {
        if board.threats_at_least(att, Threat::Flex4) == 0 {
            return None; // not a threat
        }
        threat_cells(board, att, Threat::Block4, &mut defences);
        threat_cells(board, def, Threat::Block4, &mut defences);
        defences.sort_unstable();
        defences.dedup();
    }
    let mut worst = 0;
    let mut worst_line = Vec::new();
    for d in defences {
        if ctl.tick() {
            return None;
        }
        board.play(d);
        let mut sub = Vec::new();
        let r = if board.threat_count(def, Threat::Five) > 0 {
            // The defence made a four: the attacker must block it, and the block must keep a
            // threat going (or be part of a VCF, which vct_attack tries first).
            vct_after_counter_four(board, ctl, cache, depth, &mut sub)
        } else {
            vct_attack(board, ctl, cache, depth, &mut sub)
        };
        board.undo();
        let n = r?;
        if n + 1 > worst || worst_line.is_empty() {
            worst = n + 1;
            sub.push(d);
            worst_line = sub;
        }
    }
    line.extend(worst_line);
    Some(worst)
}

/// The defender answered with a four: the attacker blocks it; the block must win by VCF or
/// leave a threat standing that the defender must answer again.
fn vct_after_counter_four(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    depth: u32,
    line: &mut Vec<usize>,
) -> Option<u32> {
    let att = board.side();
    let def = 1 - att;
    if let Some(n) = vcf_into(board, ctl, cache, line) {
        return Some(n);
    }
    if depth == 0 || board.threat_count(def, Threat::Five) != 1 {
        return None;
    }
    let mut block = Vec::new();
    threat_cells(board, def, Threat::Five, &mut block);
    let b = block[0];
    ctl.tick();
    board.play(b);
    let mut sub = Vec::new();
    let r = vct_defend(board, ctl, cache, depth - 1, &mut sub);
    board.undo();
    let n = r?;
    line.extend(sub);
    line.push(b);
    Some(n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::board::Board;
    use crate::Limits;
    use mnk_core::{Cell, Position, Rules};

    fn board(rules: &str, diagram: &str) -> Board {
        let rules: Rules = rules.parse().unwrap();
        Board::from_position(&Position::from_diagram(rules, diagram).unwrap())
    }

    #[test]
    fn finds_a_short_vcf() {
        // X to move: h8 makes two fours at once.
        let mut b = board(
            "15x15x5",
            "
            O . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . O X X X . . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . O . . . . . . .
            O . . . . . . . . . . . . . .
            O . . . . . . . . . . . . . .
            O . . . . . . . . . . . . . .",
        );
        let limits = Limits::none();
        let mut ctl = Control::new(&limits);
        let mut cache = ThreatCache::new();
        let line = vcf(&mut b, &mut ctl, &mut cache, 10).expect("a VCF");
        assert!(line.len() % 2 == 1, "{line:?}");
        // Replay: it must end in a win for X.
        for &m in &line {
            b.play(m);
        }
        assert!(b.last_move_won());
        assert_eq!(line[0], b.index_of("h8".parse::<Cell>().unwrap()).unwrap());
    }
}
