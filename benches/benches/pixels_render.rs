//! Drawing a full frame into the window's pixel buffer at 1920×1080: Noto Sans Mono at the
//! preset size showing 80×24 cells, with tiles and box lines in the mix; the whole-level
//! layout the window picks for Alchemy (95×54 cells, the 71×51 map area in square cells, the
//! rest as narrower text, `Layout::fit_level`); and the 8×8 bitmap font at 2×; beside a plain fill of the same buffer as the floor
//! (less work than drawing glyphs, not a same-work baseline: what touching every pixel once
//! costs).
//!
//! Budget (window issue): ≤ 4 ms per 1920×1080 frame in release.

use std::hint::black_box;

use alembic::Rgb;
use alembic_pixels::{Font, Layout, Rasterizer};
use alembic_ui::{Cell, Frame, Tile};
use criterion::{Criterion, criterion_group, criterion_main};

/// A busy frame: every cell a different colour, mostly non-blank glyphs (map-like symbols,
/// text, box drawing, shading, and a few the font lacks).
fn busy_frame(w: u16, h: u16) -> Frame {
    let [wall_l, wall_r] = Tile::Wall.to_pair();
    let glyphs: &[char] = &[
        '·',
        '#',
        '@',
        'g',
        '!',
        '?',
        '≈',
        '♣',
        '─',
        '│',
        '┼',
        '░',
        '▒',
        '▓',
        'A',
        'z',
        ' ',
        '.',
        '漢',
        wall_l,
        wall_r,
        Tile::Floor.to_char(),
        Tile::Creature('g').to_char(),
    ];
    let mut frame = Frame::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let i = usize::from(y) * usize::from(w) + usize::from(x);
            let k = (i * 7 % 256) as u8;
            frame.put(
                i32::from(x),
                i32::from(y),
                Cell {
                    ch: glyphs[i % glyphs.len()],
                    fg: Rgb::new(255 - k, k, 128),
                    bg: Rgb::new(k / 4, 20, 40),
                },
            );
        }
    }
    frame
}

fn bench(c: &mut Criterion) {
    const W: usize = 1920;
    const H: usize = 1080;

    let mut group = c.benchmark_group("pixels_render");
    let mut plain = vec![0u32; W * H];
    let mut colour = 0u32;
    group.bench_function("floor_fill_1920x1080", |b| {
        b.iter(|| {
            colour = colour.wrapping_add(1);
            plain.fill(black_box(colour));
            black_box(&plain);
        });
    });
    let whole_level = Layout::fit_level(Font::Noto, W, H, (95, 54), Some((71, 51)))
        .expect("the whole level fits 1920x1080");
    for (name, layout, grid) in [
        (
            "noto_fitted_1920x1080",
            Layout::fit(Font::Noto, W, H, 80, 24),
            None,
        ),
        ("noto_whole_level_1920x1080", whole_level, Some((95, 54))),
        (
            "bitmap_8x8_at_2x_1920x1080",
            Layout::scaled(Font::Bitmap8x8, 2),
            None,
        ),
    ] {
        let (cols, rows) = grid.unwrap_or_else(|| layout.grid_for_window(W, H));
        let mut frame = busy_frame(cols, rows);
        if grid.is_some() {
            // The map below three message rows, left of the 24-column panel; a dialog's
            // row of text over it.
            frame.set_map_area(alembic_ui::Rect::new(0, 3, 71, 51));
            frame.put_str(
                10,
                20,
                "A dialog's line of text over the map.",
                Rgb::WHITE,
                Rgb::BLACK,
            );
        }
        let mut raster = Rasterizer::new(layout);
        let mut buf = Vec::with_capacity(W * H);
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(raster.render(black_box(&frame), &mut buf, Some((W, H))));
                black_box(&buf);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
