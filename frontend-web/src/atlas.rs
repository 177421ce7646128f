//! The `--tiles` pictures for the page: every plain tile and every creature token, drawn once
//! at start by `alembic-pixels`' own tile code ([`alembic_pixels::tiles::mask`]) into a PNG
//! of coverage masks (white, with the coverage as alpha) that the page tints with each
//! cell's colours, as the window frontend does. Glyph tiles need no picture: the page
//! centres the letter across the two cells.

use std::cell::RefCell;

use alembic_pixels::{Font, Layout, Rasterizer};
use alembic_ui::Tile;

/// Tiles per atlas row.
pub const COLUMNS: usize = 16;

/// Every tile in the atlas, in order: the plain tiles by code, then the creature tokens
/// `'!'..='~'`. (The page computes the same index from a tile's code.)
#[must_use]
pub fn tiles() -> Vec<Tile> {
    let mut t = Tile::PLAIN.to_vec();
    t.extend((b'!'..=b'~').map(|b| Tile::Creature(char::from(b))));
    t
}

/// The atlas as PNG bytes, and the size of one tile in it (`(w, h)`: two cells side by
/// side, as tiles span in tall cells).
///
/// # Errors
/// The PNG encoder failed (it writes to memory, so only on a bug).
pub fn atlas_png() -> Result<(Vec<u8>, (usize, usize)), png::EncodingError> {
    let layout = Layout::new(Font::Noto, 3);
    let (cw, ch) = layout.cell_px();
    let (tw, th) = (cw * 2, ch);
    let raster = RefCell::new(Rasterizer::new(layout));
    let letter = |c: char| raster.borrow_mut().mask(c).to_vec();
    let all = tiles();
    let rows = all.len().div_ceil(COLUMNS);
    let (w, h) = (COLUMNS * tw, rows * th);
    let mut pixels = vec![0u8; w * h * 2];
    for (i, tile) in all.iter().enumerate() {
        let m = alembic_pixels::tiles::mask(*tile, tw, th, &letter);
        let (ox, oy) = ((i % COLUMNS) * tw, (i / COLUMNS) * th);
        for y in 0..th {
            for x in 0..tw {
                let at = ((oy + y) * w + ox + x) * 2;
                pixels[at] = 255;
                pixels[at + 1] = m[y * tw + x];
            }
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::GrayscaleAlpha);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header()?;
        wr.write_image_data(&pixels)?;
        wr.finish()?;
    }
    Ok((out, (tw, th)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use alembic_ui::{Tile, TileSpan};

    /// The page's script, whose tile table must be this file's and `alembic_ui`'s.
    const GAME_JS: &str = include_str!("../static/game.js");

    /// How the page finds a tile's picture in the atlas from its code (`drawCell`): the
    /// plain tiles by code, then the creature tokens from `'!'`.
    const JS_INDEX: &str =
        "let idx = payload >= TOKEN ? PLAIN_TILES + (payload - TOKEN - 33) : payload;";

    /// The whole-number constants of a script's `const` lines (`const A = 0x10, B = 4 + 2;`),
    /// by name; other declarations are left out.
    fn js_constants(js: &str) -> HashMap<String, u64> {
        let mut found = HashMap::new();
        for line in js.lines() {
            let Some(decl) = line.strip_prefix("const ") else {
                continue;
            };
            for pair in decl.trim_end().trim_end_matches(';').split(',') {
                let Some((name, expr)) = pair.split_once('=') else {
                    continue;
                };
                let sum: Option<u64> = expr
                    .split('+')
                    .map(|t| {
                        let t = t.trim();
                        match t.strip_prefix("0x") {
                            Some(hex) => u64::from_str_radix(hex, 16).ok(),
                            None => t.parse().ok(),
                        }
                    })
                    .sum();
                if let Some(v) = sum {
                    found.insert(name.trim().to_owned(), v);
                }
            }
        }
        found
    }

    #[test]
    fn the_pages_tile_table_is_the_rusts() {
        let js = js_constants(GAME_JS);
        let code = |t: Tile, span| u64::from(u32::from(t.to_char_in(span)));
        let base = code(Tile::PLAIN[0], TileSpan::Whole);
        let want = [
            ("TILE_BASE", base),
            ("SPAN_STRIDE", code(Tile::PLAIN[0], TileSpan::Left) - base),
            (
                "TOKEN",
                code(Tile::Creature('!'), TileSpan::Whole) - base - 0x21,
            ),
            ("GLYPH", code(Tile::Glyph('\0'), TileSpan::Whole) - base),
            ("ATLAS_COLUMNS", super::COLUMNS as u64),
            ("PLAIN_TILES", Tile::PLAIN.len() as u64),
            ("ATLAS_TILES", super::tiles().len() as u64),
        ];
        for (name, value) in want {
            assert_eq!(
                js.get(name),
                Some(&value),
                "static/game.js's {name} is not the Rust's {value} (alembic_ui::Tile, atlas.rs)"
            );
        }
        // The page's index of every tile in the atlas is its place there.
        assert!(
            GAME_JS.contains(JS_INDEX),
            "game.js no longer finds a tile's picture as this test does"
        );
        let (token, plain) = (js["TOKEN"], js["PLAIN_TILES"]);
        for (i, tile) in super::tiles().into_iter().enumerate() {
            let payload = code(tile, TileSpan::Whole) - base;
            let idx = if payload >= token {
                plain + (payload - token - 33)
            } else {
                payload
            };
            assert_eq!(idx, i as u64, "{tile:?}");
        }
    }

    #[test]
    fn the_atlas_is_a_png_with_every_tile() {
        let (png, (tw, th)) = super::atlas_png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(tw > 0 && th > 0);
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let reader = dec.read_info().unwrap();
        let info = reader.info();
        assert_eq!(info.width as usize, super::COLUMNS * tw);
        assert_eq!(
            info.height as usize,
            super::tiles().len().div_ceil(super::COLUMNS) * th
        );
    }
}
