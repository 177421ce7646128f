//! Where a move's server time goes (not a test): one Alchemy game driven in-process with
//! the load bots' keys, timing the game (handle + render) apart from the web layer (diff +
//! deflate) and the lobby's depth and turn. `cargo run --release -p alembic-web --example cost -- 2000`
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use alembic_ui::{App, Frame, Input};
use alembic_web::games::{self, Games};
use alembic_web::protocol::FrameEncoder;

fn main() {
    let moves: usize = std::env::args().nth(1).map_or(2000, |s| s.parse().unwrap());
    let dir = std::env::temp_dir().join(format!("alembic-web-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let alchemy = Games::default().from_name("alchemy", false).unwrap();
    let save = games::save_path(&dir, alchemy, 1);
    let mut app = games::start(alchemy, &save, 42, Some(false)).unwrap();
    let mut enc = FrameEncoder::new();
    let mut prev: Option<Frame> = None;
    let (mut game_t, mut web_t, mut lobby_t) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut bytes = 0;
    for _ in 0..moves {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t = Instant::now();
        app.handle(Input::ch(keys[(x % 8) as usize]));
        let mut f = Frame::new(80, 24);
        app.render(&mut f);
        game_t += t.elapsed();
        let t = Instant::now();
        let m = enc.message(prev.as_ref(), &f);
        bytes += m.len();
        prev = Some(f);
        web_t += t.elapsed();
        let t = Instant::now();
        std::hint::black_box(app.progress());
        lobby_t += t.elapsed();
    }
    println!(
        "{moves} moves: game (handle + render) {:.3} ms/move, web layer (diff + deflate) {:.3} ms/move, lobby figures {:.3} ms/move, {} bytes/move",
        game_t.as_secs_f64() * 1000.0 / moves as f64,
        web_t.as_secs_f64() * 1000.0 / moves as f64,
        lobby_t.as_secs_f64() * 1000.0 / moves as f64,
        bytes / moves
    );
    let _ = std::fs::remove_dir_all(&dir);
}
