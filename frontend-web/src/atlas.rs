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
