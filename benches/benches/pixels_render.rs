//! Drawing a full frame into the window's pixel buffer: 80×50 cells of 8×8 glyphs at 2×
//! (1280×800 pixels), against a plain fill of the same buffer as the baseline.
//!
//! Budget (issue 6): ≤ 2 ms median for the frame.

use std::hint::black_box;

use alembic::{Cell, Frame, Rgb};
use alembic_pixels::{Face, Layout, render_frame};
use criterion::{Criterion, criterion_group, criterion_main};

/// A busy frame: every cell a different colour, mostly non-blank glyphs (map-like symbols,
/// text, box drawing, shading, and a few the font lacks).
fn busy_frame(w: u16, h: u16) -> Frame {
    const GLYPHS: &[char] = &[
        '·', '#', '@', 'g', '!', '?', '≈', '♣', '─', '│', '┼', '░', '▒', '▓', 'A', 'z', ' ', '.',
        '漢',
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
                    ch: GLYPHS[i % GLYPHS.len()],
                    fg: Rgb::new(255 - k, k, 128),
                    bg: Rgb::new(k / 4, 20, 40),
                },
            );
        }
    }
    frame
}

fn bench(c: &mut Criterion) {
    let layout = Layout::new(Face::Square8x8, 2);
    let frame = busy_frame(80, 50);
    let (w, h) = layout.buffer_size(80, 50);
    assert_eq!((w, h), (1280, 800));

    let mut group = c.benchmark_group("pixels_render");
    let mut plain = vec![0u32; w * h];
    let mut colour = 0u32;
    group.bench_function("baseline_fill_1280x800", |b| {
        b.iter(|| {
            colour = colour.wrapping_add(1);
            plain.fill(black_box(colour));
            black_box(&plain);
        });
    });
    let mut buf = Vec::with_capacity(w * h);
    group.bench_function("frame_80x50_8x8_at_2x", |b| {
        b.iter(|| {
            black_box(render_frame(black_box(&frame), layout, &mut buf));
            black_box(&buf);
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
