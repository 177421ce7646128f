//! Golden-image tests: a known frame is drawn into a pixel buffer and compared with a PNG
//! committed in `tests/golden/`, so drawing regressions (font, blending, box lines, tiles,
//! centring) are caught.
//!
//! - The 8×8 bitmap font must match exactly.
//! - Noto is anti-aliased: a rounding difference (a channel off by 2 or less) anywhere is
//!   accepted, larger differences only on a few pixels (a font-crate update may shift
//!   coverage slightly).
//!
//! To accept a deliberate change, run `UPDATE_GOLDEN=1 cargo test -p alembic-rl-pixels --test
//! golden`, look at the new PNGs, and commit them.

use std::path::PathBuf;

use alembic::Rgb;
use alembic_pixels::{Font, Layout, Rasterizer};
use alembic_ui::{Cell, Frame, Tile};

/// A small frame with text, a box, shading, colours and tiles (single and double width).
fn sample() -> Frame {
    let mut f = Frame::new(24, 10);
    let text = Rgb::new(220, 220, 210);
    let bg = Rgb::new(12, 10, 20);
    f.clear(Cell::blank(text, bg));
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
    // Every tile one cell wide (rows 3 and 4), then two cells wide (rows 5 to 8).
    for (i, t) in tiles.iter().enumerate() {
        let (x, y) = ((i % 24) as i32, 3 + (i / 24) as i32);
        f.put(
            x,
            y,
            Cell {
                ch: t.to_char(),
                fg,
                bg: tbg,
            },
        );
        let (x, y) = ((i % 12) as i32 * 2, 5 + (i / 12) as i32);
        for (dx, ch) in t.to_pair().into_iter().enumerate() {
            f.put(x + dx as i32, y, Cell { ch, fg, bg: tbg });
        }
    }
    f.put_str(0, 9, "Tiles above; end.", text, bg);
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
            "no golden image {} ({e}); create it with UPDATE_GOLDEN=1 cargo test -p alembic-rl-pixels --test golden",
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

/// How far a drawing may stray from its golden image: `tolerance` is the largest channel
/// difference allowed, `rounding` the difference ignored, and `max_off_permille` the largest
/// share of pixels (per mille) allowed to differ by more than `rounding`.
#[derive(Clone, Copy, Debug)]
struct Tolerance {
    tolerance: u8,
    rounding: u8,
    max_off_permille: usize,
}

/// The bitmap font: every pixel exact.
const EXACT: Tolerance = Tolerance {
    tolerance: 0,
    rounding: 0,
    max_off_permille: 0,
};

/// Noto is anti-aliased: rounding anywhere, a larger (still small) shift on a few pixels.
const ANTI_ALIASED: Tolerance = Tolerance {
    tolerance: 24,
    rounding: 2,
    max_off_permille: 10,
};

/// Compare an RGB drawing with the golden image `want` (both `w × h`); `Err` says how they
/// differ.
fn compare(got: &[u8], want: &[u8], tol: Tolerance) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "size changed: {} bytes, golden {}",
            got.len(),
            want.len()
        ));
    }
    let mut off = 0usize;
    let mut worst = 0u8;
    for (a, b) in got.chunks_exact(3).zip(want.chunks_exact(3)) {
        let d = a
            .iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        if d > tol.rounding {
            off += 1;
        }
        worst = worst.max(d);
    }
    let pixels = got.len() / 3;
    if worst > tol.tolerance || off * 1000 > tol.max_off_permille * pixels {
        return Err(format!(
            "{off} of {pixels} pixels differ (worst channel by {worst})"
        ));
    }
    Ok(())
}

/// Draw `frame` with `layout` as RGB bytes, with its size.
fn draw(frame: &Frame, layout: Layout) -> (usize, usize, Vec<u8>) {
    let mut buf = Vec::new();
    let p = Rasterizer::new(layout).render(frame, &mut buf, None);
    (p.width, p.height, to_rgb(&buf))
}

/// Render `sample()` with `layout` and compare it with the golden image `name`.
fn check(name: &str, layout: Layout, tol: Tolerance) {
    let (w, h, rgb) = draw(&sample(), layout);
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        write_png(&path, w, h, &rgb);
        return;
    }
    let (gw, gh, want) = read_png(&path);
    assert_eq!((gw, gh), (w, h), "{name}: size changed");
    if let Err(e) = compare(&rgb, &want, tol) {
        let actual = path.with_extension("actual.png");
        write_png(&actual, w, h, &rgb);
        panic!("{name}: {e}; see {}", actual.display());
    }
}

#[test]
fn bitmap_8x8_matches_exactly() {
    check("bitmap-8x8", Layout::scaled(Font::Bitmap8x8, 1), EXACT);
}

#[test]
fn bitmap_8x16_matches_exactly() {
    check("bitmap-8x16", Layout::scaled(Font::Bitmap8x16, 1), EXACT);
}

#[test]
fn noto_matches_within_tolerance() {
    check("noto-16", Layout::new(Font::Noto, 0), ANTI_ALIASED);
    check("noto-32", Layout::new(Font::Noto, 3), ANTI_ALIASED);
    // Free cells sized to show a whole level (1280×800): glyphs resampled.
    check("noto-10x14", Layout::noto_cells(10, 14), ANTI_ALIASED);
}

/// The comparison can fail: against the committed golden images, one changed cell, one
/// colour a little off, or one glyph's coverage shifted is caught, in both modes, while
/// rounding noise on the anti-aliased font passes.
#[test]
fn the_golden_comparison_catches_a_changed_frame() {
    for (name, layout, tol) in [
        ("bitmap-8x8", Layout::scaled(Font::Bitmap8x8, 1), EXACT),
        ("noto-16", Layout::new(Font::Noto, 0), ANTI_ALIASED),
    ] {
        let (_, _, want) = read_png(&golden_path(name));
        let (_, _, same) = draw(&sample(), layout);
        assert_eq!(compare(&same, &want, tol), Ok(()), "{name}");

        // One cell: an X where the last line has a space.
        let mut frame = sample();
        frame.put(
            20,
            9,
            Cell {
                ch: 'X',
                fg: Rgb::WHITE,
                bg: Rgb::BLACK,
            },
        );
        let (_, _, changed) = draw(&frame, layout);
        assert!(compare(&changed, &want, tol).is_err(), "{name}: a new X");

        // The status line's green a little darker: small per pixel, but on many pixels.
        let mut frame = sample();
        frame.put_str(9, 1, "░▒▓█", Rgb::new(90, 200, 90), Rgb::new(12, 10, 20));
        let (_, _, dimmer) = draw(&frame, layout);
        assert!(
            compare(&dimmer, &want, tol).is_err(),
            "{name}: a dimmer green"
        );

        // Rounding noise (every channel off by one) is only accepted by the tolerant mode.
        let noisy: Vec<u8> = same.iter().map(|v| v ^ 1).collect();
        assert_eq!(
            compare(&noisy, &want, tol).is_ok(),
            tol.rounding >= 1,
            "{name}"
        );
    }
}
