//! Colours: [`Rgb`], the one colour type of the engine's data (a light's colour, a
//! property holding a colour) and of every frame a UI draws.

use serde::{Deserialize, Serialize};

/// A 24-bit colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// Black.
    pub const BLACK: Rgb = Rgb::new(0, 0, 0);
    /// White.
    pub const WHITE: Rgb = Rgb::new(255, 255, 255);

    /// A colour from its three channels.
    #[must_use]
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }

    /// Each channel multiplied by `k` (clamped to `[0, 1]`), e.g. for light and dimming.
    #[must_use]
    pub fn scale(self, k: f32) -> Rgb {
        let k = if k.is_nan() { 0.0 } else { k.clamp(0.0, 1.0) };
        let f = |c: u8| (f32::from(c) * k).round() as u8;
        Rgb::new(f(self.r), f(self.g), f(self.b))
    }

    /// Channel-wise product with a light colour (`255` = full).
    #[must_use]
    pub fn modulate(self, light: Rgb) -> Rgb {
        let f = |c: u8, l: u8| ((u16::from(c) * u16::from(l) + 127) / 255) as u8;
        Rgb::new(f(self.r, light.r), f(self.g, light.g), f(self.b, light.b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_maths() {
        assert_eq!(Rgb::new(200, 100, 0).scale(0.5), Rgb::new(100, 50, 0));
        assert_eq!(
            Rgb::WHITE.modulate(Rgb::new(255, 0, 128)),
            Rgb::new(255, 0, 128)
        );
        assert_eq!(Rgb::WHITE.scale(f32::NAN), Rgb::BLACK);
    }
}
