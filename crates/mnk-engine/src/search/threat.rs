//! Threat classes: what one stone on a cell does for a player across all four directions.
//!
//! The board keeps, per empty cell and player, the four line [`Pattern`]s packed into a 16-bit
//! key (four bits per direction). A table built once maps every key to a [`Threat`] class; the
//! weight tables ([`super::weight_table`]) pair it with the cell's value, so move generation,
//! ordering and evaluation read one word per cell.

use std::sync::OnceLock;

use super::pattern::Pattern;

/// The combined strength of a move for one player, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing worth naming.
    None = 0,
    /// An open two.
    Flex2,
    /// A blocked three.
    Block3,
    /// Two open twos.
    Flex2x2,
    /// A blocked three plus a two or another three.
    Block3Plus,
    /// An open three: threatens an open four.
    Flex3,
    /// An open three plus a blocked three or an open two.
    Flex3Plus,
    /// Two open threes: a double threat unless the opponent has fours.
    Flex3x2,
    /// A blocked four: forces the reply.
    Block4,
    /// A blocked four plus a blocked three or an open two.
    Block4Plus,
    /// Four-three: a four whose forced reply leaves an open four to make.
    Block4Flex3,
    /// An open four or a double four: wins next move unless the opponent wins first.
    Flex4,
    /// Five: wins now.
    Five,
}

impl Threat {
    /// Whether the move makes a four or better (the opponent must answer at once).
    #[must_use]
    pub fn is_four(self) -> bool {
        self >= Threat::Block4
    }

    /// Whether the move makes an open three or better: a threat to win in two moves.
    #[must_use]
    pub fn is_three(self) -> bool {
        self >= Threat::Flex3
    }

    fn from_u8(n: u8) -> Threat {
        use Threat::*;
        [
            None,
            Flex2,
            Block3,
            Flex2x2,
            Block3Plus,
            Flex3,
            Flex3Plus,
            Flex3x2,
            Block4,
            Block4Plus,
            Block4Flex3,
            Flex4,
            Five,
        ]
        .get(usize::from(n))
        .copied()
        .unwrap_or(None)
    }
}

/// The pattern of direction `dir` in a packed key.
#[inline]
#[must_use]
pub fn key_pattern(key: u16, dir: usize) -> Pattern {
    Pattern::from_u8(((key >> (4 * dir)) & 0xF) as u8)
}

/// A packed key with direction `dir` set to `p`.
#[inline]
#[must_use]
pub fn with_pattern(key: u16, dir: usize, p: Pattern) -> u16 {
    (key & !(0xF << (4 * dir))) | ((p as u16) << (4 * dir))
}

/// The threat class of four line patterns.
#[must_use]
pub fn classify(patterns: [Pattern; 4]) -> Threat {
    let count = |p: Pattern| patterns.iter().filter(|&&q| q == p).count();
    let (five, f4, b4, f3, b3, f2) = (
        count(Pattern::Five),
        count(Pattern::F4),
        count(Pattern::B4),
        count(Pattern::F3),
        count(Pattern::B3),
        count(Pattern::F2),
    );
    if five > 0 {
        Threat::Five
    } else if f4 > 0 || b4 >= 2 {
        Threat::Flex4
    } else if b4 == 1 && f3 > 0 {
        Threat::Block4Flex3
    } else if b4 == 1 && b3 + f2 > 0 {
        Threat::Block4Plus
    } else if b4 == 1 {
        Threat::Block4
    } else if f3 >= 2 {
        Threat::Flex3x2
    } else if f3 == 1 && b3 + f2 > 0 {
        Threat::Flex3Plus
    } else if f3 == 1 {
        Threat::Flex3
    } else if b3 >= 1 && b3 + f2 >= 2 {
        Threat::Block3Plus
    } else if f2 >= 2 {
        Threat::Flex2x2
    } else if b3 == 1 {
        Threat::Block3
    } else if f2 == 1 {
        Threat::Flex2
    } else {
        Threat::None
    }
}

struct Tables {
    threat: Vec<u8>,
    /// The decimal value of a key's low byte (directions 0 and 1).
    low: [u16; 256],
    /// The decimal value of a key's high byte (directions 2 and 3).
    high: [u16; 256],
}

/// Patterns are 0..=9, so the four nibbles of a key read as decimal digits give an index
/// below 10,000: the weight tables are indexed so (40 KB a colour instead of 256). Nibbles above
/// 9 (no pattern) read as 0, like [`Pattern::from_u8`].
fn compact_index(key: u16) -> usize {
    let digit = |n: u16| if n < 10 { n } else { 0 };
    let mut index = 0;
    for d in (0..4).rev() {
        index = index * 10 + digit((key >> (4 * d)) & 0xF);
    }
    usize::from(index)
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut threat = vec![0u8; 1 << 16];
        for key in 0..=u16::MAX {
            let pats = [0, 1, 2, 3].map(|d| key_pattern(key, d));
            threat[usize::from(key)] = classify(pats) as u8;
        }
        let mut low = [0u16; 256];
        let mut high = [0u16; 256];
        for b in 0..256u16 {
            low[usize::from(b)] = compact_index(b) as u16;
            high[usize::from(b)] = compact_index(b << 8) as u16;
        }
        Tables { threat, low, high }
    })
}

/// The compact index of a key is `low[key & 0xFF] + high[key >> 8]` (see the weight tables).
#[must_use]
pub fn compact_halves() -> (&'static [u16; 256], &'static [u16; 256]) {
    let t = tables();
    (&t.low, &t.high)
}

/// The threat class of a packed key.
#[inline]
#[must_use]
pub fn threat_of(key: u16) -> Threat {
    Threat::from_u8(tables().threat[usize::from(key)])
}

/// A threat class and a cell value in one word: the class in the low byte, the value (as i16)
/// in the upper half.
#[must_use]
pub fn pack_info(t: Threat, score: i16) -> u32 {
    (u32::from(score as u16) << 16) | t as u32
}

/// The threat class in a packed info word.
#[inline]
#[must_use]
pub fn info_threat(info: u32) -> Threat {
    Threat::from_u8(info as u8)
}

/// The threat class index (0..13) in a packed info word.
#[inline]
#[must_use]
pub fn info_threat_index(info: u32) -> usize {
    (info & 0xFF) as usize
}

/// The cell value in a packed info word.
#[inline]
#[must_use]
pub fn info_score(info: u32) -> i32 {
    i32::from((info >> 16) as u16 as i16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn combinations() {
        assert_eq!(classify([Five, Dead, Dead, Dead]), Threat::Five);
        assert_eq!(classify([B4, B4, Dead, Dead]), Threat::Flex4);
        assert_eq!(classify([B4, F3, Dead, Dead]), Threat::Block4Flex3);
        assert_eq!(classify([F3, F3, Dead, B1]), Threat::Flex3x2);
        assert_eq!(classify([F3, Dead, Dead, Dead]), Threat::Flex3);
        assert_eq!(classify([F2, F2, Dead, Dead]), Threat::Flex2x2);
        assert_eq!(classify([F1, B2, Dead, Dead]), Threat::None);
    }

    #[test]
    fn keys_round_trip() {
        let key = [F3, B4, Dead, Five]
            .iter()
            .enumerate()
            .fold(0u16, |k, (d, &p)| with_pattern(k, d, p));
        assert_eq!(key_pattern(key, 1), B4);
        assert_eq!(threat_of(key), Threat::Five);
        let (low, high) = compact_halves();
        for k in 0..=u16::MAX {
            let index = usize::from(low[usize::from(k & 0xFF)] + high[usize::from(k >> 8)]);
            assert_eq!(index, compact_index(k));
            assert!(index < 10_000);
        }
        let info = pack_info(Threat::Flex3, -7);
        assert_eq!((info_threat(info), info_score(info)), (Threat::Flex3, -7));
    }
}
