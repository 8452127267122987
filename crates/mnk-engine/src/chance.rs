//! Win chances: what an engine value means to a player, as the expected result of the game.
//!
//! An evaluation is a number of the engine's own (about 100 per unit of advantage, and some
//! thousands where one side has the initiative); a player reads a chance. The expected result
//! for the side to move (1 a win, ½ a draw, 0 a loss) is `sigmoid(K · eval)`, the curve the
//! tuner fits ([`crate::tune`]), with `K` fitted by `mnk calibrate` to the results of recorded
//! games of level 6 against itself, one scale per rule set and board size class ([`SCALES`];
//! docs/strength.md gives the runs and the calibration tables). A proven value is certain: a
//! win is 1, a loss 0, a draw ½.

use mnk_core::Rules;

use crate::search::weight_table::Variant;
use crate::Value;

/// Board sizes whose evaluations mean the same to the curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SizeClass {
    /// A board whose shorter side is under 13 (11×11 fitted).
    Small,
    /// 13 to 17 on the shorter side (15×15 fitted).
    Standard,
    /// 18 or more (20×20 fitted), or no borders at all.
    Large,
}

impl SizeClass {
    /// The class of the rules' board.
    #[must_use]
    pub fn of(rules: &Rules) -> SizeClass {
        match rules.size() {
            None => SizeClass::Large,
            Some((w, h)) => match w.min(h) {
                0..=12 => SizeClass::Small,
                13..=17 => SizeClass::Standard,
                _ => SizeClass::Large,
            },
        }
    }

    /// Its name in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small",
            SizeClass::Standard => "standard",
            SizeClass::Large => "large",
        }
    }
}

/// The fitted scales `K`: for each rule set and size class fitted, the `K` of
/// `sigmoid(K · eval)` (`mnk calibrate`, 200,000-node searches of level 6's games against
/// itself; docs/strength.md, "Win chances"). A class not listed takes its rule set's standard
/// board, and a rule set not listed freestyle's.
pub const SCALES: [(Variant, SizeClass, f64); 5] = [
    (Variant::Freestyle, SizeClass::Standard, 0.000_345),
    (Variant::Freestyle, SizeClass::Large, 0.000_354),
    (Variant::Exact, SizeClass::Standard, 0.000_368),
    (Variant::Renju, SizeClass::Standard, 0.000_254),
    (Variant::Caro, SizeClass::Standard, 0.000_225),
];

/// The scale `K` for positions under `rules`.
#[must_use]
pub fn scale(rules: &Rules) -> f64 {
    let variant = Variant::of(rules);
    let class = SizeClass::of(rules);
    let find = |class: SizeClass| {
        SCALES
            .iter()
            .find(|(v, c, _)| *v == variant && *c == class)
            .map(|(_, _, k)| *k)
    };
    find(class)
        .or_else(|| find(SizeClass::Standard))
        .unwrap_or(SCALES[0].2)
}

/// The logistic curve.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The expected result for the side to move of a position worth `value` to it under `rules`:
/// 1 a certain win, 0 a certain loss, ½ even (or a proven draw).
#[must_use]
pub fn expected(rules: &Rules, value: Value) -> f64 {
    match value {
        Value::Win(_) => 1.0,
        Value::Loss(_) => 0.0,
        Value::Draw => 0.5,
        Value::Eval(score) => sigmoid(scale(rules) * f64::from(score)),
    }
}

/// The scale that minimises `error(K)`: a scan over powers of ten from 10⁻⁶ to 1, then a
/// golden-section search within a factor of ten of the best (for errors with one minimum).
pub fn fit_scale(error: impl Fn(f64) -> f64) -> f64 {
    let mut best = (f64::INFINITY, 1e-3);
    for e in -6..=0 {
        let k = 10f64.powi(e);
        let err = error(k);
        if err < best.0 {
            best = (err, k);
        }
    }
    let (mut lo, mut hi) = ((best.1 / 10.0).ln(), (best.1 * 10.0).ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_core::{Board, Win};

    fn rules(width: u32, height: u32, win: Win) -> Rules {
        Rules::new(
            Board::Bounded { width, height },
            5,
            win,
            mnk_core::Player::X,
        )
        .unwrap()
    }

    #[test]
    fn proven_values_are_certain() {
        let r = rules(15, 15, Win::Freestyle);
        assert_eq!(expected(&r, Value::Win(7)), 1.0);
        assert_eq!(expected(&r, Value::Loss(2)), 0.0);
        assert_eq!(expected(&r, Value::Draw), 0.5);
        assert_eq!(expected(&r, Value::Eval(0)), 0.5);
    }

    #[test]
    fn the_curve_is_symmetric_and_rising() {
        let r = rules(15, 15, Win::Freestyle);
        for s in [10, 300, 2382, 20_000] {
            let (up, down) = (expected(&r, Value::Eval(s)), expected(&r, Value::Eval(-s)));
            assert!((up + down - 1.0).abs() < 1e-12);
            assert!(up > 0.5 && up < 1.0);
        }
        assert!(expected(&r, Value::Eval(500)) < expected(&r, Value::Eval(600)));
    }

    #[test]
    fn size_classes_follow_the_shorter_side() {
        assert_eq!(
            SizeClass::of(&rules(11, 11, Win::Freestyle)),
            SizeClass::Small
        );
        assert_eq!(
            SizeClass::of(&rules(19, 15, Win::Freestyle)),
            SizeClass::Standard
        );
        assert_eq!(
            SizeClass::of(&rules(20, 20, Win::Freestyle)),
            SizeClass::Large
        );
    }

    #[test]
    fn every_rule_set_has_a_scale() {
        for win in [Win::Freestyle, Win::Exact, Win::Renju, Win::Caro] {
            for size in [9, 15, 20] {
                let k = scale(&rules(size, size, win));
                assert!(k > 0.0 && k < 1.0, "{win:?} {size}: {k}");
            }
        }
    }

    #[test]
    fn the_fit_finds_the_scale_of_its_data() {
        // Results drawn exactly from the curve at K = 0.002: the squared error is least there.
        let k0 = 0.002;
        let samples: Vec<(f64, f64)> = (-40..=40)
            .map(|i| {
                let s = f64::from(i) * 50.0;
                (s, sigmoid(k0 * s))
            })
            .collect();
        let k = fit_scale(|k| {
            samples
                .iter()
                .map(|(s, r)| (r - sigmoid(k * s)).powi(2))
                .sum()
        });
        assert!((k - k0).abs() < 1e-6, "{k}");
    }
}
