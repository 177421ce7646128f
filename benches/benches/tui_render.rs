//! One 120×40 terminal frame: the rats' and the Alchemy play screen's render into an
//! `alembic_ui::Frame`, then the terminal frontend's frame→ratatui-buffer drawing (and a full
//! `Terminal::draw` with diffing on a `TestBackend`), beside a plain `Vec<Cell>` fill of the
//! same size as the floor (less work, not a same-work baseline: what allocating and filling
//! the cells costs). Target (issue 5): build + draw ≤ 1 ms median.
//!
//! The Alchemy frame is the real play screen after some exploring (messages, status panel,
//! a lit and remembered map): field of view, light map and every visible cell are computed
//! for each frame, nothing is cached between frames.
//!
//! `cargo bench -p alembic-benches --bench tui_render -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use alembic_games::{LaunchOptions, launch};
use alembic_tui::{draw_frame, present_on};
use alembic_ui::{App, Cell, ColourDepth, Frame, Input};
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const W: u16 = 120;
const H: u16 = 40;

/// A seeded game launched by name, with `keys` played so the screen holds something.
fn launched(game: &str, keys: &str) -> Box<dyn App> {
    let mut app = match launch(&LaunchOptions {
        game: game.into(),
        seed: Some(1),
        load: None,
        tiles: None,
        practice: false,
        replay: None,
        wizard: false,
        data: Default::default(),
    }) {
        Ok(app) => app,
        Err(e) => panic!("cannot launch {game}: {e}"),
    };
    for ch in keys.chars() {
        let _ = app.handle(Input::ch(ch));
    }
    app
}

/// Frame build alone, build + ratatui buffer in both colour depths, and build + a full
/// `Terminal::draw` on a `TestBackend`, for one app.
fn bench_app(c: &mut Criterion, group: &str, build_name: &str, app: &mut dyn App, floor: bool) {
    let mut g = c.benchmark_group(group);
    if floor {
        g.bench_function("floor_vec_cell_fill", |b| {
            b.iter(|| {
                let v = vec![black_box(Cell::default()); usize::from(W) * usize::from(H)];
                black_box(v)
            });
        });
    }
    g.bench_function(build_name, |b| {
        b.iter(|| {
            let mut f = Frame::new(W, H);
            app.render(&mut f);
            black_box(f)
        });
    });
    for (name, depth) in [
        ("build_and_draw_buffer_truecolor", ColourDepth::TrueColour),
        ("build_and_draw_buffer_256", ColourDepth::Palette256),
    ] {
        let mut buf = Buffer::empty(Rect::new(0, 0, W, H));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut f = Frame::new(W, H);
                app.render(&mut f);
                draw_frame(&f, &mut buf, depth);
                black_box(&buf);
            });
        });
    }
    let mut term = match Terminal::new(TestBackend::new(W, H)) {
        Ok(t) => t,
        Err(e) => match e {},
    };
    g.bench_function("build_and_terminal_draw_testbackend", |b| {
        b.iter(|| {
            let mut f = Frame::new(W, H);
            app.render(&mut f);
            let r = present_on(&mut term, &f, ColourDepth::TrueColour);
            black_box(r)
        });
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    // The smallest game (the rats' maze), a few moves in.
    let mut rats = launched("rats", "lljx");
    bench_app(
        c,
        "tui_render_120x40",
        "build_frame_rats",
        rats.as_mut(),
        true,
    );

    // Alchemy: a few dozen steps in so the map holds seen and remembered cells.
    let mut alchemy = launched("alchemy", "jjjjhhhhhhkkkkllllllllllnnnnbbbbyyyyuuuu");
    let mut check = Frame::new(W, H);
    alchemy.render(&mut check);
    assert!(check.contains_text("Depth 1/11"), "{}", check.to_text());
    bench_app(
        c,
        "tui_render_120x40_alchemy",
        "build_frame_alchemy_play",
        alchemy.as_mut(),
        false,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
