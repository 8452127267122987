//! How a match's games split by colour and by opening pair.
//!
//! Each opening is played twice, the players swapping sides. On openings that favour neither
//! colour, the stronger player wins both games of many pairs; on openings that favour one
//! colour, many pairs go to that colour both times, whoever played it, and the score says
//! less about the players than about the openings. These counts show which it is.

use mnk_core::Player;

use super::GameRecord;

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
}

impl Wdl {
    /// Counts `game` from the first player's side.
    fn add(&mut self, game: &GameRecord) {
        let a = if game.a_is_x { Player::X } else { Player::O };
        match game.winner() {
            Some(w) if w == a => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

/// The first player's results with X (index 0) and with O (index 1).
#[must_use]
pub fn by_colour(games: &[GameRecord]) -> [Wdl; 2] {
    let mut split = [Wdl::default(); 2];
    for g in games {
        split[usize::from(!g.a_is_x)].add(g);
    }
    split
}

/// What became of the openings both players played with both colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs the first player won twice.
    pub a_both: usize,
    /// Pairs the second player won twice.
    pub b_both: usize,
    /// Pairs X won twice (each player won one, with X).
    pub x_both: usize,
    /// Pairs O won twice (each player won one, with O).
    pub o_both: usize,
    /// Pairs with a draw in them.
    pub with_draw: usize,
}

impl Pairs {
    /// Every pair counted.
    #[must_use]
    pub fn total(&self) -> usize {
        self.a_both + self.b_both + self.x_both + self.o_both + self.with_draw
    }
}

/// The opening pairs of `games` (in game order): games `2i + 1` and `2i + 2` of a match played
/// from openings share one with the sides swapped. Games whose opening the players made
/// themselves (a swap opening) and a pair left incomplete are not counted.
fn pairs(games: &[GameRecord]) -> impl Iterator<Item = (&GameRecord, &GameRecord)> {
    games
        .chunks_exact(2)
        .map(|pair| (&pair[0], &pair[1]))
        .filter(|(first, second)| {
            first.opening_story.is_none()
                && second.opening_story.is_none()
                && first.a_is_x != second.a_is_x
                && first.moves.get(..first.opening_plies)
                    == second.moves.get(..second.opening_plies)
        })
}

/// What became of the opening pairs of `games` (see [`pairs`]).
#[must_use]
pub fn opening_pairs(games: &[GameRecord]) -> Pairs {
    let mut counts = Pairs::default();
    for (first, second) in pairs(games) {
        match (first.winner(), second.winner()) {
            (Some(w1), Some(w2)) if w1 == w2 => {
                if w1 == Player::X {
                    counts.x_both += 1;
                } else {
                    counts.o_both += 1;
                }
            }
            (Some(_), Some(_)) if first.a_score() == 1.0 => counts.a_both += 1,
            (Some(_), Some(_)) => counts.b_both += 1,
            _ => counts.with_draw += 1,
        }
    }
    counts
}

/// The first player's points in each opening pair (0 to 2), for a margin that knows the two
/// games of an opening are not independent (see [`super::elo::pair_margin`]).
#[must_use]
pub fn pair_points(games: &[GameRecord]) -> Vec<f64> {
    pairs(games)
        .map(|(first, second)| first.a_score() + second.a_score())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Ending;
    use mnk_core::{Cell, DrawKind};

    fn game(number: usize, a_is_x: bool, opening: &[Cell], ending: Ending) -> GameRecord {
        GameRecord {
            number,
            x: if a_is_x { "a" } else { "b" }.into(),
            o: if a_is_x { "b" } else { "a" }.into(),
            a_is_x,
            opening_plies: opening.len(),
            opening_story: None,
            moves: opening.to_vec(),
            ending,
            longest_ms: [0; 2],
            move_ms: [Vec::new(), Vec::new()],
            overrun_ms: [0; 2],
        }
    }

    /// Two games of one opening, A with X first: each won by the given colour (`None`: drawn).
    fn pair(number: usize, winners: [Option<Player>; 2]) -> [GameRecord; 2] {
        let opening = [Cell::new(number as i32, 0)];
        let ending = |w: Option<Player>| w.map_or(Ending::Drawn(DrawKind::FullBoard), Ending::Line);
        [
            game(number, true, &opening, ending(winners[0])),
            game(number + 1, false, &opening, ending(winners[1])),
        ]
    }

    #[test]
    fn games_split_by_the_first_player_s_colour() {
        let (x, o) = (Some(Player::X), Some(Player::O));
        let games: Vec<GameRecord> = [pair(1, [x, x]), pair(3, [x, o]), pair(5, [None, o])]
            .into_iter()
            .flatten()
            .collect();
        // As X (games 1, 3, 5): won, won, drawn; as O (2, 4, 6): lost, won, won.
        assert_eq!(
            by_colour(&games),
            [
                Wdl {
                    wins: 2,
                    draws: 1,
                    losses: 0
                },
                Wdl {
                    wins: 2,
                    draws: 0,
                    losses: 1
                }
            ]
        );
    }

    #[test]
    fn pairs_are_swept_split_by_colour_or_drawn() {
        let (x, o) = (Some(Player::X), Some(Player::O));
        let games: Vec<GameRecord> = [
            pair(1, [x, x]),    // X both times: one each
            pair(3, [o, o]),    // O both times
            pair(5, [x, o]),    // A with X, then A with O: A both
            pair(7, [o, x]),    // B both
            pair(9, [None, x]), // a draw
            pair(11, [x, o]),   // A both again
        ]
        .into_iter()
        .flatten()
        .collect();
        let pairs = opening_pairs(&games);
        assert_eq!(
            pairs,
            Pairs {
                a_both: 2,
                b_both: 1,
                x_both: 1,
                o_both: 1,
                with_draw: 1
            }
        );
        assert_eq!(pairs.total(), 6);
        assert_eq!(pair_points(&games), [1.0, 1.0, 2.0, 0.0, 0.5, 2.0]);
    }

    #[test]
    fn only_games_of_one_opening_with_the_sides_swapped_pair() {
        let x = Some(Player::X);
        let mut games: Vec<GameRecord> = [pair(1, [x, x]), pair(3, [x, x])]
            .into_iter()
            .flatten()
            .collect();
        // Another opening in the second game of the first pair, a swap opening in the second.
        games[1].moves = vec![Cell::new(9, 9)];
        games[3].opening_story = Some("A placed three, B took white".into());
        // And a game left over at the end.
        games.push(game(5, true, &[Cell::new(0, 0)], Ending::Line(Player::X)));
        assert_eq!(opening_pairs(&games).total(), 0);
        assert!(pair_points(&games).is_empty());
    }
}
