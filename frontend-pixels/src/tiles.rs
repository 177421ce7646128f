//! Graphical tiles drawn in code: small pixel-art pictures for walls, floors, doors, stairs,
//! water, potions, creatures and the hero. No image file is read.
//!
//! Each tile is a coverage mask like a glyph (`0` = the cell's background colour, `255` = its
//! foreground colour, values between blend), so a tile takes the game's colours, light and
//! memory dimming exactly as a letter does: switching to tiles shows the same information.
//! Tiles are drawn in cell-relative coordinates and so fit any cell size and shape.

use alembic_ui::Tile;

/// A deterministic hash of a pixel, for texture.
fn noise(x: usize, y: usize) -> u32 {
    let mut v = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77);
    v ^= v >> 15;
    v = v.wrapping_mul(0x2C1B_3C6D);
    v ^ (v >> 12)
}

/// The coverage mask of `tile` in a `w × h` canvas (one cell, or two side by side).
/// `letter` gives the coverage mask of a character in one cell (`lw × h` bytes for some
/// width `lw`), for creature tokens and glyphs; it is centred on the canvas.
#[must_use]
pub fn mask(tile: Tile, w: usize, h: usize, letter: &dyn Fn(char) -> Vec<u8>) -> Vec<u8> {
    let mut m = vec![0u8; w * h];
    if w == 0 || h == 0 {
        return m;
    }
    // Coordinates in a 0..=1000 unit square, so shapes fit any cell; round shapes are
    // squashed by the canvas's aspect (percent), so they stay round in tall cells.
    let u = |x: usize| (x * 1000 + 500) / w;
    let v = |y: usize| (y * 1000 + 500) / h;
    let squash = (w * 100 / h).clamp(40, 100) as i64;
    for y in 0..h {
        for x in 0..w {
            let (ux, vy) = (u(x), v(y));
            m[y * w + x] = match tile {
                Tile::Floor => floor(x, y, ux, vy),
                Tile::Wall => wall(x, y, w, h, vy),
                Tile::Rock => rock(x, y),
                Tile::DoorClosed => door_closed(ux, vy),
                Tile::DoorOpen => door_open(ux, vy),
                Tile::StairsDown => stairs(ux, vy, true),
                Tile::StairsUp => stairs(ux, vy, false),
                Tile::Water => water(x, y, w, h),
                Tile::Potion => potion(ux, vy, squash),
                Tile::Hero => hero(ux, vy, squash),
                Tile::Creature(_) => token(ux, vy, squash),
                Tile::Moss => moss(x, y, vy),
                Tile::Pillar => pillar(ux, vy, squash),
                Tile::Lava => lava(x, y, w, h),
                other => art(other).map_or(0, |a| pixel_art(a, ux, vy)),
            };
        }
    }
    if let Tile::Creature(c) | Tile::Glyph(c) = tile {
        // The letter in full foreground, centred on the canvas.
        let glyph = letter(c);
        let lw = glyph.len() / h;
        let left = w.saturating_sub(lw) / 2;
        for (y, row) in glyph.chunks_exact(lw.max(1)).enumerate().take(h) {
            for (x, g) in row.iter().enumerate() {
                if let Some(p) = m.get_mut(y * w + left + x).filter(|_| left + x < w) {
                    *p = (*p).max(*g);
                }
            }
        }
    }
    m
}

/// Pictures as pixel art: `#` full foreground, `+` half, anything else background; rows
/// top to bottom, all of one width, stretched over the cell.
type Art = &'static [&'static str];

/// The pixel art of the creature, item and scenery tiles.
#[rustfmt::skip]
fn art(tile: Tile) -> Option<Art> {
    Some(match tile {
        Tile::Bat => &[
            "..........", "..........", "#...##...#", "##..##..##", "###.##.###",
            "##########", "#.######.#", "...#..#...", "..........", "..........",
        ],
        Tile::Bear => &[
            "..........", ".##....##.", ".########.", ".##.##.##.", ".########.",
            "..##++##..", ".########.", ".########.", ".##....##.", "..........",
        ],
        Tile::Rat => &[
            "..........", "..........", "......##..", ".....####.", "...#####.#",
            ".########.", "#.##..##..", "#.........", ".#........", "..........",
        ],
        Tile::Snake => &[
            "..........", ".....###..", "....#.###.", "....#..##.", ".....##...",
            "...##.....", "..##...##.", "..#....#..", "...#####..", "..........",
        ],
        Tile::Undead => &[
            "..........", "...####...", "..######..", ".########.", ".#..##..#.",
            ".#..##..#.", ".########.", "..##..##..", "..#.##.#..", "..........",
        ],
        Tile::Goblin => &[
            "..........", "#..####..#", ".########.", "..#.##.#..", "..######..",
            "...####...", "..######..", ".#.####.#.", "...#..#...", "..##..##..",
        ],
        Tile::Orc => &[
            "...####...", "..######..", "..#.##.#..", "..######..", "..#+##+#..",
            ".########.", "##.####.##", "#..####..#", "...#..#...", "..##..##..",
        ],
        Tile::Troll => &[
            "..######..", ".########.", ".#.####.#.", ".########.", "##########",
            "##########", "#.######.#", "#.######.#", "..##..##..", ".###..###.",
        ],
        Tile::Golem => &[
            "..######..", "..#.##.#..", "..######..", "##########", "##.####.##",
            "##.####.##", "...####...", "..##..##..", "..##..##..", ".###..###.",
        ],
        Tile::Dragon => &[
            ".#......#.", ".##....##.", "..######..", ".##.##.##.", "##########",
            "#.######.#", "..######..", ".##.##.##.", "##..##..##", "..........",
        ],
        Tile::Fungus => &[
            "..........", "..#....#..", ".###..###.", ".###..###.", "..#.##.#..",
            "...####...", "....##....", "..#.##.#..", ".###..###.", "..........",
        ],
        Tile::Rabbit => &[
            "..#..#....", "..#..#....", "..#..#....", "..####....", ".######...",
            ".#.##.##..", ".########.", "..######.#", "..##..##..", "..........",
        ],
        Tile::Insect => &[
            "..........", ".#......#.", "..#.##.#..", "...####...", ".########.",
            "...####...", ".########.", "...####...", "..#....#..", "..........",
        ],
        Tile::Herb => &[
            "..........", "....#.....", "...###.#..", "..#.#.###.", ".###.#.#..",
            "..#..#....", ".....#....", ".....#....", "....##....", "..........",
        ],
        Tile::Mushroom => &[
            "..........", "..........", "...####...", "..##+###..", ".########.",
            "....##....", "....##....", "...####...", "..........", "..........",
        ],
        Tile::Food => &[
            "..........", "..........", "..........", "...####...", "..#++++#..",
            ".#++++++#.", ".########.", "..........", "..........", "..........",
        ],
        Tile::Gem => &[
            "..........", "....##....", "...#++#...", "..#++++#..", ".########.",
            "..######..", "...####...", "....##....", "..........", "..........",
        ],
        Tile::Weapon => &[
            "........##", ".......###", "......###.", ".....###..", "....###...",
            ".#.###....", "..###.....", "..##......", ".#..#.....", "#.........",
        ],
        Tile::Armour => &[
            "..........", ".###..###.", ".########.", ".########.", "..######..",
            "..##++##..", "..######..", "..######..", "...####...", "..........",
        ],
        Tile::Amulet => &[
            "..#....#..", "...#..#...", "....##....", "..........", "...####...",
            "..#....#..", "..#....#..", "...####...", "..........", "..........",
        ],
        Tile::Fountain => &[
            "....#.....", "...#.#....", "..#...#...", "....#.....", ".########.",
            "..#++++#..", "....##....", "....##....", "..######..", "..........",
        ],
        Tile::Gravestone => &[
            "..........", "...####...", "..######..", "..##.###..", "..#...##..",
            "..##.###..", "..######..", "..######..", ".########.", "..........",
        ],
        Tile::Candelabra => &[
            "..#..#..#.", "..+..+..+.", "..#..#..#.", "..#.###.#.", "..#######.",
            ".....#....", ".....#....", "....###...", "...#####..", "..........",
        ],
        Tile::Rune => &[
            "..........", "...####...", "..#....#..", ".#..##..#.", ".#.#..#.#.",
            ".#..##..#.", "..#....#..", "...####...", "..........", "..........",
        ],
        Tile::Statue => &[
            "....##....", "....##....", "...####...", "..######..", "...####...",
            "...#..#...", "..######..", ".########.", ".########.", "..........",
        ],
        Tile::Workbench => &[
            "..........", "......#...", ".....###..", ".....###..", "##########",
            "##########", ".#......#.", ".#......#.", ".#......#.", "..........",
        ],
        Tile::Lab => &[
            "..........", "...##.....", "..####....", "..####....", "..#####...",
            "...##.##..", ".......##.", "........#.", ".######.#.", ".######...",
        ],
        Tile::Gate => &[
            "##########", "#..#..#..#", "#..#..#..#", "##########", "#..#..#..#",
            "#..#..#..#", "#..#..#..#", "##########",
        ],
        _ => return None,
    })
}

/// The coverage of `art` at (`ux`, `vy`) in the unit square (nearest pixel).
fn pixel_art(art: Art, ux: usize, vy: usize) -> u8 {
    let rows = art.len().max(1);
    let row = art
        .get((vy * rows / 1000).min(rows - 1))
        .copied()
        .unwrap_or("");
    let cols = row.len().max(1);
    match row.as_bytes().get((ux * cols / 1000).min(cols - 1)) {
        Some(b'#') => 255,
        Some(b'+') => 130,
        _ => 0,
    }
}

/// Moss: dense tufts of short strokes over the floor.
fn moss(x: usize, y: usize, vy: usize) -> u8 {
    let n = noise(x / 2, y / 3);
    if n.is_multiple_of(4) && vy > 150 {
        220
    } else if n % 7 == 1 {
        90
    } else {
        0
    }
}

/// A pillar: a round column lit from the left, on a base.
fn pillar(ux: usize, vy: usize, squash: i64) -> u8 {
    let dx = ux as i64 - 500;
    let dy = (vy as i64 - 500) * squash / 100;
    let d2 = dx * dx + dy * dy;
    if d2 > 400 * 400 {
        0
    } else if dx < -120 {
        255
    } else if dx < 150 {
        200
    } else {
        130
    }
}

/// Lava: a bright crust broken by glowing cracks.
fn lava(x: usize, y: usize, w: usize, h: usize) -> u8 {
    let cell = ((w + h) / 8).max(2);
    let n = noise(x / cell, y / cell);
    let edge = x.is_multiple_of(cell) || y.is_multiple_of(cell);
    if edge || n.is_multiple_of(5) {
        255
    } else {
        150 + (noise(x, y) % 40) as u8
    }
}

/// Floor: a faint flagstone texture and a small centre dot (the `.` players know).
fn floor(x: usize, y: usize, ux: usize, vy: usize) -> u8 {
    let dot = (440..560).contains(&ux) && (450..550).contains(&vy);
    if dot {
        200
    } else if noise(x, y).is_multiple_of(11) {
        40
    } else {
        0
    }
}

/// Wall: courses of bricks with darker mortar, offset every other course, lit from above.
fn wall(x: usize, y: usize, w: usize, h: usize, vy: usize) -> u8 {
    let course_h = (h / 4).max(2);
    let course = y / course_h;
    let in_course = y % course_h;
    let brick_w = (w / 2).max(2);
    let shift = if course % 2 == 1 { brick_w / 2 } else { 0 };
    let in_brick = (x + shift) % brick_w;
    if in_course == course_h - 1 || in_brick == 0 {
        60 // mortar
    } else if in_course == 0 {
        255 // lit top edge
    } else {
        let grain = (noise(x, y) % 24) as u8;
        // Slightly darker towards the bottom of the cell.
        let shade = 215u16.saturating_sub(vy as u16 / 25) as u8;
        shade.saturating_sub(grain)
    }
}

/// Rock: rough, uneven stone.
fn rock(x: usize, y: usize) -> u8 {
    let n = noise(x / 2, y / 2) % 100;
    match n {
        0..=9 => 60,
        10..=59 => 150,
        _ => 190,
    }
}

/// A closed door: a plank door in a frame, with a handle.
fn door_closed(ux: usize, vy: usize) -> u8 {
    let frame = !(100..900).contains(&ux) || vy < 80;
    let handle = (700..800).contains(&ux) && (500..580).contains(&vy);
    let seam = [300, 500, 700].iter().any(|s| ux.abs_diff(*s) < 30);
    if frame || handle {
        255
    } else if seam {
        110
    } else {
        185
    }
}

/// An open door: two posts and a lintel around a dark opening.
fn door_open(ux: usize, vy: usize) -> u8 {
    if !(160..=840).contains(&ux) || vy < 90 {
        230
    } else {
        0
    }
}

/// Stairs: four steps, narrowing away from the viewer (down) or towards them (up).
fn stairs(ux: usize, vy: usize, down: bool) -> u8 {
    let step = (vy * 4 / 1000).min(3);
    let depth = if down { step } else { 3 - step };
    // Each step is inset by how far away it is.
    let inset = 60 + depth * 90;
    if ux < inset || ux > 1000 - inset {
        return 0;
    }
    let edge = vy % 250 < 55;
    if edge {
        255
    } else {
        // Nearer steps are brighter.
        (210 - depth * 40) as u8
    }
}

/// Water: rows of light wave crests on a mid-tone.
fn water(x: usize, y: usize, w: usize, h: usize) -> u8 {
    let band = (h / 3).max(3);
    let period = (w / 2).max(3);
    let phase = x % period;
    // A triangle wave crest one or two pixels thick.
    let tri = if phase < period / 2 {
        phase
    } else {
        period - phase
    };
    let crest = band / 3 + tri * (band / 3).max(1) / (period / 2).max(1);
    let row = (y + band / 2 * (y / band % 2)) % band;
    if row.abs_diff(crest) < 1 + h / 40 {
        255
    } else {
        110
    }
}

/// A potion: a round flask with a neck, filled with the potion's colour.
fn potion(ux: usize, vy: usize, squash: i64) -> u8 {
    let (cx, cy, r) = (500i64, 640i64, 300i64);
    let dx = ux as i64 - cx;
    let dy = (vy as i64 - cy) * squash / 100;
    let d2 = dx * dx + dy * dy;
    let neck = (400..600).contains(&ux) && (220..420).contains(&vy);
    let cork = (380..620).contains(&ux) && (170..240).contains(&vy);
    if cork {
        150
    } else if d2 <= r * r {
        if d2 >= (r - 60) * (r - 60) {
            255 // glass rim
        } else if vy > 560 {
            235 // liquid
        } else {
            90 // empty glass
        }
    } else if neck {
        200
    } else {
        0
    }
}

/// The hero: a small figure with a head, a body, arms and legs.
fn hero(ux: usize, vy: usize, squash: i64) -> u8 {
    let head = {
        let dx = ux as i64 - 500;
        let dy = (vy as i64 - 220) * squash / 100;
        dx * dx + dy * dy <= 150 * 150
    };
    let body = (360..640).contains(&ux) && (330..680).contains(&vy);
    let arms = (180..820).contains(&ux) && (360..450).contains(&vy);
    let legs = ((360..470).contains(&ux) || (530..640).contains(&ux)) && (680..940).contains(&vy);
    if head || body || arms || legs { 255 } else { 0 }
}

/// The round token a creature's letter sits on.
fn token(ux: usize, vy: usize, squash: i64) -> u8 {
    let dx = ux as i64 - 500;
    let dy = (vy as i64 - 500) * squash / 100;
    let d2 = dx * dx + dy * dy;
    if d2 > 470 * 470 {
        0
    } else if d2 > 400 * 400 {
        150 // ring
    } else {
        55 // disc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Tile> {
        let mut v = Tile::PLAIN.to_vec();
        v.extend([Tile::Creature('g'), Tile::Glyph('%')]);
        v
    }

    /// A stand-in font: one lit pixel per letter, at a place that depends on the letter.
    fn no_letter(c: char) -> Vec<u8> {
        let mut m = vec![0u8; 7 * 16];
        let i = (c as usize * 7) % m.len();
        m[i] = 255;
        m
    }

    #[test]
    fn every_tile_is_drawn_and_they_differ() {
        for (w, h) in [(7, 16), (14, 32), (8, 8), (18, 40)] {
            let all = all();
            let masks: Vec<Vec<u8>> = all
                .iter()
                .map(|t| mask(*t, w, h.max(16), &no_letter))
                .collect();
            let h = h.max(16);
            for (t, m) in all.iter().zip(&masks) {
                assert_eq!(m.len(), w * h);
                assert!(m.iter().any(|v| *v > 0), "{t:?} is blank at {w}x{h}");
            }
            for i in 0..masks.len() {
                for j in i + 1..masks.len() {
                    assert_ne!(masks[i], masks[j], "{:?} = {:?} at {w}x{h}", all[i], all[j]);
                }
            }
        }
    }

    #[test]
    fn creature_tokens_carry_their_letter() {
        let letter = |c: char| {
            let mut m = vec![0u8; 14 * 32];
            let i = (c as usize) % m.len();
            m[i] = 255;
            m
        };
        let g = mask(Tile::Creature('g'), 14, 32, &letter);
        let r = mask(Tile::Creature('r'), 14, 32, &letter);
        assert_ne!(g, r);
        assert_eq!(g[('g' as usize) % g.len()], 255);
    }

    #[test]
    fn pixel_art_rows_are_one_width_of_known_marks() {
        for t in Tile::PLAIN {
            if let Some(a) = art(t) {
                assert!(a.iter().all(|r| r.len() == a[0].len()), "{t:?}");
                assert!(
                    a.iter().all(|r| r.bytes().all(|b| b"#+.".contains(&b))),
                    "{t:?}"
                );
            }
        }
    }

    #[test]
    fn tiles_are_deterministic() {
        assert_eq!(
            mask(Tile::Rock, 14, 32, &no_letter),
            mask(Tile::Rock, 14, 32, &no_letter)
        );
    }
}
