//! The Elo difference a score implies, with a 95% error margin.
//!
//! The score fraction `s` (wins plus half the draws, over the games) maps to an Elo difference
//! by the logistic curve, `-400 log10(1/s - 1)`. The margin comes from the spread of the
//! per-game results: the standard error of the mean score, times 1.96, mapped through the same
//! curve and halved across both sides, as match runners such as cutechess report it. Games
//! played in opening pairs get a second margin from the spread of the pairs' scores
//! ([`pair_margin`]), which knows that an opening's two games are not independent.

/// A score fraction in (0, 1) as an Elo difference; ±infinity at the ends.
#[must_use]
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Elo difference and its 95% margin for `wins`, `draws`, `losses`; `None` without games.
#[must_use]
pub fn elo_with_margin(wins: usize, draws: usize, losses: usize) -> Option<(f64, f64)> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let s = (wins as f64 + draws as f64 / 2.0) / n;
    let var = (wins as f64 * (1.0 - s).powi(2)
        + draws as f64 * (0.5 - s).powi(2)
        + losses as f64 * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let margin = (elo(s + 1.96 * se) - elo(s - 1.96 * se)) / 2.0;
    Some((elo(s), margin))
}

/// The 95% margin of the Elo difference when the games came in opening pairs, from the spread
/// of the first player's `points` per pair (0 to 2 each); `None` for fewer than two pairs.
///
/// The two games of an opening, played with the sides swapped, are not independent: on an
/// opening that favours one colour each player tends to win once, and a pair split that way
/// tells nothing about the players. Counted per game, as [`elo_with_margin`] does, that
/// agreement looks like noise, so the per-game margin is too wide; counted per pair it is not.
#[must_use]
pub fn pair_margin(points: &[f64]) -> Option<f64> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let s = points.iter().sum::<f64>() / (2.0 * n);
    let var = points.iter().map(|p| (p / 2.0 - s).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    Some((elo(s + 1.96 * se) - elo(s - 1.96 * se)) / 2.0)
}

/// Writes an Elo number as `+35`, `-120`, `+inf`.
#[must_use]
pub fn show(value: f64) -> String {
    if value.is_infinite() {
        if value > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if value.is_nan() {
        "?".to_string()
    } else if value.round() == 0.0 {
        // An even score (or nearly): no sign, where `{:+}` would print `-0` for a negative zero.
        "0".to_string()
    } else {
        format!("{:+.0}", value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_points_of_the_curve() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((elo(0.25) + 190.85).abs() < 0.01);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn differences_show_with_their_sign_and_zero_without() {
        assert_eq!(show(elo(0.5)), "0");
        assert_eq!(show(-0.0), "0");
        assert_eq!(show(-0.4), "0");
        assert_eq!(show(12.6), "+13");
        assert_eq!(show(-35.2), "-35");
        assert_eq!(show(f64::INFINITY), "+inf");
    }

    #[test]
    fn pairs_split_by_colour_narrow_the_margin() {
        // 100 pairs, 60 won once each, 25 won twice by A, 15 by B: 110 wins to 90.
        let mut points = vec![1.0; 60];
        points.extend([2.0; 25]);
        points.extend([0.0; 15]);
        let pairs = pair_margin(&points).unwrap();
        let (e, games) = elo_with_margin(110, 0, 90).unwrap();
        assert!((e - elo(0.55)).abs() < 1e-9);
        // Per pair: the spread of 0.5 / 1 / 0 around 0.55 over 100 pairs (standard error
        // 0.0312), against that of 1 / 0 over 200 games (0.0352).
        assert!((pairs - 43.2).abs() < 0.1, "{pairs}");
        assert!((games - 48.7).abs() < 0.1, "{games}");
        // Pairs that each won once, with nothing else, leave no doubt: an even score.
        assert_eq!(pair_margin(&[1.0; 50]), Some(0.0));
        assert_eq!(pair_margin(&[2.0]), None);
    }

    #[test]
    fn margins_shrink_with_more_games() {
        let (e, m10) = elo_with_margin(5, 0, 5).unwrap();
        assert_eq!(e, 0.0);
        let (_, m100) = elo_with_margin(50, 0, 50).unwrap();
        assert!(m100 < m10 && m100 > 0.0);
        // 10 games at 5-0-5: 1.96 * 0.5 / sqrt(10) ≈ 0.31 either side of 0.5.
        assert!((m10 - 252.0).abs() < 1.0, "{m10}");
        assert_eq!(elo_with_margin(0, 0, 0), None);
        let (e, m) = elo_with_margin(10, 0, 0).unwrap();
        assert!(e.is_infinite() && m.is_nan());
        assert_eq!(show(e), "+inf");
        assert_eq!(show(-35.4), "-35");
    }
}
