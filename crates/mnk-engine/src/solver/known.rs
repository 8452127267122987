//! The published values of m,n,k-games, from the project's reference table
//! (`tests/data/mnk-results.tsv`, freestyle, the first player X): what `mnk solve --table`
//! checks its own results against.

/// The reference table as shipped.
const TABLE: &str = include_str!("../../tests/data/mnk-results.tsv");

/// One published result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownResult {
    /// Columns, rows and stones in a row.
    pub size: (u32, u32, u32),
    /// True when the first player wins, false for a draw (no m,n,k-game is a second-player win).
    pub first_player_wins: bool,
    /// Where the value was published.
    pub source: &'static str,
}

/// Every row of the reference table.
#[must_use]
pub fn known_results() -> Vec<KnownResult> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&'static str> = l.split('\t').collect();
            let number = |i: usize| f.get(i)?.parse::<u32>().ok();
            Some(KnownResult {
                size: (number(0)?, number(1)?, number(2)?),
                first_player_wins: match *f.get(3)? {
                    "draw" => false,
                    "first player wins" => true,
                    _ => return None,
                },
                source: f.get(4).copied().unwrap_or(""),
            })
        })
        .collect()
}

/// The published result for a board, if there is one.
#[must_use]
pub fn known_result(width: u32, height: u32, k: u32) -> Option<KnownResult> {
    let (a, b) = (width.max(height), width.min(height));
    known_results()
        .into_iter()
        .find(|r| r.size == (a, b, k) || r.size == (b, a, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_table_is_read() {
        let rows = known_results();
        let data_rows = TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(rows.len(), data_rows);
        assert!(!known_result(3, 3, 3).unwrap().first_player_wins);
        assert!(known_result(3, 4, 3).unwrap().first_player_wins);
        assert!(known_result(7, 7, 5).unwrap().source.contains("Hsu"));
        assert_eq!(known_result(6, 6, 4), None);
    }
}
