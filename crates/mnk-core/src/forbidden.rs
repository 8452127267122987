//! The kinds of renju's forbidden moves, named apart from the checker ([`crate::renju`]) so that
//! a refused move ([`crate::PlayError::Forbidden`]) can say which without the position's module
//! depending on the checker's.

use std::fmt;

/// Why black may not play a move under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenKind {
    /// The move makes two or more threes at once.
    DoubleThree,
    /// The move makes two or more fours at once (also two in one line).
    DoubleFour,
    /// The move makes six or more in a row.
    Overline,
}

impl ForbiddenKind {
    /// A short stable name: `double-three`, `double-four`, `overline`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForbiddenKind::DoubleThree => write!(f, "it makes a double-three (two threes at once)"),
            ForbiddenKind::DoubleFour => write!(f, "it makes a double-four (two fours at once)"),
            ForbiddenKind::Overline => write!(f, "it makes an overline (six or more in a row)"),
        }
    }
}
