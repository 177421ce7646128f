//! Dice and other game randomness, always drawn from the game value's [`GameRng`].
//!
//! Costs: parsing a dice expression is Θ(its length); a roll of `NdS` draws N numbers;
//! `weighted_choice` is Θ(choices).

use std::fmt;
use std::str::FromStr;

use crate::rng::GameRng;

/// One die with `n` sides: uniform in `1..=n`; `0` when `n == 0`. Θ(1).
///
/// ```
/// use alembic::{dice::d, rng::GameRng};
/// let mut rng = GameRng::seed_from(1);
/// let r = d(&mut rng, 6);
/// assert!((1..=6).contains(&r));
/// ```
pub fn d(rng: &mut GameRng, n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        rng.below(u64::from(n)) as u32 + 1
    }
}

/// Why a dice expression did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DiceError {
    /// The text was empty (or only whitespace).
    #[error("empty dice expression")]
    Empty,
    /// The text is not of the form `NdS`, `NdS+M`, `NdS-M`, `dS` or a plain integer.
    #[error("bad dice expression {text:?}: {reason} (expected e.g. \"3d6+2\")")]
    Syntax {
        /// The offending input (trimmed, cut to 40 characters).
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A number does not fit (count and sides are `u32`, the modifier `i64`).
    #[error("number too large in dice expression {text:?}")]
    TooLarge {
        /// The offending input (trimmed, cut to 40 characters).
        text: String,
    },
    /// More than [`Dice::MAX_COUNT`] dice.
    #[error("{count} dice is more than the limit of {}", Dice::MAX_COUNT)]
    TooManyDice {
        /// The count asked for.
        count: u32,
    },
    /// Dice with zero sides.
    #[error("dice must have at least one side")]
    ZeroSides,
}

/// A dice expression `count d sides + modifier`, e.g. `3d6+2`.
///
/// Parse with [`str::parse`]; roll with [`roll`](Dice::roll). A plain integer (`"4"`) is a
/// constant (no dice). Rolling is Θ(count); count is at most [`Dice::MAX_COUNT`].
///
/// ```
/// use alembic::{dice::Dice, rng::GameRng};
/// let dice: Dice = "3d6+2".parse().unwrap();
/// assert_eq!((dice.min(), dice.max()), (5, 20));
/// assert_eq!(dice.to_string(), "3d6+2");
/// let r = dice.roll(&mut GameRng::seed_from(4));
/// assert!((5..=20).contains(&r));
/// assert!("3d".parse::<Dice>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    count: u32,
    sides: u32,
    modifier: i64,
}

impl Dice {
    /// The most dice one expression may roll.
    pub const MAX_COUNT: u32 = 10_000;

    /// `count` dice of `sides` sides plus `modifier`. Errors when `count` exceeds
    /// [`MAX_COUNT`](Dice::MAX_COUNT) or dice (count > 0) have zero sides.
    pub fn new(count: u32, sides: u32, modifier: i64) -> Result<Dice, DiceError> {
        if count > Self::MAX_COUNT {
            return Err(DiceError::TooManyDice { count });
        }
        if count > 0 && sides == 0 {
            return Err(DiceError::ZeroSides);
        }
        Ok(Dice {
            count,
            sides,
            modifier,
        })
    }

    /// A constant: always rolls `value`.
    #[must_use]
    pub const fn constant(value: i64) -> Dice {
        Dice {
            count: 0,
            sides: 0,
            modifier: value,
        }
    }

    /// Number of dice.
    #[must_use]
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// Sides per die.
    #[must_use]
    pub const fn sides(&self) -> u32 {
        self.sides
    }

    /// The added constant.
    #[must_use]
    pub const fn modifier(&self) -> i64 {
        self.modifier
    }

    /// The lowest possible roll.
    #[must_use]
    pub fn min(&self) -> i64 {
        i64::from(self.count).saturating_add(self.modifier)
    }

    /// The highest possible roll.
    #[must_use]
    pub fn max(&self) -> i64 {
        (i64::from(self.count) * i64::from(self.sides)).saturating_add(self.modifier)
    }

    /// Rolls the dice: the sum of `count` draws of [`d`] plus the modifier (saturating).
    pub fn roll(&self, rng: &mut GameRng) -> i64 {
        let sum: i64 = (0..self.count).map(|_| i64::from(d(rng, self.sides))).sum();
        sum.saturating_add(self.modifier)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

fn excerpt(s: &str) -> String {
    s.chars().take(40).collect()
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Parses `NdS`, `dS` (one die), either followed by `+M` or `-M`, or a plain integer.
    /// Spaces around the parts are allowed; `d` may be upper case.
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(DiceError::Empty);
        }
        let syntax = |reason| DiceError::Syntax {
            text: excerpt(text),
            reason,
        };
        let too_large = || DiceError::TooLarge {
            text: excerpt(text),
        };
        let digits = |p: &str, what| -> Result<u64, DiceError> {
            let p = p.trim();
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax(what));
            }
            p.parse::<u64>().map_err(|_| too_large())
        };
        let Some(dpos) = text.find(['d', 'D']) else {
            // A constant, possibly signed.
            let (neg, body) = match text.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, text.strip_prefix('+').unwrap_or(text)),
            };
            let v = digits(body, "expected a number or NdS")?;
            let v = i64::try_from(v).map_err(|_| too_large())?;
            return Ok(Dice::constant(if neg { -v } else { v }));
        };
        let (count_s, rest) = text.split_at(dpos);
        let rest = &rest[1..];
        let count = if count_s.trim().is_empty() {
            1
        } else {
            digits(count_s, "the dice count must be a number")?
        };
        let (sides_s, modifier) = match rest.find(['+', '-']) {
            Some(p) => {
                let (sides_s, m) = rest.split_at(p);
                let v = digits(&m[1..], "expected a number after the sign")?;
                let v = i64::try_from(v).map_err(|_| too_large())?;
                (sides_s, if m.starts_with('-') { -v } else { v })
            }
            None => (rest, 0),
        };
        let sides = digits(sides_s, "expected the number of sides after 'd'")?;
        let count = u32::try_from(count).map_err(|_| too_large())?;
        let sides = u32::try_from(sides).map_err(|_| too_large())?;
        Dice::new(count, sides, modifier)
    }
}

/// A Poisson-distributed count with mean `lambda` (e.g. "how many monsters spawn this
/// turn"). `0` for `lambda ≤ 0` or NaN.
///
/// Exact (Knuth's product method, in chunks of mean ≤ 30 so nothing underflows) up to
/// `lambda = 1000`, Θ(lambda) draws; above that a rounded normal approximation, Θ(1).
///
/// ```
/// use alembic::{dice::poisson, rng::GameRng};
/// let mut rng = GameRng::seed_from(2);
/// let n: u64 = (0..1000).map(|_| poisson(&mut rng, 3.0)).sum();
/// assert!((2700..3300).contains(&n));
/// ```
pub fn poisson(rng: &mut GameRng, lambda: f64) -> u64 {
    if lambda.is_nan() || lambda <= 0.0 {
        return 0;
    }
    if lambda > 1000.0 {
        // Box–Muller normal with mean λ, variance λ.
        let u1 = 1.0 - rng.unit(); // (0, 1]
        let u2 = rng.unit();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (lambda + lambda.sqrt() * z).round();
        return if v <= 0.0 {
            0
        } else {
            v.min(u64::MAX as f64) as u64
        };
    }
    let mut left = lambda;
    let mut total = 0u64;
    while left > 0.0 {
        let chunk = left.min(30.0);
        left -= chunk;
        let limit = (-chunk).exp();
        let mut p = 1.0;
        loop {
            p *= rng.unit();
            if p <= limit {
                break;
            }
            total += 1;
        }
    }
    total
}

/// A random index into `weights`, each chosen with probability proportional to its weight.
/// `None` when the slice is empty or all weights are zero. Θ(len).
///
/// ```
/// use alembic::{dice::weighted_index, rng::GameRng};
/// let mut rng = GameRng::seed_from(3);
/// assert_eq!(weighted_index(&mut rng, &[0, 5, 0]), Some(1));
/// assert_eq!(weighted_index(&mut rng, &[0, 0]), None);
/// ```
pub fn weighted_index(rng: &mut GameRng, weights: &[u32]) -> Option<usize> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    for (i, &w) in weights.iter().enumerate() {
        let w = u64::from(w);
        if pick < w {
            return Some(i);
        }
        pick -= w;
    }
    None
}

/// A random item of `(item, weight)` pairs, with probability proportional to its weight;
/// `None` when there are none or all weights are zero. Θ(len).
///
/// ```
/// use alembic::{dice::weighted_choice, rng::GameRng};
/// let table = [("rat", 10), ("orc", 3), ("dragon", 0)];
/// let pick = weighted_choice(&mut GameRng::seed_from(8), &table);
/// assert!(matches!(pick, Some(&"rat") | Some(&"orc")));
/// ```
pub fn weighted_choice<'a, T>(rng: &mut GameRng, items: &'a [(T, u32)]) -> Option<&'a T> {
    let total: u64 = items.iter().map(|(_, w)| u64::from(*w)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    for (item, w) in items {
        let w = u64::from(*w);
        if pick < w {
            return Some(item);
        }
        pick -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_good_strings() {
        let p = |s: &str| s.parse::<Dice>().unwrap();
        assert_eq!(p("3d6+2"), Dice::new(3, 6, 2).unwrap());
        assert_eq!(p(" 2D4 - 1 "), Dice::new(2, 4, -1).unwrap());
        assert_eq!(p("d20"), Dice::new(1, 20, 0).unwrap());
        assert_eq!(p("7"), Dice::constant(7));
        assert_eq!(p("-3"), Dice::constant(-3));
        assert_eq!(p("0d6"), Dice::new(0, 6, 0).unwrap());
        for s in ["3d6+2", "2d4-1", "1d20", "7", "-3"] {
            assert_eq!(p(s).to_string(), s);
        }
    }

    #[test]
    fn rejects_bad_strings_with_the_right_error() {
        let e = |s: &str| s.parse::<Dice>().unwrap_err();
        assert_eq!(e(""), DiceError::Empty);
        assert_eq!(e("   "), DiceError::Empty);
        for bad in [
            "3d", "d", "xd6", "3d6+", "3d6+x", "3x6", "3d6+2+1", "3dd6", "+", "d-6", "3d6 2",
            "½d6", "3d6-+1",
        ] {
            assert!(
                matches!(e(bad), DiceError::Syntax { .. }),
                "{bad:?} gave {:?}",
                e(bad)
            );
        }
        assert!(matches!(
            e("99999999999999999999d6"),
            DiceError::TooLarge { .. }
        ));
        assert!(matches!(e("5000000000d6"), DiceError::TooLarge { .. }));
        assert!(matches!(
            e("1d6+99999999999999999999"),
            DiceError::TooLarge { .. }
        ));
        assert_eq!(e("10001d6"), DiceError::TooManyDice { count: 10_001 });
        assert_eq!(e("3d0"), DiceError::ZeroSides);
        assert!(e("3d").to_string().contains("3d"));
    }

    #[test]
    fn rolls_stay_in_range_and_cover_it() {
        let mut rng = GameRng::seed_from(11);
        let dice: Dice = "2d3+1".parse().unwrap();
        let mut seen = [false; 8];
        for _ in 0..1000 {
            let r = dice.roll(&mut rng);
            assert!((3..=7).contains(&r));
            seen[r as usize] = true;
        }
        assert_eq!(&seen[3..=7], &[true; 5]);
        assert_eq!(d(&mut rng, 0), 0);
        let huge = Dice::new(Dice::MAX_COUNT, u32::MAX, i64::MAX).unwrap();
        assert_eq!(huge.roll(&mut rng), i64::MAX);
    }

    #[test]
    fn poisson_mean_and_edges() {
        let mut rng = GameRng::seed_from(5);
        assert_eq!(poisson(&mut rng, -1.0), 0);
        assert_eq!(poisson(&mut rng, f64::NAN), 0);
        for lambda in [0.5, 4.0, 75.0, 5000.0] {
            let n = 2000;
            let mean = (0..n)
                .map(|_| poisson(&mut rng, lambda) as f64)
                .sum::<f64>()
                / f64::from(n);
            let sd = (lambda / f64::from(n)).sqrt();
            assert!((mean - lambda).abs() < 5.0 * sd, "λ={lambda} mean={mean}");
        }
        let _ = poisson(&mut rng, f64::INFINITY);
        let _ = poisson(&mut rng, f64::MAX);
    }

    #[test]
    fn weights_are_respected() {
        let mut rng = GameRng::seed_from(6);
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[weighted_index(&mut rng, &[1, 3, 0]).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!((9_000..11_000).contains(&counts[0]), "{counts:?}");
        assert_eq!(weighted_index(&mut rng, &[]), None);
        let items: [(char, u32); 0] = [];
        assert_eq!(weighted_choice(&mut rng, &items), None);
        assert!(weighted_index(&mut rng, &[u32::MAX, u32::MAX]).is_some());
    }
}
