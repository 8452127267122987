//! Game records: the moves of a game on one line, such as `h8 i9 g7`.

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, CellParseError};

/// The moves of a game in order. `Display` writes them separated by single spaces, each cell as
/// [`Cell`] writes it; `FromStr` reads any whitespace between them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record(pub Vec<Cell>);

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for Record {
    type Err = CellParseError;

    fn from_str(s: &str) -> Result<Record, CellParseError> {
        s.split_whitespace()
            .map(str::parse)
            .collect::<Result<Vec<Cell>, _>>()
            .map(Record)
    }
}

impl From<&[Cell]> for Record {
    fn from(cells: &[Cell]) -> Record {
        Record(cells.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let r: Record = "h8 i9  g7\t-2,3 aa30".parse().unwrap();
        assert_eq!(r.to_string(), "h8 i9 g7 -2,3 aa30");
        assert_eq!(r.to_string().parse::<Record>().unwrap(), r);
        assert_eq!("".parse::<Record>().unwrap(), Record::default());
        assert!("h8 zz".parse::<Record>().is_err());
    }
}
