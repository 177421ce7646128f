//! Lighting: coloured light sources occluded by the field of view, with the seed game's
//! torchlight falloff.
//!
//! The engine computes *light* (a colour per cell) and, through [`VisibleSet`], *visibility*.
//! How a cell the player remembers but cannot currently see is drawn (dimmed, greyed,
//! tinted) is the UI's choice: it has both pieces of data and multiplies the light into glyph
//! colours with [`Rgb::modulate`].

use crate::colour::Rgb;
use crate::fov::{Fov, VisibleSet};
use crate::loc::{Loc, LocBox};

/// A point light.
///
/// Brightness at squared distance `d²` from `pos` is `intensity · 50 / (50 + d²)` (the seed
/// game's torchlight curve), for cells the light's own field of view reaches within
/// `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightSource {
    /// Where the light is; its `z` selects the level it lights.
    pub pos: Loc,
    /// How far the light reaches (FOV radius, Euclidean circle).
    pub radius: u32,
    /// The light's colour at full brightness.
    pub colour: Rgb,
    /// Multiplier on the falloff; `1.0` gives full `colour` at the source. Values above 1
    /// saturate near the source; negative or NaN counts as 0.
    pub intensity: f32,
}

impl LightSource {
    /// A light of the given colour and intensity `1.0`.
    #[must_use]
    pub const fn new(pos: Loc, radius: u32, colour: Rgb) -> Self {
        LightSource {
            pos,
            radius,
            colour,
            intensity: 1.0,
        }
    }

    /// The falloff factor `intensity · 50 / (50 + d²)` at squared distance `d_sq`.
    #[must_use]
    pub fn brightness_at(&self, d_sq: u64) -> f32 {
        let k = if self.intensity.is_nan() {
            0.0
        } else {
            self.intensity.max(0.0)
        };
        k * 50.0 / (50.0 + d_sq as f32)
    }
}

/// The light colour of every cell in a rectangle of one level.
///
/// Built by [`LightMap::compute`]; lights add up channel by channel and saturate at 255.
/// Memory: 12 bytes per cell of the area.
///
/// ```
/// use alembic::{light::LightMap, light::LightSource, Loc, LocBox, Rgb};
/// let area = LocBox::rect(0, 0, 20, 10, 0);
/// let torch = LightSource::new(Loc::new(5, 5, 0), 8, Rgb::new(255, 200, 120));
/// let light = LightMap::compute(area, &[torch], Rgb::new(10, 10, 10), |l| area.contains(l));
/// assert_eq!(light.get(Loc::new(5, 5, 0)), Rgb::new(255, 210, 130));
/// assert!(light.get(Loc::new(9, 5, 0)).r < 255); // falls off with distance
/// assert_eq!(light.get(Loc::new(19, 0, 0)), Rgb::new(10, 10, 10)); // ambient only
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LightMap {
    area: LocBox,
    ambient: Rgb,
    cells: Vec<[f32; 3]>,
}

impl LightMap {
    /// Largest area (in cells) a light map will cover; taller areas are cut at the bottom.
    pub const MAX_CELLS: usize = 1 << 22;

    /// An unlit map of `area` (only `area.min.z` is used) with the given ambient light.
    #[must_use]
    pub fn new(area: LocBox, ambient: Rgb) -> Self {
        let span = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo)).clamp(0, 1 << 22) as usize;
        let w = span(area.min.x, area.max.x);
        let mut h = span(area.min.y, area.max.y);
        if w > 0 && w.saturating_mul(h) > Self::MAX_CELLS {
            h = Self::MAX_CELLS / w;
        }
        let area = LocBox::rect(area.min.x, area.min.y, w as i32, h as i32, area.min.z);
        let a = [
            f32::from(ambient.r),
            f32::from(ambient.g),
            f32::from(ambient.b),
        ];
        LightMap {
            area,
            ambient,
            cells: vec![a; w * h],
        }
    }

    /// The light map of `area` lit by `lights` plus `ambient`, with occlusion from
    /// `transparent` (the same predicate as for [`Fov`]).
    ///
    /// Cost: one FOV per light on its level plus Θ(r²) per light.
    #[must_use]
    pub fn compute(
        area: LocBox,
        lights: &[LightSource],
        ambient: Rgb,
        transparent: impl Fn(Loc) -> bool,
    ) -> Self {
        let mut map = LightMap::new(area, ambient);
        let mut fov = Fov::new();
        let mut seen = VisibleSet::new();
        for light in lights {
            map.add_light(light, &transparent, &mut fov, &mut seen);
        }
        map
    }

    /// Adds one light, using the caller's FOV workspace (no allocation once warmed up).
    pub fn add_light(
        &mut self,
        light: &LightSource,
        transparent: impl Fn(Loc) -> bool,
        fov: &mut Fov,
        seen: &mut VisibleSet,
    ) {
        if light.pos.z != self.area.min.z {
            return;
        }
        fov.compute_into(light.pos, light.radius, transparent, seen);
        let c = [
            f32::from(light.colour.r),
            f32::from(light.colour.g),
            f32::from(light.colour.b),
        ];
        for l in seen.iter() {
            if let Some(i) = self.index(l) {
                let k = light.brightness_at(light.pos.euclidean_sq(l));
                if let Some(cell) = self.cells.get_mut(i) {
                    for (ch, lc) in cell.iter_mut().zip(c) {
                        *ch += lc * k;
                    }
                }
            }
        }
    }

    fn index(&self, l: Loc) -> Option<usize> {
        if !self.area.contains(l) {
            return None;
        }
        let w = i64::from(self.area.max.x) - i64::from(self.area.min.x);
        let i = (i64::from(l.y) - i64::from(self.area.min.y)) * w
            + (i64::from(l.x) - i64::from(self.area.min.x));
        usize::try_from(i).ok()
    }

    /// The area covered.
    #[must_use]
    pub fn area(&self) -> LocBox {
        self.area
    }

    /// The light colour at `l` (saturated at 255 per channel); the ambient light outside
    /// the area.
    #[must_use]
    pub fn get(&self, l: Loc) -> Rgb {
        match self.index(l).and_then(|i| self.cells.get(i)) {
            Some(&[r, g, b]) => {
                let f = |v: f32| v.round().clamp(0.0, 255.0) as u8;
                Rgb::new(f(r), f(g), f(b))
            }
            None => self.ambient,
        }
    }
}
