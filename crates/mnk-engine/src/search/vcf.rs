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
//! Under renju the defender (black) cannot block on a forbidden point: a white four whose five
//! point is forbidden for black wins as surely as an open four, and white's attacks aim there.
//! Black's own threats on forbidden points are none (the board leaves them out of the threat
//! cells it lists for black). A proof line then stops at that four, since black has no move
//! worth showing; [`Proof::plies`] counts the two plies it leaves out.
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

/// A win found by a threat search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Attacker and defender moves alternating, ending with the five, or with a four the
    /// defender may not block (renju's forbidden points).
    pub line: Vec<usize>,
    /// Plies to the win: the line's length, plus two when it ends at an unblockable four.
    pub plies: u32,
}

/// Looks for a VCF for the side to move with at most `max_fours` fours.
pub fn vcf(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    max_fours: u32,
) -> Option<Proof> {
    let mut line = Vec::new();
    let mut cut = false;
    let net = board.pause_net();
    let found = vcf_attack(
        board,
        ctl,
        cache,
        max_fours,
        &mut line,
        &mut cut,
        &mut Vec::new(),
    );
    board.resume_net(net);
    found.then(|| {
        line.reverse();
        let plies = line.len() as u32 + if cut { 2 } else { 0 };
        Proof { line, plies }
    })
}

/// Attacker to move. On success pushes the line in reverse; `cut` is set when it ends at a four
/// the defender may not block. `cells` is scratch space shared down the line (one allocation
/// for the whole search, not two a node): the node lists its moves past what its callers listed,
/// and may leave them there for its caller to cut off.
fn vcf_attack(
    board: &mut Board,
    ctl: &mut Control,
    cache: &mut ThreatCache,
    fours: u32,
    line: &mut Vec<usize>,
    cut: &mut bool,
    cells: &mut Vec<usize>,
) -> bool {
    let start = cells.len();
    let att = board.side();
    let def = 1 - att;
    if board.threat_count(att, Threat::Five) > 0 {
        threat_cells(board, att, Threat::Five, cells);
        line.push(cells[start]);
        return true;
    }
    match board.threat_count(def, Threat::Five) {
        0 => {
            if board.has_playable_threat(att, Threat::Flex4) {
                // An open four: the defender blocks one end, the other wins.
                threat_cells(board, att, Threat::Flex4, cells);
                return flex4_line(board, cells[start], line, cut);
            }
            if fours == 0 || board.threats_at_least(att, Threat::Block4) == 0 {
                return false;
            }
            threat_cells(board, att, Threat::Block4, cells);
        }
        1 => {
            // Forced to block; it must also be a four to keep the initiative.
            threat_cells(board, def, Threat::Five, cells);
            let block = cells[start];
            if fours == 0 || board.threat(block, att) < Threat::Block4 || board.forbids(block, att)
            {
                return false;
            }
        }
        _ => return false,
    }
    let hash = board.hash();
    if cache.failed(hash, KIND_VCF, fours) {
        return false;
    }
    let end = cells.len();
    // Fours that also make a three (four-threes) first, then by cell.
    cells[start..end].sort_by_key(|&m| (std::cmp::Reverse(board.threat(m, att)), m));
    for i in start..end {
        let m = cells[i];
        if ctl.tick() {
            return false;
        }
        board.play(m);
        if board.threat_count(att, Threat::Five) >= 2 {
            // Became an open or double four: the defender can stop only one five.
            let won = flex_followup(board, line, cut);
            board.undo();
            if won {
                line.push(m);
                return true;
            }
            continue;
        }
        threat_cells(board, att, Threat::Five, cells);
        // The defender's one block; none when the five is a point the attacker may not play.
        let reply = (cells.len() == end + 1).then(|| cells[end]);
        cells.truncate(end);
        if let Some(reply) = reply {
            if board.forbids(reply, def) {
                // The only block is a point the defender may not play.
                board.undo();
                line.push(m);
                *cut = true;
                return true;
            }
            ctl.tick();
            board.play(reply);
            let won = vcf_attack(board, ctl, cache, fours - 1, line, cut, cells);
            cells.truncate(end);
            board.undo();
            if won {
                line.push(reply);
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

/// The defender faces two or more fives: they block the first they may play, the attacker
/// plays another. Pushes (in reverse) the block and the five, or nothing (and sets `cut`) when
/// every five is on a point the defender may not play. Fails only if the defender has a five.
fn flex_followup(board: &mut Board, line: &mut Vec<usize>, cut: &mut bool) -> bool {
    let def = board.side();
    if board.threat_count(def, Threat::Five) > 0 {
        return false;
    }
    if !push_block_and_five(board, line) {
        *cut = true;
    }
    true
}

/// The defender, to move, faces two or more fives: pushes (in reverse) the first block they
/// may play and another five of the attacker's. False (nothing pushed) when they may block
/// none.
fn push_block_and_five(board: &Board, line: &mut Vec<usize>) -> bool {
    let def = board.side();
    let att = 1 - def;
    let mut fives = Vec::new();
    threat_cells(board, att, Threat::Five, &mut fives);
    let Some(block) = fives.iter().position(|&c| !board.forbids(c, def)) else {
        return false;
    };
    let five = if block == 0 { fives[1] } else { fives[0] };
    line.push(five);
    line.push(fives[block]);
    true
}

/// The attacker plays an open-four cell `m` against a defender without a five.
fn flex4_line(board: &mut Board, m: usize, line: &mut Vec<usize>, cut: &mut bool) -> bool {
    board.play(m);
    let won = flex_followup(board, line, cut);
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
    let net = board.pause_net();
    let found = vct_attack(board, ctl, cache, max_threats, &mut line);
    board.resume_net(net);
    let plies = found?;
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
    let net = board.pause_net();
    board.play(m);
    let won = board.last_move_won()
        || vct_defend(board, ctl, cache, max_threats - 1, &mut Vec::new()).is_some();
    board.undo();
    board.resume_net(net);
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
    let proof = vcf(board, ctl, cache, VCT_VCF_FOURS)?;
    line.extend(proof.line.into_iter().rev());
    Some(proof.plies)
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
        push_block_and_five(board, line);
        return Some(2);
    }
    let mut defences = Vec::new();
    if attacker_fives == 1 {
        threat_cells(board, att, Threat::Five, &mut defences);
    } else {
        if !board.has_playable_threat(att, Threat::Flex4) && !board.has_unblockable_four(att) {
            return None; // not a threat
        }
        threat_cells(board, att, Threat::Block4, &mut defences);
        threat_cells(board, def, Threat::Block4, &mut defences);
        defences.sort_unstable();
        defences.dedup();
    }
    if board.has_forbidden(def) {
        defences.retain(|&d| !board.forbids(d, def));
        if defences.is_empty() {
            // Nothing the defender may play stops it: a five in two plies, or an open four
            // and then a five in four.
            return Some(if attacker_fives == 1 { 2 } else { 4 });
        }
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
    if board.forbids(b, att) {
        return None;
    }
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
        let line = vcf(&mut b, &mut ctl, &mut cache, 10).expect("a VCF").line;
        assert!(line.len() % 2 == 1, "{line:?}");
        // Replay: it must end in a win for X.
        for &m in &line {
            b.play(m);
        }
        assert!(b.last_move_won());
        assert_eq!(line[0], b.index_of("h8".parse::<Cell>().unwrap()).unwrap());
    }
}
