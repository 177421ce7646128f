//! Golden-image tests: a known frame is drawn into a pixel buffer and compared with a PNG
//! committed in `tests/golden/`, so drawing regressions (font, blending, box lines, tiles,
//! centring) are caught.
//!
//! - The 8×8 bitmap font must match exactly.
//! - Noto is anti-aliased: a rounding difference (a channel off by 2 or less) anywhere is
//!   accepted, larger differences only on a few pixels (a font-crate update may shift
//!   coverage slightly).
//!
//! To accept a deliberate change, run `UPDATE_GOLDEN=1 cargo test -p alembic-pixels --test
//! golden`, look at the new PNGs, and commit them.

use std::path::PathBuf;

use alembic::Rgb;
use alembic_pixels::{Font, Layout, Rasterizer};
use alembic_ui::{Cell, Frame, Tile};

/// A small frame with text, a box, shading, colours and tiles (single and double width).
fn sample() -> Frame {
    let mut f = Frame::new(24, 6);
    let text = Rgb::new(220, 220, 210);
    let bg = Rgb::new(12, 10, 20);
    f.clear(Cell {
        ch: ' ',
        fg: text,
        bg,
    });
    f.put_str(0, 0, "┌──────┐ Alembic @ g!", text, bg);
    f.put_str(0, 1, "│ HP 9 │ ░▒▓█ ≈~#.", Rgb::new(110, 220, 110), bg);
    f.put_str(
        0,
        2,
        "└──────┘ Qq Ww 0123",
        Rgb::new(240, 200, 80),
        Rgb::new(40, 20, 10),
    );
    let mut tiles = Tile::PLAIN.to_vec();
    tiles.extend([Tile::Creature('g'), Tile::Glyph('%')]);
    let fg = Rgb::new(200, 170, 120);
    let tbg = Rgb::new(40, 30, 25);
    for (i, t) in tiles.iter().enumerate() {
        let x = i as i32 * 2;
        f.put(
            x,
            3,
            Cell {
                ch: t.to_char(),
                fg,
                bg: tbg,
            },
        );
        for (dx, ch) in t.to_pair().into_iter().enumerate() {
            f.put(x + dx as i32, 4, Cell { ch, fg, bg: tbg });
        }
    }
    f.put_str(0, 5, "Tiles above; end.", text, bg);
    f
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

fn to_rgb(buf: &[u32]) -> Vec<u8> {
    buf.iter()
        .flat_map(|p| [(p >> 16) as u8, (p >> 8) as u8, *p as u8])
        .collect()
}

fn write_png(path: &PathBuf, w: usize, h: usize, rgb: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("golden dir")).expect("create golden dir");
    let file = std::fs::File::create(path).expect("create golden png");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().expect("png header");
    writer.write_image_data(rgb).expect("png data");
}

fn read_png(path: &PathBuf) -> (usize, usize, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| {
        panic!(
            "no golden image {} ({e}); create it with UPDATE_GOLDEN=1 cargo test -p alembic-pixels --test golden",
            path.display()
        )
    });
    let mut dec = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("png header");
    let mut data = vec![0; dec.output_buffer_size().expect("png size")];
    let info = dec.next_frame(&mut data).expect("png data");
    assert_eq!(info.color_type, png::ColorType::Rgb, "golden PNGs are RGB");
    data.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, data)
}

/// Render `sample()` with `layout`, compare with the golden image `name`; `tolerance` is the
/// largest channel difference allowed, `rounding` the difference ignored, and
/// `max_off_permille` the largest share of pixels (per mille) allowed to differ by more.
fn check(name: &str, layout: Layout, tolerance: u8, rounding: u8, max_off_permille: usize) {
    let frame = sample();
    let mut buf = Vec::new();
    let p = Rasterizer::new(layout).render(&frame, &mut buf, None);
    let rgb = to_rgb(&buf);
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        write_png(&path, p.width, p.height, &rgb);
        return;
    }
    let (w, h, want) = read_png(&path);
    assert_eq!((w, h), (p.width, p.height), "{name}: size changed");
    let mut off = 0usize;
    let mut worst = 0u8;
    for (a, b) in rgb.chunks_exact(3).zip(want.chunks_exact(3)) {
        let d = a
            .iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        if d > rounding {
            off += 1;
        }
        worst = worst.max(d);
    }
    let pixels = w * h;
    if worst > tolerance || off * 1000 > max_off_permille * pixels {
        let actual = path.with_extension("actual.png");
        write_png(&actual, p.width, p.height, &rgb);
        panic!(
            "{name}: {off} of {pixels} pixels differ (worst channel by {worst}); see {}",
            actual.display()
        );
    }
}

#[test]
fn bitmap_8x8_matches_exactly() {
    check("bitmap-8x8", Layout::scaled(Font::Bitmap8x8, 1), 0, 0, 0);
}

#[test]
fn bitmap_8x16_matches_exactly() {
    check("bitmap-8x16", Layout::scaled(Font::Bitmap8x16, 1), 0, 0, 0);
}

#[test]
fn noto_matches_within_tolerance() {
    check("noto-16", Layout::new(Font::Noto, 0), 24, 2, 10);
    check("noto-32", Layout::new(Font::Noto, 3), 24, 2, 10);
}

/// The comparison itself can fail: a one-cell change to the frame is caught.
#[test]
fn a_changed_frame_is_caught() {
    let layout = Layout::scaled(Font::Bitmap8x8, 1);
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut frame = sample();
    Rasterizer::new(layout).render(&frame, &mut a, None);
    frame.put(
        5,
        5,
        Cell {
            ch: 'X',
            fg: Rgb::WHITE,
            bg: Rgb::BLACK,
        },
    );
    Rasterizer::new(layout).render(&frame, &mut b, None);
    assert_ne!(a, b);
}
