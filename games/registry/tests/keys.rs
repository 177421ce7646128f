//! How many key presses a player needs, measured with a scripted, human-like player that
//! uses the keys a player would (issue 31): `o` until the level is explored, `>` to travel
//! to the stairs and take them, `Tab` when a monster blocks the way, `Z` to rest when hurt
//! (where the game has it). It drives the real play screen (keys in, ticks until travel or
//! rest ends), so it measures the game as played.
//!
//! `cargo test -p alembic-rl-games --release --test keys -- --ignored --nocapture` prints,
//! for seeds 5 and 21, the presses to explore depth 1 and to reach depth 3 (`KEYS_TRACE=1`
//! prints every press and what it said). It needs only the play screen's public API, so
//! the same file measures an older build (a build without a rest key rests by not resting).
//! Alchemy plays on the shared session (`alembic_session::play`).

use alembic::Game;
use alembic_games::alchemy::ui::{self as alchemy_ui, ruleset::Alchemy};
use alembic_games::alchemy::{
    self, Rules,
    props::{HPS, HPS_MAX, IS_CREATURE, IS_HOSTILE},
    rules::hero,
};
use alembic_games::play::Session;
use alembic_ui::{App as _, Frame, Input, Key, ScreenStack};

/// The most presses before the scripted player gives up.
const MAX_PRESSES: u32 = 3_000;

/// What the scripted player reached, in presses (`None`: not within [`MAX_PRESSES`]).
#[derive(Debug, Default)]
struct Count {
    explored_depth_1: Option<u32>,
    reached_depth_3: Option<u32>,
}

fn depth(g: &Game) -> i32 {
    alchemy::view::summary(g).map_or(0, |s| s.depth)
}

fn hostile_in_view(g: &Game) -> bool {
    let Ok(h) = hero(g) else { return false };
    alchemy::view::visible(g).is_ok_and(|v| {
        v.iter()
            .flat_map(|l| g.things().at(l).iter().copied())
            .any(|t| t != h && g.is(t, &IS_CREATURE) && g.is(t, &IS_HOSTILE))
    })
}

fn hurt(g: &Game) -> bool {
    let Ok(h) = hero(g) else { return false };
    let (Ok(hp), Ok(max)) = (g.query(h, &HPS), g.query(h, &HPS_MAX)) else {
        return false;
    };
    hp * 2 < max
}

/// Press `input` and let travel, explore or rest run to its end.
fn press(app: &mut ScreenStack<Session<Alchemy>>, input: Input) {
    let _ = app.handle_input(input);
    let mut ticks = 0;
    while app.tick_interval().is_some() && ticks < 5_000 {
        let _ = app.tick();
        ticks += 1;
    }
}

/// The last line of the message rows at the top of the play screen: the last message, or
/// what the session said of the last key (a refusal, why a journey stopped).
fn last_line(app: &mut ScreenStack<Session<Alchemy>>) -> String {
    let mut f = Frame::new(100, 30);
    app.render(&mut f);
    f.to_text()
        .lines()
        .take(3)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .last()
        .unwrap_or_default()
        .to_owned()
}

fn play(seed: u64, mut rest_key: Option<char>) -> Count {
    let rules = Rules::new().expect("rules");
    let g = alchemy::new_game(seed, &rules).expect("game");
    let mut app = alchemy_ui::session_with_game(g, None, false, false).expect("app");
    let mut count = Count::default();
    let mut presses = 0;
    let mut stuck = 0u32;
    let mut fighting = false;
    let dirs = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    while presses < MAX_PRESSES {
        // A prompt (a --More--, a list): Enter, then Esc, as a player would.
        if app.names().last().is_some_and(|n| *n != "play") {
            if matches!(app.names().last(), Some(&("victory" | "death"))) {
                break;
            }
            let key = Key::Enter;
            presses += 1;
            press(&mut app, Input::key(key));
            if app.names().last().is_some_and(|n| *n != "play") {
                presses += 1;
                press(&mut app, Input::key(Key::Esc));
            }
            continue;
        }
        let g = app.ctx().game().clone();
        if alchemy::view::summary(&g).is_ok_and(|s| s.outcome.is_over()) {
            break;
        }
        let d = depth(&g);
        if d >= 3 {
            count.reached_depth_3 = Some(presses);
            break;
        }
        let said = last_line(&mut app);
        let key = if stuck >= 3 {
            // Going round in circles: a step by hand.
            stuck = 0;
            Input::ch(dirs[(presses as usize) % dirs.len()])
        } else if said.starts_with("Not with") || said.ends_with("is after you.") {
            Input::key(Key::Tab)
        } else if fighting && hostile_in_view(&g) {
            // Fighting on: Tab again while the foe is there.
            Input::key(Key::Tab)
        } else if hostile_in_view(&g) && said.starts_with("You see ") {
            Input::key(Key::Tab)
        } else if let Some(z) = rest_key.filter(|_| hurt(&g) && !hostile_in_view(&g)) {
            if said == "You feel rested." || said.starts_with("You are not hurt") {
                Input::ch('o')
            } else {
                Input::ch(z)
            }
        } else if d == 1 && count.explored_depth_1.is_none() {
            Input::ch('o')
        } else {
            Input::ch('>')
        };
        presses += 1;
        let turn = g.turn();
        let resting = rest_key.is_some_and(|z| key == Input::ch(z));
        press(&mut app, key);
        if std::env::var_os("KEYS_TRACE").is_some() {
            eprintln!(
                "{presses:>4} d{d} t{turn:>5} {key:?} -> {}",
                last_line(&mut app)
            );
        }
        if resting && last_line(&mut app).starts_with("Unknown key") {
            // This build has no rest key: that press did nothing and is not counted.
            rest_key = None;
            presses -= 1;
            continue;
        }
        if d == 1 && count.explored_depth_1.is_none() && last_line(&mut app) == "Done exploring." {
            count.explored_depth_1 = Some(presses);
        }
        let after = last_line(&mut app);
        fighting = key == Input::key(Key::Tab)
            && !after.starts_with("You know no way")
            && !after.starts_with("There is nothing in view you can fight");
        let moved = app.ctx().game().turn() != turn;
        stuck = if moved { 0 } else { stuck + 1 };
        // No stairs known yet (`>` travels only to stairs it knows): explore to find them.
        let said = last_line(&mut app);
        if said.starts_with("You know of no such stairs")
            || said.starts_with("There are no stairs down here")
        {
            presses += 1;
            press(&mut app, Input::ch('o'));
        }
    }
    count
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn presses_to_explore_depth_1_and_reach_depth_3() {
    for seed in [5, 21] {
        let c = play(seed, Some('Z'));
        println!(
            "seed {seed}: explored depth 1 in {:?} presses, reached depth 3 in {:?}",
            c.explored_depth_1, c.reached_depth_3
        );
        assert!(
            c.explored_depth_1.is_some(),
            "seed {seed}: depth 1 never explored"
        );
        assert!(
            c.reached_depth_3.is_some(),
            "seed {seed}: depth 3 never reached"
        );
    }
}
